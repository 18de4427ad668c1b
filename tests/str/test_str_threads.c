/* Managed strings and lists shared between threads: concurrent retain/release, operations on
 * shared inputs, elements taken out of a shared list. Run under TSan by the sanitizer build;
 * afterwards every refcount is back where it started and nothing leaks. */
#include "nrt/str.h"
#include "support/check.h"

#include <pthread.h>
#include <stdlib.h>

enum { THREADS = 4 };

static nrt_str shared;
static nrt_str_list *shared_list;
static int iterations = 20000;

static void *worker(void *arg) {
  intptr_t failures = 0;
  nrt_str sep = nrt_str_view(" ", 1);
  for (int i = 0; i < iterations; i++) {
    nrt_str mine = shared;
    nrt_str_retain(&mine);
    nrt_str_list *parts;
    if (nrt_str_split(&mine, &sep, -1, &parts, NULL) != NRT_OK) {
      failures++;
    } else {
      nrt_str joined;
      if (nrt_str_join(&sep, parts, &joined, NULL) != NRT_OK ||
          !nrt_str_eq(joined.data, joined.len, mine.data, mine.len))
        failures++;
      nrt_str_release(&joined);
      nrt_str_list_release(parts);
    }
    nrt_str item;
    if (nrt_str_list_get(shared_list, (i + (int)(intptr_t)arg) % shared_list->len, &item,
                         NULL) != NRT_OK)
      failures++;
    nrt_str upper;
    if (nrt_str_upper(&item, &upper, NULL) != NRT_OK)
      failures++;
    nrt_str_release(&upper);
    nrt_str_release(&item);
    nrt_str_list_retain(shared_list);
    nrt_str_list_release(shared_list);
    nrt_str_release(&mine);
  }
  return (void *)failures;
}

int main(void) {
  if (getenv("NRT_UNDER_VALGRIND"))
    iterations = 500;
#ifdef NRT_UNDER_SANITIZER
  iterations = 3000;
#endif
  struct check_live before = check_live_now();
  const char *text = "alpha b\xc3\xa9ta gamma \xce\xb4\xce\xad\xce\xbb\xcf\x84\xce\xb1 epsilon";
  CHECK_EQ_INT(nrt_str_new(text, (int64_t)strlen(text), &shared, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_str_split(&shared, NULL, -1, &shared_list, NULL), NRT_OK);
  pthread_t t[THREADS];
  for (intptr_t i = 0; i < THREADS; i++)
    CHECK_EQ_INT(pthread_create(&t[i], NULL, worker, (void *)i), 0);
  for (int i = 0; i < THREADS; i++) {
    void *failures;
    pthread_join(t[i], &failures);
    CHECK_EQ_INT((intptr_t)failures, 0);
  }
  CHECK_EQ_INT(nrt_mi_refcount(shared.mi), 1);
  CHECK_EQ_INT(nrt_mi_refcount(shared_list->mi), 1);
  for (int64_t i = 0; i < shared_list->len; i++)
    CHECK_EQ_INT(nrt_mi_refcount(shared_list->items[i].mi), 1);
  nrt_str_list_release(shared_list);
  nrt_str_release(&shared);
  CHECK_NO_LEAK(before);
  return check_finish("test_str_threads");
}
