/* Oracle test: nrt's conversions and padding against CPython (/usr/bin/python3, 3.11).
 * oracle_convert.py generates the cases (random int64 with extremes; doubles with
 * subnormals, +-0, inf, nan, powers of two, values around the 1e16 / 1e-4 repr thresholds;
 * int and float literals with whitespace, signs, prefixes, underscores, Unicode digits,
 * valid and invalid, exact halfway decimals; format specs; padding arguments) and CPython's
 * results; this program recomputes each with nrt and compares results, exception types and
 * messages exactly. Usage: test_str_convert_oracle ORACLE.py [COUNT] [SEED]. */
#define _POSIX_C_SOURCE 200809L /* popen, getline */
#include "nrt/str_convert.h"
#include "support/check.h"

#include <stdlib.h>
#include <string.h>

#ifdef NRT_UNDER_SANITIZER
#define DEFAULT_COUNT 20000
#else
#define DEFAULT_COUNT 220000
#endif

static long mismatches;

/* Decodes hex text in place; returns the byte count. */
static int64_t unhex(char *s) {
  int64_t n = 0;
  for (char *p = s; p[0] && p[1]; p += 2) {
    unsigned v;
    sscanf(p, "%2x", &v);
    s[n++] = (char)v;
  }
  s[n] = '\0';
  return n;
}

static const char *py_name(int code) {
  switch (code) {
  case NRT_EVALUE: return "ValueError";
  case NRT_ETYPE: return "TypeError";
  case NRT_EOVERFLOW: return "OverflowError";
  default: return nrt_status_name(code);
  }
}

/* What nrt produced for one case: a status, its message, and the result text. */
struct got {
  int rc;
  struct nrt_error err;
  char text[1 << 17]; /* a width in Unicode digits ("\u09ee\u0c69...") can be large */
  int64_t n;
};

static void report(const char *line, const struct got *g, const char *why) {
  if (++mismatches <= 20)
    fprintf(stderr, "MISMATCH (%s): %.300s  nrt: rc=%d msg=[%s] text=[%.*s]\n", why, line, g->rc,
            g->err.message, (int)(g->n > 200 ? 200 : g->n), g->text);
}

/* Compares nrt's outcome with the expected "ok:..." / "err:Type:hexmsg" field. */
static void compare(const char *line, char *expected, const struct got *g, const char *op) {
  if (strncmp(expected, "ok:", 3) == 0) {
    if (g->rc != NRT_OK) {
      report(line, g, "nrt failed");
      return;
    }
    char *want = expected + 3;
    if (!strcmp(op, "str_int") || !strcmp(op, "int") || !strcmp(op, "float") ||
        !strcmp(op, "ord")) {
      if (strcmp(want, g->text) != 0)
        report(line, g, "value");
      return;
    }
    int64_t wn = unhex(want);
    if (wn != g->n || memcmp(want, g->text, (size_t)wn) != 0)
      report(line, g, "text");
    return;
  }
  /* err:Type:hexmsg */
  char *type = expected + 4;
  char *colon = strchr(type, ':');
  *colon = '\0';
  char *msg = colon + 1;
  int64_t mn = unhex(msg);
  if (g->rc == NRT_OK || strcmp(py_name(g->rc), type) != 0) {
    report(line, g, "exception type");
    return;
  }
  if (!strcmp(op, "int") && !strcmp(type, "OverflowError")) {
    /* nrt's int64 limit (Python would return a big int): nrt's own message. */
    if (strncmp(g->err.message, "int() with base", 15) != 0)
      report(line, g, "overflow message");
    return;
  }
  size_t have = strlen(g->err.message);
  if ((int64_t)strlen(msg) < mn) /* a NUL in Python's message ends nrt's C string there */
    mn = (int64_t)strlen(msg);
  if (mn < NRT_ERROR_MESSAGE_SIZE) {
    if ((int64_t)have != mn || memcmp(g->err.message, msg, have) != 0)
      report(line, g, "message");
  } else if (have < 400 || memcmp(g->err.message, msg, have) != 0) {
    report(line, g, "long message prefix");
  }
}

static void run_case(char *line, char *copy) {
  strcpy(copy, line);
  char *fields[8];
  int nf = 0;
  for (char *tok = line; tok && nf < 8;) { /* split at tabs, keeping empty fields */
    fields[nf++] = tok;
    tok = strchr(tok, '\t');
    if (tok)
      *tok++ = '\0';
  }
  if (nf < 3 || strcmp(fields[nf - 2], "=") != 0) {
    fprintf(stderr, "bad oracle line: %s\n", copy);
    mismatches++;
    return;
  }
  const char *op = fields[0];
  char *expected = fields[nf - 1];
  static struct got g;
  memset(&g.err, 0, sizeof g.err);
  g.rc = NRT_OK;
  g.n = 0;
  g.text[0] = '\0';

  if (!strcmp(op, "str_int")) {
    int64_t v = strtoll(fields[1], NULL, 10);
    g.n = nrt_str_from_int64_into(v, g.text);
    g.text[g.n] = '\0';
    CHECK_EQ_INT(g.n, nrt_str_from_int64_size(v));
  } else if (!strcmp(op, "int")) {
    int64_t n = unhex(fields[1]);
    int64_t v = 0;
    g.rc = nrt_str_to_int64(fields[1], n, atoi(fields[2]), &v, &g.err);
    g.n = snprintf(g.text, sizeof g.text, "%lld", (long long)v);
  } else if (!strcmp(op, "float")) {
    int64_t n = unhex(fields[1]);
    double v = 0;
    g.rc = nrt_str_to_double(fields[1], n, &v, &g.err);
    uint64_t bits;
    memcpy(&bits, &v, 8);
    g.n = snprintf(g.text, sizeof g.text, "%016llx", (unsigned long long)bits);
  } else if (!strcmp(op, "repr")) {
    uint64_t bits = strtoull(fields[1], NULL, 16);
    double v;
    memcpy(&v, &bits, 8);
    g.n = nrt_str_from_double_into(v, g.text);
    CHECK_EQ_INT(g.n, nrt_str_from_double_size(v));
  } else if (!strcmp(op, "fmt_int") || !strcmp(op, "fmt_float")) {
    bool is_float = op[4] == 'f';
    int64_t iv = 0;
    double dv = 0;
    if (is_float) {
      uint64_t bits = strtoull(fields[1], NULL, 16);
      memcpy(&dv, &bits, 8);
    } else {
      iv = strtoll(fields[1], NULL, 10);
    }
    int64_t sn = unhex(fields[2]);
    nrt_format_spec f;
    g.rc = nrt_format_spec_parse(fields[2], sn, is_float ? NRT_FORMAT_FLOAT : NRT_FORMAT_INT,
                                 &f, &g.err);
    if (g.rc == NRT_OK) {
      int64_t size = 0;
      if (is_float)
        size = nrt_str_format_float_size(dv, &f);
      else
        g.rc = nrt_str_format_int_size(iv, &f, &size, &g.err);
      if (g.rc == NRT_OK) {
        if (size > (int64_t)sizeof g.text) {
          report(copy, &g, "output too long for the test");
          return;
        }
        g.n = is_float ? nrt_str_format_float_into(dv, &f, g.text)
                       : nrt_str_format_int_into(iv, &f, g.text);
        if (g.n != size)
          report(copy, &g, "size query");
      }
    }
  } else if (!strcmp(op, "ord")) {
    int64_t n = unhex(fields[1]), v = 0;
    g.rc = nrt_str_ord(fields[1], n, &v, &g.err);
    g.n = snprintf(g.text, sizeof g.text, "%lld", (long long)v);
  } else if (!strcmp(op, "chr")) {
    nrt_str s;
    g.rc = nrt_str_chr(strtoll(fields[1], NULL, 10), &s, &g.err);
    if (g.rc == NRT_OK) {
      memcpy(g.text, s.data, (size_t)s.len);
      g.n = s.len;
      nrt_str_release(&s);
    }
  } else if (!strcmp(op, "center") || !strcmp(op, "ljust") || !strcmp(op, "rjust")) {
    int64_t n = unhex(fields[1]), width = strtoll(fields[2], NULL, 10);
    int64_t fn = unhex(fields[3]);
    nrt_str in = nrt_str_view(fields[1], n), fill = nrt_str_view(fields[3], fn), s;
    int (*fnp)(const nrt_str *, int64_t, const nrt_str *, nrt_str *, struct nrt_error *) =
        op[0] == 'c' ? nrt_str_center : op[0] == 'l' ? nrt_str_ljust : nrt_str_rjust;
    g.rc = fnp(&in, width, &fill, &s, &g.err);
    if (g.rc == NRT_OK) {
      memcpy(g.text, s.data, (size_t)s.len);
      g.n = s.len;
      nrt_str_release(&s);
    }
  } else if (!strcmp(op, "zfill") || !strcmp(op, "expandtabs")) {
    int64_t n = unhex(fields[1]), arg = strtoll(fields[2], NULL, 10);
    nrt_str in = nrt_str_view(fields[1], n), s;
    g.rc = op[0] == 'z' ? nrt_str_zfill(&in, arg, &s, &g.err)
                        : nrt_str_expandtabs(&in, arg, &s, &g.err);
    if (g.rc == NRT_OK) {
      memcpy(g.text, s.data, (size_t)s.len);
      g.n = s.len;
      nrt_str_release(&s);
    }
  } else if (!strcmp(op, "removeprefix") || !strcmp(op, "removesuffix")) {
    int64_t n = unhex(fields[1]), an = unhex(fields[2]);
    nrt_str in = nrt_str_view(fields[1], n), affix = nrt_str_view(fields[2], an), s;
    g.rc = op[6] == 'p' ? nrt_str_removeprefix(&in, &affix, &s, &g.err)
                        : nrt_str_removesuffix(&in, &affix, &s, &g.err);
    if (g.rc == NRT_OK) {
      memcpy(g.text, s.data, (size_t)s.len);
      g.n = s.len;
      nrt_str_release(&s);
    }
  } else {
    fprintf(stderr, "unknown op in oracle line: %s\n", copy);
    mismatches++;
    return;
  }
  compare(copy, expected, &g, op);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s oracle_convert.py [count] [seed]\n", argv[0]);
    return 2;
  }
  long count = argc > 2 ? atol(argv[2]) : DEFAULT_COUNT;
  long seed = argc > 3 ? atol(argv[3]) : 20261121;
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 '%s' %ld %ld", argv[1], seed, count);
  FILE *p = popen(cmd, "r");
  CHECK(p != NULL);
  if (!p)
    return check_finish("test_str_convert_oracle");
  struct check_live before = check_live_now();
  char *line = NULL;
  size_t cap = 0;
  long cases = 0;
  ssize_t got;
  while ((got = getline(&line, &cap, p)) > 0) {
    if (line[got - 1] == '\n')
      line[got - 1] = '\0';
    char *copy = malloc((size_t)got + 1);
    run_case(line, copy);
    free(copy);
    cases++;
  }
  free(line);
  CHECK_EQ_INT(pclose(p), 0);
  CHECK_NO_LEAK(before);
  fprintf(stderr, "oracle: %ld cases, %ld mismatches\n", cases, mismatches);
  CHECK(cases >= count * 9 / 10); /* a surrogate result (format(0xD800, 'c')) is skipped */
  CHECK_EQ_INT(mismatches, 0);
  return check_finish("test_str_convert_oracle");
}
