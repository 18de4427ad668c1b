/* A small open-addressing hash map from pointers to ints (LLVM handles to indices). */
#include <stdint.h>
#include <string.h>

#include "refprune/internal.h"

static size_t slot_of(const void *key, size_t cap) {
  uint64_t h = (uint64_t)(uintptr_t)key;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return (size_t)h & (cap - 1);
}

static int grow(struct rp_ptrmap *m, struct nrt_error *err) {
  size_t cap = m->cap ? m->cap * 2 : 64;
  const void **keys = nrt_allocate(sizeof(*keys) * cap, err);
  int *values = keys ? nrt_allocate(sizeof(*values) * cap, err) : NULL;
  if (!values) {
    nrt_free(keys, sizeof(*keys) * cap);
    return NRT_ENOMEM;
  }
  memset(keys, 0, sizeof(*keys) * cap);
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->keys[i])
      continue;
    size_t s = slot_of(m->keys[i], cap);
    while (keys[s])
      s = (s + 1) & (cap - 1);
    keys[s] = m->keys[i];
    values[s] = m->values[i];
  }
  rp_ptrmap_free(m);
  m->keys = keys;
  m->values = values;
  m->cap = cap;
  return NRT_OK;
}

int rp_ptrmap_put(struct rp_ptrmap *m, const void *key, int value, struct nrt_error *err) {
  size_t count = m->count;
  if ((count + 1) * 2 > m->cap && grow(m, err) != NRT_OK)
    return NRT_ENOMEM;
  m->count = count;
  size_t s = slot_of(key, m->cap);
  while (m->keys[s] && m->keys[s] != key)
    s = (s + 1) & (m->cap - 1);
  if (!m->keys[s])
    m->count++;
  m->keys[s] = key;
  m->values[s] = value;
  return NRT_OK;
}

int rp_ptrmap_get(const struct rp_ptrmap *m, const void *key, int missing) {
  if (!m->cap)
    return missing;
  size_t s = slot_of(key, m->cap);
  while (m->keys[s]) {
    if (m->keys[s] == key)
      return m->values[s];
    s = (s + 1) & (m->cap - 1);
  }
  return missing;
}

void rp_ptrmap_free(struct rp_ptrmap *m) {
  if (m->cap) {
    nrt_free(m->keys, sizeof(*m->keys) * m->cap);
    nrt_free(m->values, sizeof(*m->values) * m->cap);
  }
  m->keys = NULL;
  m->values = NULL;
  m->cap = 0;
  m->count = 0;
}
