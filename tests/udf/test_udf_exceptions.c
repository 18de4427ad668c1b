/* Exceptions in UDFs through the public API: an uncaught raise reports "row N: ValueError: msg"
 * (or nulls the row with errors_as_null) like a built-in exception; statistics stay balanced
 * on every exceptional path (temporaries live at the raise inside a try, locals rebound in a
 * handler, finally blocks run by return, break and exceptions, both forms); every allocation
 * of an apply through try/except/finally failing in turn is reported and leaks nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/str.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf/udf_trial.h"

static nrt_udf *compile(const char *src, struct nrt_error *err) {
  struct nrt_udf_options o;
  memset(&o, 0, sizeof o);
  o.nparams = 1;
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
  for (int i = 0; i < n; i++)
    nrt_col_builder_append_view(b, rows[i], (int64_t)strlen(rows[i]));
  nrt_column *c = NULL;
  nrt_col_builder_finish(b, &c, NULL);
  return c;
}

static const char *const rows[] = {"12", "x", "", "héllo wörld", "7,0", "a,b,c,d", "3"};
#define NROWS 7

static void test_uncaught_raise(void) {
  struct nrt_error err = {0};
  nrt_udf *u = compile("def f(s):\n    if s == 'x':\n        raise ValueError('bad row ' + s)\n"
                       "    return s.upper()\n",
                       &err);
  nrt_column *in = strings(rows, NROWS);
  CHECK(u && in);
  if (!u || !in)
    return;
  struct check_live before = check_live_now();
  nrt_column *out = NULL;
  struct nrt_exec_info info;
  struct nrt_udf_apply_options ao;
  memset(&ao, 0, sizeof ao);
  ao.threads = 2;
  CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &ao, &out, &info, &err), NRT_EVALUE);
  CHECK(out == NULL);
  CHECK(strstr(err.message, "row 2: ValueError: bad row x") != NULL);
  CHECK_NO_LEAK(before);
  ao.errors_as_null = true;
  CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &ao, &out, &info, &err), NRT_OK);
  CHECK(out && out->null_count == 1 && !nrt_col_is_valid(out, 1));
  nrt_col_release(out);
  CHECK_NO_LEAK(before);
  nrt_col_release(in);
  nrt_udf_free(u);
}

/* Programs whose every row takes some exceptional path; each applied in both forms. */
static const char *const programs[] = {
    /* temporaries live at the raise (a concatenation, a list) inside nested tries */
    "def f(s):\n    r = s + '|'\n    try:\n        try:\n"
    "            return r + s.upper() + str(int(s.split(',')[0])) + s.split(',')[9]\n"
    "        except IndexError:\n            r = r + 'idx'\n            raise\n"
    "        finally:\n            r = r + s.title()\n    except ValueError as e:\n"
    "        r = r + str(e)\n    except LookupError as e:\n        r = f'{r}{e}'\n    return r\n",
    /* finally run by break, continue, return and exceptions inside a loop */
    "def f(s):\n    out = s\n    for w in s.split(',') + ['9']:\n        try:\n"
    "            if w == 'c':\n                break\n            if not w:\n"
    "                continue\n            out = out + str(100 // int(w))\n"
    "            if w == '3':\n                return out + '!'\n"
    "        except (ValueError, ZeroDivisionError) as e:\n            out = out + str(e)[:5]\n"
    "        finally:\n            out = out + w.upper()\n    return out\n",
    /* a finally raising replaces the pending exception; a return in finally drops it */
    "def g(s):\n    try:\n        return s[int(s)] + s\n    finally:\n        if s == '':\n"
    "            return 'empty' + s.upper()\n\n"
    "def f(s):\n    try:\n        return g(s) + s\n    except (ValueError, IndexError) as e:\n"
    "        return s.lower() + str(e)\n",
};

static void test_balanced(void) {
  nrt_column *in = strings(rows, NROWS);
  CHECK(in != NULL);
  for (size_t p = 0; p < sizeof programs / sizeof programs[0]; p++) {
    struct nrt_error err = {0};
    nrt_udf *u = compile(programs[p], &err);
    CHECK(u != NULL);
    if (!u)
      continue;
    for (int form = 0; form < 2; form++) {
      struct check_live before = check_live_now();
      nrt_column *out = NULL;
      struct nrt_udf_apply_options ao;
      memset(&ao, 0, sizeof ao);
      ao.threads = 1;
      ao.value_form = form == 1;
      int rc = nrt_udf_apply(u, &in, 1, &ao, &out, NULL, &err);
      if (rc)
        printf("program %zu form %d: %s\n", p, form, err.message);
      CHECK_EQ_INT(rc, NRT_OK);
      CHECK(out && out->null_count == 0);
      nrt_col_release(out);
      CHECK_NO_LEAK(before);
    }
    nrt_udf_free(u);
  }
  nrt_col_release(in);
}

static void test_failure_injection(void) {
  for (size_t p = 0; p < sizeof programs / sizeof programs[0]; p++) {
    struct nrt_error err = {0};
    nrt_udf *u = compile(programs[p], &err);
    nrt_column *in = strings(rows, NROWS);
    CHECK(u && in);
    if (u && in) {
      struct udf_trial t = {u, in, 1, 0, 0};
      CHECK(check_every_allocation_failure("udf apply with exceptions", udf_apply_trial, &t) > 5);
    }
    nrt_col_release(in);
    nrt_udf_free(u);
  }
}

/* A finally block is copied once per kind of way out of its try (normal end, exception,
 * return, break, continue), so finally blocks nested inside finally blocks multiply: past a
 * bound a program is a compile error with its location, not minutes of compilation. */
static void put_nested(char *src, size_t *n, size_t cap, int depth, int ind) {
  static const char *const body[] = {"if c == 'a':", " break", "if c == 'b':", " continue",
                                     "if c == 'c':", " return s", "s = s + c"};
  *n += (size_t)snprintf(src + *n, cap - *n, "%*stry:\n", ind, "");
  for (size_t i = 0; i < sizeof body / sizeof body[0]; i++)
    *n += (size_t)snprintf(src + *n, cap - *n, "%*s%s\n", ind + 1, "", body[i]);
  *n += (size_t)snprintf(src + *n, cap - *n, "%*sfinally:\n", ind, "");
  if (depth > 1)
    put_nested(src, n, cap, depth - 1, ind + 1);
  else
    *n += (size_t)snprintf(src + *n, cap - *n, "%*ss = s + 'x'\n", ind + 1, "");
}

static void test_finally_copies_bounded(void) {
  static char src[16384];
  size_t n = (size_t)snprintf(src, sizeof src, "def f(s):\n for c in s:\n");
  put_nested(src, &n, sizeof src, 7, 2);
  n += (size_t)snprintf(src + n, sizeof src - n, " return s\n");
  struct nrt_udf_options o;
  memset(&o, 0, sizeof o);
  o.nparams = 1;
  o.file = "many.py";
  nrt_udf *u = NULL;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_udf_compile(src, n, &o, &u, &err), NRT_EUNSUPPORTED);
  CHECK(u == NULL);
  CHECK(strncmp(err.message, "many.py:", 8) == 0);
  CHECK(strstr(err.message, ": unsupported: finally blocks copied into more than") != NULL);
  /* three levels compile */
  n = (size_t)snprintf(src, sizeof src, "def f(s):\n for c in s:\n");
  put_nested(src, &n, sizeof src, 3, 2);
  n += (size_t)snprintf(src + n, sizeof src - n, " return s\n");
  CHECK_EQ_INT(nrt_udf_compile(src, n, &o, &u, &err), NRT_OK);
  nrt_udf_free(u);
}

/* A message longer than the error slot is cut; str(e) never ends inside a character. */
static void test_long_message(void) {
  struct nrt_error err = {0};
  nrt_udf *u = compile("def f(s):\n    try:\n        raise ValueError('a' + s * 400)\n"
                       "    except ValueError as e:\n        return str(e)\n",
                       &err);
  CHECK(u != NULL);
  if (!u)
    return;
  struct check_live before = check_live_now();
  nrt_value arg, r;
  memset(&arg, 0, sizeof arg);
  arg.kind = NRT_VALUE_STR;
  arg.as.str = nrt_str_view("é", 2);
  CHECK_EQ_INT(nrt_udf_call(u, &arg, &r, &err), NRT_OK);
  CHECK_EQ_INT(r.kind, NRT_VALUE_STR);
  CHECK(r.as.str.len > 400 && r.as.str.len < NRT_ERROR_MESSAGE_SIZE);
  CHECK(r.as.str.len % 2 == 1); /* 'a' and whole two-byte characters */
  CHECK(memcmp(r.as.str.data + r.as.str.len - 2, "é", 2) == 0);
  nrt_str_release(&r.as.str);
  CHECK_NO_LEAK(before);
  nrt_udf_free(u);
}

int main(void) {
  test_long_message();
  test_finally_copies_bounded();
  test_uncaught_raise();
  test_balanced();
  test_failure_injection();
  return check_finish("test_udf_exceptions");
}
