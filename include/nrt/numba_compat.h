/* Numba NRT compatibility: the names of Numba's nrt.h, implemented by libnrt.
 *
 * Code written against Numba's runtime API (numba/core/runtime/nrt.h) compiles against this
 * header and links against libnrt. NRT_MemInfo is nrt's MemInfo, whose first five fields have
 * the layout of Numba's, so IR that inlines Numba's refcounting works on nrt objects too.
 * Each function does what the nrt function named in its comment does. */
#ifndef NRT_NUMBA_COMPAT_H
#define NRT_NUMBA_COMPAT_H

#include "nrt/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef nrt_meminfo NRT_MemInfo;
typedef nrt_dtor_fn NRT_dtor_function;

/* nrt_mi_alloc; NULL on allocation failure. */
NRT_API NRT_MemInfo *NRT_MemInfo_alloc(size_t size);
/* nrt_mi_alloc_aligned; NULL on allocation failure or a bad alignment. */
NRT_API NRT_MemInfo *NRT_MemInfo_alloc_aligned(size_t size, unsigned align);
/* nrt_mi_new; NULL on allocation failure (data is then still the caller's). */
NRT_API NRT_MemInfo *NRT_MemInfo_new(void *data, size_t size, NRT_dtor_function dtor,
                                     void *dtor_info);
/* nrt_mi_init. */
NRT_API void NRT_MemInfo_init(NRT_MemInfo *mi, void *data, size_t size, NRT_dtor_function dtor,
                              void *dtor_info);
/* nrt_mi_destroy: runs the destructor and frees the MemInfo now. */
NRT_API void NRT_MemInfo_call_dtor(NRT_MemInfo *mi);
/* nrt_mi_incref / nrt_mi_decref. */
NRT_API void NRT_MemInfo_acquire(NRT_MemInfo *mi);
NRT_API void NRT_MemInfo_release(NRT_MemInfo *mi);
NRT_API void NRT_incref(NRT_MemInfo *mi);
NRT_API void NRT_decref(NRT_MemInfo *mi);
/* nrt_mi_data / nrt_mi_size / nrt_mi_refcount. */
NRT_API void *NRT_MemInfo_data(NRT_MemInfo *mi);
NRT_API size_t NRT_MemInfo_size(NRT_MemInfo *mi);
NRT_API size_t NRT_MemInfo_refcount(NRT_MemInfo *mi);
/* Raw memory (Numba's NRT_Free takes no size, so the size is kept in a 16-byte prefix).
 * NRT_Allocate returns NULL on failure; NRT_Free(NULL) is a no-op. */
NRT_API void *NRT_Allocate(size_t size);
NRT_API void NRT_Free(void *ptr);
/* Fields of nrt_stats_get. */
NRT_API size_t NRT_MemSys_get_stats_alloc(void);
NRT_API size_t NRT_MemSys_get_stats_free(void);
NRT_API size_t NRT_MemSys_get_stats_mi_alloc(void);
NRT_API size_t NRT_MemSys_get_stats_mi_free(void);

#ifdef __cplusplus
}
#endif

#endif /* NRT_NUMBA_COMPAT_H */
