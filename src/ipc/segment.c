/* Data segments: creation, removal, this process's cached mappings, and the blocks inside them
 * (a bump allocator per segment: a segment is reset when its last block dies and removed when
 * nobody allocates from it any more). Everything here runs under the registry lock. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ipc/ipc_internal.h"

struct nrt_ipc_collect_result nrt_ipc_tally;

static uint64_t round_up(uint64_t n, uint64_t to) {
  return (n + to - 1) / to * to;
}

static void seg_path(char *buf, uint32_t seg) {
  ipc_path(buf, nrt_ipc_g.ns, ".s%u", seg);
}

/* Makes room in the mapping cache for segment index `seg`. */
static int maps_reserve(uint32_t seg, struct nrt_error *err) {
  struct ipc_proc *p = &nrt_ipc_g;
  if (seg < p->n_maps)
    return NRT_OK;
  size_t n = p->n_maps ? p->n_maps : 16;
  while (n <= seg)
    n *= 2;
  /* Process-wide bookkeeping comes from the C library, as nrt's leak table does: it outlives
   * every operation, so it must not show in the statistics nor in failure-injection runs. */
  struct ipc_map *m = realloc(p->maps, n * sizeof *m);
  if (!m)
    return nrt_error_set(err, NRT_ENOMEM, "out of memory for the segment table");
  memset(m + p->n_maps, 0, (n - p->n_maps) * sizeof *m);
  p->maps = m;
  p->n_maps = n;
  return NRT_OK;
}

static void unmap_one(struct ipc_map *m) {
  munmap(m->addr, m->size);
  m->addr = NULL;
}

char *ipc_seg_map(uint32_t seg, uint32_t gen, int fd, struct nrt_error *err) {
  struct ipc_proc *p = &nrt_ipc_g;
  const struct ipc_segment *e = ipc_entry(TBL_SEGMENTS, seg);
  if (!e) {
    nrt_error_set(err, NRT_EINVAL, "segment %u does not exist in namespace %s", seg, p->ns);
    return NULL;
  }
  if (e->state != IPC_LIVE || e->gen != gen) {
    nrt_error_set(err, NRT_EVALUE, "segment %u (generation %u) was already freed", seg, gen);
    return NULL;
  }
  if (maps_reserve(seg, err))
    return NULL;
  struct ipc_map *m = &p->maps[seg];
  if (m->addr && m->gen == gen)
    return m->addr;
  if (m->addr) {
    if (m->uses) {
      nrt_error_set(err, NRT_EINVAL, "segment %u changed under live references", seg);
      return NULL;
    }
    unmap_one(m); /* an earlier segment of that index */
  }
  char path[IPC_PATH_MAX];
  seg_path(path, seg);
  void *addr;
  if (ipc_obj_map(path, fd, e->size, fd >= 0 ? e->ino : 0, &addr, err))
    return NULL;
  const struct ipc_segment_header *h = addr;
  if (h->magic != IPC_MAGIC_SEGMENT || h->id != seg || h->gen != gen) {
    munmap(addr, e->size);
    nrt_error_set(err, NRT_EINVAL, "%s does not hold segment %u of generation %u", path, seg,
                  gen);
    return NULL;
  }
  *m = (struct ipc_map){(char *)addr, e->size, gen, 0};
  return m->addr;
}

int ipc_block_get(const struct ipc_ref *ref, int fd, struct ipc_block **out,
                  struct nrt_error *err) {
  *out = NULL;
  char *base = ipc_seg_map(ref->seg, ref->seg_gen, fd, err);
  if (!base)
    return err ? err->code : NRT_EINVAL;
  const struct ipc_segment *e = ipc_entry(TBL_SEGMENTS, ref->seg);
  if (ref->off % IPC_ALIGN || ref->off < IPC_SEG_HEADER ||
      ref->off > e->size - sizeof(struct ipc_block))
    return nrt_error_set(err, NRT_EINVAL, "offset %llu is not a block of segment %u",
                         (unsigned long long)ref->off, ref->seg);
  if (ref->off >= e->used)
    return nrt_error_set(err, NRT_EVALUE, "block %u:%llu was already freed", ref->seg,
                         (unsigned long long)ref->off);
  struct ipc_block *b = (struct ipc_block *)(base + ref->off);
  if (b->magic != IPC_MAGIC_BLOCK || b->off != ref->off || b->span > e->used - ref->off)
    return nrt_error_set(err, NRT_EINVAL, "offset %llu is not a block of segment %u",
                         (unsigned long long)ref->off, ref->seg);
  if (b->state != IPC_LIVE || b->gen != ref->gen)
    return nrt_error_set(err, NRT_EVALUE, "block %u:%llu was already freed", ref->seg,
                         (unsigned long long)ref->off);
  *out = b;
  return NRT_OK;
}

/* Makes a segment of `size` bytes; `open_by` is the holder that will allocate from it. */
static int seg_create(uint64_t size, uint32_t open_by, uint32_t *seg, struct nrt_error *err) {
  struct ipc_proc *p = &nrt_ipc_g;
  uint64_t limit = p->opt.max_bytes;
  if (limit && REG->segment_bytes + size > limit) {
    struct nrt_ipc_collect_result res;
    ipc_collect_locked(&res);
    if (REG->segment_bytes + size > limit)
      return nrt_error_set(err, NRT_ENOMEM,
                           "shared memory limit of %llu bytes reached in namespace %s (%llu "
                           "in use, %llu more requested)",
                           (unsigned long long)limit, p->ns,
                           (unsigned long long)REG->segment_bytes, (unsigned long long)size);
  }
  uint32_t i;
  int rc = ipc_entry_alloc(TBL_SEGMENTS, &i, err);
  if (rc)
    return rc;
  if ((rc = maps_reserve(i, err)) != NRT_OK) {
    ipc_entry_free(TBL_SEGMENTS, i);
    return rc;
  }
  struct ipc_segment *e = ipc_entry(TBL_SEGMENTS, i);
  char path[IPC_PATH_MAX];
  seg_path(path, i);
  void *addr;
  uint64_t ino;
  rc = ipc_obj_create(path, size, &addr, &ino, err);
  if (rc == NRT_ENOMEM) {
    /* /dev/shm is full: what dead processes hold may be enough. */
    struct nrt_ipc_collect_result res;
    ipc_collect_locked(&res);
    rc = ipc_obj_create(path, size, &addr, &ino, err);
  }
  if (rc) {
    ipc_entry_free(TBL_SEGMENTS, i);
    return rc;
  }
  if (p->maps[i].addr && !p->maps[i].uses)
    unmap_one(&p->maps[i]);
  struct ipc_segment_header *h = addr;
  h->id = i;
  h->gen = e->gen;
  h->size = size;
  h->magic = IPC_MAGIC_SEGMENT;
  e->size = size;
  e->used = IPC_SEG_HEADER;
  e->ino = ino;
  e->open_by = open_by;
  e->state = IPC_LIVE;
  REG->segment_bytes += size;
  p->maps[i] = (struct ipc_map){(char *)addr, size, e->gen, 0};
  *seg = i;
  return NRT_OK;
}

void ipc_seg_destroy(uint32_t seg) {
  struct ipc_proc *p = &nrt_ipc_g;
  struct ipc_segment *e = ipc_entry(TBL_SEGMENTS, seg);
  if (!e || e->state != IPC_LIVE)
    return;
  char path[IPC_PATH_MAX];
  seg_path(path, seg);
  struct ipc_map *m = seg < p->n_maps && p->maps[seg].gen == e->gen ? &p->maps[seg] : NULL;
  if (m && m->addr && m->uses) {
    unlink(path); /* references kept across nrt_ipc_shutdown still read it: keep its pages */
  } else {
    ipc_obj_destroy(path);
    if (m && m->addr)
      unmap_one(m);
  }
  if (p->cur_seg == seg + 1)
    p->cur_seg = 0;
  REG->segment_bytes -= e->size;
  ipc_entry_free(TBL_SEGMENTS, seg);
  nrt_ipc_tally.segments_destroyed++;
}

void ipc_seg_close(uint32_t seg) {
  struct ipc_segment *e = ipc_entry(TBL_SEGMENTS, seg);
  if (!e || e->state != IPC_LIVE)
    return;
  e->open_by = 0;
  if (!e->live)
    ipc_seg_destroy(seg);
}

int ipc_block_alloc(size_t size, struct ipc_ref *ref, struct ipc_block **out,
                    struct nrt_error *err) {
  struct ipc_proc *p = &nrt_ipc_g;
  *out = NULL;
  if (size > ((uint64_t)1 << 46))
    return nrt_error_set(err, NRT_ERANGE, "shared block of %zu bytes is too large", size);
  uint64_t span = round_up(sizeof(struct ipc_block) + size, IPC_ALIGN);
  uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
  uint64_t seg_size = round_up(p->opt.segment_size ? p->opt.segment_size : IPC_DEFAULT_SEGMENT,
                               page);
  uint32_t seg;
  int rc;
  if (span > seg_size / 4) {
    /* A large block gets a segment of its own, removed with it. */
    rc = seg_create(round_up(IPC_SEG_HEADER + span, page), 0, &seg, err);
    if (rc)
      return rc;
  } else {
    struct ipc_segment *e = p->cur_seg ? ipc_entry(TBL_SEGMENTS, p->cur_seg - 1) : NULL;
    if (e && (e->state != IPC_LIVE || e->open_by != p->slot + 1))
      e = NULL, p->cur_seg = 0;
    if (e && e->used + span > e->size) {
      ipc_seg_close(p->cur_seg - 1);
      e = NULL, p->cur_seg = 0;
    }
    if (!e) {
      rc = seg_create(seg_size, p->slot + 1, &seg, err);
      if (rc)
        return rc;
      p->cur_seg = seg + 1;
    }
    seg = p->cur_seg - 1;
  }
  struct ipc_segment *e = ipc_entry(TBL_SEGMENTS, seg);
  char *base = ipc_seg_map(seg, e->gen, -1, err);
  if (!base)
    return err ? err->code : NRT_EIO;
  uint64_t off = e->used;
  struct ipc_block *b = (struct ipc_block *)(base + off);
  /* The header is complete before `used` covers it: a recount walks only [header, used). */
  *b = (struct ipc_block){.magic = IPC_MAGIC_BLOCK,
                          .state = IPC_LIVE,
                          .gen = (uint32_t)REG->next_gen++,
                          .off = off,
                          .size = size,
                          .span = span,
                          .count = 1};
  e->used = off + span;
  e->live++;
  e->live_bytes += size;
  REG->blocks++;
  REG->block_bytes += size;
  REG->blocks_made++;
  *ref = (struct ipc_ref){seg, e->gen, off, b->gen, 0};
  *out = b;
  return NRT_OK;
}

/* Frees a block whose count reached zero. */
static void block_free(uint32_t seg, struct ipc_segment *e, struct ipc_block *b) {
  b->state = IPC_FREE;
  e->live--;
  e->live_bytes -= b->size;
  REG->blocks--;
  REG->block_bytes -= b->size;
  REG->blocks_freed++;
  nrt_ipc_tally.blocks_freed++;
  if (e->live)
    return;
  if (e->open_by) {
    const struct ipc_holder *h = ipc_entry(TBL_HOLDERS, e->open_by - 1);
    if (h && h->state == IPC_LIVE) {
      e->used = IPC_SEG_HEADER; /* empty: its holder allocates from the start again */
      return;
    }
  }
  ipc_seg_destroy(seg);
}

int ipc_block_put(const struct ipc_ref *ref) {
  struct ipc_block *b;
  if (ipc_block_get(ref, -1, &b, NULL))
    return 0;
  if (b->count > 1) {
    b->count--;
    return 0;
  }
  b->count = 0;
  block_free(ref->seg, ipc_entry(TBL_SEGMENTS, ref->seg), b);
  return 1;
}

void ipc_maps_prune(bool all_unused) {
  struct ipc_proc *p = &nrt_ipc_g;
  for (uint32_t i = 0; i < p->n_maps; i++) {
    struct ipc_map *m = &p->maps[i];
    if (!m->addr || m->uses)
      continue;
    const struct ipc_segment *e = ipc_entry(TBL_SEGMENTS, i);
    if (all_unused || !e || e->state != IPC_LIVE || e->gen != m->gen)
      unmap_one(m);
  }
}

void ipc_maps_forget(void) {
  struct ipc_proc *p = &nrt_ipc_g;
  for (size_t i = 0; i < p->n_maps; i++)
    if (p->maps[i].addr)
      unmap_one(&p->maps[i]);
  free(p->maps);
  p->maps = NULL;
  p->n_maps = 0;
  p->cur_seg = 0;
}
