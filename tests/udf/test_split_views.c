/* Split and partition of a borrowed string hand out views of its bytes (no allocation per
 * piece); of a managed string, copies. Differential test: for random strings (ASCII,
 * non-ASCII, empty pieces, separators at the ends, more separators than the one-byte fast
 * path keeps on the stack) and every separator and maxsplit, the pieces of a view, of a
 * managed copy and of the range kernel (the general walker) agree; a view's pieces lie inside
 * its bytes; nothing leaks. */
#include <stdlib.h>

#include "nrt/str.h"
#include "support/check.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rng(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}

static const char *const TOKENS[] = {"a", "bc", "\xc3\xa9", "\xe6\xbc\xa2", "\xf0\x9f\x98\x80",
                                     ",", ",", " ", "  ", "\xe2\x80\x83", ", ", "'", "\\"};
#define NTOKENS (sizeof TOKENS / sizeof TOKENS[0])

/* The pieces of l equal the ranges r of s; views (when borrowed) lie inside s[0..n). */
static void compare(const nrt_str_list *l, const char *s, int64_t n, const int64_t *r,
                    int64_t count, bool borrowed) {
  CHECK(l != NULL);
  if (!l)
    return;
  CHECK_EQ_INT(l->len, count);
  for (int64_t i = 0; i < l->len && i < count; i++) {
    const nrt_str *p = &l->items[i];
    CHECK(nrt_str_eq(p->data, p->len, s + r[2 * i], r[2 * i + 1] - r[2 * i]));
    if (borrowed)
      CHECK(p->mi == NULL && p->data >= s && p->data + p->len <= s + n);
  }
}

static void check_one(const char *s, int64_t n) {
  static const char *const SEPS[] = {NULL, ",", " ", ", ", "\xc3\xa9", "a"};
  char *copy_bytes = malloc(n ? (size_t)n : 1); /* exactly n bytes: ASan sees over-reads */
  memcpy(copy_bytes, s, (size_t)n);
  nrt_str view = nrt_str_view(copy_bytes, n), managed;
  CHECK_EQ_INT(nrt_str_new(s, n, &managed, NULL), NRT_OK);
  int64_t *r = malloc(sizeof(int64_t) * 2 * (size_t)(n + 2));
  for (size_t k = 0; k < sizeof SEPS / sizeof SEPS[0]; k++) {
    nrt_str sepv = SEPS[k] ? nrt_str_view(SEPS[k], (int64_t)strlen(SEPS[k])) : nrt_str_empty();
    const nrt_str *sep = SEPS[k] ? &sepv : NULL;
    for (int64_t maxsplit = -1; maxsplit <= 4; maxsplit++) {
      int64_t ms = maxsplit == 4 ? 1000 : maxsplit;
      for (int right = 0; right < 2; right++) {
        int64_t count = right ? nrt_str_rsplit_ranges(s, n, sep ? sep->data : NULL,
                                                       sep ? sep->len : 0, ms, r)
                              : nrt_str_split_ranges(s, n, sep ? sep->data : NULL,
                                                     sep ? sep->len : 0, ms, r);
        nrt_str_list *a = NULL, *b = NULL;
        int ra = right ? nrt_str_rsplit(&view, sep, ms, &a, NULL)
                       : nrt_str_split(&view, sep, ms, &a, NULL);
        int rb = right ? nrt_str_rsplit(&managed, sep, ms, &b, NULL)
                       : nrt_str_split(&managed, sep, ms, &b, NULL);
        CHECK_EQ_INT(ra, NRT_OK);
        CHECK_EQ_INT(rb, NRT_OK);
        compare(a, copy_bytes, n, r, count, true);
        compare(b, s, n, r, count, false);
        nrt_str_list_release(a);
        nrt_str_list_release(b);
      }
    }
    if (!sep)
      continue;
    for (int right = 0; right < 2; right++) {
      nrt_str_list *a = NULL, *b = NULL;
      CHECK_EQ_INT(right ? nrt_str_rpartition(&view, sep, &a, NULL)
                         : nrt_str_partition(&view, sep, &a, NULL),
                   NRT_OK);
      CHECK_EQ_INT(right ? nrt_str_rpartition(&managed, sep, &b, NULL)
                         : nrt_str_partition(&managed, sep, &b, NULL),
                   NRT_OK);
      for (int i = 0; a && b && i < 3; i++) {
        CHECK(nrt_str_eq(a->items[i].data, a->items[i].len, b->items[i].data,
                         b->items[i].len));
        nrt_str item;
        CHECK_EQ_INT(nrt_str_partition_item(&view, sep, right, i, &item, NULL), NRT_OK);
        CHECK(nrt_str_eq(item.data, item.len, b->items[i].data, b->items[i].len));
        if (i != 1) /* the separator itself is sep's */
          CHECK(item.mi == NULL && (item.len == 0 || (item.data >= copy_bytes &&
                                                       item.data + item.len <= copy_bytes + n)));
        nrt_str_release(&item);
      }
      nrt_str_list_release(a);
      nrt_str_list_release(b);
    }
  }
  nrt_str_release(&managed);
  free(r);
  free(copy_bytes);
}

/* A NUL separator (a valid one-byte character) is not the fast path's zero padding. */
static void check_nul_separator(void) {
  static const char s[] = {'a', 0, 'b', 'c', 0, 0, 'd', 'e', 'f', 'g', 'h', 'i', 'j', 0};
  nrt_str v = nrt_str_view(s, (int64_t)sizeof s), sep = nrt_str_view("\0", 1);
  nrt_str_list *l = NULL;
  CHECK_EQ_INT(nrt_str_split(&v, &sep, -1, &l, NULL), NRT_OK);
  static const char *const want[] = {"a", "bc", "", "defghij", ""};
  CHECK(l && l->len == 5);
  for (int i = 0; l && i < 5 && i < l->len; i++)
    CHECK(nrt_str_eq(l->items[i].data, l->items[i].len, want[i], (int64_t)strlen(want[i])));
  nrt_str_list_release(l);
  l = NULL;
  CHECK_EQ_INT(nrt_str_rsplit(&v, &sep, 1, &l, NULL), NRT_OK);
  CHECK(l && l->len == 2 && l->items[0].len == 13 && l->items[1].len == 0);
  nrt_str_list_release(l);
}

int main(void) {
  struct check_live before = check_live_now();
  static const char *const FIXED[] = {"", ",", ",,", "a,", ",a", "a,,b", " a b ", "\xc3\xa9,",
                                      ", , ", "abcdefgh,ijklmnop,", "a'b\\c"};
  for (size_t i = 0; i < sizeof FIXED / sizeof FIXED[0]; i++)
    check_one(FIXED[i], (int64_t)strlen(FIXED[i]));
  check_nul_separator();
  char buf[1024];
  int64_t cases = check_scale(3000);
  for (int64_t c = 0; c < cases; c++) {
    int tokens = (int)(rng() % (c % 10 == 0 ? 150 : 24));
    int64_t n = 0;
    for (int t = 0; t < tokens; t++) {
      const char *tok = TOKENS[rng() % NTOKENS];
      size_t l = strlen(tok);
      memcpy(buf + n, tok, l);
      n += (int64_t)l;
    }
    check_one(buf, n);
  }
  CHECK_NO_LEAK(before);
  return check_finish("test_split_views");
}
