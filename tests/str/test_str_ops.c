/* Unit tests of the str operations: Python's documented behaviour and edge cases, identity
 * results, allocation counts, error codes and messages. */
#include "nrt/str.h"
#include "nrt/unicode.h"
#include "str/str_internal.h"
#include "support/check.h"

#define V(lit) nrt_str_view(lit, (int64_t)sizeof(lit) - 1)
#define N NRT_STR_NONE

static uint64_t allocs(void) {
  struct nrt_stats st;
  nrt_stats_get(&st);
  return st.alloc;
}

/* CHECKs that r holds exactly the bytes of lit, then releases it. */
#define CHECK_STR(r, lit)                                                                   \
  do {                                                                                      \
    CHECK_EQ_INT((r).len, (int64_t)sizeof(lit) - 1);                                        \
    CHECK((r).len == (int64_t)sizeof(lit) - 1 && memcmp((r).data, lit, sizeof(lit) - 1) == 0); \
    nrt_str_release(&(r));                                                                  \
  } while (0)

static void test_len_compare(void) {
  CHECK_EQ_INT(nrt_str_len("", 0), 0);
  CHECK_EQ_INT(nrt_str_len("abc", 3), 3);
  const char *mixed = "h\xc3\xa9llo \xe6\xbc\xa2\xe5\xad\x97 \xf0\x9f\x98\x80 and a long ascii tail..";
  CHECK_EQ_INT(nrt_str_len(mixed, (int64_t)strlen(mixed)), 34);
  /* every length around the word-at-a-time paths, a multi-byte character at every place */
  char buf[80];
  int bad = 0;
  for (int n = 0; n < 70; n++)
    for (int at = 0; at + 3 <= n; at++) {
      memset(buf, 'x', (size_t)n);
      memcpy(buf + at, "\xe6\xbc\xa2", 3);
      bad += nrt_str_len(buf, n) != n - 2;
      bad += nrt_str_is_ascii_bytes(buf, n);
    }
  CHECK_EQ_INT(bad, 0);
  /* long strings: the 16-byte counters are summed every 255 steps */
  static char big[10 * 1000 + 7];
  int64_t bl = 0, cps = 0;
  while (bl + 10 <= (int64_t)sizeof big) {
    memcpy(big + bl, "a\xc3\xa9\xf0\x9f\x98\x80\xe6\xbc\xa2", 10);
    bl += 10;
    cps += 4;
  }
  for (int64_t cut = 0; cut < 40; cut += 10)
    CHECK_EQ_INT(nrt_str_len(big + cut, bl - cut), cps - cut / 10 * 4);
  CHECK(nrt_str_is_ascii_bytes("abc", 3));
  CHECK(!nrt_str_is_ascii_bytes(mixed, (int64_t)strlen(mixed)));
  CHECK(nrt_str_compare("a", 1, "b", 1) < 0);
  CHECK(nrt_str_compare("ab", 2, "a", 1) > 0);
  CHECK(nrt_str_compare("", 0, "", 0) == 0);
  CHECK(nrt_str_compare("\xc3\xa9", 2, "z", 1) > 0); /* U+00E9 > U+007A */
  CHECK(nrt_str_compare("\xef\xbf\xbd", 3, "\xf0\x9f\x98\x80", 4) < 0); /* BMP < astral */
  CHECK(nrt_str_eq("abc", 3, "abc", 3));
  CHECK(!nrt_str_eq("abc", 3, "abd", 3));
  CHECK(nrt_str_contains("abc", 3, "", 0));
  CHECK(nrt_str_contains("", 0, "", 0));
  CHECK(nrt_str_contains("abc", 3, "bc", 2));
  CHECK(!nrt_str_contains("abc", 3, "abcd", 4));
}

static void test_concat_repeat(void) {
  nrt_str a, b, r;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_str_new("ab", 2, &a, NULL), NRT_OK);
  b = V("c\xc3\xa9");
  CHECK_EQ_INT(nrt_str_concat(&a, &b, &r, NULL), NRT_OK);
  CHECK_STR(r, "abc\xc3\xa9");
  nrt_str e = nrt_str_empty();
  uint64_t n0 = allocs();
  CHECK_EQ_INT(nrt_str_concat(&a, &e, &r, NULL), NRT_OK); /* a itself */
  CHECK(r.mi == a.mi);
  CHECK_EQ_INT(nrt_mi_refcount(a.mi), 2);
  nrt_str_release(&r);
  CHECK_EQ_INT(nrt_str_concat(&e, &b, &r, NULL), NRT_OK); /* the view b itself */
  CHECK(r.data == b.data && r.mi == NULL);
  CHECK_EQ_INT(allocs() - n0, 0);

  CHECK_EQ_INT(nrt_str_repeat(&a, 3, &r, NULL), NRT_OK);
  CHECK_STR(r, "ababab");
  CHECK_EQ_INT(nrt_str_repeat(&a, 0, &r, NULL), NRT_OK);
  CHECK_EQ_INT(r.len, 0);
  CHECK_EQ_INT(nrt_str_repeat(&a, -5, &r, NULL), NRT_OK);
  CHECK_EQ_INT(r.len, 0);
  CHECK_EQ_INT(nrt_str_repeat(&a, 1, &r, NULL), NRT_OK);
  CHECK(r.mi == a.mi);
  nrt_str_release(&r);
  nrt_str x = V("x");
  CHECK_EQ_INT(nrt_str_repeat(&x, 7, &r, NULL), NRT_OK);
  CHECK_STR(r, "xxxxxxx");
  CHECK_EQ_INT(nrt_str_repeat(&a, INT64_MAX / 2, &r, &err), NRT_EOVERFLOW);
  CHECK_EQ_STR(err.message, "repeated string is too long");
  CHECK_EQ_INT(nrt_str_repeat(&e, INT64_MAX, &r, NULL), NRT_OK); /* "" * huge == "" */
  CHECK_EQ_INT(r.len, 0);
  nrt_str_release(&a);
}

/* r holds the bytes of lit (r is kept: CHECK_STR releases it). */
#define CHECK_BYTES(r, lit)                                                                 \
  CHECK((r).len == (int64_t)sizeof(lit) - 1 && memcmp((r).data, lit, sizeof(lit) - 1) == 0)

static void test_append_fit(void) {
  struct nrt_error err = {0};
  nrt_str a, b, r;
  nrt_str x = V("x\xc3\xa9"), e = nrt_str_empty();
  CHECK_EQ_INT(nrt_str_new("ab", 2, &a, NULL), NRT_OK);
  /* Appending to an exact string makes a buffer with room; the input is untouched. */
  CHECK_EQ_INT(nrt_str_append(&a, &x, &b, NULL), NRT_OK);
  CHECK_BYTES(b, "abx\xc3\xa9");
  CHECK(b.mi != a.mi && b.mi->size > (size_t)b.len + 9 && b.data[b.len] == '\0');
  CHECK_EQ_INT(*(const int64_t *)b.mi->data, b.len);
  CHECK_BYTES(a, "ab");
  nrt_str_release(&a);
  /* The sole holder of a buffer appends in place: the same block, no allocation. */
  uint64_t n0 = allocs();
  CHECK_EQ_INT(nrt_str_append(&b, &x, &r, NULL), NRT_OK);
  CHECK(r.mi == b.mi && r.data == b.data);
  CHECK_BYTES(r, "abx\xc3\xa9x\xc3\xa9");
  CHECK_EQ_INT(allocs() - n0, 0);
  CHECK_BYTES(b, "abx\xc3\xa9"); /* the bytes b had do not change */
  nrt_str_release(&b);
  b = r;
  /* Shared (refcount 2): a new buffer; both values keep their bytes and their NUL. */
  nrt_str c = b;
  nrt_str_retain(&c);
  CHECK_EQ_INT(nrt_str_append(&b, &x, &r, NULL), NRT_OK);
  CHECK(r.mi != b.mi && b.data[b.len] == '\0');
  CHECK_BYTES(r, "abx\xc3\xa9x\xc3\xa9x\xc3\xa9");
  nrt_str_release(&r);
  nrt_str_release(&c);
  /* A shorter value of a buffer that has grown since is never appended to in place. */
  nrt_str shorter = {b.mi, b.data, 2};
  nrt_str_retain(&shorter);
  nrt_str_release(&b);
  CHECK_EQ_INT(nrt_str_append(&shorter, &x, &r, NULL), NRT_OK);
  CHECK(r.mi != shorter.mi);
  CHECK_BYTES(r, "abx\xc3\xa9");
  nrt_str_release(&r);
  CHECK_BYTES(shorter, "ab");
  nrt_str_release(&shorter);
  /* Many appends of one byte: few blocks, and the result is right. */
  n0 = allocs();
  nrt_str one = V("z"), acc = nrt_str_empty();
  for (int i = 0; i < 1000; i++) {
    CHECK_EQ_INT(nrt_str_append(&acc, &one, &r, NULL), NRT_OK);
    nrt_str_release(&acc);
    acc = r;
  }
  CHECK(allocs() - n0 < 20);
  CHECK_EQ_INT(acc.len, 1000);
  CHECK(acc.data[0] == 'z' && acc.data[999] == 'z' && acc.data[1000] == '\0');
  /* fit: an exact copy of a buffer with room, anything else itself. */
  CHECK_EQ_INT(nrt_str_fit(&acc, &r, NULL), NRT_OK);
  CHECK(r.mi != acc.mi && r.mi->size == 1009 && r.len == 1000 && r.data[1000] == '\0');
  CHECK_EQ_INT(nrt_str_fit(&r, &b, NULL), NRT_OK);
  CHECK(b.mi == r.mi && nrt_mi_refcount(r.mi) == 2);
  nrt_str_release(&b);
  nrt_str_release(&r);
  CHECK_EQ_INT(nrt_str_fit(&x, &r, NULL), NRT_OK);
  CHECK(r.mi == NULL && r.data == x.data);
  /* Empty operands give the other operand itself, as concatenation does, except that a
   * buffer with room is copied: nothing but its owner ever holds it. */
  CHECK_EQ_INT(nrt_str_append(&acc, &e, &r, NULL), NRT_OK);
  CHECK(r.mi != acc.mi && r.len == 1000 && r.mi->size == 1009);
  nrt_str_release(&r);
  CHECK_EQ_INT(nrt_str_concat(&e, &acc, &r, NULL), NRT_OK);
  CHECK(r.mi != acc.mi && r.len == 1000 && r.mi->size == 1009);
  nrt_str_release(&r);
  CHECK_EQ_INT(nrt_str_append(&e, &x, &r, NULL), NRT_OK);
  CHECK(r.mi == NULL && r.data == x.data);
  nrt_str huge = {NULL, "", INT64_MAX / 4};
  CHECK_EQ_INT(nrt_str_append(&acc, &huge, &r, &err), NRT_EOVERFLOW);
  CHECK_EQ_STR(err.message, "strings are too large to concat");
  CHECK(r.mi == NULL && r.len == 0);
  nrt_str_release(&acc);
}

static void test_index_slice(void) {
  nrt_str s = V("h\xc3\xa9llo\xf0\x9f\x98\x80"); /* "héllo😀" */
  nrt_str r;
  struct nrt_error err = {0};
  uint64_t n0 = allocs();
  CHECK_EQ_INT(nrt_str_getitem(&s, 0, &r, NULL), NRT_OK);
  CHECK_STR(r, "h");
  CHECK_EQ_INT(allocs() - n0, 0); /* one ASCII character: static */
  CHECK_EQ_INT(nrt_str_getitem(&s, 1, &r, NULL), NRT_OK);
  CHECK(r.mi == NULL); /* U+00E9: static too */
  CHECK_STR(r, "\xc3\xa9");
  /* every static one-character string below U+0800 is right and NUL-terminated */
  int bad = 0;
  for (uint32_t cp = 0; cp < 0x800; cp++) {
    char enc[4] = {'x', (char)cp, 0, 0}; /* "x" + chr(cp): the result is not the input */
    int nb = 1;
    if (cp >= 0x80) {
      enc[1] = (char)(0xC0 | (cp >> 6));
      enc[2] = (char)(0x80 | (cp & 0x3F));
      nb = 2;
    }
    nrt_str two = nrt_str_view(enc, 1 + nb), got;
    bad += nrt_str_getitem(&two, 1, &got, NULL) != NRT_OK || got.mi != NULL || got.len != nb ||
           memcmp(got.data, enc + 1, (size_t)nb) != 0 || got.data[nb] != 0;
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(allocs() - n0, 0);
  CHECK_EQ_INT(nrt_str_getitem(&s, -1, &r, NULL), NRT_OK);
  CHECK_STR(r, "\xf0\x9f\x98\x80");
  CHECK_EQ_INT(nrt_str_getitem(&s, -6, &r, NULL), NRT_OK);
  CHECK_STR(r, "h");
  CHECK_EQ_INT(nrt_str_getitem(&s, 6, &r, &err), NRT_EINDEX);
  CHECK_EQ_STR(err.message, "string index out of range");
  CHECK_EQ_INT(nrt_str_getitem(&s, -7, &r, &err), NRT_EINDEX);
  nrt_str e = nrt_str_empty();
  CHECK_EQ_INT(nrt_str_getitem(&e, 0, &r, &err), NRT_EINDEX);

  CHECK_EQ_INT(nrt_str_slice(&s, 1, 3, N, &r, NULL), NRT_OK);
  CHECK_STR(r, "\xc3\xa9l");
  CHECK_EQ_INT(nrt_str_slice(&s, N, N, -1, &r, NULL), NRT_OK);
  CHECK_STR(r, "\xf0\x9f\x98\x80oll\xc3\xa9h");
  CHECK_EQ_INT(nrt_str_slice(&s, N, N, 2, &r, NULL), NRT_OK);
  CHECK_STR(r, "hlo");
  CHECK_EQ_INT(nrt_str_slice(&s, -2, N, N, &r, NULL), NRT_OK);
  CHECK_STR(r, "o\xf0\x9f\x98\x80");
  CHECK_EQ_INT(nrt_str_slice(&s, 100, -100, -1, &r, NULL), NRT_OK);
  CHECK_STR(r, "\xf0\x9f\x98\x80oll\xc3\xa9h");
  CHECK_EQ_INT(nrt_str_slice(&s, 3, 1, 1, &r, NULL), NRT_OK);
  CHECK_EQ_INT(r.len, 0);
  CHECK_EQ_INT(nrt_str_slice(&s, -100, 100, 1, &r, NULL), NRT_OK); /* whole: s itself */
  CHECK(r.data == s.data && r.len == s.len);
  CHECK_EQ_INT(nrt_str_slice(&s, 0, 6, INT64_MAX, &r, NULL), NRT_OK);
  CHECK_STR(r, "h");
  CHECK_EQ_INT(nrt_str_slice(&s, N, N, INT64_MIN + 1, &r, NULL), NRT_OK);
  CHECK_STR(r, "\xf0\x9f\x98\x80");
  CHECK_EQ_INT(nrt_str_slice(&s, 0, 1, 0, &r, &err), NRT_EVALUE);
  CHECK_EQ_STR(err.message, "slice step cannot be zero");
  CHECK_EQ_INT(nrt_str_slice_size(s.data, s.len, N, N, 0), -1);
  char buf[16];
  CHECK_EQ_INT(nrt_str_slice_size(s.data, s.len, N, N, -2), 7);
  CHECK_EQ_INT(nrt_str_slice_into(s.data, s.len, N, N, -2, buf), 7);
  CHECK(memcmp(buf, "\xf0\x9f\x98\x80l\xc3\xa9", 7) == 0);
}

static void test_search(void) {
  const char *s = "abcabc";
  CHECK_EQ_INT(nrt_str_find(s, 6, "bc", 2, N, N), 1);
  CHECK_EQ_INT(nrt_str_find(s, 6, "bc", 2, 2, N), 4);
  CHECK_EQ_INT(nrt_str_find(s, 6, "bc", 2, 2, 5), -1);
  CHECK_EQ_INT(nrt_str_find(s, 6, "bc", 2, -2, N), 4);
  CHECK_EQ_INT(nrt_str_rfind(s, 6, "bc", 2, N, N), 4);
  CHECK_EQ_INT(nrt_str_rfind(s, 6, "bc", 2, 0, 4), 1);
  CHECK_EQ_INT(nrt_str_find(s, 6, "", 0, N, N), 0);
  CHECK_EQ_INT(nrt_str_find(s, 6, "", 0, 6, N), 6);
  CHECK_EQ_INT(nrt_str_find(s, 6, "", 0, 7, N), -1);
  CHECK_EQ_INT(nrt_str_find("", 0, "", 0, 1, N), -1); /* "".find("", 1) == -1 */
  CHECK_EQ_INT(nrt_str_find("", 0, "", 0, 0, N), 0);
  CHECK_EQ_INT(nrt_str_rfind(s, 6, "", 0, N, N), 6);
  CHECK_EQ_INT(nrt_str_rfind(s, 6, "", 0, 2, 4), 4);
  CHECK_EQ_INT(nrt_str_find(s, 6, "", 0, -100, N), 0);
  /* non-ASCII: indices are code points */
  const char *u = "\xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80\xc3\xa9"; /* "été 😀é" */
  int64_t ul = (int64_t)strlen(u);
  CHECK_EQ_INT(nrt_str_find(u, ul, "\xc3\xa9", 2, 1, N), 2);
  CHECK_EQ_INT(nrt_str_rfind(u, ul, "\xc3\xa9", 2, N, N), 5);
  CHECK_EQ_INT(nrt_str_rfind(u, ul, "\xc3\xa9", 2, N, -1), 2);
  CHECK_EQ_INT(nrt_str_count(u, ul, "\xc3\xa9", 2, N, N), 3);
  CHECK_EQ_INT(nrt_str_count(u, ul, "", 0, N, N), 7);
  CHECK_EQ_INT(nrt_str_count(u, ul, "", 0, 2, 4), 3);
  CHECK_EQ_INT(nrt_str_count(u, ul, "", 0, 8, N), 0);
  CHECK_EQ_INT(nrt_str_count("aaaa", 4, "aa", 2, N, N), 2); /* non-overlapping */
  int64_t v;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_str_index(s, 6, "ca", 2, N, N, &v, NULL), NRT_OK);
  CHECK_EQ_INT(v, 2);
  CHECK_EQ_INT(nrt_str_index(s, 6, "x", 1, N, N, &v, &err), NRT_EVALUE);
  CHECK_EQ_STR(err.message, "substring not found");
  CHECK_EQ_INT(nrt_str_rindex(s, 6, "a", 1, N, N, &v, NULL), NRT_OK);
  CHECK_EQ_INT(v, 3);
  CHECK(nrt_str_startswith(s, 6, "ab", 2, N, N));
  CHECK(nrt_str_startswith(s, 6, "ca", 2, 2, N));
  CHECK(!nrt_str_startswith(s, 6, "ca", 2, 2, 3));
  CHECK(nrt_str_startswith(s, 6, "", 0, 6, N));
  CHECK(!nrt_str_startswith(s, 6, "", 0, 7, N)); /* start beyond the end */
  CHECK(nrt_str_endswith(s, 6, "bc", 2, N, N));
  CHECK(nrt_str_endswith(s, 6, "ca", 2, N, -2));
  nrt_str tuple[2] = {V("zz"), V("abc")};
  CHECK(nrt_str_startswith_any(s, 6, tuple, 2, N, N));
  CHECK(!nrt_str_startswith_any(s, 6, tuple, 1, N, N));
  CHECK(!nrt_str_endswith_any(s, 6, tuple, 0, N, N));
  CHECK(nrt_str_endswith_any(s, 6, tuple, 2, N, N));
}

/* Naive byte search, for the long-haystack paths (SSE2 filter, memmem for long needles). */
static int64_t naive_find(const char *h, int64_t hl, const char *n, int64_t nl, int rev) {
  int64_t best = -1;
  for (int64_t i = 0; i + nl <= hl; i++)
    if (memcmp(h + i, n, (size_t)nl) == 0) {
      best = i;
      if (!rev)
        break;
    }
  return best;
}

static void test_search_long(void) {
  static char hay[700], needle[50];
  uint64_t x = 12345;
  int bad = 0;
  for (int trial = 0; trial < 3000; trial++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    int hl = (int)((x >> 33) % 700), nl = 1 + (int)((x >> 20) % 45);
    int alpha = 2 + (int)((x >> 10) % 3); /* tiny alphabets: many near-matches */
    for (int i = 0; i < hl; i++) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      hay[i] = (char)('a' + (x >> 40) % (uint64_t)alpha);
    }
    for (int i = 0; i < nl; i++) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      needle[i] = (char)('a' + (x >> 40) % (uint64_t)alpha);
    }
    if (trial % 3 == 0 && hl > nl) /* plant the needle */
      memcpy(hay + (x >> 7) % (uint64_t)(hl - nl + 1), needle, (size_t)nl);
    bad += nrt_str_find(hay, hl, needle, nl, N, N) != naive_find(hay, hl, needle, nl, 0);
    bad += nrt_str_rfind(hay, hl, needle, nl, N, N) != naive_find(hay, hl, needle, nl, 1);
    bad += nrt_str_contains(hay, hl, needle, nl) != (naive_find(hay, hl, needle, nl, 0) >= 0);
  }
  CHECK_EQ_INT(bad, 0);
}

static void test_replace(void) {
  nrt_str s = V("abcabc"), r;
  nrt_str a = V("a"), x = V("XY"), e = nrt_str_empty(), dash = V("-");
  CHECK_EQ_INT(nrt_str_replace(&s, &a, &x, -1, &r, NULL), NRT_OK);
  CHECK_STR(r, "XYbcXYbc");
  CHECK_EQ_INT(nrt_str_replace(&s, &a, &x, 1, &r, NULL), NRT_OK);
  CHECK_STR(r, "XYbcabc");
  CHECK_EQ_INT(nrt_str_replace(&s, &a, &x, 0, &r, NULL), NRT_OK);
  CHECK(r.data == s.data); /* unchanged: s itself */
  nrt_str q = V("q");
  uint64_t n0 = allocs();
  CHECK_EQ_INT(nrt_str_replace(&s, &q, &x, -1, &r, NULL), NRT_OK);
  CHECK(r.data == s.data);
  CHECK_EQ_INT(allocs() - n0, 0);
  CHECK_EQ_INT(nrt_str_replace(&s, &e, &dash, -1, &r, NULL), NRT_OK);
  CHECK_STR(r, "-a-b-c-a-b-c-");
  CHECK_EQ_INT(nrt_str_replace(&s, &e, &dash, 2, &r, NULL), NRT_OK);
  CHECK_STR(r, "-a-bcabc");
  CHECK_EQ_INT(nrt_str_replace(&e, &e, &dash, -1, &r, NULL), NRT_OK);
  CHECK_STR(r, "-");
  nrt_str u = V("\xc3\xa9\xc3\xa9");
  CHECK_EQ_INT(nrt_str_replace(&u, &e, &dash, -1, &r, NULL), NRT_OK);
  CHECK_STR(r, "-\xc3\xa9-\xc3\xa9-");
  CHECK_EQ_INT(nrt_str_replace(&s, &s, &e, -1, &r, NULL), NRT_OK);
  CHECK_EQ_INT(r.len, 0);
  CHECK_EQ_INT(nrt_str_replace_size("aaa", 3, "a", 1, "bb", 2, -1), 6);
  /* Results no longer than s come from one pass into a block sized for one match, then
   * shortened: the payload's length, the NUL and an append after it must agree. */
  nrt_str d = V("x-y--z-"), plus = V("+"), two = V("--"), bang = V("!"), grown;
  CHECK_EQ_INT(nrt_str_replace(&d, &dash, &e, -1, &r, NULL), NRT_OK);
  CHECK(r.mi != NULL && nrt_str_from_meminfo(r.mi).len == 3 && r.data[3] == '\0');
  CHECK_EQ_INT(nrt_str_append(&r, &bang, &grown, NULL), NRT_OK);
  nrt_str_release(&r);
  CHECK_STR(grown, "xyz!");
  CHECK_EQ_INT(nrt_str_replace(&d, &dash, &e, 2, &r, NULL), NRT_OK);
  CHECK_STR(r, "xy-z-");
  CHECK_EQ_INT(nrt_str_replace(&d, &two, &plus, -1, &r, NULL), NRT_OK);
  CHECK_STR(r, "x-y+z-");
  nrt_str one = V("a---"), ee = V("\xc3\xa9--");
  CHECK_EQ_INT(nrt_str_replace(&one, &dash, &e, -1, &r, NULL), NRT_OK);
  CHECK(r.mi == NULL); /* one ASCII character: the static string, as for other results */
  CHECK_STR(r, "a");
  CHECK_EQ_INT(nrt_str_replace(&ee, &dash, &e, -1, &r, NULL), NRT_OK);
  CHECK_STR(r, "\xc3\xa9");
  CHECK_EQ_INT(nrt_str_replace(&d, &d, &e, -1, &r, NULL), NRT_OK);
  CHECK(r.len == 0 && r.mi == NULL);
}

/* The whitespace test of strip and split (with its range filter) is Python's str.isspace for
 * every code point. */
static void test_space_every_code_point(void) {
  long wrong = 0;
  for (uint32_t cp = 0; cp < 0x110000; cp++)
    wrong += nrt_str_is_space_cp(cp) != nrt_uc_is_space(cp);
  CHECK_EQ_INT(wrong, 0);
}

static void test_strip(void) {
  nrt_str r;
  nrt_str s = V(" \t\xe3\x80\x80 spam \xc2\x85\n");
  CHECK_EQ_INT(nrt_str_strip(&s, NULL, &r, NULL), NRT_OK);
  CHECK_STR(r, "spam");
  CHECK_EQ_INT(nrt_str_lstrip(&s, NULL, &r, NULL), NRT_OK);
  CHECK_STR(r, "spam \xc2\x85\n");
  CHECK_EQ_INT(nrt_str_rstrip(&s, NULL, &r, NULL), NRT_OK);
  CHECK_STR(r, " \t\xe3\x80\x80 spam");
  nrt_str w = V("www.example.com"), chars = V("cmowz."), none = nrt_str_empty();
  CHECK_EQ_INT(nrt_str_strip(&w, &chars, &r, NULL), NRT_OK);
  CHECK_STR(r, "example");
  CHECK_EQ_INT(nrt_str_strip(&w, &none, &r, NULL), NRT_OK); /* "" strips nothing */
  CHECK(r.data == w.data && r.len == w.len);
  nrt_str g = V("\xce\xa3x\xce\xa3"), sig = V("\xce\xa3");
  CHECK_EQ_INT(nrt_str_strip(&g, &sig, &r, NULL), NRT_OK);
  CHECK_STR(r, "x");
  nrt_str sp = V("   ");
  CHECK_EQ_INT(nrt_str_strip(&sp, NULL, &r, NULL), NRT_OK);
  CHECK_EQ_INT(r.len, 0);
  nrt_str zw = V("\xe2\x80\x8b"); /* U+200B is not whitespace */
  CHECK_EQ_INT(nrt_str_strip(&zw, NULL, &r, NULL), NRT_OK);
  CHECK_EQ_INT(r.len, 3);
}

static void check_list(nrt_str_list *l, int n, const char *const *want) {
  CHECK_EQ_INT(nrt_str_list_len(l), n);
  for (int i = 0; i < n && i < l->len; i++) {
    CHECK_EQ_INT(l->items[i].len, (int64_t)strlen(want[i]));
    CHECK(memcmp(l->items[i].data, want[i], strlen(want[i])) == 0);
  }
  nrt_str_list_release(l);
}

static void test_split(void) {
  nrt_str_list *l;
  struct nrt_error err = {0};
  nrt_str s = V("1,2,,3,");
  nrt_str comma = V(",");
  CHECK_EQ_INT(nrt_str_split(&s, &comma, -1, &l, NULL), NRT_OK);
  check_list(l, 5, (const char *const[]){"1", "2", "", "3", ""});
  CHECK_EQ_INT(nrt_str_split(&s, &comma, 1, &l, NULL), NRT_OK);
  check_list(l, 2, (const char *const[]){"1", "2,,3,"});
  CHECK_EQ_INT(nrt_str_rsplit(&s, &comma, 1, &l, NULL), NRT_OK);
  check_list(l, 2, (const char *const[]){"1,2,,3", ""});
  nrt_str w = V("  1  2 \xe2\x80\x83 3  ");
  CHECK_EQ_INT(nrt_str_split(&w, NULL, -1, &l, NULL), NRT_OK);
  check_list(l, 3, (const char *const[]){"1", "2", "3"});
  CHECK_EQ_INT(nrt_str_split(&w, NULL, 1, &l, NULL), NRT_OK);
  check_list(l, 2, (const char *const[]){"1", "2 \xe2\x80\x83 3  "});
  CHECK_EQ_INT(nrt_str_rsplit(&w, NULL, 1, &l, NULL), NRT_OK);
  check_list(l, 2, (const char *const[]){"  1  2", "3"});
  nrt_str e = nrt_str_empty();
  CHECK_EQ_INT(nrt_str_split(&e, NULL, -1, &l, NULL), NRT_OK);
  check_list(l, 0, NULL);
  CHECK_EQ_INT(nrt_str_split(&e, &comma, -1, &l, NULL), NRT_OK);
  check_list(l, 1, (const char *const[]){""});
  CHECK_EQ_INT(nrt_str_split(&s, &e, -1, &l, &err), NRT_EVALUE);
  CHECK_EQ_STR(err.message, "empty separator");
  CHECK(l == NULL);
  CHECK_EQ_INT(nrt_str_rsplit(&s, &e, -1, &l, &err), NRT_EVALUE);
  CHECK_EQ_INT(nrt_str_split_ranges(s.data, s.len, "", 0, -1, NULL), -1);
  CHECK_EQ_INT(nrt_str_rsplit_ranges(s.data, s.len, "", 0, 3, NULL), -1);
  int64_t rg[6];
  CHECK_EQ_INT(nrt_str_split_ranges(s.data, s.len, ",", 1, 2, rg), 3); /* "1","2",",3," */
  CHECK(rg[0] == 0 && rg[1] == 1 && rg[2] == 2 && rg[3] == 3 && rg[4] == 4 && rg[5] == 7);
  CHECK_EQ_INT(nrt_str_rsplit_ranges(s.data, s.len, ",", 1, 2, rg), 3); /* "1,2,","3","" */
  CHECK(rg[0] == 0 && rg[1] == 4 && rg[2] == 5 && rg[3] == 6 && rg[4] == 7 && rg[5] == 7);
  nrt_str one = V("abc");
  CHECK_EQ_INT(nrt_str_split(&one, NULL, -1, &l, NULL), NRT_OK);
  CHECK(l->items[0].data == one.data); /* the input itself */
  nrt_str_list_release(l);

  nrt_str lines = V("ab c\n\nde fg\rkl\r\n\x0bx\x0cy\x1cz\x1d\x1e\xc2\x85q\xe2\x80\xa8r\xe2\x80\xa9");
  CHECK_EQ_INT(nrt_str_splitlines(&lines, false, &l, NULL), NRT_OK);
  check_list(l, 12, (const char *const[]){"ab c", "", "de fg", "kl", "", "x", "y", "z", "", "",
                                          "q", "r"});
  nrt_str ln2 = V("ab c\n\nde fg\rkl\r\n");
  CHECK_EQ_INT(nrt_str_splitlines(&ln2, true, &l, NULL), NRT_OK);
  check_list(l, 4, (const char *const[]){"ab c\n", "\n", "de fg\r", "kl\r\n"});
  CHECK_EQ_INT(nrt_str_splitlines(&e, true, &l, NULL), NRT_OK);
  check_list(l, 0, NULL);

  nrt_str p = V("a=b=c"), eq = V("="), x = V("x");
  CHECK_EQ_INT(nrt_str_partition(&p, &eq, &l, NULL), NRT_OK);
  check_list(l, 3, (const char *const[]){"a", "=", "b=c"});
  CHECK_EQ_INT(nrt_str_rpartition(&p, &eq, &l, NULL), NRT_OK);
  check_list(l, 3, (const char *const[]){"a=b", "=", "c"});
  CHECK_EQ_INT(nrt_str_partition(&p, &x, &l, NULL), NRT_OK);
  check_list(l, 3, (const char *const[]){"a=b=c", "", ""});
  CHECK_EQ_INT(nrt_str_rpartition(&p, &x, &l, NULL), NRT_OK);
  check_list(l, 3, (const char *const[]){"", "", "a=b=c"});
  CHECK_EQ_INT(nrt_str_partition(&p, &e, &l, &err), NRT_EVALUE);
  CHECK_EQ_STR(err.message, "empty separator");
  CHECK_EQ_INT(nrt_str_rpartition(&p, &e, &l, &err), NRT_EVALUE);
  /* One item alone: the same strings as the tuples above. */
  static const char *const items[4][3] = {{"a", "=", "b=c"}, {"a=b", "=", "c"},
                                          {"a=b=c", "", ""}, {"", "", "a=b=c"}};
  for (int k = 0; k < 4; k++)
    for (int item = 0; item < 3; item++) {
      nrt_str r;
      CHECK_EQ_INT(nrt_str_partition_item(&p, k < 2 ? &eq : &x, k % 2 == 1, item, &r, NULL),
                   NRT_OK);
      CHECK(r.len == (int64_t)strlen(items[k][item]) &&
            memcmp(r.data, items[k][item], (size_t)r.len) == 0);
      nrt_str_release(&r);
    }
  nrt_str r;
  CHECK_EQ_INT(nrt_str_partition_item(&p, &e, false, 2, &r, &err), NRT_EVALUE);
  CHECK_EQ_STR(err.message, "empty separator");
  CHECK_EQ_INT(nrt_str_partition_item(&p, &eq, false, 3, &r, &err), NRT_EINVAL);
}

/* sep.join(s.split()) in one step equals the split and the join, on strings mixing ASCII,
 * two-, three- and four-byte characters with every kind of whitespace at every offset (the
 * eight-byte steps of the word scan end inside characters). */
static void test_join_words(void) {
  static const char *const pieces[] = {"a", "bc", "é", "ﬓ", "東京", "😀", " ", "  ", "\t",
                                       "\xc2\x85", "\xc2\xa0", "\xe3\x80\x80",
                                       "\xe2\x80\xa8", "\xe1\x9a\x80", "\xc2\xa9",
                                       "\xe2\x82\xac", "\x1c", "x\x01y"};
  static const char *const seps[] = {" ", "", "--", "é"};
  enum { NPIECES = sizeof pieces / sizeof pieces[0] };
  uint32_t state = 12345;
  char text[256];
  for (int t = 0; t < 4000; t++) {
    size_t len = 0;
    int n = (int)((state = state * 1103515245u + 12345u) >> 16) % 24;
    for (int k = 0; k < n; k++) {
      const char *piece = pieces[((state = state * 1103515245u + 12345u) >> 16) % NPIECES];
      size_t m = strlen(piece);
      memcpy(text + len, piece, m);
      len += m;
    }
    nrt_str s = nrt_str_view(text, (int64_t)len), got, want;
    nrt_str sep = nrt_str_view(seps[t % 4], (int64_t)strlen(seps[t % 4]));
    nrt_str_list *l = NULL;
    CHECK_EQ_INT(nrt_str_join_words(&sep, &s, &got, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_str_split(&s, NULL, -1, &l, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_str_join(&sep, l, &want, NULL), NRT_OK);
    if (got.len != want.len || memcmp(got.data, want.data, (size_t)got.len) != 0)
      check_failf(__FILE__, __LINE__, "join_words differs on case %d", t);
    nrt_str_release(&got);
    nrt_str_release(&want);
    nrt_str_list_release(l);
  }
}

static void test_list_join(void) {
  nrt_str_list *l;
  nrt_str r, sep = V(", ");
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_str_list_new(0, &l, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_str_join(&sep, l, &r, NULL), NRT_OK);
  CHECK_EQ_INT(r.len, 0);
  nrt_str a;
  CHECK_EQ_INT(nrt_str_new("alpha", 5, &a, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_str_list_append_copy(l, &a, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_str_join(&sep, l, &r, NULL), NRT_OK); /* one element: itself */
  CHECK(r.mi == a.mi);
  CHECK_EQ_INT(nrt_mi_refcount(a.mi), 3);
  nrt_str_release(&r);
  for (int i = 0; i < 20; i++) /* grows past the inline capacity */
    CHECK_EQ_INT(nrt_str_list_append(l, V("b"), NULL), NRT_OK);
  CHECK_EQ_INT(nrt_str_list_len(l), 21);
  CHECK_EQ_INT(nrt_str_list_get(l, -1, &r, NULL), NRT_OK);
  CHECK_STR(r, "b");
  CHECK_EQ_INT(nrt_str_list_get(l, 0, &r, NULL), NRT_OK);
  CHECK(r.mi == a.mi);
  nrt_str_release(&r);
  CHECK_EQ_INT(nrt_str_list_get(l, 21, &r, &err), NRT_EINDEX);
  CHECK_EQ_STR(err.message, "list index out of range");
  CHECK_EQ_INT(nrt_str_list_get(l, -22, &r, &err), NRT_EINDEX);
  nrt_str_list_release(l); /* releases a's reference held by the list */
  CHECK_EQ_INT(nrt_mi_refcount(a.mi), 1);
  nrt_str items[3] = {V("x"), V("\xc3\xa9"), V("")};
  CHECK_EQ_INT(nrt_str_join_array(&sep, items, 3, &r, NULL), NRT_OK);
  CHECK_STR(r, "x, \xc3\xa9, ");
  nrt_str e = nrt_str_empty();
  CHECK_EQ_INT(nrt_str_join_array(&e, items, 3, &r, NULL), NRT_OK);
  CHECK_STR(r, "x\xc3\xa9");
  nrt_str two[2] = {V("a"), V("")};
  uint64_t n0 = allocs();
  CHECK_EQ_INT(nrt_str_join_array(&e, two, 2, &r, NULL), NRT_OK);
  CHECK_STR(r, "a");
  CHECK_EQ_INT(allocs() - n0, 0);
  nrt_str_release(&a);
  CHECK_EQ_INT(nrt_str_list_new(-1, &l, &err), NRT_EINVAL);
}

/* One allocation per new string; no allocation for bool/int results. */
static void test_allocation_counts(void) {
  nrt_str s = V("hello world"), r, o = V("o"), zero = V("0");
  uint64_t n0 = allocs();
  (void)nrt_str_find(s.data, s.len, "o", 1, N, N);
  (void)nrt_str_count(s.data, s.len, "o", 1, 2, -1);
  (void)nrt_str_len(s.data, s.len);
  CHECK_EQ_INT(allocs() - n0, 0);
  CHECK_EQ_INT(nrt_str_replace(&s, &o, &zero, -1, &r, NULL), NRT_OK);
  CHECK_EQ_INT(allocs() - n0, 1);
  nrt_str_release(&r);
  nrt_str_list *l;
  n0 = allocs();
  CHECK_EQ_INT(nrt_str_split(&s, NULL, -1, &l, NULL), NRT_OK);
  CHECK_EQ_INT(allocs() - n0, 1); /* the list (items inline); the pieces view s's bytes */
  nrt_str_list_release(l);
  nrt_str m;
  CHECK_EQ_INT(nrt_str_new(s.data, s.len, &m, NULL), NRT_OK);
  n0 = allocs();
  CHECK_EQ_INT(nrt_str_split(&m, NULL, -1, &l, NULL), NRT_OK);
  CHECK_EQ_INT(allocs() - n0, 3); /* of a managed string: the list and two copies */
  nrt_str_list_release(l);
  nrt_str_release(&m);
}

int main(void) {
  struct check_live before = check_live_now();
  test_len_compare();
  test_concat_repeat();
  test_append_fit();
  test_index_slice();
  test_search();
  test_search_long();
  test_replace();
  test_strip();
  test_space_every_code_point();
  test_split();
  test_join_words();
  test_list_join();
  test_allocation_counts();
  CHECK_NO_LEAK(before);
  return check_finish("test_str_ops");
}
