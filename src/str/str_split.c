/* split, rsplit, splitlines, partition, rpartition and join (see nrt/str.h).
 * One walker per operation reports the pieces through an emitter: the kernels collect byte
 * ranges, the managed forms count the pieces (so the list is allocated once, at its final
 * size) and then append the strings. */
#include "nrt/unicode.h"
#include "str/str_copy.h"
#include "str/str_internal.h"
#include "str/str_short.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

struct emitter {
  int (*emit)(struct emitter *e, int64_t b, int64_t end);
  int64_t count;
  int64_t *ranges;      /* range collector */
  const nrt_str *src;   /* list builder */
  nrt_str_list *list;
  struct nrt_error *err;
};

/* Piece s[b, b + n) of a split or partition: a view of a borrowed s (its bytes outlive the
 * list by the borrowed-view contract; no allocation per piece), else s itself or a copy. */
static int piece_of(const nrt_str *s, int64_t b, int64_t n, nrt_str *out,
                    struct nrt_error *err) {
  if (!s->mi) {
    *out = nrt_str_view(s->data + b, n);
    return NRT_OK;
  }
  return nrt_str_result_sub(s, s->data + b, n, out, err);
}

static int emit_count(struct emitter *e, int64_t b, int64_t end) {
  (void)b;
  (void)end;
  e->count++;
  return NRT_OK;
}

static int emit_range(struct emitter *e, int64_t b, int64_t end) {
  e->ranges[2 * e->count] = b;
  e->ranges[2 * e->count + 1] = end;
  e->count++;
  return NRT_OK;
}

static int emit_string(struct emitter *e, int64_t b, int64_t end) {
  nrt_str piece;
  int rc = piece_of(e->src, b, end - b, &piece, e->err);
  if (rc != NRT_OK)
    return rc;
  e->count++;
  return nrt_str_list_append(e->list, piece, e->err);
}

static bool is_space_at(const char *s, int64_t i, int *n) {
  unsigned char b = (unsigned char)s[i];
  if (b < 0x80) {
    *n = 1;
    return (b >= 0x09 && b <= 0x0D) || (b >= 0x1C && b <= 0x20);
  }
  return nrt_str_is_space_cp(nrt_u8_dec(s + i, n));
}

static bool is_space_before(const char *s, int64_t end, int *n) {
  unsigned char b = (unsigned char)s[end - 1];
  if (b < 0x80) {
    *n = 1;
    return (b >= 0x09 && b <= 0x0D) || (b >= 0x1C && b <= 0x20);
  }
  return nrt_str_is_space_cp(nrt_u8_dec_back(s, end, n));
}

static int walk_split(const char *s, int64_t len, const char *sep, int64_t seplen,
                      int64_t maxsplit, struct emitter *e) {
  int rc;
  if (maxsplit < 0)
    maxsplit = INT64_MAX;
  int64_t i = 0;
  int n;
  if (!sep) {
    while (maxsplit-- > 0) {
      while (i < len && is_space_at(s, i, &n))
        i += n;
      if (i == len)
        break;
      int64_t j = i;
      while (i + 8 <= len && !nrt_word_maybe_special(nrt_load64(s + i), 0x21))
        i += 8; /* eight ASCII non-space bytes */
      while (i < len && !is_space_at(s, i, &n))
        i += n;
      if ((rc = e->emit(e, j, i)) != NRT_OK)
        return rc;
    }
    if (i < len) {
      while (i < len && is_space_at(s, i, &n))
        i += n;
      if (i != len && (rc = e->emit(e, i, len)) != NRT_OK)
        return rc;
    }
    return NRT_OK;
  }
  while (maxsplit-- > 0) {
    const char *p = nrt_str_find_bytes(s + i, len - i, sep, seplen);
    if (!p)
      break;
    if ((rc = e->emit(e, i, p - s)) != NRT_OK)
      return rc;
    i = (p - s) + seplen;
  }
  return e->emit(e, i, len);
}

/* Emits the pieces last to first (the caller reverses them). */
static int walk_rsplit(const char *s, int64_t len, const char *sep, int64_t seplen,
                       int64_t maxsplit, struct emitter *e) {
  int rc;
  if (maxsplit < 0)
    maxsplit = INT64_MAX;
  int64_t i = len; /* end of the unprocessed prefix */
  int n;
  if (!sep) {
    while (maxsplit-- > 0) {
      while (i > 0 && is_space_before(s, i, &n))
        i -= n;
      if (i == 0)
        break;
      int64_t j = i;
      while (i >= 8 && !nrt_word_maybe_special(nrt_load64(s + i - 8), 0x21))
        i -= 8;
      while (i > 0 && !is_space_before(s, i, &n))
        i -= n;
      if ((rc = e->emit(e, i, j)) != NRT_OK)
        return rc;
    }
    if (i > 0) {
      while (i > 0 && is_space_before(s, i, &n))
        i -= n;
      if (i != 0 && (rc = e->emit(e, 0, i)) != NRT_OK)
        return rc;
    }
    return NRT_OK;
  }
  while (maxsplit-- > 0) {
    const char *p = nrt_str_rfind_bytes(s, i, sep, seplen);
    if (!p)
      break;
    if ((rc = e->emit(e, (p - s) + seplen, i)) != NRT_OK)
      return rc;
    i = p - s;
  }
  return e->emit(e, 0, i);
}

/* Line boundary starting at s[i]: its byte length, or 0 when s[i] starts no boundary. */
static int line_break_at(const char *s, int64_t len, int64_t i) {
  unsigned char b = (unsigned char)s[i];
  if (b < 0x80) {
    if (b == '\r')
      return i + 1 < len && s[i + 1] == '\n' ? 2 : 1;
    return (b >= 0x0A && b <= 0x0C) || (b >= 0x1C && b <= 0x1E) ? 1 : 0;
  }
  int n;
  uint32_t cp = nrt_u8_dec(s + i, &n);
  return nrt_uc_is_linebreak(cp) ? n : 0;
}

static int walk_splitlines(const char *s, int64_t len, bool keepends, struct emitter *e) {
  int64_t i = 0;
  while (i < len) {
    int64_t j = i;
    int brk = 0;
    for (;;) {
      while (i + 8 <= len && !nrt_word_maybe_special(nrt_load64(s + i), 0x1F))
        i += 8; /* no line boundary among eight ASCII bytes */
      if (i >= len || (brk = line_break_at(s, len, i)) != 0)
        break;
      i += nrt_u8_seqlen((unsigned char)s[i]);
    }
    int64_t eol = i;
    if (i < len)
      i += brk;
    int rc = e->emit(e, j, keepends ? i : eol);
    if (rc != NRT_OK)
      return rc;
  }
  return NRT_OK;
}

static void reverse_ranges(int64_t *r, int64_t n) {
  for (int64_t a = 0, b = n - 1; a < b; a++, b--) {
    int64_t t0 = r[2 * a], t1 = r[2 * a + 1];
    r[2 * a] = r[2 * b];
    r[2 * a + 1] = r[2 * b + 1];
    r[2 * b] = t0;
    r[2 * b + 1] = t1;
  }
}

static void collector(struct emitter *e, int64_t *ranges) {
  memset(e, 0, sizeof *e);
  e->emit = ranges ? emit_range : emit_count;
  e->ranges = ranges;
}

int64_t nrt_str_split_ranges(const char *s, int64_t len, const char *sep, int64_t seplen,
                             int64_t maxsplit, int64_t *ranges) {
  if (sep && seplen == 0)
    return -1; /* Python's ValueError: empty separator */
  struct emitter e;
  collector(&e, ranges);
  walk_split(s, len, sep, seplen, maxsplit, &e);
  return e.count;
}

int64_t nrt_str_rsplit_ranges(const char *s, int64_t len, const char *sep, int64_t seplen,
                              int64_t maxsplit, int64_t *ranges) {
  if (sep && seplen == 0)
    return -1; /* Python's ValueError: empty separator */
  struct emitter e;
  collector(&e, ranges);
  walk_rsplit(s, len, sep, seplen, maxsplit, &e);
  if (ranges)
    reverse_ranges(ranges, e.count);
  return e.count;
}

int64_t nrt_str_splitlines_ranges(const char *s, int64_t len, bool keepends, int64_t *ranges) {
  struct emitter e;
  collector(&e, ranges);
  walk_splitlines(s, len, keepends, &e);
  return e.count;
}

enum split_kind { SPLIT, RSPLIT, SPLITLINES };

/* Pieces remembered by the counting pass, so short strings are walked only once. */
#define SPLIT_STACK_PIECES 64

static int emit_count_keep(struct emitter *e, int64_t b, int64_t end) {
  if (e->count < SPLIT_STACK_PIECES) {
    e->ranges[2 * e->count] = b;
    e->ranges[2 * e->count + 1] = end;
  }
  e->count++;
  return NRT_OK;
}

static int walk(enum split_kind kind, const nrt_str *s, const char *sep, int64_t seplen,
                int64_t maxsplit, bool keepends, struct emitter *e) {
  return kind == SPLIT    ? walk_split(s->data, s->len, sep, seplen, maxsplit, e)
         : kind == RSPLIT ? walk_rsplit(s->data, s->len, sep, seplen, maxsplit, e)
                          : walk_splitlines(s->data, s->len, keepends, e);
}

/* Counts the pieces (remembering the first ones), allocates the list at its final size, then
 * fills it: from the remembered ranges, or by walking again for strings with many pieces. */
static int build_list(enum split_kind kind, const nrt_str *s, const char *sep, int64_t seplen,
                      int64_t maxsplit, bool keepends, nrt_str_list **out,
                      struct nrt_error *err) {
  int64_t ranges[2 * SPLIT_STACK_PIECES];
  struct emitter e;
  memset(&e, 0, sizeof e);
  e.emit = emit_count_keep;
  e.ranges = ranges;
  walk(kind, s, sep, seplen, maxsplit, keepends, &e);
  int64_t count = e.count;
  int rc = nrt_str_list_new(count, out, err);
  if (rc != NRT_OK)
    return rc;
  nrt_str_list *list = *out;
  if (count <= SPLIT_STACK_PIECES) {
    /* rsplit reported its pieces last to first: take them backwards. */
    for (int64_t k = 0; k < count && rc == NRT_OK; k++) {
      int64_t i = kind == RSPLIT ? count - 1 - k : k;
      nrt_str piece;
      rc = piece_of(s, ranges[2 * i], ranges[2 * i + 1] - ranges[2 * i], &piece, err);
      if (rc == NRT_OK)
        list->items[list->len++] = piece; /* within capacity */
    }
  } else {
    memset(&e, 0, sizeof e);
    e.emit = emit_string;
    e.src = s;
    e.list = list;
    e.err = err;
    rc = walk(kind, s, sep, seplen, maxsplit, keepends, &e);
    if (rc == NRT_OK && kind == RSPLIT) {
      nrt_str *it = list->items;
      for (int64_t a = 0, b = list->len - 1; a < b; a++, b--) {
        nrt_str t = it[a];
        it[a] = it[b];
        it[b] = t;
      }
    }
  }
  if (rc != NRT_OK) {
    nrt_str_list_release(list);
    *out = NULL;
  }
  return rc;
}

/* ---- Short strings (at most NRT_SHORT_MAX bytes): the pieces from bit masks of the cover,
 * one pass and no walker, no branch per byte. */

/* 0x80 in each byte of w that is ASCII whitespace (str.isspace: \t..\r, \x1c..space). */
static inline uint64_t ascii_space(uint64_t w) {
  return nrt_short_range(w, 0x09, 0x0D) | nrt_short_range(w, 0x1C, 0x20);
}

/* 0x80 in each byte of w that leads a non-ASCII whitespace character: C2 (U+0085, U+00A0),
 * E1 (U+1680), E2 (U+2000..U+200A, U+2028, U+2029, U+202F, U+205F), E3 (U+3000). */
static inline uint64_t space_lead(uint64_t w) {
  return nrt_short_eq(w, 0xC2) | nrt_short_eq(w, 0xE1) | nrt_short_eq(w, 0xE2) |
         nrt_short_eq(w, 0xE3);
}

/* 0x80 in each byte of w that may start a line boundary: \n..\r, \x1c..\x1e, or the lead
 * bytes of U+0085 (C2) and U+2028/U+2029 (E2). */
static inline uint64_t maybe_linebreak(uint64_t w) {
  return nrt_short_range(w, 0x0A, 0x0D) | nrt_short_range(w, 0x1C, 0x1E) |
         nrt_short_eq(w, 0xC2) | nrt_short_eq(w, 0xE2);
}

#if defined(__SSE2__)
/* 0xFF in each byte of v that is ASCII whitespace (\t..\r, \x1c..space: two ranges of five
 * values, tested as unsigned v - lo <= 4). */
static inline __m128i sse_space(__m128i v) {
  __m128i a = _mm_sub_epi8(v, _mm_set1_epi8(0x09)), b = _mm_sub_epi8(v, _mm_set1_epi8(0x1C));
  __m128i four = _mm_set1_epi8(4);
  return _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(a, four), a),
                      _mm_cmpeq_epi8(_mm_min_epu8(b, four), b));
}

/* 0xFF in each byte of v that leads a non-ASCII whitespace character (C2, E1..E3). */
static inline __m128i sse_space_lead(__m128i v) {
  __m128i e = _mm_sub_epi8(v, _mm_set1_epi8((char)0xE1));
  return _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xC2)),
                      _mm_cmpeq_epi8(_mm_min_epu8(e, _mm_set1_epi8(2)), e));
}
#endif

/* The ASCII whitespace of a short string's cover as a bit mask (bit i: byte i) in *ws; false
 * when the string may hold non-ASCII whitespace. With SSE2 the five words are tested as three
 * vectors (the zero padding is neither). */
static inline bool short_spaces(const struct nrt_short_cover *c, int64_t n, uint64_t *ws) {
#if defined(__SSE2__)
  __m128i v0 = _mm_set_epi64x((long long)c->w[1], (long long)c->w[0]);
  __m128i v1 = _mm_set_epi64x((long long)c->w[3], (long long)c->w[2]);
  __m128i vt = _mm_cvtsi64_si128((long long)c->tail);
  if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(sse_space_lead(v0), sse_space_lead(v1)),
                                     sse_space_lead(vt))))
    return false;
  *ws = (uint64_t)(unsigned)_mm_movemask_epi8(sse_space(v0)) |
        ((uint64_t)(unsigned)_mm_movemask_epi8(sse_space(v1)) << 16) |
        ((uint64_t)((unsigned)_mm_movemask_epi8(sse_space(vt)) & 0xFF) << (8 * (n >> 3)));
  return true;
#else
  if ((space_lead(c->w[0]) | space_lead(c->w[1]) | space_lead(c->w[2]) | space_lead(c->w[3]) |
       space_lead(c->tail)) != 0)
    return false;
  *ws = nrt_short_byte_mask(n, ascii_space(c->w[0]), ascii_space(c->w[1]), ascii_space(c->w[2]),
                            ascii_space(c->w[3]), ascii_space(c->tail));
  return true;
#endif
}

/* split / rsplit with sep None of a short string whose whitespace is all ASCII: the runs of
 * non-whitespace bytes are read off a bit mask. Returns false (nothing done) when the string
 * may hold non-ASCII whitespace; else the status is in *rc. */
static bool split_ws_short(const nrt_str *s, int64_t maxsplit, bool right, nrt_str_list **out,
                           struct nrt_error *err, int *rc) {
  int64_t n = s->len;
  struct nrt_short_cover c;
  nrt_short_cover_read(s->data, n, &c);
  uint64_t ws;
  if (!short_spaces(&c, n, &ws))
    return false;
  uint64_t word = ~ws & (((uint64_t)1 << n) - 1);
  uint64_t starts = word & ~(word << 1), ends = word & ~(word >> 1); /* first / last bytes */
  int64_t runs = nrt_short_popcount(starts);
  /* maxsplit reached before the last run: the rest of the string is one more piece (split:
   * from the start of its first run to the end; rsplit: from 0 to the end of its last run). */
  bool rest = maxsplit >= 0 && runs > maxsplit;
  int64_t pieces = rest ? maxsplit + 1 : runs;
  *rc = nrt_str_list_new(pieces, out, err);
  if (*rc != NRT_OK)
    return true;
  nrt_str *items = (*out)->items;
  for (int64_t k = 0; k < pieces; k++) {
    int64_t b, e, at;
    if (!right) {
      at = k;
      b = __builtin_ctzll(starts);
      e = rest && k == pieces - 1 ? n : __builtin_ctzll(ends) + 1;
      starts &= starts - 1;
      ends &= ends - 1;
    } else {
      at = pieces - 1 - k;
      int hb = 63 - __builtin_clzll(starts), he = 63 - __builtin_clzll(ends);
      b = rest && at == 0 ? 0 : hb;
      e = he + 1;
      starts &= ~((uint64_t)1 << hb);
      ends &= ~((uint64_t)1 << he);
    }
    *rc = piece_of(s, b, e - b, &items[at], err);
    if (*rc != NRT_OK) { /* release the pieces made, then the (empty) list */
      for (int64_t j = 0; j < k; j++)
        nrt_str_release(&items[right ? pieces - 1 - j : j]);
      nrt_str_list_release(*out);
      *out = NULL;
      return true;
    }
  }
  (*out)->len = pieces;
  return true;
}

bool nrt_str_split_ws_short_masks(const char *s, int64_t n, uint64_t *word, bool *ascii,
                                  unsigned char *bytes) {
  if (n > NRT_SHORT_MAX)
    return false;
  struct nrt_short_cover c;
  nrt_short_cover_read(s, n, &c);
  uint64_t ws;
  if (!short_spaces(&c, n, &ws))
    return false;
  *word = ~ws & (((uint64_t)1 << n) - 1);
  *ascii = ((c.w[0] | c.w[1] | c.w[2] | c.w[3] | c.tail) & NRT_SHORT_HIGH) == 0;
  if (bytes) { /* the words past the string are 0; the tail word goes over the first of them */
    memcpy(bytes, c.w, sizeof c.w);
    memset(bytes + sizeof c.w, 0, 8);
    memcpy(bytes + 8 * (n >> 3), &c.tail, 8);
  }
  return true;
}

/* splitlines of a short string without any line boundary: [s] ([] for ""). Returns false
 * (nothing done) when the string may hold one; else the status is in *rc. */
static bool splitlines_short(const nrt_str *s, nrt_str_list **out, struct nrt_error *err,
                             int *rc) {
  struct nrt_short_cover c;
  nrt_short_cover_read(s->data, s->len, &c);
  if ((maybe_linebreak(c.w[0]) | maybe_linebreak(c.w[1]) | maybe_linebreak(c.w[2]) |
       maybe_linebreak(c.w[3]) | maybe_linebreak(c.tail)) != 0)
    return false;
  int64_t pieces = s->len > 0;
  *rc = nrt_str_list_new(pieces, out, err);
  if (*rc == NRT_OK && pieces) {
    nrt_str_retain(s);
    (*out)->items[0] = *s;
    (*out)->len = 1;
  }
  return true;
}

/* split / rsplit by a one-byte (ASCII, not NUL) separator: the separators found eight bytes
 * at a time (a short row: one bit mask), their positions kept (up to SPLIT_STACK_PIECES - 1),
 * the list allocated once at its final size. Returns false (nothing done) for a string with
 * more separators; else the status is in *rc. */
static bool split_byte(const nrt_str *s, unsigned char sep, int64_t maxsplit, bool right,
                       nrt_str_list **out, struct nrt_error *err, int *rc) {
  if (sep == 0)
    return false; /* the zero padding of the last word would match */
  int64_t pos[SPLIT_STACK_PIECES - 1];
  int64_t found = 0, len = s->len, i = 0;
  const char *p = s->data;
  if (len <= NRT_SHORT_MAX) { /* a short row: one bit mask of its separators, no loop per word */
    struct nrt_short_cover c;
    nrt_short_cover_read(p, len, &c);
    uint64_t m = nrt_short_byte_mask(len, nrt_short_eq(c.w[0], sep), nrt_short_eq(c.w[1], sep),
                                     nrt_short_eq(c.w[2], sep), nrt_short_eq(c.w[3], sep),
                                     nrt_short_eq(c.tail, sep));
    for (; m; m &= m - 1)
      pos[found++] = __builtin_ctzll(m); /* at most 32 */
    i = len;
  }
  for (; i + 8 <= len; i += 8)
    for (uint64_t m = nrt_short_eq(nrt_load64(p + i), sep); m; m &= m - 1) {
      if (found == SPLIT_STACK_PIECES - 1)
        return false;
      pos[found++] = i + __builtin_ctzll(m) / 8;
    }
  if (i < len) { /* the last len % 8 bytes as one zero-extended word (sep is not 0) */
    uint64_t w = len >= 8 ? nrt_load64(p + len - 8) >> (8 * (8 - (len - i)))
                          : nrt_short_small((const unsigned char *)p, len);
    for (uint64_t m = nrt_short_eq(w, sep); m; m &= m - 1) {
      if (found == SPLIT_STACK_PIECES - 1)
        return false;
      pos[found++] = i + __builtin_ctzll(m) / 8;
    }
  }
  /* maxsplit keeps the first (rsplit: the last) separators */
  int64_t used = maxsplit >= 0 && maxsplit < found ? maxsplit : found;
  const int64_t *at = right ? pos + (found - used) : pos;
  *rc = nrt_str_list_new(used + 1, out, err);
  if (*rc != NRT_OK)
    return true;
  nrt_str *items = (*out)->items;
  for (int64_t k = 0; k <= used; k++) {
    int64_t b = k == 0 ? 0 : at[k - 1] + 1, e = k == used ? len : at[k];
    *rc = piece_of(s, b, e - b, &items[k], err);
    if (*rc != NRT_OK) { /* release the pieces made, then the (empty) list */
      for (int64_t j = 0; j < k; j++)
        nrt_str_release(&items[j]);
      nrt_str_list_release(*out);
      *out = NULL;
      return true;
    }
  }
  (*out)->len = used + 1;
  return true;
}

static int check_sep(const nrt_str *sep, nrt_str_list **out, struct nrt_error *err) {
  *out = NULL;
  if (sep && sep->len == 0)
    return nrt_error_set(err, NRT_EVALUE, "empty separator");
  return NRT_OK;
}

int nrt_str_split(const nrt_str *s, const nrt_str *sep, int64_t maxsplit, nrt_str_list **out,
                  struct nrt_error *err) {
  int rc = check_sep(sep, out, err);
  if (rc != NRT_OK)
    return rc;
  if (!sep && s->len <= NRT_SHORT_MAX && split_ws_short(s, maxsplit, false, out, err, &rc))
    return rc;
  if (sep && sep->len == 1 && split_byte(s, (unsigned char)sep->data[0], maxsplit, false, out,
                                         err, &rc))
    return rc;
  return build_list(SPLIT, s, sep ? sep->data : NULL, sep ? sep->len : 0, maxsplit, false, out,
                    err);
}

int nrt_str_rsplit(const nrt_str *s, const nrt_str *sep, int64_t maxsplit, nrt_str_list **out,
                   struct nrt_error *err) {
  int rc = check_sep(sep, out, err);
  if (rc != NRT_OK)
    return rc;
  if (!sep && s->len <= NRT_SHORT_MAX && split_ws_short(s, maxsplit, true, out, err, &rc))
    return rc;
  if (sep && sep->len == 1 && split_byte(s, (unsigned char)sep->data[0], maxsplit, true, out,
                                         err, &rc))
    return rc;
  return build_list(RSPLIT, s, sep ? sep->data : NULL, sep ? sep->len : 0, maxsplit, false,
                    out, err);
}

int nrt_str_splitlines(const nrt_str *s, bool keepends, nrt_str_list **out,
                       struct nrt_error *err) {
  *out = NULL;
  int rc;
  if (s->len <= NRT_SHORT_MAX && splitlines_short(s, out, err, &rc))
    return rc;
  return build_list(SPLITLINES, s, NULL, 0, 0, keepends, out, err);
}

/* Builds [s[0:b0], sep, s[b1:]]-style triples: three pieces given as (source, range). */
static int triple(const nrt_str *s, const nrt_str *sep, int64_t at, nrt_str_list **out,
                  struct nrt_error *err) {
  int rc = nrt_str_list_new(3, out, err);
  if (rc != NRT_OK)
    return rc;
  nrt_str head, tail;
  if (at < 0) { /* not found: the caller encodes the side in at (-1 left, -2 right) */
    nrt_str_retain(s);
    head = at == -1 ? *s : nrt_str_empty();
    tail = at == -1 ? nrt_str_empty() : *s;
    nrt_str_list_append(*out, head, NULL); /* within capacity: cannot fail */
    nrt_str_list_append(*out, nrt_str_empty(), NULL);
    nrt_str_list_append(*out, tail, NULL);
    return NRT_OK;
  }
  rc = piece_of(s, 0, at, &head, err);
  if (rc == NRT_OK) {
    rc = piece_of(s, at + sep->len, s->len - at - sep->len, &tail, err);
    if (rc != NRT_OK)
      nrt_str_release(&head);
  }
  if (rc != NRT_OK) {
    nrt_str_list_release(*out);
    *out = NULL;
    return rc;
  }
  nrt_str_list_append(*out, head, NULL);
  nrt_str_list_append_copy(*out, sep, NULL);
  nrt_str_list_append(*out, tail, NULL);
  return NRT_OK;
}

int nrt_str_partition(const nrt_str *s, const nrt_str *sep, nrt_str_list **out,
                      struct nrt_error *err) {
  int rc = check_sep(sep, out, err);
  if (rc != NRT_OK)
    return rc;
  const char *p = nrt_str_find_bytes(s->data, s->len, sep->data, sep->len);
  return triple(s, sep, p ? p - s->data : -1, out, err);
}

int nrt_str_rpartition(const nrt_str *s, const nrt_str *sep, nrt_str_list **out,
                       struct nrt_error *err) {
  int rc = check_sep(sep, out, err);
  if (rc != NRT_OK)
    return rc;
  const char *p = nrt_str_rfind_bytes(s->data, s->len, sep->data, sep->len);
  return triple(s, sep, p ? p - s->data : -2, out, err);
}

/* The end of the word that starts at i: the next whitespace character, or len. Eight bytes
 * at a time, only a byte that is ASCII whitespace or leads a non-ASCII whitespace character
 * (ascii_space, space_lead) needs a closer look; a step may end inside a character, whose
 * remaining bytes the last few bytes skip one by one. */
static int64_t word_end(const char *p, int64_t i, int64_t len) {
  int n;
  while (i < len) {
    if (i + 8 <= len) {
      uint64_t m = ascii_space(nrt_load64(p + i)) | space_lead(nrt_load64(p + i));
      if (!m) {
        i += 8;
        continue;
      }
      i += __builtin_ctzll(m) / 8; /* the first candidate: a character's first byte */
    } else if (((unsigned char)p[i] & 0xC0) == 0x80) {
      i++; /* the tail of a character the last eight-byte step ended inside */
      continue;
    }
    if (is_space_at(p, i, &n))
      return i;
    i += n;
  }
  return len;
}

/* One pass over the words of s (sep.join(s.split())): their bytes and count, and whether
 * the joined result is s itself (no space before the first word or after the last, and every
 * gap between two words exactly sep). */
static void measure_words(const nrt_str *sep, const nrt_str *s, int64_t *bytes, int64_t *words,
                          bool *same) {
  const char *p = s->data;
  int64_t len = s->len, i = 0, prev_end = -1;
  int n;
  *bytes = *words = 0;
  *same = true;
  for (;;) {
    int64_t gap = i;
    while (i < len && is_space_at(p, i, &n))
      i += n;
    if (i >= len) {
      if (gap != len || (prev_end < 0 && len > 0))
        *same = false; /* trailing space, or only space */
      return;
    }
    int64_t j = i;
    i = word_end(p, i, len);
    if (prev_end < 0 ? j != 0
                     : j - prev_end != sep->len || memcmp(p + prev_end, sep->data,
                                                          (size_t)sep->len) != 0)
      *same = false;
    *bytes += i - j;
    (*words)++;
    prev_end = i;
  }
}

int nrt_str_join_words(const nrt_str *sep, const nrt_str *s, nrt_str *out,
                       struct nrt_error *err) {
  *out = nrt_str_empty();
  int64_t bytes, words;
  bool same;
  measure_words(sep, s, &bytes, &words, &same);
  if (words == 0)
    return NRT_OK;
  if (same) {
    nrt_str_retain(s);
    nrt_str_copy(out, s);
    return NRT_OK;
  }
  if (sep->len && words - 1 > (NRT_STR_MAX_LEN - bytes) / sep->len)
    return nrt_error_set(err, NRT_EOVERFLOW, "join() result is too long for a Python string");
  char *w;
  int rc = nrt_str_alloc(bytes + (words - 1) * sep->len, out, &w, err);
  if (rc != NRT_OK)
    return rc;
  const char *p = s->data;
  int64_t len = s->len, i = 0;
  int n;
  for (int64_t k = 0; k < words; k++) {
    while (is_space_at(p, i, &n))
      i += n;
    int64_t j = i;
    i = word_end(p, i, len);
    if (k) {
      memcpy(w, sep->data, (size_t)sep->len);
      w += sep->len;
    }
    memcpy(w, p + j, (size_t)(i - j));
    w += i - j;
  }
  return NRT_OK;
}

int nrt_str_partition_item(const nrt_str *s, const nrt_str *sep, bool reverse, int item,
                           nrt_str *out, struct nrt_error *err) {
  *out = nrt_str_empty();
  if (item < 0 || item > 2)
    return nrt_error_set(err, NRT_EINVAL, "partition item %d is not 0, 1 or 2", item);
  if (sep->len == 0)
    return nrt_error_set(err, NRT_EVALUE, "empty separator");
  const char *p = reverse ? nrt_str_rfind_bytes(s->data, s->len, sep->data, sep->len)
                          : nrt_str_find_bytes(s->data, s->len, sep->data, sep->len);
  if (!p) { /* (s, '', '') from the left, ('', '', s) from the right */
    if (item == (reverse ? 2 : 0)) {
      nrt_str_retain(s);
      nrt_str_copy(out, s);
    }
    return NRT_OK;
  }
  if (item == 1) {
    nrt_str_retain(sep);
    nrt_str_copy(out, sep);
    return NRT_OK;
  }
  int64_t at = p - s->data;
  return item == 0 ? piece_of(s, 0, at, out, err)
                   : piece_of(s, at + sep->len, s->len - at - sep->len, out, err);
}

int nrt_str_join_array(const nrt_str *sep, const nrt_str *items, int64_t n, nrt_str *out,
                       struct nrt_error *err) {
  *out = nrt_str_empty();
  if (n <= 0)
    return NRT_OK;
  if (n == 1) {
    nrt_str_retain(&items[0]);
    *out = items[0];
    return NRT_OK;
  }
  int64_t total = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t add = items[i].len + (i ? sep->len : 0);
    if (add > NRT_STR_MAX_LEN - total)
      return nrt_error_set(err, NRT_EOVERFLOW, "join() result is too long for a Python string");
    total += add;
  }
  char *w;
  if (total <= 1) { /* "" or one ASCII character */
    char one[1];
    w = one;
    for (int64_t i = 0; i < n; i++) {
      if (i && sep->len) {
        memcpy(w, sep->data, (size_t)sep->len);
        w += sep->len;
      }
      if (items[i].len) {
        memcpy(w, items[i].data, (size_t)items[i].len);
        w += items[i].len;
      }
    }
    return nrt_str_make(one, total, out, err);
  }
  int rc = nrt_str_alloc(total, out, &w, err);
  if (rc != NRT_OK)
    return rc;
  for (int64_t i = 0; i < n; i++) {
    if (i && sep->len) {
      memcpy(w, sep->data, (size_t)sep->len);
      w += sep->len;
    }
    memcpy(w, items[i].data, (size_t)items[i].len);
    w += items[i].len;
  }
  return NRT_OK;
}

int nrt_str_join(const nrt_str *sep, const nrt_str_list *list, nrt_str *out,
                 struct nrt_error *err) {
  return nrt_str_join_array(sep, list->items, list->len, out, err);
}
