/* Collection (dead holders, expired or ownerless transits, empty segments, stray objects),
 * recovery after a process died holding the registry lock, statistics, and the timer. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "ipc/ipc_internal.h"

#define P (&nrt_ipc_g)

/* Whether the creator of FORKING entry h is still there to finish or undo the fork. */
static bool creator_alive(const struct ipc_holder *h) {
  if (!h->creator)
    return false;
  uint32_t c = h->creator - 1;
  const struct ipc_holder *ch = ipc_entry(TBL_HOLDERS, c);
  if (!ch || ch->state != IPC_LIVE || ch->gen != h->creator_gen)
    return false;
  return (c == P->slot && P->state == PROC_ON) || ipc_holder_alive(ch, c);
}

static bool owner_gone(const struct ipc_transit *t) {
  if (!t->owner)
    return false; /* an orphan: its exporter exited normally */
  const struct ipc_holder *h = ipc_entry(TBL_HOLDERS, t->owner - 1);
  return !h || h->state == IPC_FREE || h->gen != t->owner_gen;
}

void ipc_collect_locked(struct nrt_ipc_collect_result *res) {
  struct nrt_ipc_collect_result before = nrt_ipc_tally;
  uint32_t cap = ipc_table_capacity(TBL_HOLDERS);
  for (uint32_t i = 0; i < cap; i++) {
    const struct ipc_holder *h = ipc_entry(TBL_HOLDERS, i);
    if (!h || (i == P->slot && P->state == PROC_ON))
      continue;
    if ((h->state == IPC_LIVE && !ipc_holder_alive(h, i)) ||
        (h->state == IPC_FORKING && !creator_alive(h)))
      ipc_holder_reap(i, true);
  }
  uint64_t now = ipc_now_ms(), timeout = P->opt.transit_timeout_ms;
  cap = ipc_table_capacity(TBL_TRANSITS);
  for (uint32_t i = 0; i < cap; i++) {
    const struct ipc_transit *t = ipc_entry(TBL_TRANSITS, i);
    if (t && t->state == IPC_LIVE && (owner_gone(t) || (timeout && now - t->born_ms > timeout)))
      ipc_transit_release(i);
  }
  cap = ipc_table_capacity(TBL_SEGMENTS);
  for (uint32_t i = 0; i < cap; i++) {
    struct ipc_segment *e = ipc_entry(TBL_SEGMENTS, i);
    if (!e || e->state != IPC_LIVE)
      continue;
    if (e->open_by) {
      const struct ipc_holder *h = ipc_entry(TBL_HOLDERS, e->open_by - 1);
      if (!h || h->state != IPC_LIVE)
        e->open_by = 0;
    }
    if (!e->live && !e->open_by)
      ipc_seg_destroy(i);
  }
  nrt_ipc_tally.objects_removed += ipc_sweep();
  res->holders_reaped = nrt_ipc_tally.holders_reaped - before.holders_reaped;
  res->transits_released = nrt_ipc_tally.transits_released - before.transits_released;
  res->blocks_freed = nrt_ipc_tally.blocks_freed - before.blocks_freed;
  res->segments_destroyed = nrt_ipc_tally.segments_destroyed - before.segments_destroyed;
  res->objects_removed = nrt_ipc_tally.objects_removed - before.objects_removed;
}

/* Counts one reference to the block ref names; false when it names no live block. */
static bool count_ref(const struct ipc_ref *ref) {
  struct ipc_block *b;
  if (ipc_block_get(ref, -1, &b, NULL))
    return false;
  b->count++;
  return true;
}

/* Walks a segment's blocks, zeroing their counts (or, with `settle`, freeing those nobody
 * counted), and recomputes its live totals. */
static void walk_segment(uint32_t i, bool settle) {
  struct ipc_segment *e = ipc_entry(TBL_SEGMENTS, i);
  char *base = ipc_seg_map(i, e->gen, -1, NULL);
  if (!base) {
    /* Its object is gone (removed by a process that died before freeing the entry). */
    REG->segment_bytes -= e->size;
    ipc_entry_free(TBL_SEGMENTS, i);
    return;
  }
  e->live = 0;
  e->live_bytes = 0;
  for (uint64_t off = IPC_SEG_HEADER; off + sizeof(struct ipc_block) <= e->used;) {
    struct ipc_block *b = (struct ipc_block *)(base + off);
    if (b->magic != IPC_MAGIC_BLOCK || b->off != off || b->span < sizeof *b ||
        b->span > e->used - off) {
      e->used = off; /* a block whose header was never completed */
      break;
    }
    if (b->state == IPC_LIVE) {
      if (!settle) {
        b->count = 0;
      } else if (!b->count) {
        b->state = IPC_FREE;
        REG->blocks_freed++;
        nrt_ipc_tally.blocks_freed++;
      }
    }
    if (b->state == IPC_LIVE) {
      e->live++;
      e->live_bytes += b->size;
      REG->blocks++;
      REG->block_bytes += b->size;
    }
    off += b->span;
  }
}

void ipc_recover(void) {
  for (int t = 0; t < TBL_COUNT; t++)
    ipc_table_rebuild(t);
  /* Pass 1: every count to zero; segment totals from the block headers. */
  REG->segment_bytes = REG->blocks = REG->block_bytes = 0;
  uint32_t nseg = ipc_table_capacity(TBL_SEGMENTS);
  for (uint32_t i = 0; i < nseg; i++) {
    struct ipc_segment *e = ipc_entry(TBL_SEGMENTS, i);
    if (e && e->state == IPC_LIVE) {
      REG->segment_bytes += e->size;
      walk_segment(i, false);
    }
  }
  /* Pass 2: count the records of every registered holder and the transits. */
  uint32_t cap = ipc_table_capacity(TBL_HOLDERS);
  for (uint32_t i = 0; i < cap; i++) {
    const struct ipc_holder *h = ipc_entry(TBL_HOLDERS, i);
    if (!h || h->state == IPC_FREE)
      continue;
    for (uint32_t k = 0; k < h->n_chunks; k++) {
      struct ipc_record *recs = ipc_holder_chunk_map(i, h->gen, k);
      if (!recs)
        continue;
      for (uint32_t j = 0; j < (IPC_RECORDS_BASE << k); j++)
        if (recs[j].state == IPC_LIVE)
          (void)count_ref(&recs[j].ref);
      munmap(recs, ipc_chunk_bytes(k));
    }
  }
  cap = ipc_table_capacity(TBL_TRANSITS);
  for (uint32_t i = 0; i < cap; i++) {
    const struct ipc_transit *t = ipc_entry(TBL_TRANSITS, i);
    if (t && t->state == IPC_LIVE && !count_ref(&t->ref))
      ipc_entry_free(TBL_TRANSITS, i);
  }
  /* Pass 3: free what nobody counts; remove empty segments nobody allocates from. */
  REG->blocks = REG->block_bytes = 0;
  for (uint32_t i = 0; i < nseg; i++) {
    struct ipc_segment *e = ipc_entry(TBL_SEGMENTS, i);
    if (!e || e->state != IPC_LIVE)
      continue;
    walk_segment(i, true);
    if (e->state == IPC_LIVE && !e->live) {
      const struct ipc_holder *h = e->open_by ? ipc_entry(TBL_HOLDERS, e->open_by - 1) : NULL;
      if (h && h->state == IPC_LIVE)
        e->used = IPC_SEG_HEADER;
      else
        ipc_seg_destroy(i);
    }
  }
  REG->needs_recovery = 0;
}

int nrt_ipc_collect(struct nrt_ipc_collect_result *out, struct nrt_error *err) {
  struct nrt_ipc_collect_result res = {0};
  pthread_mutex_lock(&P->mu);
  int rc = ipc_ensure_joined(NULL, err);
  if (rc == NRT_OK)
    rc = ipc_lock(err);
  if (rc == NRT_OK) {
    ipc_collect_locked(&res);
    ipc_maps_prune(false);
    ipc_unlock();
  }
  pthread_mutex_unlock(&P->mu);
  if (out)
    *out = res;
  return rc;
}

int nrt_ipc_stats(struct nrt_ipc_stats *out, struct nrt_error *err) {
  memset(out, 0, sizeof *out);
  pthread_mutex_lock(&P->mu);
  int rc = ipc_ensure_joined(NULL, err);
  if (rc == NRT_OK)
    rc = ipc_lock(err);
  if (rc == NRT_OK) {
    out->holders = REG->tables[TBL_HOLDERS].in_use;
    out->segments = REG->tables[TBL_SEGMENTS].in_use;
    out->segment_bytes = REG->segment_bytes;
    out->blocks = REG->blocks;
    out->block_bytes = REG->block_bytes;
    out->transits = REG->tables[TBL_TRANSITS].in_use;
    out->blocks_made = REG->blocks_made;
    out->blocks_freed = REG->blocks_freed;
    out->holders_reaped = REG->holders_reaped;
    out->recoveries = REG->recoveries;
    ipc_unlock();
    out->local_blocks = P->live_records;
    for (size_t i = 0; i < P->n_maps; i++)
      out->local_mappings += P->maps[i].addr != NULL;
  }
  pthread_mutex_unlock(&P->mu);
  return rc;
}

uint64_t nrt_ipc_segments(void) {
  struct nrt_ipc_stats s;
  return nrt_ipc_stats(&s, NULL) == NRT_OK ? s.segments : 0;
}

/* ------------------------------------------------------------ timer */

static void *timer_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&P->mu);
  while (!P->timer_stop) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t ns = (uint64_t)ts.tv_nsec + (uint64_t)P->opt.collect_interval_ms * 1000000u;
    ts.tv_sec += (time_t)(ns / 1000000000u);
    ts.tv_nsec = (long)(ns % 1000000000u);
    int rc = pthread_cond_timedwait(&P->timer_cv, &P->mu, &ts);
    if (P->timer_stop)
      break;
    if (rc == ETIMEDOUT) {
      pthread_mutex_unlock(&P->mu);
      nrt_ipc_collect(NULL, NULL);
      pthread_mutex_lock(&P->mu);
    }
  }
  pthread_mutex_unlock(&P->mu);
  return NULL;
}

void ipc_timer_start(void) {
  if (P->timer_running)
    return;
  P->timer_stop = 0;
  if (pthread_create(&P->timer, NULL, timer_main, NULL) == 0)
    P->timer_running = 1;
}

void ipc_timer_stop(void) {
  pthread_mutex_lock(&P->mu);
  int running = P->timer_running;
  P->timer_stop = 1;
  pthread_cond_broadcast(&P->timer_cv);
  pthread_mutex_unlock(&P->mu);
  if (running) {
    pthread_join(P->timer, NULL);
    pthread_mutex_lock(&P->mu);
    P->timer_running = 0;
    pthread_mutex_unlock(&P->mu);
  }
}
