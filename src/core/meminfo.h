/* Internal: hooks between MemInfo allocation and the debug leak tracker (leaks.c). */
#ifndef NRT_CORE_MEMINFO_H
#define NRT_CORE_MEMINFO_H

#include "core/alloc_internal.h"

#include <stdatomic.h>

/* Nonzero while debug tracking is on; read on every MemInfo birth and death. */
extern NRT_HIDDEN atomic_int nrt_debug_tracking_on;

NRT_HIDDEN void nrt_debug_record(const nrt_meminfo *mi, const void *site);
NRT_HIDDEN void nrt_debug_forget(const nrt_meminfo *mi);

static inline void nrt_debug_born(const nrt_meminfo *mi, const void *site) {
  if (__builtin_expect(atomic_load_explicit(&nrt_debug_tracking_on, memory_order_relaxed), 0))
    nrt_debug_record(mi, site);
}

static inline void nrt_debug_died(const nrt_meminfo *mi) {
  if (__builtin_expect(atomic_load_explicit(&nrt_debug_tracking_on, memory_order_relaxed), 0))
    nrt_debug_forget(mi);
}

#endif
