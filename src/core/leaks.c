/* Debug leak tracking: a table of live MemInfos with their allocation sites.
 *
 * Off by default (one relaxed load per MemInfo birth and death). The table lives in memory
 * from the C library directly, not from nrt's allocators, so that tracking changes neither
 * the statistics nor the allocation sequence seen by failure-injection tests. */
#define _GNU_SOURCE
#include "core/meminfo.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

atomic_int nrt_debug_tracking_on;

struct entry {
  const nrt_meminfo *mi; /* NULL: empty slot; TOMBSTONE: deleted */
  const void *site;
};

#define TOMBSTONE ((const nrt_meminfo *)1)

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct entry *table;
static size_t capacity; /* a power of two, or 0 */
static size_t used;     /* live entries plus tombstones */
static size_t live;
static size_t dropped; /* births not recorded because the table could not grow */

static size_t slot_of(const nrt_meminfo *mi, size_t cap) {
  uintptr_t h = (uintptr_t)mi >> 4;
  h ^= h >> 17;
  h *= (uintptr_t)0x9E3779B97F4A7C15u;
  return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

static void insert_unlocked(struct entry *t, size_t cap, const nrt_meminfo *mi, const void *site) {
  size_t i = slot_of(mi, cap);
  while (t[i].mi && t[i].mi != TOMBSTONE)
    i = (i + 1) & (cap - 1);
  t[i].mi = mi;
  t[i].site = site;
}

static int grow_unlocked(void) {
  size_t cap = capacity ? capacity * 2 : 1024;
  if (live * 2 < capacity)
    cap = capacity; /* mostly tombstones: rehash in place-sized table */
  struct entry *t = calloc(cap, sizeof *t);
  if (!t)
    return -1;
  for (size_t i = 0; i < capacity; i++)
    if (table[i].mi && table[i].mi != TOMBSTONE)
      insert_unlocked(t, cap, table[i].mi, table[i].site);
  free(table);
  table = t;
  capacity = cap;
  used = live;
  return 0;
}

void nrt_debug_record(const nrt_meminfo *mi, const void *site) {
  pthread_mutex_lock(&table_lock);
  if ((used + 1) * 4 > capacity * 3 && grow_unlocked() != 0) {
    dropped++;
  } else {
    insert_unlocked(table, capacity, mi, site);
    used++;
    live++;
  }
  pthread_mutex_unlock(&table_lock);
}

void nrt_debug_forget(const nrt_meminfo *mi) {
  pthread_mutex_lock(&table_lock);
  if (capacity) {
    size_t i = slot_of(mi, capacity);
    while (table[i].mi) {
      if (table[i].mi == mi) {
        table[i].mi = TOMBSTONE;
        live--;
        break;
      }
      i = (i + 1) & (capacity - 1);
    }
  }
  pthread_mutex_unlock(&table_lock);
}

int nrt_debug_track(int on) {
  int was = atomic_exchange(&nrt_debug_tracking_on, on ? 1 : 0);
  if (!on) {
    pthread_mutex_lock(&table_lock);
    free(table);
    table = NULL;
    capacity = used = live = dropped = 0;
    pthread_mutex_unlock(&table_lock);
  }
  return was;
}

size_t nrt_debug_live_count(void) {
  pthread_mutex_lock(&table_lock);
  size_t n = live;
  pthread_mutex_unlock(&table_lock);
  return n;
}

static void describe_site(const void *site, char *buf, size_t n) {
  Dl_info info;
  if (site && dladdr(site, &info) && info.dli_fname) {
    const char *file = strrchr(info.dli_fname, '/');
    file = file ? file + 1 : info.dli_fname;
    if (info.dli_sname)
      snprintf(buf, n, "%s+0x%tx (%s)", info.dli_sname,
               (const char *)site - (const char *)info.dli_saddr, file);
    else
      snprintf(buf, n, "%s+0x%tx", file, (const char *)site - (const char *)info.dli_fbase);
  } else {
    snprintf(buf, n, "%p", site);
  }
}

size_t nrt_debug_report(void *stream) {
  FILE *out = stream ? stream : stderr;
  pthread_mutex_lock(&table_lock);
  for (size_t i = 0; i < capacity; i++) {
    const nrt_meminfo *mi = table[i].mi;
    if (mi && mi != TOMBSTONE) {
      char site[256];
      describe_site(table[i].site, site, sizeof site);
      fprintf(out, "nrt: live MemInfo %p size %zu refcount %zu allocated at %s\n", (const void *)mi,
              mi->size, nrt_mi_refcount(mi), site);
    }
  }
  if (dropped)
    fprintf(out, "nrt: %zu MemInfos were not tracked (the table could not grow)\n", dropped);
  size_t n = live;
  pthread_mutex_unlock(&table_lock);
  return n;
}

static void report_at_exit(void) {
  size_t n = nrt_debug_live_count();
  if (n) {
    fprintf(stderr, "nrt: %zu MemInfos still alive at exit:\n", n);
    nrt_debug_report(stderr);
  }
}

__attribute__((constructor)) static void track_from_environment(void) {
  const char *v = getenv("NRT_DEBUG_LEAKS");
  if (v && *v && strcmp(v, "0") != 0) {
    nrt_debug_track(1);
    atexit(report_at_exit);
  }
}
