/* Numba's NRT names implemented over nrt (see nrt/numba_compat.h). */
#include "nrt/numba_compat.h"

#include <stdint.h>
#include <string.h>

NRT_MemInfo *NRT_MemInfo_alloc(size_t size) {
  nrt_meminfo *mi;
  return nrt_mi_alloc(size, &mi, NULL) == NRT_OK ? mi : NULL;
}

NRT_MemInfo *NRT_MemInfo_alloc_aligned(size_t size, unsigned align) {
  nrt_meminfo *mi;
  return nrt_mi_alloc_aligned(size, align, &mi, NULL) == NRT_OK ? mi : NULL;
}

NRT_MemInfo *NRT_MemInfo_new(void *data, size_t size, NRT_dtor_function dtor, void *dtor_info) {
  nrt_meminfo *mi;
  return nrt_mi_new(data, size, dtor, dtor_info, &mi, NULL) == NRT_OK ? mi : NULL;
}

void NRT_MemInfo_init(NRT_MemInfo *mi, void *data, size_t size, NRT_dtor_function dtor,
                      void *dtor_info) {
  nrt_mi_init(mi, data, size, dtor, dtor_info);
}

void NRT_MemInfo_call_dtor(NRT_MemInfo *mi) { nrt_mi_destroy(mi); }
void NRT_MemInfo_acquire(NRT_MemInfo *mi) { nrt_mi_incref(mi); }
void NRT_MemInfo_release(NRT_MemInfo *mi) { nrt_mi_decref(mi); }
void NRT_incref(NRT_MemInfo *mi) { nrt_mi_incref(mi); }
void NRT_decref(NRT_MemInfo *mi) { nrt_mi_decref(mi); }
void *NRT_MemInfo_data(NRT_MemInfo *mi) { return nrt_mi_data(mi); }
size_t NRT_MemInfo_size(NRT_MemInfo *mi) { return nrt_mi_size(mi); }
size_t NRT_MemInfo_refcount(NRT_MemInfo *mi) { return nrt_mi_refcount(mi); }

/* The prefix keeps the payload 16-aligned. */
#define RAW_PREFIX 16

void *NRT_Allocate(size_t size) {
  if (size > SIZE_MAX - RAW_PREFIX)
    return NULL;
  char *p = nrt_allocate(size + RAW_PREFIX, NULL);
  if (!p)
    return NULL;
  size_t total = size + RAW_PREFIX;
  memcpy(p, &total, sizeof total);
  return p + RAW_PREFIX;
}

void NRT_Free(void *ptr) {
  if (!ptr)
    return;
  char *p = (char *)ptr - RAW_PREFIX;
  size_t total;
  memcpy(&total, p, sizeof total);
  nrt_free(p, total);
}

static struct nrt_stats stats_now(void) {
  struct nrt_stats s;
  nrt_stats_get(&s);
  return s;
}

size_t NRT_MemSys_get_stats_alloc(void) { return (size_t)stats_now().alloc; }
size_t NRT_MemSys_get_stats_free(void) { return (size_t)stats_now().free; }
size_t NRT_MemSys_get_stats_mi_alloc(void) { return (size_t)stats_now().mi_alloc; }
size_t NRT_MemSys_get_stats_mi_free(void) { return (size_t)stats_now().mi_free; }
