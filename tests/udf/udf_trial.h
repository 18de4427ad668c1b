/* One apply of a UDF as a trial of check_every_allocation_failure (support/check.h), for the
 * udf tests' failure injection, and the helpers those tests share. Header only. */
#ifndef NRT_TESTS_UDF_TRIAL_H
#define NRT_TESTS_UDF_TRIAL_H

#include <stdio.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/udf.h"
#include "support/check.h"

struct udf_trial {
  nrt_udf *udf;
  nrt_column *in;
  int threads;
  int64_t chunk_rows;    /* 0: automatic */
  int64_t expect_rows;   /* > 0: a success must give a valid column of that many rows */
};

/* The UDF compiled from src, or NULL with the compiler's message on stderr. */
static inline nrt_udf *udf_trial_compile(const char *src) {
  struct nrt_error err = {0};
  nrt_udf *u = NULL;
  if (nrt_udf_compile(src, strlen(src), NULL, &u, &err))
    fprintf(stderr, "compile failed: %s\n", err.message);
  return u;
}

/* A utf8 column of n rows (NULL: a null row), the udf tests' input. */
static inline nrt_column *udf_trial_column(const char *const *rows, int n) {
  nrt_col_builder *b = NULL;
  nrt_column *c = NULL;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, n, &b, NULL), NRT_OK);
  for (int i = 0; i < n; i++)
    if (rows[i])
      nrt_col_builder_append_view(b, rows[i], (int64_t)strlen(rows[i]));
    else
      nrt_col_builder_append_null(b);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &c, NULL), NRT_OK);
  return c;
}

/* Applies t->udf to t->in; returns its status (NRT_EINVAL for a wrong result). */
static inline int udf_apply_trial(void *ctx) {
  struct udf_trial *t = ctx;
  struct nrt_udf_apply_options ao;
  memset(&ao, 0, sizeof ao);
  ao.threads = t->threads;
  ao.chunk_rows = t->chunk_rows;
  nrt_column *out = NULL;
  int rc = nrt_udf_apply(t->udf, &t->in, 1, &ao, &out, NULL, NULL);
  if (rc == NRT_OK && t->expect_rows > 0 &&
      (out->length != t->expect_rows || nrt_col_validate(out, NULL) != NRT_OK))
    rc = NRT_EINVAL; /* a wrong result: reported as a failure of the driver's check */
  nrt_col_release(out);
  return rc;
}

/* t->udf (NULL: its compilation failed, already reported) applied once, which must succeed,
 * then with each allocation failing in turn; the UDF and the input are released. */
static inline void udf_trial_every_failure(struct udf_trial *t, const char *what) {
  if (t->udf) {
    CHECK_EQ_INT(udf_apply_trial(t), NRT_OK);
    CHECK(check_every_allocation_failure(what, udf_apply_trial, t) > 0);
  }
  nrt_udf_free(t->udf);
  nrt_col_release(t->in);
}

#endif
