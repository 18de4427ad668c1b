/* Reads the strings and CPython results written by oracle_case.py and checks nrt's case
 * mapping kernels (_size, _into and _into_padded), their managed wrappers (over managed and
 * borrowed inputs) and the predicates against them. Usage: test_str_case_oracle DATA_FILE */
#include <stdlib.h>

#include "nrt/str.h"
#include "nrt/unicode.h"
#include "support/check.h"

typedef int64_t (*size_fn)(const char *, int64_t);
typedef int64_t (*into_fn)(const char *, int64_t, char *);
typedef int (*managed_fn)(const nrt_str *, nrt_str *, struct nrt_error *);
typedef bool (*pred_fn)(const char *, int64_t);

static const struct {
  const char *name;
  size_fn size;
  into_fn into;
  into_fn into_padded;
  managed_fn managed;
} mappings[] = {
#define MAPPING(name)                                                                          \
  {#name, nrt_str_##name##_size, nrt_str_##name##_into, nrt_str_##name##_into_padded,         \
   nrt_str_##name}
    MAPPING(upper), MAPPING(lower), MAPPING(casefold),
    MAPPING(capitalize), MAPPING(title), MAPPING(swapcase),
#undef MAPPING
};
#define NMAP (sizeof mappings / sizeof mappings[0])

static const struct {
  const char *name;
  pred_fn fn;
} predicates[] = {
    {"isalpha", nrt_str_isalpha},       {"isalnum", nrt_str_isalnum},
    {"isdecimal", nrt_str_isdecimal},   {"isdigit", nrt_str_isdigit},
    {"isnumeric", nrt_str_isnumeric},   {"isspace", nrt_str_isspace},
    {"isupper", nrt_str_isupper},       {"islower", nrt_str_islower},
    {"istitle", nrt_str_istitle},       {"isascii", nrt_str_isascii},
    {"isidentifier", nrt_str_isidentifier}, {"isprintable", nrt_str_isprintable},
};
#define NPRED (sizeof predicates / sizeof predicates[0])

static long mismatches;

static void report(long record, const char *what, const char *s, int64_t len) {
  if (++mismatches > 40)
    return;
  fprintf(stderr, "record %ld: %s differs for input (%lld bytes):", record, what,
          (long long)len);
  for (int64_t i = 0; i < len; i++)
    fprintf(stderr, " %02x", (unsigned char)s[i]);
  fputc('\n', stderr);
}

static bool read_bytes(FILE *f, char **buf, size_t *cap, uint32_t *len) {
  unsigned char h[4];
  if (fread(h, 1, 4, f) != 4)
    return false;
  *len = (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 | (uint32_t)h[3] << 24;
  if (*len + 1 > *cap) {
    *cap = (*len + 1) * 2;
    *buf = realloc(*buf, *cap);
    if (!*buf)
      return false;
  }
  return fread(*buf, 1, *len, f) == *len;
}

/* Checks one mapping of input s against CPython's result r. */
static void check_mapping(long rec, size_t k, const char *s, uint32_t len, const char *r,
                          uint32_t rlen, char *scratch) {
  int64_t n = mappings[k].size(s, len);
  int64_t w = mappings[k].into(s, len, scratch);
  if (n != (int64_t)rlen || w != n || memcmp(scratch, r, rlen) != 0) {
    report(rec, mappings[k].name, s, len);
    return;
  }
  /* the padded kernel, into exactly its room (3 * len + 8) at the end of a fresh block */
  char *padded = malloc(3 * (size_t)len + NRT_STR_CASE_PADDING);
  if (!padded || mappings[k].into_padded(s, len, padded) != n || memcmp(padded, r, rlen) != 0)
    report(rec, "padded kernel", s, len);
  free(padded);
  bool same = rlen == len && memcmp(r, s, len) == 0;
  /* managed input: the same object back when unchanged */
  nrt_str in, out;
  struct nrt_error err = {0};
  if (nrt_str_new(s, len, &in, &err) != NRT_OK) {
    report(rec, "nrt_str_new", s, len);
    return;
  }
  if (mappings[k].managed(&in, &out, &err) != NRT_OK || out.len != (int64_t)rlen ||
      memcmp(out.data, r, rlen) != 0 || (same && len > 0 && out.mi != in.mi) ||
      (same && len > 0 && out.data != in.data) || (len == 0 && out.mi != NULL) ||
      (!same && out.mi == NULL && rlen != 1) || /* an ASCII character may be static */
      (out.mi && out.data[out.len] != 0))
    report(rec, "managed result", s, len);
  nrt_str_release(&out);
  nrt_str_release(&in);
  /* borrowed input: the view itself back when unchanged */
  nrt_str view = nrt_str_view(s, len);
  if (mappings[k].managed(&view, &out, &err) != NRT_OK || out.len != (int64_t)rlen ||
      memcmp(out.data, r, rlen) != 0 || (same && len > 0 && out.data != s))
    report(rec, "managed result of a view", s, len);
  nrt_str_release(&out);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DATA_FILE\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  char magic[4];
  unsigned char cnt[4];
  if (fread(magic, 1, 4, f) != 4 || memcmp(magic, "NRTC", 4) != 0 || fread(cnt, 1, 4, f) != 4) {
    fprintf(stderr, "%s: not an oracle_case.py file\n", argv[1]);
    return 2;
  }
  long count = (long)((uint32_t)cnt[0] | (uint32_t)cnt[1] << 8 | (uint32_t)cnt[2] << 16 |
                      (uint32_t)cnt[3] << 24);
  struct check_live before = check_live_now();
  char *in = NULL, *res = NULL, *scratch = NULL;
  size_t in_cap = 0, res_cap = 0, scratch_cap = 0;
  long rec;
  long per_op[NMAP + NPRED] = {0};
  for (rec = 0; rec < count; rec++) {
    uint32_t len, rlen;
    if (!read_bytes(f, &in, &in_cap, &len))
      break;
    CHECK(nrt_utf8_validate(in, len, NULL, NULL) == NRT_OK);
    if (scratch_cap < (size_t)len * 3 + 16) {
      scratch_cap = (size_t)len * 3 + 16;
      scratch = realloc(scratch, scratch_cap);
    }
    for (size_t k = 0; k < NMAP; k++) {
      if (!read_bytes(f, &res, &res_cap, &rlen))
        goto truncated;
      long before_m = mismatches;
      check_mapping(rec, k, in, len, res, rlen, scratch);
      per_op[k] += mismatches - before_m;
    }
    unsigned char bits[2];
    if (fread(bits, 1, 2, f) != 2)
      goto truncated;
    unsigned want = bits[0] | (unsigned)bits[1] << 8;
    for (size_t p = 0; p < NPRED; p++) {
      if (predicates[p].fn(in, len) != ((want >> p) & 1)) {
        report(rec, predicates[p].name, in, len);
        per_op[NMAP + p]++;
      }
    }
  }
truncated:
  fclose(f);
  free(in);
  free(res);
  free(scratch);
  CHECK_EQ_INT(rec, count);
  for (size_t k = 0; k < NMAP + NPRED; k++)
    if (per_op[k])
      fprintf(stderr, "%s: %ld mismatches\n",
              k < NMAP ? mappings[k].name : predicates[k - NMAP].name, per_op[k]);
  printf("test_str_case_oracle: %ld strings, %zu operations each, %ld mismatches\n", rec,
         NMAP + NPRED, mismatches);
  CHECK_EQ_INT(mismatches, 0);
  CHECK_NO_LEAK(before);
  return check_finish("test_str_case_oracle");
}
