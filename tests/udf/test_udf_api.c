/* The public UDF API: compile errors, signatures, per-row calls, apply with errors stopping or
 * turned into nulls (lowest row reported), statistics balanced after every apply, refcount
 * counting before/after pruning, strings grown in place (which locals, how many blocks),
 * and failure injection through compiled code (every allocation of an apply failing in
 * turn: the error is reported and nothing leaks). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/str.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf/udf_trial.h"

static nrt_udf *compile(const char *src, int nparams, const nrt_value_kind *kinds,
                        struct nrt_error *err) {
  struct nrt_udf_options o;
  memset(&o, 0, sizeof o);
  o.nparams = nparams;
  o.param_kinds = kinds;
  nrt_udf *u = NULL;
  int rc = nrt_udf_compile(src, strlen(src), &o, &u, err);
  if (rc)
    fprintf(stderr, "compile failed: %s\n", err->message);
  return rc ? NULL : u;
}

static nrt_column *strings(const char *const *rows, int n) {
  nrt_col_builder *b;
  if (nrt_col_builder_new(NRT_COL_UTF8, n, &b, NULL))
    return NULL;
  for (int i = 0; i < n; i++) {
    if (rows[i])
      nrt_col_builder_append_view(b, rows[i], (int64_t)strlen(rows[i]));
    else
      nrt_col_builder_append_null(b);
  }
  nrt_column *c = NULL;
  nrt_col_builder_finish(b, &c, NULL);
  return c;
}

static void test_compile_errors(void) {
  struct nrt_error err = {0};
  nrt_udf *u = NULL;
  struct nrt_udf_options o;
  memset(&o, 0, sizeof o);
  o.nparams = 1;
  o.file = "bad.py";
  const char *syntax = "def f(s):\n    return s +\n";
  CHECK_EQ_INT(nrt_udf_compile(syntax, strlen(syntax), &o, &u, &err), NRT_EPARSE);
  CHECK(u == NULL);
  CHECK(strncmp(err.message, "bad.py:2:", 9) == 0);
  CHECK(strchr(err.message, '^') != NULL);
  const char *type = "lambda s: s + 1";
  CHECK_EQ_INT(nrt_udf_compile(type, strlen(type), &o, &u, &err), NRT_ETYPE);
  o.nparams = 2;
  CHECK(nrt_udf_compile(type, strlen(type), &o, &u, &err) != NRT_OK);
  o.nparams = -1;
  CHECK_EQ_INT(nrt_udf_compile(type, strlen(type), &o, &u, &err), NRT_EINVAL);
  CHECK(u == NULL);
}

static void test_signature_and_call(void) {
  struct nrt_error err = {0};
  nrt_value_kind k[2] = {NRT_VALUE_STR, NRT_VALUE_INT64};
  nrt_udf *u = compile("def f(s, n):\n    return s[n] * 2\n", 2, k, &err);
  CHECK(u != NULL);
  if (!u)
    return;
  CHECK_EQ_INT(nrt_udf_nparams(u), 2);
  CHECK_EQ_INT(nrt_udf_result_kind(u), NRT_VALUE_STR);
  CHECK(nrt_udf_row_function(u) != NULL);
  const struct nrt_udf_compile_info *in = nrt_udf_info(u);
  CHECK(in->compile_ms > 0);
  CHECK(in->refops_after <= in->refops_before);
  struct check_live before = check_live_now();
  nrt_value args[2], r;
  memset(args, 0, sizeof args);
  args[0].kind = NRT_VALUE_STR;
  args[0].as.str = nrt_str_view("héllo", 6);
  args[1].kind = NRT_VALUE_INT64;
  args[1].as.i64 = 1;
  CHECK_EQ_INT(nrt_udf_call(u, args, &r, &err), NRT_OK);
  CHECK_EQ_INT(r.kind, NRT_VALUE_STR);
  CHECK(r.as.str.len == 4 && memcmp(r.as.str.data, "éé", 4) == 0);
  nrt_str_release(&r.as.str);
  args[1].as.i64 = 9;
  CHECK_EQ_INT(nrt_udf_call(u, args, &r, &err), NRT_EINDEX);
  CHECK_EQ_STR(err.message, "string index out of range");
  CHECK_NO_LEAK(before);
  nrt_udf_free(u);
}

static const char *const rows[] = {"1", "2", NULL, "x", "5", "y", "7"};

static void test_apply_errors(void) {
  struct nrt_error err = {0};
  nrt_udf *u = compile("def f(s):\n    t = s + '0'\n    return t * int(s)\n", 1, NULL, &err);
  nrt_column *in = strings(rows, 7);
  CHECK(u && in);
  if (!u || !in)
    return;
  struct check_live before = check_live_now();
  nrt_column *out = NULL;
  struct nrt_exec_info info;
  struct nrt_udf_apply_options ao;
  memset(&ao, 0, sizeof ao);
  ao.threads = 3;
  ao.chunk_rows = 2;
  CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &ao, &out, &info, &err), NRT_EVALUE);
  CHECK(out == NULL);
  CHECK(strstr(err.message, "row 4: ValueError: invalid literal for int() with base 10: 'x'") !=
        NULL);
  CHECK_EQ_INT(info.error_row, 3);
  CHECK_NO_LEAK(before);
  ao.errors_as_null = true;
  CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &ao, &out, &info, &err), NRT_OK);
  CHECK(out != NULL);
  if (out) {
    CHECK_EQ_INT(out->length, 7);
    CHECK_EQ_INT(out->null_count, 3);
    nrt_str s = nrt_col_str(out, 4);
    CHECK(s.len == 10 && memcmp(s.data, "5050505050", 10) == 0);
    CHECK(!nrt_col_is_valid(out, 2) && !nrt_col_is_valid(out, 3) && !nrt_col_is_valid(out, 5));
    CHECK_EQ_INT(info.failed_rows, 2);
  }
  nrt_col_release(out);
  CHECK_NO_LEAK(before);
  nrt_col_release(in);
  nrt_udf_free(u);
}

static void test_refops_counting(void) {
  const char *src = "def f(s):\n    if len(s) > 2:\n        r = s.upper()\n    else:\n"
                    "        r = s + s\n    return r + 'abc'\n";
  const char *const in_rows[] = {"abcd", "a", "héllo", ""};
  nrt_column *in = strings(in_rows, 4);
  uint64_t counts[3];
  for (int prune = 0; prune < 3; prune++) { /* naive, pruned (value form), write form */
    struct nrt_udf_options o;
    memset(&o, 0, sizeof o);
    o.nparams = 1;
    o.count_refops = true;
    o.no_prune = prune == 0;
    bool write_form = prune == 2;
    struct nrt_error err = {0};
    nrt_udf *u = NULL;
    CHECK_EQ_INT(nrt_udf_compile(src, strlen(src), &o, &u, &err), NRT_OK);
    nrt_column *out = NULL;
    struct nrt_udf_apply_options ao;
    memset(&ao, 0, sizeof ao);
    ao.threads = 1;
    ao.value_form = !write_form; /* the value form makes strings: their refcounts */
    nrt_udf_refops_reset();
    CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &ao, &out, NULL, &err), NRT_OK);
    counts[prune] = nrt_udf_refops_executed();
    if (out) {
      nrt_str s = nrt_col_str(out, 1);
      CHECK(s.len == 5 && memcmp(s.data, "aaabc", 5) == 0);
    }
    nrt_col_release(out);
    nrt_udf_free(u);
  }
  printf("refcount ops executed over 4 rows: %llu naive, %llu after refprune, %llu in the "
         "write form\n",
         (unsigned long long)counts[0], (unsigned long long)counts[1],
         (unsigned long long)counts[2]);
  CHECK(counts[0] > 0);
  CHECK(counts[1] < counts[0]);
  CHECK_EQ_INT(counts[2], 0); /* the result is written in place: no string is made */
  nrt_col_release(in);
}

/* Whether the IR of src calls nrt_str_append: a local grown in place. */
static bool grows_in_place(const char *src) {
  char *ir = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&ir, &n);
  struct nrt_udf_options o;
  memset(&o, 0, sizeof o);
  o.nparams = 1;
  o.emit_llvm = true;
  o.emit_stream = f;
  struct nrt_error err = {0};
  nrt_udf *u = NULL;
  int rc = nrt_udf_compile(src, strlen(src), &o, &u, &err);
  fclose(f);
  if (rc)
    fprintf(stderr, "%s\n", err.message);
  CHECK_EQ_INT(rc, NRT_OK);
  bool found = ir && strstr(ir, "@nrt_str_append") != NULL;
  free(ir);
  nrt_udf_free(u);
  return found;
}

static void test_append_in_place(void) {
  /* Locals no other value can share grow in place; the others are concatenated. */
  static const char *const grown[] = {
      ("def f(s):\n    out = ''\n    for c in s:\n        if c.isalnum():\n"
       "            out += c\n        elif len(out) > 0 and out[-1:] != '-':\n"
       "            out = out + '-'\n    return out if out else '<' + s + '>'\n"),
      "def f(s):\n    for c in 'ab':\n        s += c + str(len(s))\n    return s\n",
      ("def f(s):\n    r = ''\n    for c in s:\n        r += c\n        r.upper()\n"
       "    return r.count('a') > 1\n"),
      "def f(s):\n    out = ''\n    for c in s:\n        out += out[:1] + c\n    return out\n",
      ("def f(s):\n    out = ''\n    for c in s:\n        out += c\n        t = '' + out\n"
       "    result = out + '!'\n    return result + t\n"),
  };
  static const char *const shared[] = {
      ("def f(s):\n    out = ''\n    t = out\n    for c in s:\n        out += c\n"
       "        t = out\n    return t\n"),
      "def f(s):\n    out = 'a'\n    for c in s:\n        out += out[:1]\n    return out\n",
      ("def g(x):\n    return x\n\ndef f(s):\n    out = ''\n    for c in s:\n"
       "        out += c\n        if len(g(out)) > 3:\n            break\n    return out\n"),
      ("def f(s):\n    out = ''\n    for c in s:\n        out += c\n        for d in out:\n"
       "            pass\n    return out\n"),
      "def f(s):\n    out = ''\n    for c in s:\n        out += c\n    return out.strip()\n",
      "def f(s):\n    out = ''\n    for c in s:\n        out += c\n    return [out][0]\n",
      ("def f(s):\n    out = ''\n    for c in s:\n        out += c\n"
       "    t = out if out else s\n    return t\n"),
  };
  for (size_t i = 0; i < sizeof grown / sizeof grown[0]; i++)
    CHECK(grows_in_place(grown[i]));
  for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++)
    CHECK(!grows_in_place(shared[i]));

  /* 4000 appends make a few dozen blocks, not 4000; the result has no room left over. */
  enum { N = 4000 };
  static char row[N + 1];
  for (int i = 0; i < N; i++)
    row[i] = (char)('a' + i % 26);
  struct nrt_error err = {0};
  nrt_udf *u = compile("def f(s):\n    out = ''\n    for c in s:\n        out += c\n"
                       "    return out\n",
                       1, NULL, &err);
  CHECK(u != NULL);
  if (!u)
    return;
  struct nrt_stats before, after;
  nrt_stats_get(&before);
  nrt_value arg, r;
  memset(&arg, 0, sizeof arg);
  arg.kind = NRT_VALUE_STR;
  arg.as.str = nrt_str_view(row, N);
  CHECK_EQ_INT(nrt_udf_call(u, &arg, &r, &err), NRT_OK);
  nrt_stats_get(&after);
  CHECK(after.mi_alloc - before.mi_alloc < 40);
  CHECK(r.as.str.len == N && memcmp(r.as.str.data, row, N) == 0);
  CHECK(r.as.str.mi && r.as.str.mi->size == (size_t)N + 9 && r.as.str.data[N] == '\0');
  nrt_str_release(&r.as.str);
  nrt_udf_free(u);
}

static void test_failure_injection(void) {
  /* Strings, lists, comprehensions, f-strings, a helper and a string grown in place:
   * allocations everywhere. */
  const char *src = "def h(a):\n    return a.title() + '!'\n\n"
                    "def f(s):\n    words = [h(w) for w in s.split(',') if w]\n"
                    "    t = '-'.join(words)\n    acc = ''\n    for c in s:\n        acc += c * 3\n"
                    "    return f'{t}|{len(words):03d}|{s.upper()}|' + acc\n";
  struct nrt_error err = {0};
  nrt_udf *u = compile(src, 1, NULL, &err);
  const char *const in_rows[] = {"ab,cd", "é,,ü", "", "x"};
  nrt_column *in = strings(in_rows, 4);
  CHECK(u && in);
  if (!u || !in)
    return;
  struct udf_trial t = {u, in, 1, 0, 0};
  uint64_t n = check_every_allocation_failure("udf apply", udf_apply_trial, &t);
  CHECK(n > 10);
  nrt_col_release(in);
  nrt_udf_free(u);
}

static int compile_trial(void *p) {
  const char *src = p;
  nrt_udf *u = NULL;
  int rc = nrt_udf_compile(src, strlen(src), NULL, &u, NULL);
  nrt_udf_free(u);
  return rc;
}

static void test_compile_failure_injection(void) {
  /* Every nrt allocation of a compilation (front end, code generator, JIT wrapper) failing
   * in turn: reported, nothing left behind. LLVM's own memory is LLVM's. */
  char *src = "def h(a, b='x'):\n    return a + b\n\ndef f(s):\n"
              "    return h(s) + f'{len(s)}' + '-'.join([c for c in s])\n";
  uint64_t n = check_every_allocation_failure("udf compile", compile_trial, src);
  CHECK(n > 5);
}

int main(void) {
  test_compile_errors();
  test_signature_and_call();
  test_apply_errors();
  test_refops_counting();
  test_append_in_place();
  test_failure_injection();
  test_compile_failure_injection();
  return check_finish("test_udf_api");
}
