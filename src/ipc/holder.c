/* This process as a holder: joining and leaving the namespace, its records (the MemInfos of
 * the shared blocks it holds, in record chunks of its own), the map from payload addresses to
 * records, the destructor that releases a block when this process's last reference goes, and
 * the reaping of holders that died. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ipc/ipc_internal.h"

#define P (&nrt_ipc_g)

/* ------------------------------------------------------------ address map */

static size_t addr_slot(uintptr_t a, size_t cap) {
  uint64_t h = (uint64_t)a >> 6;
  h *= 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 17) & (cap - 1);
}

static void addr_put(struct ipc_record **t, size_t cap, struct ipc_record *r) {
  size_t i = addr_slot((uintptr_t)r->mi.data, cap);
  while (t[i])
    i = (i + 1) & (cap - 1);
  t[i] = r;
}

/* Room for one more entry at load <= 1/2, so an insert never allocates. */
static int addr_reserve(struct nrt_error *err) {
  struct ipc_addr_map *m = &P->addrs;
  if ((m->n + 1) * 2 <= m->cap)
    return NRT_OK;
  size_t cap = m->cap ? m->cap * 2 : 1024;
  struct ipc_record **t = calloc(cap, sizeof *t);
  if (!t)
    return nrt_error_set(err, NRT_ENOMEM, "out of memory for the shared block map");
  for (size_t i = 0; i < m->cap; i++)
    if (m->slots[i])
      addr_put(t, cap, m->slots[i]);
  free(m->slots);
  m->slots = t;
  m->cap = cap;
  return NRT_OK;
}

struct ipc_record *ipc_record_find(const void *data) {
  struct ipc_addr_map *m = &P->addrs;
  if (!m->cap)
    return NULL;
  for (size_t i = addr_slot((uintptr_t)data, m->cap); m->slots[i]; i = (i + 1) & (m->cap - 1))
    if (m->slots[i]->mi.data == data)
      return m->slots[i];
  return NULL;
}

/* Removes r (linear probing: the entries after it that would no longer be found move back). */
static void addr_remove(struct ipc_record *r) {
  struct ipc_addr_map *m = &P->addrs;
  if (!m->cap)
    return;
  size_t i = addr_slot((uintptr_t)r->mi.data, m->cap);
  while (m->slots[i] && m->slots[i] != r)
    i = (i + 1) & (m->cap - 1);
  if (!m->slots[i])
    return;
  m->slots[i] = NULL;
  m->n--;
  for (size_t j = (i + 1) & (m->cap - 1); m->slots[j]; j = (j + 1) & (m->cap - 1)) {
    struct ipc_record *e = m->slots[j];
    m->slots[j] = NULL;
    addr_put(m->slots, m->cap, e);
  }
}

void ipc_record_unindex(struct ipc_record *r) {
  addr_remove(r);
}

static void addr_clear(void) {
  free(P->addrs.slots);
  P->addrs = (struct ipc_addr_map){NULL, 0, 0};
}

/* ------------------------------------------------------------ records */

static uint32_t chunk_first(uint32_t k) {
  return IPC_RECORDS_BASE * ((1u << k) - 1u);
}

static struct ipc_record *record_at(uint32_t index) {
  uint64_t q = (uint64_t)index / IPC_RECORDS_BASE + 1;
  uint32_t k = 63u - (uint32_t)__builtin_clzll(q);
  return P->chunk[k] + (index - chunk_first(k));
}

bool ipc_record_owned(const void *mi) {
  uintptr_t a = (uintptr_t)mi;
  for (uint32_t k = 0; k < P->n_chunks; k++) {
    uintptr_t lo = (uintptr_t)P->chunk[k];
    if (a >= lo && a < lo + ipc_chunk_bytes(k))
      return (a - lo) % sizeof(struct ipc_record) == 0;
  }
  return false;
}

bool ipc_record_tryref(struct ipc_record *r) {
  size_t v = __atomic_load_n(&r->mi.refct, __ATOMIC_RELAXED);
  while (v != 0)
    if (__atomic_compare_exchange_n(&r->mi.refct, &v, v + 1, true, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
      return true;
  return false;
}

static int free_reserve(size_t n, struct nrt_error *err) {
  if (n <= P->cap_free)
    return NRT_OK;
  uint32_t *f = realloc(P->free_recs, n * sizeof *f);
  if (!f)
    return nrt_error_set(err, NRT_ENOMEM, "out of memory for the shared record list");
  P->free_recs = f;
  P->cap_free = n;
  return NRT_OK;
}

/* Adds record chunk k of our holder (registry lock held). */
static int chunk_add(struct nrt_error *err) {
  uint32_t k = P->n_chunks;
  if (k >= IPC_HOLDER_MAX_CHUNKS)
    return nrt_error_set(err, NRT_ENOMEM, "this process holds too many shared blocks");
  int rc = free_reserve(P->n_free + (IPC_RECORDS_BASE << k), err);
  if (rc)
    return rc;
  char path[IPC_PATH_MAX];
  ipc_chunk_path(path, P->slot, P->slot_gen, k);
  void *addr;
  rc = ipc_obj_create(path, ipc_chunk_bytes(k), &addr, NULL, err);
  if (rc)
    return rc;
  P->chunk[k] = addr;
  P->n_chunks = k + 1;
  struct ipc_holder *h = ipc_entry(TBL_HOLDERS, P->slot);
  h->n_chunks = k + 1;
  uint32_t first = chunk_first(k), n = IPC_RECORDS_BASE << k;
  for (uint32_t j = n; j-- > 0;)
    P->free_recs[P->n_free++] = first + j;
  return NRT_OK;
}

int ipc_record_reserve(struct nrt_error *err) {
  int rc = addr_reserve(err);
  if (rc == NRT_OK && !P->n_free)
    rc = chunk_add(err);
  return rc;
}

static void record_dtor(void *data, size_t size, void *info);

int ipc_record_new(const struct ipc_ref *ref, char *data, uint64_t size,
                   struct ipc_record **out, struct nrt_error *err) {
  int rc = ipc_record_reserve(err);
  if (rc)
    return rc;
  uint32_t index = P->free_recs[--P->n_free];
  struct ipc_record *r = record_at(index);
  nrt_mi_init(&r->mi, data, (size_t)size, record_dtor, r);
  r->ref = *ref;
  r->index = index;
  r->state = IPC_LIVE;
  addr_put(P->addrs.slots, P->addrs.cap, r);
  P->addrs.n++;
  P->maps[ref->seg].uses++;
  P->live_records++;
  *out = r;
  return NRT_OK;
}

/* Runs when this process's last reference to a shared block goes (refcount 0). */
static void record_dtor(void *data, size_t size, void *info) {
  (void)data;
  (void)size;
  struct ipc_record *r = info;
  pthread_mutex_lock(&P->mu);
  /* A record of an earlier incarnation (before nrt_ipc_shutdown) holds nothing any more. */
  if (P->state == PROC_ON && ipc_record_owned(r) && r->state == IPC_LIVE &&
      ipc_lock(NULL) == NRT_OK) {
    addr_remove(r);
    P->maps[r->ref.seg].uses--;
    r->state = IPC_FREE;
    ipc_block_put(&r->ref);
    ipc_unlock();
    P->free_recs[P->n_free++] = r->index;
    P->live_records--;
  }
  pthread_mutex_unlock(&P->mu);
}

int ipc_records_rebuild(void) {
  size_t total = (size_t)IPC_RECORDS_BASE * ((1u << P->n_chunks) - 1u);
  if (free_reserve(total, NULL))
    return -1;
  addr_clear();
  P->n_free = 0;
  P->live_records = 0;
  for (size_t i = 0; i < P->n_maps; i++)
    P->maps[i].uses = 0;
  for (uint32_t k = P->n_chunks; k-- > 0;) {
    for (uint32_t j = IPC_RECORDS_BASE << k; j-- > 0;) {
      struct ipc_record *r = &P->chunk[k][j];
      if (r->state != IPC_LIVE) {
        P->free_recs[P->n_free++] = chunk_first(k) + j;
        continue;
      }
      if (addr_reserve(NULL) || r->ref.seg >= P->n_maps)
        return -1;
      addr_put(P->addrs.slots, P->addrs.cap, r);
      P->addrs.n++;
      P->maps[r->ref.seg].uses++;
      P->live_records++;
    }
  }
  return 0;
}

/* ------------------------------------------------------------ joining */

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void at_exit(void) {
  nrt_ipc_shutdown();
}

static void register_once(void) {
  ipc_fork_register();
  atexit(at_exit);
}

static char default_ns[NRT_IPC_NAMESPACE_MAX + 1];

/* The namespace to join when none is given. */
static int pick_namespace(char *out, struct nrt_error *err) {
  const char *env = getenv("NRT_IPC_NAMESPACE");
  if (env && *env) {
    if (!ipc_ns_valid(env))
      return nrt_error_set(err, NRT_EINVAL,
                           "NRT_IPC_NAMESPACE=\"%.40s\" is not a valid namespace name (1 to %d "
                           "letters, digits, '_' or '-')",
                           env, NRT_IPC_NAMESPACE_MAX);
    snprintf(out, NRT_IPC_NAMESPACE_MAX + 1, "%s", env);
  } else {
    snprintf(out, NRT_IPC_NAMESPACE_MAX + 1, "u%u", (unsigned)getuid());
  }
  return NRT_OK;
}

/* Registers this process in the registry (locked): a holder entry and record chunk 0. */
static int register_holder(struct nrt_error *err) {
  uint32_t i;
  int rc = ipc_entry_alloc(TBL_HOLDERS, &i, err);
  if (rc)
    return rc;
  struct ipc_holder *h = ipc_entry(TBL_HOLDERS, i);
  P->slot = i;
  P->slot_gen = h->gen;
  P->n_chunks = 0;
  P->n_free = 0;
  P->live_records = 0;
  if ((rc = chunk_add(err)) != NRT_OK) {
    ipc_entry_free(TBL_HOLDERS, i);
    return rc;
  }
  h->pid = (int32_t)getpid();
  h->start_time = ipc_start_time(h->pid);
  h->state = IPC_LIVE;
  return NRT_OK;
}

int ipc_ensure_joined(const char *ns_hint, struct nrt_error *err) {
  if (P->state == PROC_ON) {
    if (ns_hint && strcmp(ns_hint, P->ns) != 0)
      return nrt_error_set(err, NRT_EINVAL,
                           "the handle belongs to namespace %s; this process uses %s", ns_hint,
                           P->ns);
    return NRT_OK;
  }
  int rc;
  if (ns_hint) {
    if (!ipc_ns_valid(ns_hint))
      return nrt_error_set(err, NRT_EINVAL, "invalid namespace name in handle");
    snprintf(P->ns, sizeof P->ns, "%s", ns_hint);
  } else if (P->opt_explicit && P->ns[0]) {
    /* nrt_ipc_init chose it; we are joining again after nrt_ipc_shutdown. */
  } else if ((rc = pick_namespace(P->ns, err)) != NRT_OK) {
    return rc;
  }
  if ((rc = ipc_registry_open(err)) != NRT_OK)
    return rc;
  rc = register_holder(err);
  if (rc == NRT_OK) {
    struct nrt_ipc_collect_result res;
    ipc_collect_locked(&res); /* what earlier processes left behind */
  }
  ipc_unlock();
  if (rc) {
    ipc_registry_unmap();
    return rc;
  }
  P->state = PROC_ON;
  pthread_once(&once, register_once);
  if (P->opt.collect_interval_ms)
    ipc_timer_start();
  return NRT_OK;
}

int nrt_ipc_init(const struct nrt_ipc_options *options, struct nrt_error *err) {
  struct nrt_ipc_options o = options ? *options : (struct nrt_ipc_options){0};
  char ns[NRT_IPC_NAMESPACE_MAX + 1];
  if (o.namespace_name) {
    if (!ipc_ns_valid(o.namespace_name))
      return nrt_error_set(err, NRT_EINVAL,
                           "namespace name \"%.40s\" is invalid (1 to %d letters, digits, '_' "
                           "or '-')",
                           o.namespace_name, NRT_IPC_NAMESPACE_MAX);
    snprintf(ns, sizeof ns, "%s", o.namespace_name);
  } else {
    int rc = pick_namespace(ns, err);
    if (rc)
      return rc;
  }
  o.namespace_name = NULL; /* the caller's string need not outlive the call */
  pthread_mutex_lock(&P->mu);
  int rc = NRT_OK;
  if (P->state == PROC_ON) {
    if (strcmp(ns, P->ns) != 0 || memcmp(&o, &P->opt, sizeof o) != 0)
      rc = nrt_error_set(err, NRT_EINVAL,
                         "this process already joined namespace %s with other options", P->ns);
  } else {
    snprintf(P->ns, sizeof P->ns, "%s", ns);
    P->opt = o;
    P->opt_explicit = 1;
    rc = ipc_ensure_joined(NULL, err);
  }
  pthread_mutex_unlock(&P->mu);
  return rc;
}

/* ------------------------------------------------------------ reaping, leaving */

struct ipc_record *ipc_holder_chunk_map(uint32_t index, uint32_t gen, uint32_t k) {
  char path[IPC_PATH_MAX];
  ipc_chunk_path(path, index, gen, k);
  void *addr;
  return ipc_obj_map(path, -1, ipc_chunk_bytes(k), 0, &addr, NULL) ? NULL : addr;
}

/* Releases the blocks of the LIVE records among n at recs. */
static void put_records(const struct ipc_record *recs, size_t n) {
  for (size_t j = 0; j < n; j++)
    if (recs[j].state == IPC_LIVE)
      ipc_block_put(&recs[j].ref);
}

/* Releases or orphans the transits of holder `index`. */
static void holder_transits(uint32_t index, uint32_t gen, bool crashed) {
  uint32_t cap = ipc_table_capacity(TBL_TRANSITS);
  for (uint32_t i = 0; i < cap; i++) {
    struct ipc_transit *t = ipc_entry(TBL_TRANSITS, i);
    if (!t || t->state != IPC_LIVE || t->owner != index + 1 || t->owner_gen != gen)
      continue;
    if (crashed)
      ipc_transit_release(i);
    else
      t->owner = 0;
  }
}

static void holder_segments(uint32_t index) {
  uint32_t cap = ipc_table_capacity(TBL_SEGMENTS);
  for (uint32_t i = 0; i < cap; i++) {
    struct ipc_segment *e = ipc_entry(TBL_SEGMENTS, i);
    if (e && e->state == IPC_LIVE && e->open_by == index + 1)
      ipc_seg_close(i);
  }
}

void ipc_holder_reap(uint32_t index, bool crashed) {
  struct ipc_holder *h = ipc_entry(TBL_HOLDERS, index);
  if (!h || h->state == IPC_FREE)
    return;
  for (uint32_t k = 0; k < h->n_chunks; k++) {
    struct ipc_record *recs = ipc_holder_chunk_map(index, h->gen, k);
    if (!recs) {
      REG->needs_recovery = 1; /* its records are lost: recount from the others */
      continue;
    }
    put_records(recs, IPC_RECORDS_BASE << k);
    munmap(recs, ipc_chunk_bytes(k));
  }
  holder_transits(index, h->gen, crashed);
  /* Unlinked before the entry is freed: a crash in between leaves an entry that the next
   * collection reaps again, now finding no records. */
  for (uint32_t k = 0; k < h->n_chunks; k++) {
    char path[IPC_PATH_MAX];
    ipc_chunk_path(path, index, h->gen, k);
    ipc_obj_destroy(path);
  }
  h->n_chunks = 0;
  holder_segments(index);
  ipc_entry_free(TBL_HOLDERS, index);
  if (crashed) {
    REG->holders_reaped++;
    nrt_ipc_tally.holders_reaped++;
  }
}

/* Whether some other process still uses the namespace (registry lock held). */
static bool others_remain(void) {
  uint32_t cap = ipc_table_capacity(TBL_HOLDERS);
  for (uint32_t i = 0; i < cap; i++) {
    const struct ipc_holder *h = ipc_entry(TBL_HOLDERS, i);
    if (h && h->state != IPC_FREE && i != P->slot)
      return true;
  }
  return false;
}

/* Removes the whole namespace: nobody else is left (registry lock held). */
static void remove_namespace(void) {
  uint32_t cap = ipc_table_capacity(TBL_TRANSITS);
  for (uint32_t i = 0; i < cap; i++) {
    const struct ipc_transit *t = ipc_entry(TBL_TRANSITS, i);
    if (t && t->state == IPC_LIVE)
      ipc_transit_release(i);
  }
  cap = ipc_table_capacity(TBL_SEGMENTS);
  for (uint32_t i = 0; i < cap; i++)
    ipc_seg_destroy(i);
  char path[IPC_PATH_MAX];
  for (int t = 0; t < TBL_COUNT; t++)
    for (uint32_t k = 0; k < REG->tables[t].n_chunks; k++) {
      ipc_path(path, P->ns, ".%c%u", "HST"[t], k);
      ipc_obj_destroy(path);
    }
  REG->closed = 1;
  ipc_path(path, P->ns, "%s", "");
  unlink(path);
  ipc_sweep(); /* strays, if a killed process left any */
}

/* Forgets the record chunks: unmapped when no reference remains, otherwise kept mapped (the
 * MemInfos and data users still hold stay readable) and remembered as retired. */
void ipc_records_forget(void) {
  for (uint32_t k = 0; k < P->n_chunks; k++) {
    if (!P->live_records) {
      munmap(P->chunk[k], ipc_chunk_bytes(k));
    } else if (P->n_retired < sizeof P->retired / sizeof P->retired[0]) {
      P->retired[P->n_retired] = P->chunk[k];
      P->retired_size[P->n_retired++] = ipc_chunk_bytes(k);
    }
    P->chunk[k] = NULL;
  }
  if (!P->live_records) {
    ipc_maps_forget();
  } else {
    free(P->maps); /* the mappings stay, for the references still held */
    P->maps = NULL;
    P->n_maps = 0;
    P->cur_seg = 0;
  }
  P->n_chunks = 0;
  P->n_free = 0;
  P->live_records = 0;
  addr_clear();
}

void nrt_ipc_shutdown(void) {
  ipc_timer_stop();
  pthread_mutex_lock(&P->mu);
  if (P->state != PROC_ON) {
    pthread_mutex_unlock(&P->mu);
    return;
  }
  if (ipc_lock(NULL) == NRT_OK) {
    struct ipc_holder *h = ipc_entry(TBL_HOLDERS, P->slot);
    for (uint32_t k = 0; k < P->n_chunks; k++)
      put_records(P->chunk[k], IPC_RECORDS_BASE << k);
    holder_transits(P->slot, P->slot_gen, false);
    holder_segments(P->slot);
    for (uint32_t k = 0; k < P->n_chunks; k++) {
      char path[IPC_PATH_MAX];
      ipc_chunk_path(path, P->slot, P->slot_gen, k);
      if (P->live_records)
        unlink(path); /* still mapped here: keep its pages */
      else
        ipc_obj_destroy(path);
    }
    if (h)
      h->n_chunks = 0;
    ipc_entry_free(TBL_HOLDERS, P->slot);
    struct nrt_ipc_collect_result res;
    ipc_collect_locked(&res);
    if (!others_remain())
      remove_namespace();
    ipc_unlock();
  }
  ipc_records_forget();
  ipc_registry_unmap();
  P->state = PROC_OFF;
  pthread_mutex_unlock(&P->mu);
}

/* ------------------------------------------------------------ names */

const char *nrt_ipc_namespace(void) {
  pthread_mutex_lock(&P->mu);
  if (P->state == PROC_ON || (P->opt_explicit && P->ns[0]))
    snprintf(default_ns, sizeof default_ns, "%s", P->ns);
  else if (pick_namespace(default_ns, NULL))
    default_ns[0] = 0;
  pthread_mutex_unlock(&P->mu);
  return default_ns;
}
