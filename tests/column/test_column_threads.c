/* Threads: builders used one per thread at the same time, columns and exported arrays
 * released from threads other than the one that made them, shared slices released
 * concurrently. Run under ThreadSanitizer by the TSan build. */
#include <pthread.h>

#include "column/colgen.h"
#include "nrt/column.h"
#include "nrt/column_arrow.h"
#include "nrt/str.h"
#include "support/check.h"

#define THREADS 4

static int64_t rows(void) {
  return getenv("NRT_UNDER_VALGRIND") ? 2000 : 20000;
}

struct job {
  int id;
  nrt_column *col;  /* made by the thread, or handed to it to release */
  struct ArrowArray arr;
  int rc;
};

/* Each thread builds its own column from managed strings (the exec layer's pattern). */
static void *build(void *p) {
  struct job *j = (struct job *)p;
  nrt_col_builder *b;
  j->rc = nrt_col_builder_new(j->id % 2 ? NRT_COL_UTF8_VIEW : NRT_COL_UTF8, 0, &b, NULL);
  if (j->rc)
    return NULL;
  char buf[64];
  for (int64_t i = 0; i < rows(); i++) {
    int len = snprintf(buf, sizeof buf, "thread %d row %lld \xc3\xa9", j->id, (long long)i);
    nrt_str s;
    if (nrt_str_new(buf, len, &s, NULL) != NRT_OK)
      break;
    nrt_col_builder_append_str_move(b, &s);
  }
  j->rc = nrt_col_builder_finish(b, &j->col, NULL);
  return NULL;
}

static void *release_col(void *p) {
  struct job *j = (struct job *)p;
  /* Read through the column first: its bytes must be visible to this thread. */
  int64_t total = 0;
  for (int64_t i = 0; i < j->col->length; i++)
    total += nrt_col_str(j->col, i).len;
  j->rc = total > 0 ? NRT_OK : NRT_EINVAL;
  nrt_col_release(j->col);
  return NULL;
}

static void *release_array(void *p) {
  struct job *j = (struct job *)p;
  j->arr.release(&j->arr);
  return NULL;
}

static void test_threads(void) {
  struct check_live before = check_live_now();
  pthread_t th[THREADS];
  struct job jobs[THREADS];
  memset(jobs, 0, sizeof jobs);
  for (int k = 0; k < THREADS; k++) {
    jobs[k].id = k;
    CHECK_EQ_INT(pthread_create(&th[k], NULL, build, &jobs[k]), 0);
  }
  for (int k = 0; k < THREADS; k++) {
    pthread_join(th[k], NULL);
    CHECK_EQ_INT(jobs[k].rc, NRT_OK);
  }
  /* Stitch on this thread (the exec layer's pattern), then hand everything to others. */
  nrt_column *cols[THREADS];
  for (int k = 0; k < THREADS; k++)
    cols[k] = jobs[k].col;
  nrt_column *all;
  CHECK_EQ_INT(nrt_col_concat(cols, THREADS, NRT_COL_UTF8_VIEW, &all, NULL), NRT_OK);
  CHECK_EQ_INT(all->length, THREADS * rows());
  /* Slices of one column released concurrently; exported arrays released elsewhere. */
  struct job rel[THREADS], arrs[THREADS];
  memset(rel, 0, sizeof rel);
  memset(arrs, 0, sizeof arrs);
  for (int k = 0; k < THREADS; k++) {
    CHECK_EQ_INT(nrt_col_slice(all, k * rows(), rows(), &rel[k].col, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_export_arrow(cols[k], &arrs[k].arr, NULL, NULL), NRT_OK);
  }
  for (int k = 0; k < THREADS; k++)
    nrt_col_release(cols[k]); /* the slices and the arrays keep what they need */
  nrt_col_release(all);
  pthread_t tr[THREADS], ta[THREADS];
  for (int k = 0; k < THREADS; k++) {
    CHECK_EQ_INT(pthread_create(&tr[k], NULL, release_col, &rel[k]), 0);
    CHECK_EQ_INT(pthread_create(&ta[k], NULL, release_array, &arrs[k]), 0);
  }
  for (int k = 0; k < THREADS; k++) {
    pthread_join(tr[k], NULL);
    pthread_join(ta[k], NULL);
    CHECK_EQ_INT(rel[k].rc, NRT_OK);
    CHECK(arrs[k].arr.release == NULL);
  }
  CHECK_NO_LEAK(before);
  struct nrt_stats s;
  nrt_stats_get(&s);
  if (nrt_stats_enabled()) {
    CHECK_EQ_INT(s.alloc, s.free);
    CHECK_EQ_INT(s.mi_alloc, s.mi_free);
  }
}

int main(void) {
  test_threads();
  return check_finish("test_column_threads");
}
