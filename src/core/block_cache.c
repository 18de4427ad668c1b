/* Per-thread MemInfo block cache: set-up and the flush at thread exit (see block_cache.h). */
#include "core/block_cache.h"
#include "core/stats.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

_Thread_local struct nrt_block_cache nrt_tls_block_cache;

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static int cache_enabled; /* decided once per process */

static void flush_at_thread_exit(void *arg) {
  struct nrt_block_cache *c = arg;
  for (int k = 0; k < NRT_CACHE_CLASSES; k++) {
    while (c->head[k]) {
      void *p = c->head[k];
      c->head[k] = *(void **)p;
      free(p);
    }
    c->count[k] = 0;
  }
  c->state = 2;
}

static void make_exit_key(void) {
  const char *v = getenv("NRT_BLOCK_CACHE");
  cache_enabled = !(v && strcmp(v, "0") == 0) && pthread_key_create(&exit_key, flush_at_thread_exit) == 0;
}

int nrt_block_cache_setup(void) {
  struct nrt_block_cache *c = &nrt_tls_block_cache;
  if (c->state != 0)
    return c->state == 1;
  pthread_once(&exit_key_once, make_exit_key);
  c->state = cache_enabled && nrt_stats_register_thread() &&
                     pthread_setspecific(exit_key, c) == 0
                 ? 1
                 : 2;
  return c->state == 1;
}

void nrt_block_cache_disable_thread(void) {
  flush_at_thread_exit(&nrt_tls_block_cache);
}
