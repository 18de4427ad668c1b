/* Failure injection over every allocating conversion and padding wrapper: each refused
 * allocation is reported as NRT_ENOMEM with *out the empty view, nothing leaks, and each
 * successful run makes exactly one allocation. */
#include "nrt/str_convert.h"
#include "support/check.h"

/* One operation: fills *out or fails. */
typedef int (*op_fn)(nrt_str *out, struct nrt_error *err);

static nrt_str text(const char *s) {
  return nrt_str_view(s, (int64_t)strlen(s));
}

static int op_from_int(nrt_str *o, struct nrt_error *e) { return nrt_str_from_int64(-1234567, o, e); }
static int op_from_double(nrt_str *o, struct nrt_error *e) { return nrt_str_from_double(0.1, o, e); }
static int op_format_int(nrt_str *o, struct nrt_error *e) {
  static const char spec[] = "*^+20,";
  return nrt_str_format_int(1234567, spec, (int64_t)strlen(spec), o, e);
}
static int op_format_float(nrt_str *o, struct nrt_error *e) {
  static const char spec[] = "\xc3\xa9>20.3e";
  return nrt_str_format_float(-1234.5, spec, (int64_t)strlen(spec), o, e);
}
static int op_chr(nrt_str *o, struct nrt_error *e) { return nrt_str_chr(0x1F600, o, e); }
static int op_center(nrt_str *o, struct nrt_error *e) {
  nrt_str s = text("abc"), f = text("\xc3\xa9");
  return nrt_str_center(&s, 10, &f, o, e);
}
static int op_ljust(nrt_str *o, struct nrt_error *e) {
  nrt_str s = text("abc");
  return nrt_str_ljust(&s, 10, NULL, o, e);
}
static int op_rjust(nrt_str *o, struct nrt_error *e) {
  nrt_str s = text("abc");
  return nrt_str_rjust(&s, 10, NULL, o, e);
}
static int op_zfill(nrt_str *o, struct nrt_error *e) {
  nrt_str s = text("-42");
  return nrt_str_zfill(&s, 10, o, e);
}
static int op_expandtabs(nrt_str *o, struct nrt_error *e) {
  nrt_str s = text("a\tb\tc");
  return nrt_str_expandtabs(&s, 8, o, e);
}
static int op_removeprefix(nrt_str *o, struct nrt_error *e) {
  nrt_str s = text("prefix-body"), p = text("prefix-");
  return nrt_str_removeprefix(&s, &p, o, e);
}
static int op_removesuffix(nrt_str *o, struct nrt_error *e) {
  nrt_str s = text("prefix-body"), p = text("-body");
  return nrt_str_removesuffix(&s, &p, o, e);
}

static int trial(void *ctx) {
  op_fn op = *(op_fn *)ctx;
  nrt_str out;
  struct nrt_error err = {0};
  int rc = op(&out, &err);
  if (rc != NRT_OK) {
    CHECK_EQ_INT(rc, NRT_ENOMEM);
    CHECK_EQ_INT(err.code, NRT_ENOMEM);
    CHECK(out.mi == NULL && out.len == 0);
    return rc;
  }
  CHECK(out.mi != NULL);
  nrt_str_release(&out);
  return NRT_OK;
}

int main(void) {
  static const struct {
    const char *name;
    op_fn op;
  } ops[] = {
      {"str(int)", op_from_int},       {"repr(float)", op_from_double},
      {"format(int)", op_format_int},  {"format(float)", op_format_float},
      {"chr", op_chr},                 {"center", op_center},
      {"ljust", op_ljust},             {"rjust", op_rjust},
      {"zfill", op_zfill},             {"expandtabs", op_expandtabs},
      {"removeprefix", op_removeprefix}, {"removesuffix", op_removesuffix},
  };
  struct check_live start = check_live_now();
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    op_fn op = ops[i].op;
    uint64_t made = check_every_allocation_failure(ops[i].name, trial, &op);
    if (made != 1)
      fprintf(stderr, "%s made %llu allocations\n", ops[i].name, (unsigned long long)made);
    CHECK_EQ_INT(made, 1);
  }
  CHECK_NO_LEAK(start);
  return check_finish("test_str_convert_failures");
}
