/* A program written against Numba's NRT API names, linked against libnrt. */
#include <nrt/numba_compat.h>

#include <stdio.h>
#include <string.h>

static int dtor_calls;
static void dtor(void *ptr, size_t size, void *info) {
  (void)ptr;
  (void)size;
  (void)info;
  dtor_calls++;
}

#define EXPECT(c)                                                                            \
  do {                                                                                       \
    if (!(c)) {                                                                              \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c);                                \
      return 1;                                                                              \
    }                                                                                        \
  } while (0)

int main(void) {
  size_t a0 = NRT_MemSys_get_stats_alloc(), mi0 = NRT_MemSys_get_stats_mi_alloc();
  NRT_MemInfo *mi = NRT_MemInfo_alloc(32);
  EXPECT(mi && NRT_MemInfo_size(mi) == 32 && NRT_MemInfo_refcount(mi) == 1);
  memset(NRT_MemInfo_data(mi), 7, 32);
  NRT_incref(mi);
  NRT_MemInfo_acquire(mi);
  EXPECT(NRT_MemInfo_refcount(mi) == 3);
  NRT_decref(mi);
  NRT_MemInfo_release(mi);
  NRT_decref(mi);

  NRT_MemInfo *al = NRT_MemInfo_alloc_aligned(10, 64);
  EXPECT(al && ((size_t)NRT_MemInfo_data(al) % 64) == 0);
  NRT_MemInfo_call_dtor(al);
  EXPECT(NRT_MemInfo_alloc_aligned(10, 3) == NULL);

  static char buffer[8];
  NRT_MemInfo *ext = NRT_MemInfo_new(buffer, sizeof buffer, dtor, NULL);
  EXPECT(ext && NRT_MemInfo_data(ext) == buffer);
  NRT_decref(ext);
  EXPECT(dtor_calls == 1);

  NRT_MemInfo placed;
  NRT_MemInfo_init(&placed, buffer, sizeof buffer, dtor, NULL);
  NRT_decref(&placed);
  EXPECT(dtor_calls == 2);

  void *raw = NRT_Allocate(100);
  EXPECT(raw && ((size_t)raw % 16) == 0);
  memset(raw, 1, 100);
  NRT_Free(raw);
  NRT_Free(NULL);

  EXPECT(NRT_MemSys_get_stats_alloc() - a0 == 4); /* alloc, aligned, new, raw; placed: no block */
  EXPECT(NRT_MemSys_get_stats_mi_alloc() - mi0 == 4);
  EXPECT(NRT_MemSys_get_stats_alloc() - NRT_MemSys_get_stats_free() == 0);
  EXPECT(NRT_MemSys_get_stats_mi_alloc() == NRT_MemSys_get_stats_mi_free());
  printf("test_core_numba_compat: ok\n");
  return 0;
}
