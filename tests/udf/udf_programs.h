/* Generated UDF programs of a given size, for the compile-time benchmark (bench/udf) and the
 * linear-time tests (tests/udf): each family grows one dimension of a program. Header only. */
#ifndef NRT_TESTS_UDF_PROGRAMS_H
#define NRT_TESTS_UDF_PROGRAMS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shapes. Each program is `def f(s):` over one str parameter and returns a str. */
enum udf_prog_family {
  UDF_PROG_STATEMENTS, /* n statements `x = x + "a"` */
  UDF_PROG_ELIF,       /* an if/elif chain of n branches over len(s) */
  UDF_PROG_LONG,       /* one return of n concatenated operands (groups of 100 in
                        * parentheses: the parser bounds an expression's depth) */
  UDF_PROG_NEST,       /* one return of n nested calls str(len(str(...(s)))) */
  UDF_PROG_NEST_STMTS, /* n statements `x = str(len(...x...))`, 20 calls deep each */
  UDF_PROG_FAMILIES
};

static const char *const udf_prog_names[UDF_PROG_FAMILIES] = {"statements", "elif", "long",
                                                              "nest", "nest_stmts"};

/* AST nodes per unit of n (statement, branch, operand, call), as the parser builds them. */
static const int udf_prog_nodes_per_unit[UDF_PROG_FAMILIES] = {5, 7, 2, 2, 43};

/* The most units a family takes: nesting is bounded by the parser (200 open brackets). */
static const int udf_prog_max_units[UDF_PROG_FAMILIES] = {1 << 30, 1 << 30, 1 << 30, 190,
                                                          1 << 30};

struct udf_prog_text {
  char *buf;
  size_t len, cap;
  int failed;
};

static inline void udf_prog_put(struct udf_prog_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void udf_prog_put(struct udf_prog_text *t, const char *fmt, ...) {
  while (!t->failed) {
    va_list ap;
    va_start(ap, fmt);
    int n = t->buf ? vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap) : -1;
    va_end(ap);
    if (n >= 0 && (size_t)n < t->cap - t->len) {
      t->len += (size_t)n;
      return;
    }
    size_t cap = t->cap ? t->cap * 2 : 4096;
    char *b = realloc(t->buf, cap);
    if (!b) {
      t->failed = 1;
      return;
    }
    t->buf = b;
    t->cap = cap;
  }
}

/* The source of family f with n units, NUL-terminated (free() it), *len its length; NULL when
 * out of memory. */
static inline char *udf_prog_source(enum udf_prog_family f, int n, size_t *len) {
  struct udf_prog_text t = {NULL, 0, 0, 0};
  udf_prog_put(&t, "def f(s):\n");
  switch (f) {
  case UDF_PROG_STATEMENTS:
    udf_prog_put(&t, "    x = s\n");
    for (int i = 0; i < n; i++)
      udf_prog_put(&t, "    x = x + \"a\"\n");
    udf_prog_put(&t, "    return x\n");
    break;
  case UDF_PROG_ELIF:
    udf_prog_put(&t, "    n = len(s)\n");
    for (int i = 0; i < n; i++)
      udf_prog_put(&t, "    %s n == %d:\n        r = \"%d\"\n", i ? "elif" : "if", i, i);
    udf_prog_put(&t, "    else:\n        r = s\n    return r\n");
    break;
  case UDF_PROG_LONG:
    udf_prog_put(&t, "    return (s");
    for (int i = 1; i < n; i++)
      udf_prog_put(&t, i % 100 == 0 ? ") + (s" : " + s");
    udf_prog_put(&t, ")\n");
    break;
  case UDF_PROG_NEST:
    udf_prog_put(&t, "    return ");
    for (int i = 0; i < n; i++)
      udf_prog_put(&t, i % 2 ? "len(" : "str(");
    udf_prog_put(&t, "s");
    for (int i = 0; i < n; i++)
      udf_prog_put(&t, ")");
    udf_prog_put(&t, "\n");
    break;
  case UDF_PROG_NEST_STMTS:
    udf_prog_put(&t, "    x = s\n");
    for (int i = 0; i < n; i++)
      udf_prog_put(&t, "    x = str(len(str(len(str(len(str(len(str(len(str(len(str(len("
                       "str(len(str(len(str(len(x))))))))))))))))))))\n");
    udf_prog_put(&t, "    return x\n");
    break;
  default:
    break;
  }
  if (t.failed) {
    free(t.buf);
    return NULL;
  }
  *len = t.len;
  return t.buf;
}

/* The units of family f making about `nodes` AST nodes (at least 1, at most its maximum). */
static inline int udf_prog_units(enum udf_prog_family f, int nodes) {
  int n = nodes / udf_prog_nodes_per_unit[f];
  if (n < 1)
    n = 1;
  return n > udf_prog_max_units[f] ? udf_prog_max_units[f] : n;
}

#endif
