/* The fused sorted(s.split(), key=len) (the split sorts its words as it finds them) and the
 * write form's sep.join(sorted(s.split(), key=len)) with no list, against the general path
 * (the words copied by a comprehension, then sorted by the stable key sort) on random rows:
 * 0 to 20 words of 0 to 18 bytes, ASCII and not, ASCII and Unicode whitespace between and
 * around them, many equal lengths (stability, also reversed), rows under and over the 32 bytes
 * of the short-row path. Both compiled forms; then every allocation failing in turn. */
#include <stdio.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf_trial.h"

static uint64_t rng = 0x9E3779B97F4A7C15u;
static unsigned next(unsigned n) { /* xorshift64*, deterministic */
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return (unsigned)((rng * 0x2545F4914F6CDD1Du) >> 33) % n;
}

static const char *const SPACES[] = {" ", " ", " ", "  ", "\t", "\n", "\x1c",
                                     "\xc2\xa0",      /* U+00A0 */
                                     "\xe3\x80\x80",  /* U+3000 */
                                     "\xe2\x80\x83"}; /* U+2003 */
static const char *const LETTERS[] = {"a", "b", "Z", "0", "\xc3\xa9", "\xce\xb1",
                                      "\xe6\xbc\xa2", "\xf0\x9f\x98\x80", "\xe2\x80\x8b"};

/* A random row in buf (at most 400 bytes). */
static void random_row(char *buf, int variety) {
  size_t n = 0;
  int words = (int)next(variety ? 21 : 5);
  bool ascii = next(3) != 0, plain = next(2) != 0;
  if (next(3) == 0)
    n += (size_t)sprintf(buf + n, "%s", SPACES[plain ? 0 : next(10)]);
  for (int w = 0; w < words; w++) {
    if (w)
      n += (size_t)sprintf(buf + n, "%s", SPACES[plain ? next(4) : next(10)]);
    int len = (int)(next(4) == 0 ? next(19) : 1 + next(5)); /* many equal lengths */
    for (int k = 0; k < len; k++)
      n += (size_t)sprintf(buf + n, "%s", LETTERS[ascii ? next(4) : next(9)]);
  }
  if (next(3) == 0)
    n += (size_t)sprintf(buf + n, "%s", SPACES[plain ? 0 : next(10)]);
  buf[n] = 0;
}

static nrt_column *apply(nrt_udf *u, nrt_column *in, bool value_form) {
  struct nrt_udf_apply_options ao;
  memset(&ao, 0, sizeof ao);
  ao.threads = 1;
  ao.value_form = value_form;
  nrt_column *out = NULL;
  struct nrt_error err = {0};
  int rc = nrt_udf_apply(u, &in, 1, &ao, &out, NULL, &err);
  if (rc != NRT_OK)
    fprintf(stderr, "apply failed: %s\n", err.message);
  CHECK_EQ_INT(rc, NRT_OK);
  return out;
}

/* The fused program and its general twin give the same rows, in both forms. */
static void differential(const char *fused, const char *general, nrt_column *in,
                         const char *const *rows, int n) {
  nrt_udf *f = udf_trial_compile(fused), *g = udf_trial_compile(general);
  CHECK(f != NULL && g != NULL);
  if (!f || !g)
    return;
  for (int form = 0; form < 2; form++) {
    nrt_column *a = apply(f, in, form == 1), *b = apply(g, in, form == 1);
    for (int64_t i = 0; a && b && i < n; i++) {
      nrt_str x, y;
      CHECK_EQ_INT(nrt_col_get_str(a, i, &x, NULL, NULL), NRT_OK);
      CHECK_EQ_INT(nrt_col_get_str(b, i, &y, NULL, NULL), NRT_OK);
      if (x.len != y.len || memcmp(x.data, y.data, (size_t)x.len) != 0) {
        fprintf(stderr, "%s (%s form), row %lld [%s]: [%.*s] vs [%.*s]\n", fused,
                form ? "value" : "write", (long long)i, rows[i], (int)x.len, x.data,
                (int)y.len, y.data);
        CHECK(false);
        break;
      }
    }
    nrt_col_release(a);
    nrt_col_release(b);
  }
  nrt_udf_free(f);
  nrt_udf_free(g);
}

enum { NROWS = 3000 };

int main(void) {
  struct check_live before = check_live_now();
  static char text[NROWS][512];
  static const char *rows[NROWS];
  for (int i = 0; i < NROWS; i++) {
    random_row(text[i], i % 2);
    rows[i] = text[i];
  }
  nrt_column *in = udf_trial_column(rows, NROWS);
  differential("def f(s):\n    return ' '.join(sorted(s.split(), key=len))\n",
               "def f(s):\n    return ' '.join(sorted([w for w in s.split()], key=len))\n", in,
               rows, NROWS);
  differential("def f(s):\n    return '--'.join(sorted(s.split(), key=len, reverse=True))\n",
               "def f(s):\n    return '--'.join(sorted([w for w in s.split()], key=len, "
               "reverse=True))\n",
               in, rows, NROWS);
  differential("def f(s):\n    return repr(sorted(s.split(), key=len))\n",
               "def f(s):\n    return repr(sorted([w for w in s.split()], key=len))\n", in, rows,
               NROWS);
  differential("def f(s):\n    return ' '.join(sorted(s.strip().split(), key=len))\n",
               "def f(s):\n    return ' '.join(sorted([w for w in s.strip().split()], "
               "key=len))\n",
               in, rows, NROWS);
  nrt_col_release(in);

  /* every allocation of an apply failing in turn: reported, nothing leaked */
  static const char *const FEW[] = {"  bb a ccc ", "", "a b c d e f", "é ü ßß",
                                    "a\xc2\xa0\x62 cc", "x y"};
  const char *progs[] = {"def f(s):\n    return ' '.join(sorted(s.split(), key=len))\n",
                         "def f(s):\n    return sorted(s.split(), key=len, reverse=True)\n"};
  for (int p = 0; p < 2; p++) {
    struct udf_trial t = {udf_trial_compile(progs[p]), udf_trial_column(FEW, 6), 1, 0, 6};
    CHECK(t.udf != NULL);
    udf_trial_every_failure(&t, progs[p]);
  }
  CHECK_NO_LEAK(before);
  return check_finish("test_udf_sortkey");
}
