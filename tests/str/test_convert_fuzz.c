/* libFuzzer harness for int(str), float(str), format-spec parsing and formatting, repr and
 * the padding kernels: never crashes (ASan/UBSan), size queries match what is written,
 * outputs are valid UTF-8, and values round-trip: int -> str -> int, float -> repr -> float
 * bit for bit. Built only with NRT_FUZZ. */
#include "nrt/str_convert.h"
#include "nrt/unicode.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(cond)                                                                      \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      fprintf(stderr, "fuzz_convert: %s failed at line %d\n", #cond, __LINE__);            \
      abort();                                                                             \
    }                                                                                      \
  } while (0)

static void require_utf8(const char *s, int64_t n) {
  REQUIRE(nrt_utf8_validate(s, (size_t)n, NULL, NULL) == NRT_OK);
}

static void int_round_trip(const char *s, int64_t n, int base) {
  int64_t v;
  struct nrt_error err = {0};
  if (nrt_str_to_int64(s, n, base, &v, &err) != NRT_OK) {
    REQUIRE(err.code == NRT_EVALUE || err.code == NRT_EOVERFLOW);
    return;
  }
  char buf[NRT_STR_INT64_MAX_BYTES];
  int64_t k = nrt_str_from_int64_into(v, buf);
  REQUIRE(k == nrt_str_from_int64_size(v));
  int64_t back;
  REQUIRE(nrt_str_to_int64(buf, k, 10, &back, NULL) == NRT_OK && back == v);
  REQUIRE(nrt_str_to_int64(buf, k, 0, &back, NULL) == NRT_OK && back == v);
}

static void float_round_trip(double v) {
  char buf[NRT_STR_DOUBLE_MAX_BYTES];
  int64_t k = nrt_str_from_double_into(v, buf);
  REQUIRE(k == nrt_str_from_double_size(v) && k <= NRT_STR_DOUBLE_MAX_BYTES);
  double back;
  REQUIRE(nrt_str_to_double(buf, k, &back, NULL) == NRT_OK);
  REQUIRE(isnan(v) ? isnan(back) : memcmp(&back, &v, sizeof v) == 0);
}

/* Formats with a parsed spec when the output is of reasonable size. */
static void format_checks(const char *spec, int64_t n, int64_t iv, double dv) {
  nrt_format_spec f;
  struct nrt_error err = {0};
  if (nrt_format_spec_parse(spec, n, NRT_FORMAT_INT, &f, &err) == NRT_OK && f.width < 100000 &&
      f.precision < 100000) {
    int64_t size;
    if (nrt_str_format_int_size(iv, &f, &size, &err) == NRT_OK) {
      char *out = (char *)malloc((size_t)size + 1);
      REQUIRE(out && nrt_str_format_int_into(iv, &f, out) == size);
      require_utf8(out, size);
      free(out);
    }
  }
  if (nrt_format_spec_parse(spec, n, NRT_FORMAT_FLOAT, &f, &err) == NRT_OK && f.width < 100000 &&
      f.precision < 100000) {
    int64_t size = nrt_str_format_float_size(dv, &f);
    char *out = (char *)malloc((size_t)size + 1);
    REQUIRE(out && nrt_str_format_float_into(dv, &f, out) == size);
    require_utf8(out, size);
    free(out);
  }
}

static void padding_checks(const char *s, int64_t n, int64_t width) {
  static char out[4 * 512 + 64];
  width %= 300;
  uint32_t fills[] = {' ', '*', 0xE9, 0x1F600};
  for (int i = 0; i < 4; i++) {
    int64_t k = nrt_str_center_size(s, n, width, fills[i]);
    if (k >= 0 && k < (int64_t)sizeof out) {
      REQUIRE(nrt_str_center_into(s, n, width, fills[i], out) == k);
      require_utf8(out, k);
    }
    k = nrt_str_ljust_size(s, n, width, fills[i]);
    if (k >= 0 && k < (int64_t)sizeof out)
      REQUIRE(nrt_str_ljust_into(s, n, width, fills[i], out) == k);
    k = nrt_str_rjust_size(s, n, width, fills[i]);
    if (k >= 0 && k < (int64_t)sizeof out)
      REQUIRE(nrt_str_rjust_into(s, n, width, fills[i], out) == k);
  }
  int64_t k = nrt_str_zfill_size(s, n, width);
  if (k >= 0 && k < (int64_t)sizeof out) {
    REQUIRE(nrt_str_zfill_into(s, n, width, out) == k);
    require_utf8(out, k);
  }
  int64_t tab = width % 9;
  k = nrt_str_expandtabs_size(s, n, tab);
  if (k >= 0 && k < (int64_t)sizeof out) {
    REQUIRE(nrt_str_expandtabs_into(s, n, tab, out) == k);
    require_utf8(out, k);
  }
  int64_t ord;
  struct nrt_error err = {0};
  if (nrt_str_ord(s, n, &ord, &err) == NRT_OK) {
    char c[4];
    REQUIRE(nrt_str_chr_into(ord, c) == n && memcmp(c, s, (size_t)n) == 0);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 4096)
    return 0;
  /* First byte: base and mode; the rest: the text (only valid UTF-8 reaches the kernels,
   * whose contract requires it). */
  int base = data[0] % 38 == 1 ? 0 : data[0] % 38;
  const char *s = (const char *)data + 1;
  int64_t n = (int64_t)size - 1;
  if (nrt_utf8_validate(s, (size_t)n, NULL, NULL) == NRT_OK) {
    int_round_trip(s, n, base);
    int_round_trip(s, n, 0);
    double v;
    struct nrt_error err = {0};
    if (nrt_str_to_double(s, n, &v, &err) == NRT_OK)
      float_round_trip(v);
    else
      REQUIRE(err.code == NRT_EVALUE);
    int64_t iv = 0;
    double dv = 0;
    if (n >= 8) {
      memcpy(&iv, s + n - 8, 8);
      memcpy(&dv, s + n - 8, 8);
    }
    format_checks(s, n, iv, dv);
    padding_checks(s, n, data[0]);
  }
  /* Any 8 bytes as a double: repr round-trips. */
  if (size >= 8) {
    double d;
    memcpy(&d, data, 8);
    float_round_trip(d);
  }
  return 0;
}
