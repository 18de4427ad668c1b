/* Handles: the wire format (a header, then one entry per block), transits, importing one block,
 * and the block API built on them (allocate, export, import, drop, the shared allocator). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "ipc/ipc_internal.h"

#define P (&nrt_ipc_g)

/* FNV-1a over the handle, the checksum field read as zero. */
static uint64_t checksum(const unsigned char *h, size_t len) {
  const size_t at = offsetof(struct ipc_wire_header, checksum);
  uint64_t x = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = i >= at && i < at + 8 ? 0 : h[i];
    x = (x ^ c) * 0x100000001b3ull;
  }
  return x;
}

void ipc_handle_seal(void *handle, size_t len, int kind, uint32_t n_blocks, const char *ns) {
  struct ipc_wire_header h = {0};
  h.magic = IPC_HANDLE_MAGIC;
  h.version = IPC_VERSION;
  h.kind = (uint16_t)kind;
  h.length = (uint32_t)len;
  h.n_blocks = n_blocks;
  snprintf(h.ns, sizeof h.ns, "%s", ns);
  memcpy(handle, &h, sizeof h);
  h.checksum = checksum(handle, len);
  memcpy(handle, &h, sizeof h);
}

static const char *kind_name(unsigned kind) {
  return kind == HANDLE_BLOCK ? "block" : kind == HANDLE_COLUMN ? "column" : "unknown";
}

int ipc_handle_check(const void *handle, size_t len, int kind, struct ipc_wire_header *out,
                     struct nrt_error *err) {
  if (!handle)
    return nrt_error_set(err, NRT_EINVAL, "NULL handle");
  if (len < sizeof *out)
    return nrt_error_set(err, NRT_EINVAL, "a handle of %zu bytes is too short (at least %zu)",
                         len, sizeof *out);
  memcpy(out, handle, sizeof *out);
  if (out->magic != IPC_HANDLE_MAGIC)
    return nrt_error_set(err, NRT_EINVAL, "not an nrt ipc handle (bad magic number)");
  if (out->version != IPC_VERSION)
    return nrt_error_set(err, NRT_EINVAL, "handle of format version %u; this nrt reads %u",
                         out->version, IPC_VERSION);
  if (out->length != len)
    return nrt_error_set(err, NRT_EINVAL, "handle of %zu bytes, but its header says %u", len,
                         out->length);
  if (checksum(handle, len) != out->checksum)
    return nrt_error_set(err, NRT_EINVAL, "handle checksum mismatch: the bytes were altered");
  if (kind && out->kind != kind)
    return nrt_error_set(err, NRT_EINVAL, "a %s handle where a %s handle is expected",
                         kind_name(out->kind), kind_name((unsigned)kind));
  if (out->kind != HANDLE_BLOCK && out->kind != HANDLE_COLUMN)
    return nrt_error_set(err, NRT_EINVAL, "handle of unknown kind %u", out->kind);
  if (memchr(out->ns, 0, sizeof out->ns) == NULL || !ipc_ns_valid(out->ns))
    return nrt_error_set(err, NRT_EINVAL, "handle names an invalid namespace");
  if (out->n_blocks > (len - sizeof *out) / sizeof(struct ipc_wire_block))
    return nrt_error_set(err, NRT_EINVAL, "handle lists %u blocks in %zu bytes",
                         out->n_blocks, len);
  return NRT_OK;
}

void ipc_wire_read(const void *handle, size_t i, struct ipc_wire_block *w) {
  memcpy(w, (const char *)handle + sizeof(struct ipc_wire_header) + i * sizeof *w, sizeof *w);
}

static bool same_ref(const struct ipc_ref *a, const struct ipc_ref *b) {
  return a->seg == b->seg && a->seg_gen == b->seg_gen && a->off == b->off && a->gen == b->gen;
}

int ipc_transit_new(const struct ipc_record *r, struct ipc_wire_block *w,
                    struct nrt_error *err) {
  struct ipc_block *b;
  int rc = ipc_block_get(&r->ref, -1, &b, err);
  if (rc)
    return rc;
  uint32_t i;
  if ((rc = ipc_entry_alloc(TBL_TRANSITS, &i, err)) != NRT_OK)
    return rc;
  struct ipc_transit *t = ipc_entry(TBL_TRANSITS, i);
  t->owner = P->slot + 1;
  t->owner_gen = P->slot_gen;
  t->ref = r->ref;
  t->born_ms = ipc_now_ms();
  t->state = IPC_LIVE;
  b->count++;
  *w = (struct ipc_wire_block){r->ref, r->mi.size, i + 1, t->gen};
  return NRT_OK;
}

void ipc_transit_release(uint32_t i) {
  struct ipc_transit *t = ipc_entry(TBL_TRANSITS, i);
  if (!t || t->state != IPC_LIVE)
    return;
  struct ipc_ref ref = t->ref;
  ipc_entry_free(TBL_TRANSITS, i);
  ipc_block_put(&ref);
  nrt_ipc_tally.transits_released++;
}

/* The LIVE transit named by w, or UINT32_MAX. */
static uint32_t transit_of(const struct ipc_wire_block *w) {
  if (!w->transit)
    return UINT32_MAX;
  const struct ipc_transit *t = ipc_entry(TBL_TRANSITS, w->transit - 1);
  if (!t || t->state != IPC_LIVE || t->gen != w->transit_gen || !same_ref(&t->ref, &w->ref))
    return UINT32_MAX;
  return w->transit - 1;
}

void ipc_drop_transits(const struct ipc_wire_block *w, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint32_t t = transit_of(&w[i]);
    if (t != UINT32_MAX)
      ipc_transit_release(t);
  }
}

int ipc_import_one(const struct ipc_wire_block *w, int fd, struct ipc_record **out,
                   struct nrt_error *err) {
  *out = NULL;
  struct ipc_block *b;
  int rc = ipc_block_get(&w->ref, fd, &b, err);
  if (rc)
    return rc;
  if (w->size != b->size)
    return nrt_error_set(err, NRT_EINVAL, "handle gives block %u:%llu %llu bytes; it has %llu",
                         w->ref.seg, (unsigned long long)w->ref.off,
                         (unsigned long long)w->size, (unsigned long long)b->size);
  /* Everything that can fail comes before the count changes hands. */
  if ((rc = ipc_record_reserve(err)) != NRT_OK)
    return rc;
  char *data = P->maps[w->ref.seg].addr + w->ref.off + sizeof(struct ipc_block);
  uint32_t t = transit_of(w);
  if (t != UINT32_MAX)
    ipc_entry_free(TBL_TRANSITS, t); /* its count is now ours */
  struct ipc_record *r = ipc_record_find(data);
  if (r && ipc_record_tryref(r)) {
    if (t != UINT32_MAX)
      b->count--; /* we already hold one through r */
    *out = r;
    return NRT_OK;
  }
  if (r)
    ipc_record_unindex(r); /* dying in another thread: a new record replaces it */
  if (t == UINT32_MAX)
    b->count++;
  return ipc_record_new(&w->ref, data, b->size, out, err);
}

int ipc_fd_for(const struct ipc_wire_block *blocks, size_t n_blocks, size_t k, const int *fds,
               size_t n_fds, struct nrt_error *err, int *fd) {
  *fd = -1;
  if (!fds || !n_fds)
    return NRT_OK;
  /* Descriptors come one per distinct segment, in order of first appearance. */
  size_t distinct = 0, mine = SIZE_MAX;
  for (size_t i = 0; i < n_blocks; i++) {
    size_t j = 0;
    while (j < i && (blocks[j].ref.seg != blocks[i].ref.seg ||
                     blocks[j].ref.seg_gen != blocks[i].ref.seg_gen))
      j++;
    if (j == i)
      distinct++;
    if (i == k)
      mine = distinct - 1;
    if (i == k && j < i)
      return ipc_fd_for(blocks, n_blocks, j, fds, n_fds, err, fd);
  }
  if (distinct != n_fds)
    return nrt_error_set(err, NRT_EINVAL,
                         "the handle names %zu segments but %zu descriptors were given",
                         distinct, n_fds);
  *fd = fds[mine];
  return NRT_OK;
}

/* ------------------------------------------------------------ the block API */

int ipc_alloc_record(size_t size, struct ipc_record **out, struct nrt_error *err) {
  *out = NULL;
  pthread_mutex_lock(&P->mu);
  int rc = ipc_ensure_joined(NULL, err);
  if (rc == NRT_OK)
    rc = ipc_lock(err);
  if (rc == NRT_OK) {
    struct ipc_ref ref;
    struct ipc_block *b;
    rc = ipc_record_reserve(err);
    if (rc == NRT_OK)
      rc = ipc_block_alloc(size, &ref, &b, err);
    if (rc == NRT_OK)
      rc = ipc_record_new(&ref, (char *)(b + 1), size, out, err); /* reserved: cannot fail */
    ipc_unlock();
  }
  pthread_mutex_unlock(&P->mu);
  return rc;
}

int nrt_ipc_alloc(size_t size, nrt_meminfo **out, struct nrt_error *err) {
  struct ipc_record *r;
  int rc = ipc_alloc_record(size, &r, err);
  *out = rc ? NULL : &r->mi;
  return rc;
}

int nrt_ipc_is_shared(const nrt_meminfo *mi) {
  if (!mi)
    return 0;
  pthread_mutex_lock(&P->mu);
  int yes = P->state == PROC_ON && ipc_record_owned(mi) &&
            ((const struct ipc_record *)mi)->state == IPC_LIVE;
  pthread_mutex_unlock(&P->mu);
  return yes;
}

int nrt_ipc_export_block(nrt_meminfo *mi, void *buf, size_t cap, size_t *len,
                         struct nrt_error *err) {
  *len = sizeof(struct ipc_wire_header) + sizeof(struct ipc_wire_block);
  if (!buf || cap < *len)
    return nrt_error_set(err, NRT_ERANGE, "a block handle needs %zu bytes, %zu given", *len,
                         buf ? cap : 0);
  struct ipc_wire_block w;
  int rc = NRT_OK;
  pthread_mutex_lock(&P->mu);
  if (!mi || P->state != PROC_ON || !ipc_record_owned(mi) ||
      ((struct ipc_record *)mi)->state != IPC_LIVE)
    rc = nrt_error_set(err, NRT_EINVAL, "export of a block that is not a shared block of this "
                                        "process");
  if (rc == NRT_OK)
    rc = ipc_lock(err);
  if (rc == NRT_OK) {
    rc = ipc_transit_new((struct ipc_record *)mi, &w, err);
    ipc_unlock();
  }
  if (rc == NRT_OK) {
    memcpy((char *)buf + sizeof(struct ipc_wire_header), &w, sizeof w);
    ipc_handle_seal(buf, *len, HANDLE_BLOCK, 1, P->ns);
  }
  pthread_mutex_unlock(&P->mu);
  return rc;
}

int nrt_ipc_import_block(const void *handle, size_t len, const int *fds, size_t n_fds,
                         nrt_meminfo **out, struct nrt_error *err) {
  *out = NULL;
  struct ipc_wire_header h;
  int rc = ipc_handle_check(handle, len, HANDLE_BLOCK, &h, err);
  if (rc)
    return rc;
  if (h.n_blocks != 1 || len != sizeof h + sizeof(struct ipc_wire_block))
    return nrt_error_set(err, NRT_EINVAL, "a block handle lists %u blocks in %zu bytes",
                         h.n_blocks, len);
  struct ipc_wire_block w;
  ipc_wire_read(handle, 0, &w);
  int fd = -1;
  if ((rc = ipc_fd_for(&w, 1, 0, fds, n_fds, err, &fd)) != NRT_OK)
    return rc;
  pthread_mutex_lock(&P->mu);
  rc = ipc_ensure_joined(h.ns, err);
  if (rc == NRT_OK)
    rc = ipc_lock(err);
  if (rc == NRT_OK) {
    struct ipc_record *r;
    rc = ipc_import_one(&w, fd, &r, err);
    if (rc)
      ipc_drop_transits(&w, 1);
    else
      *out = &r->mi;
    ipc_unlock();
  }
  pthread_mutex_unlock(&P->mu);
  return rc;
}

int nrt_ipc_handle_drop(const void *handle, size_t len, struct nrt_error *err) {
  struct ipc_wire_header h;
  int rc = ipc_handle_check(handle, len, 0, &h, err);
  if (rc)
    return rc;
  pthread_mutex_lock(&P->mu);
  rc = ipc_ensure_joined(h.ns, err);
  if (rc == NRT_OK)
    rc = ipc_lock(err);
  if (rc == NRT_OK) {
    for (uint32_t i = 0; i < h.n_blocks; i++) {
      struct ipc_wire_block w;
      ipc_wire_read(handle, i, &w);
      ipc_drop_transits(&w, 1);
    }
    ipc_unlock();
  }
  pthread_mutex_unlock(&P->mu);
  return rc;
}

/* ------------------------------------------------------------ the shared allocator */

static void *shared_malloc(size_t size, void *opaque) {
  (void)opaque;
  struct ipc_record *r;
  return ipc_alloc_record(size, &r, NULL) ? NULL : r->mi.data;
}

static void shared_free(void *ptr, size_t size, void *opaque) {
  (void)size;
  (void)opaque;
  pthread_mutex_lock(&P->mu);
  struct ipc_record *r = P->state == PROC_ON ? ipc_record_find(ptr) : NULL;
  pthread_mutex_unlock(&P->mu);
  if (r)
    nrt_mi_decref(&r->mi);
}

static void *shared_realloc(void *ptr, size_t old_size, size_t new_size, void *opaque) {
  void *p = shared_malloc(new_size, opaque);
  if (p) {
    memcpy(p, ptr, old_size < new_size ? old_size : new_size);
    shared_free(ptr, old_size, opaque);
  }
  return p;
}

static const struct nrt_allocator shared_allocator = {shared_malloc, shared_realloc,
                                                      shared_free, NULL};

const struct nrt_allocator *nrt_ipc_allocator(void) {
  return &shared_allocator;
}
