/* sorted(s.split(), key=len) as one step (codegen_mlist.c fuses the two calls), and
 * sep.join(sorted(s.split(), key=len)) in the write form (codegen_write.c): for a short row
 * whose whitespace is ASCII, the words are read off split's bit mask, their lengths (in an
 * ASCII row their byte counts) are computed once, and they are sorted as integers before
 * anything is made: the list is filled once, in order, with views of the row, or the joined
 * words are written straight into the output row with no list at all. The common case (at most
 * four words) is sorted by a fixed network of min / max. Anything else takes the general path
 * (split, then the stable sort by len). */
#include <string.h>

#include "nrt/str.h"
#include "str/str_internal.h"
#include "str/str_short.h"
#include "udf/runtime.h"

/* A short row has at most this many words (NRT_SHORT_MAX bytes: a word and a space each). */
#define MAX_WORDS (NRT_SHORT_MAX / 2)

/* A word's sort key: its length (reverse: its distance below 64, so longer sorts first), then
 * its index, which keeps equal lengths in list order (a stable sort) and makes keys distinct. */
static inline uint64_t word_key(uint64_t len, uint64_t index, bool reverse) {
  return ((reverse ? 64 - len : len) << 8) | index;
}

/* len() of the word s[b, e): its byte count in an ASCII row, else its code points. */
static inline uint64_t word_len(const char *s, int64_t b, int64_t e, bool ascii) {
  return (uint64_t)(ascii ? e - b : nrt_str_len(s + b, e - b));
}

static inline void min_max(uint64_t *a, uint64_t *b) {
  uint64_t x = *a, y = *b;
  *a = x < y ? x : y;
  *b = x < y ? y : x;
}

/* The words of a row (bit mask `word` of its non-whitespace bytes) sorted by length, stable:
 * their byte ranges [b[k], e[k]) in sorted order. Returns the number of words. At most four:
 * always four ranges (b and e filled for four), the missing words empty with keys above every
 * real key (they sort last), a guard bit standing in for them in the masks. */
static int64_t sorted_words(const char *s, uint64_t word, bool ascii, bool reverse, int64_t *b,
                            int64_t *e) {
  uint64_t starts = word & ~(word << 1), ends = word & ~(word >> 1);
  int64_t count = nrt_short_popcount(starts), wb[MAX_WORDS], we[MAX_WORDS];
  uint64_t key[MAX_WORDS];
  if (count <= 4) {
    const uint64_t guard = (uint64_t)1 << 63;
    uint64_t st = starts | guard, en = ends | guard;
    for (int i = 0; i < 4; i++) {
      bool real = i < count;
      int64_t wb_i = __builtin_ctzll(st), we_i = __builtin_ctzll(en) + 1;
      wb[i] = real ? wb_i : 0; /* a missing word: empty, at the start of the row */
      we[i] = real ? we_i : 0;
      st = (st & (st - 1)) | guard;
      en = (en & (en - 1)) | guard;
      uint64_t len = word_len(s, wb[i], we[i], ascii); /* 0 for a missing word */
      key[i] = real ? word_key(len, (uint64_t)i, reverse) : UINT64_MAX;
    }
    /* in scalars: kept in registers (an array gets vector loads of keys just stored one by
     * one, which cannot be forwarded from the stores) */
    uint64_t k0 = key[0], k1 = key[1], k2 = key[2], k3 = key[3];
    min_max(&k0, &k1);
    min_max(&k2, &k3);
    min_max(&k0, &k2);
    min_max(&k1, &k3);
    min_max(&k1, &k2);
    b[0] = wb[k0 & 3], e[0] = we[k0 & 3];
    b[1] = wb[k1 & 3], e[1] = we[k1 & 3];
    b[2] = wb[k2 & 3], e[2] = we[k2 & 3];
    b[3] = wb[k3 & 3], e[3] = we[k3 & 3];
    return count;
  }
  for (int64_t i = 0; i < count; i++) { /* an insertion sort of the (distinct) keys */
    wb[i] = __builtin_ctzll(starts);
    we[i] = __builtin_ctzll(ends) + 1;
    starts &= starts - 1;
    ends &= ends - 1;
    uint64_t k = word_key(word_len(s, wb[i], we[i], ascii), (uint64_t)i, reverse);
    int64_t j = i;
    for (; j > 0 && key[j - 1] > k; j--)
      key[j] = key[j - 1];
    key[j] = k;
  }
  for (int64_t k = 0; k < count; k++) {
    int64_t i = (int64_t)(key[k] & 0xFF);
    b[k] = wb[i];
    e[k] = we[i];
  }
  return count;
}

int32_t nrt_udf_rt_split_sorted_len(struct nrt_error *err, const nrt_str *s, const nrt_str *sep,
                                    int64_t maxsplit, int32_t reverse, nrt_meminfo **out) {
  *out = NULL;
  uint64_t word;
  bool ascii;
  /* a view's pieces are views (a managed s gives managed pieces: the general path) */
  if (!sep && maxsplit < 0 && !s->mi &&
      nrt_str_split_ws_short_masks(s->data, s->len, &word, &ascii, NULL)) {
    int64_t b[MAX_WORDS], e[MAX_WORDS];
    int64_t count = sorted_words(s->data, word, ascii, reverse != 0, b, e);
    int64_t room = count <= 4 ? 4 : count; /* four: every slot is written */
    nrt_str_list *l;
    int rc = nrt_str_list_new(room, &l, err);
    if (rc != NRT_OK)
      return rc;
    for (int64_t k = 0; k < room; k++)
      l->items[k] = nrt_str_view(s->data + b[k], e[k] - b[k]);
    l->len = count;
    *out = l->mi;
    return NRT_OK;
  }
  int32_t rc = nrt_udf_rt_split(err, s, sep, maxsplit, out);
  if (rc == NRT_OK && (rc = nrt_udf_rt_mlist_sort_len(err, *out, reverse)) != NRT_OK) {
    nrt_mi_decref(*out);
    *out = NULL;
  }
  return rc;
}

int32_t nrt_udf_rt_write_join_sorted_words(struct nrt_error *err, nrt_col_row_writer *w,
                                           const nrt_str *sep, const nrt_str *s,
                                           int32_t reverse) {
  uint64_t word;
  bool ascii;
  unsigned char bytes[NRT_SHORT_MAX + 16]; /* the row, zero-padded: 16-byte moves of a word */
  if (!nrt_str_split_ws_short_masks(s->data, s->len, &word, &ascii, bytes)) {
    nrt_meminfo *list;
    int32_t rc = nrt_udf_rt_split_sorted_len(err, s, NULL, -1, reverse, &list);
    if (rc == NRT_OK) {
      rc = nrt_udf_rt_write_join(err, w, sep, list);
      nrt_mi_decref(list);
    }
    return rc;
  }
  memset(bytes + NRT_SHORT_MAX + 8, 0, 8);
  int64_t b[MAX_WORDS], e[MAX_WORDS];
  int64_t count = sorted_words(s->data, word, ascii, reverse != 0, b, e);
  if (count == 0)
    return NRT_OK;
  /* the words' bytes (one per set bit) and a separator between each two */
  int64_t total = nrt_short_popcount(word) + (count - 1) * sep->len;
  char *p = nrt_col_row_room(w, (size_t)total, err);
  if (!p)
    return nrt_udf_room_failed(err);
  bool spare = w->end - p >= total + 16; /* room for the last word's whole move */
  for (int64_t k = 0; k < count; k++) {
    if (k) {
      nrt_udf_copy_bytes(p, sep->data, sep->len);
      p += sep->len;
    }
    int64_t n = e[k] - b[k];
    if (spare && n <= 16)
      memcpy(p, bytes + b[k], 16); /* past the word: overwritten next, or spare room */
    else
      memcpy(p, bytes + b[k], (size_t)n);
    p += n;
  }
  w->pos = p;
  return NRT_OK;
}
