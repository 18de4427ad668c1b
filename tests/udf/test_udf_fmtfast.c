/* The write form's fast padded fields (src/udf/runtime_write_fast.c) against the general
 * paths, byte for byte: strings (ASCII, non-ASCII, every length up to past the fast limit)
 * under every alignment, ASCII and multi-byte fills, widths below, at and above the length
 * and past the fast limit, with the code-point count given or not; ints of every digit count
 * and sign under decimal specs. The references are the value form's format(s, spec)
 * (nrt_udf_rt_format_str) and the str layer's format(n, spec) (nrt_str_format_int); the
 * same write with a row too tight for the fast path takes the general write path. */
#include <stdio.h>
#include <string.h>

#include "nrt/str.h"
#include "nrt/str_convert.h"
#include "support/check.h"
#include "udf/runtime.h"

#define BIG 1024
#if defined(__SSE2__)
#define FAST_STR 32 /* the fast paths' limits (runtime_write_fast.c) */
#else
#define FAST_STR 16
#endif

/* Writes format(s, f) into buf through a row writer of `room` bytes, asking for the count
 * into *chars when chars is not NULL; the bytes written, or -1 on an error. */
static int64_t write_str(const char *s, int64_t len, int64_t *chars,
                         const struct nrt_udf_str_spec *f, char *buf, size_t room) {
  nrt_col_row_writer w = {buf, buf + room, buf, NULL};
  struct nrt_error err = {0};
  int rc = chars ? nrt_udf_rt_write_str_spec_n(&err, &w, s, len, chars, f)
                 : nrt_udf_rt_write_str_spec(&err, &w, s, len, f);
  return rc ? -1 : w.pos - buf;
}

static bool same(const char *a, int64_t alen, const nrt_str *b) {
  return alen == b->len && memcmp(a, b->data, (size_t)alen) == 0;
}

static int failures_shown;
static void show(const char *what, const char *s, int64_t len, const char *spec) {
  if (failures_shown++ < 10)
    fprintf(stderr, "%s differs: '%.*s' spec '%s'\n", what, (int)len, s, spec);
}

static void check_str(const char *s, int64_t len, const char *spec) {
  struct nrt_udf_str_spec f;
  memset(&f, 0, sizeof f);
  if (nrt_udf_parse_str_spec(spec, (int64_t)strlen(spec), &f, NULL) != NRT_OK) {
    CHECK(0);
    return;
  }
  nrt_str in = nrt_str_view(s, len), want;
  struct nrt_error err = {0};
  if (nrt_udf_rt_format_str(&err, &in, spec, (int64_t)strlen(spec), &want) != NRT_OK) {
    CHECK(0);
    return;
  }
  static char big[BIG + 64], tight[BIG + 64];
  int64_t chars = nrt_str_len(s, len);
  bool ok = true;
  for (int counted = 0; counted < 2; counted++) {
    int64_t got = -2, *gotp = counted ? &got : NULL;
    int64_t n = write_str(s, len, gotp, &f, big, BIG);
    if (!same(big, n, &want) || (counted && got != chars))
      ok = false, show("fast write", s, len, spec);
    /* exactly the result's room: the fast path declines, the general path fills it exactly */
    memset(tight, '#', sizeof tight);
    got = -2;
    n = write_str(s, len, gotp, &f, tight, (size_t)want.len);
    if (!same(tight, n, &want) || tight[want.len] != '#' || (counted && got != chars))
      ok = false, show("general write", s, len, spec);
  }
  /* the fast path is taken where it promises to be */
  nrt_col_row_writer w = {big, big + BIG, big, NULL};
  bool eligible = len <= (FAST_STR) && f.filllen == 1 && f.prec < 0 && f.width <= 64;
  if (nrt_udf_write_str_fast(&w, s, len, NULL, &f) != eligible)
    ok = false, show("fast path eligibility", s, len, spec);
  CHECK(ok);
  nrt_str_release(&want);
}

static void strings(void) {
  /* prefixes on code-point boundaries of ASCII, mixed and 4-byte text, up to 40+ bytes */
  static const char *const bases[] = {
      "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH", "é漢😀aé漢😀bé漢😀cxyz", "😀😀😀😀😀😀😀😀😀😀😀",
      "a\u0301bcdééééééééééééééééééé"};
  static const char *const fills[] = {"", "*", "0", "é", "漢", " "};
  static const char *const aligns[] = {"", "<", ">", "^"};
  int cases = 0;
  for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++) {
    const char *s = bases[b];
    int64_t total = (int64_t)strlen(s);
    for (int64_t len = 0; len <= total; len++) {
      if (len < total && ((unsigned char)s[len] & 0xC0) == 0x80)
        continue; /* not a code-point boundary */
      for (size_t fi = 0; fi < sizeof fills / sizeof fills[0]; fi++)
        for (size_t ai = 0; ai < sizeof aligns / sizeof aligns[0]; ai++)
          for (int width = -1; width <= 70; width += (width < 24 || width > 60 ? 1 : 3)) {
            char spec[32];
            if (!*aligns[ai] && *fills[fi] && strcmp(fills[fi], "0") != 0)
              continue; /* a fill needs an alignment */
            if (width < 0)
              snprintf(spec, sizeof spec, "%s%s", fills[fi], aligns[ai]);
            else if (!*aligns[ai] && strcmp(fills[fi], "0") == 0)
              snprintf(spec, sizeof spec, "0%d", width); /* the '0' flag */
            else
              snprintf(spec, sizeof spec, "%s%s%d", fills[fi], aligns[ai], width);
            if (!spec[0])
              continue;
            check_str(s, len, spec);
            cases++;
          }
    }
  }
  CHECK(cases > 10000);
}

static void check_int(int64_t v, const char *spec) {
  nrt_format_spec f;
  memset(&f, 0, sizeof f);
  if (nrt_format_spec_parse(spec, (int64_t)strlen(spec), NRT_FORMAT_INT, &f, NULL) != NRT_OK) {
    CHECK(0);
    return;
  }
  nrt_str want;
  struct nrt_error err = {0};
  if (nrt_str_format_int(v, spec, (int64_t)strlen(spec), &want, &err) != NRT_OK) {
    CHECK(0);
    return;
  }
  static char big[BIG + 64];
  nrt_col_row_writer w = {big, big + BIG, big, NULL};
  bool ok = nrt_udf_rt_write_int_spec(&err, &w, v, &f) == NRT_OK && same(big, w.pos - big, &want);
  if (!ok && failures_shown++ < 10)
    fprintf(stderr, "int write differs: %lld spec '%s'\n", (long long)v, spec);
  w.pos = big;
  bool eligible = (f.type == 0 || f.type == 'd') && !f.empty && !f.thousands && !f.alternate &&
                  (!f.sign || f.sign == '-') && f.fill < 0x80 && f.width <= 64 &&
                  v > -100000000 && v < 100000000;
  if (nrt_udf_write_int_fast(&w, v, &f) != eligible)
    ok = false, show("int fast path eligibility", spec, (int64_t)strlen(spec), spec);
  CHECK(ok);
  nrt_str_release(&want);
}

static void ints(void) {
  static const char *const specs[] = {
      "",    "d",    "04d",  ">6",   "<3d",  "^7",   "=8",   "*^9",   "0=12", "0<12", "0^12",
      "0>12", "064d", "065d", "x>64", "x<65", "-5",   "1",    "20",    "21",   "=21",  "^64",
      "+05d", " 6",  ",",    "_>9x", "#o",   "é^9",  "0",    "00",    "-",    "<",    "b"};
  int64_t values[200];
  int n = 0;
  for (int64_t k = 0, p = 1; k < 19; k++, p = k < 19 ? p * 10 : p) {
    /* every digit count, at and around powers of ten */
    values[n++] = p;
    values[n++] = p - 1;
    values[n++] = -p;
    values[n++] = -(p - 1);
    values[n++] = p + 7;
  }
  values[n++] = INT64_MAX;
  values[n++] = INT64_MIN;
  values[n++] = INT64_MIN + 1;
  uint64_t x = 0x9E3779B97F4A7C15u;
  while (n < 200) { /* and random ones */
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    values[n++] = (int64_t)(x >> (x & 63));
  }
  for (int i = 0; i < n; i++)
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++)
      check_int(values[i], specs[s]);
}

int main(void) {
  strings();
  ints();
  return check_finish("test_udf_fmtfast");
}
