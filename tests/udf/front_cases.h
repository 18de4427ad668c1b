/* Programs the front end must refuse with an exact diagnostic, for the test_front_* tests:
 * a table of `bad` cases, each compiled for one str parameter and checked for its status,
 * line, column and message, with no module made and nothing leaked. Header only. */
#ifndef NRT_TESTS_UDF_FRONT_CASES_H
#define NRT_TESTS_UDF_FRONT_CASES_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "support/check.h"
#include "udf/front.h"

typedef struct bad {
  const char *src;
  int code;
  int line, col;
  const char *msg;
} bad;

#define SYN NRT_EPARSE
#define TYP NRT_ETYPE
#define UNS NRT_EUNSUPPORTED

/* Checks case i of a table named `kind`; returns whether it was diagnosed exactly (else
 * prints what came instead). */
static inline int check_bad(const bad *b, const char *kind, size_t i) {
  struct check_live before = check_live_now();
  udf_type pt[1] = {UDF_TY_STR};
  udf_module *m = (udf_module *)1;
  udf_diag d;
  struct nrt_error err;
  int rc = udf_front_compile(b->src, strlen(b->src), "t.py", NULL, pt, 1, &m, &d, &err);
  bool ok = rc == b->code && d.line == b->line && d.col == b->col && strcmp(d.message, b->msg) == 0;
  if (!ok)
    printf("%s %zu: got %d %d:%d \"%s\"\n  want %d %d:%d \"%s\"\n", kind, i, rc, d.line, d.col,
           d.message, b->code, b->line, b->col, b->msg);
  CHECK(ok);
  CHECK(m == NULL);
  CHECK_EQ_INT(err.code, b->code);
  CHECK_NO_LEAK(before);
  return ok;
}

/* One compilation of the program *ctx (a `const char *` source) as a trial of
 * check_every_allocation_failure (support/check.h): a checked module, or NRT_ENOMEM with no
 * module made. */
static inline int front_compile_trial(void *ctx) {
  const char *src = *(const char **)ctx;
  udf_type pt[1] = {UDF_TY_STR};
  udf_module *m = NULL;
  struct nrt_error err;
  int rc = udf_front_compile(src, strlen(src), "t.py", NULL, pt, 1, &m, NULL, &err);
  if (rc == NRT_OK) {
    CHECK(m != NULL && m->entry != NULL && m->entry->checked);
    udf_module_free(m);
  } else {
    CHECK_EQ_INT(rc, NRT_ENOMEM);
    CHECK(m == NULL);
  }
  return rc;
}

#endif
