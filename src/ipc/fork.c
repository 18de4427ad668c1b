/* fork(): the child gets its own copies of the parent's references.
 *
 * fork duplicates every object that holds a shared reference, but the record chunks holding
 * the counts are shared memory, so without help parent and child would count on the same
 * records. Before the fork (prepare), the parent makes a holder entry for the child (state
 * FORKING) with record chunks that are copies of its own, and takes one block count for each
 * live record, all under the registry lock. The child maps those copies over the addresses of
 * the parent's chunks (so every MemInfo pointer it inherited now points at its own records),
 * marks its entry LIVE with its pid and writes that pid to a pipe. The parent waits on the pipe:
 * end of file without a pid means the fork failed or the child died first, and the parent
 * releases the FORKING entry itself. A collector releases a FORKING entry whose creator died. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ipc/ipc_internal.h"

#define P (&nrt_ipc_g)

static void close_pipe(void) {
  for (int i = 0; i < 2; i++)
    if (P->fork_pipe[i] >= 0) {
      close(P->fork_pipe[i]);
      P->fork_pipe[i] = -1;
    }
}

static void destroy_copies(uint32_t c, uint32_t gen, struct ipc_record **copy, uint32_t n) {
  for (uint32_t k = 0; k < n; k++) {
    char path[IPC_PATH_MAX];
    munmap(copy[k], ipc_chunk_bytes(k));
    ipc_chunk_path(path, c, gen, k);
    ipc_obj_destroy(path);
  }
}

/* Makes the child's holder entry and record chunks (registry lock held). */
static int make_child(void) {
  uint32_t c;
  if (ipc_entry_alloc(TBL_HOLDERS, &c, NULL))
    return -1;
  struct ipc_holder *h = ipc_entry(TBL_HOLDERS, c);
  h->creator = P->slot + 1;
  h->creator_gen = P->slot_gen;
  h->state = IPC_FORKING;
  struct ipc_record *copy[IPC_HOLDER_MAX_CHUNKS];
  uint32_t k;
  for (k = 0; k < P->n_chunks; k++) {
    char path[IPC_PATH_MAX];
    ipc_chunk_path(path, c, h->gen, k);
    void *addr;
    if (ipc_obj_create(path, ipc_chunk_bytes(k), &addr, NULL, NULL))
      break;
    copy[k] = addr;
    h->n_chunks = k + 1;
    uint32_t n = IPC_RECORDS_BASE << k;
    for (uint32_t j = 0; j < n; j++) {
      const struct ipc_record *src = &P->chunk[k][j];
      struct ipc_record *dst = &copy[k][j];
      if (src->state != IPC_LIVE)
        continue;
      size_t refs = __atomic_load_n(&src->mi.refct, __ATOMIC_RELAXED);
      if (!refs)
        continue; /* being destroyed by another thread: nobody in the child holds it */
      dst->mi = (nrt_meminfo){refs,          src->mi.dtor, src->mi.dtor_info,
                              src->mi.data,  src->mi.size, src->mi.allocator};
      dst->ref = src->ref;
      dst->index = src->index;
      dst->state = IPC_LIVE;
    }
  }
  if (k < P->n_chunks) {
    destroy_copies(c, h->gen, copy, k);
    h->n_chunks = 0;
    ipc_entry_free(TBL_HOLDERS, c);
    return -1;
  }
  /* The child's counts, once every copy exists (a failure above needs no undoing). */
  for (k = 0; k < P->n_chunks; k++) {
    uint32_t n = IPC_RECORDS_BASE << k;
    for (uint32_t j = 0; j < n; j++) {
      struct ipc_record *r = &copy[k][j];
      struct ipc_block *b;
      if (r->state != IPC_LIVE)
        continue;
      if (ipc_block_get(&r->ref, -1, &b, NULL) == NRT_OK)
        b->count++;
      else
        r->state = IPC_FREE;
    }
    munmap(copy[k], ipc_chunk_bytes(k));
  }
  P->fork_child = c;
  P->fork_child_gen = h->gen;
  return 0;
}

static void prepare(void) {
  pthread_mutex_lock(&P->mu);
  P->fork_mode = FORK_NONE;
  if (P->state != PROC_ON)
    return;
  P->fork_mode = FORK_PLAIN;
  if (!P->live_records)
    return;
  P->fork_mode = FORK_DETACH;
  if (pipe2(P->fork_pipe, O_CLOEXEC))
    return;
  if (ipc_lock(NULL) == NRT_OK) {
    if (make_child() == 0)
      P->fork_mode = FORK_ADOPT;
    ipc_unlock();
  }
  if (P->fork_mode != FORK_ADOPT)
    close_pipe();
}

static void parent(void) {
  if (P->fork_mode == FORK_ADOPT) {
    close(P->fork_pipe[1]);
    P->fork_pipe[1] = -1;
    pid_t pid;
    ssize_t n;
    do
      n = read(P->fork_pipe[0], &pid, sizeof pid);
    while (n < 0 && errno == EINTR);
    close_pipe();
    if (n != (ssize_t)sizeof pid && ipc_lock(NULL) == NRT_OK) {
      /* No child took over its entry: the fork failed or the child died. */
      const struct ipc_holder *h = ipc_entry(TBL_HOLDERS, P->fork_child);
      if (h && h->state == IPC_FORKING && h->gen == P->fork_child_gen)
        ipc_holder_reap(P->fork_child, true);
      ipc_unlock();
    }
  }
  P->fork_mode = FORK_NONE;
  pthread_mutex_unlock(&P->mu);
}

/* The child keeps its inherited references as private copies that hold no block (the parent
 * still does, for as long as it keeps them): the degraded mode of a fork whose hand-over could
 * not be prepared. */
static void detach(void) {
  for (uint32_t k = 0; k < P->n_chunks; k++) {
    size_t bytes = ipc_chunk_bytes(k);
    void *tmp = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (tmp == MAP_FAILED)
      continue;
    memcpy(tmp, P->chunk[k], bytes);
    if (mremap(tmp, bytes, bytes, MREMAP_MAYMOVE | MREMAP_FIXED, P->chunk[k]) == MAP_FAILED)
      munmap(tmp, bytes);
  }
  P->live_records = 1; /* keep the mappings: the copies are still referenced */
  ipc_records_forget();
  ipc_registry_unmap();
  P->state = PROC_OFF;
}

/* Maps the child's chunk objects over the parent's and marks the entry LIVE. */
static int adopt(void) {
  for (uint32_t k = 0; k < P->n_chunks; k++) {
    char path[IPC_PATH_MAX];
    ipc_chunk_path(path, P->fork_child, P->fork_child_gen, k);
    int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
      return -1;
    void *a = mmap(P->chunk[k], ipc_chunk_bytes(k), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_FIXED, fd, 0);
    close(fd);
    if (a == MAP_FAILED)
      return -1;
  }
  if (ipc_lock(NULL))
    return -1;
  struct ipc_holder *h = ipc_entry(TBL_HOLDERS, P->fork_child);
  int ok = h && h->state == IPC_FORKING && h->gen == P->fork_child_gen &&
           h->creator == P->slot + 1;
  if (ok) {
    h->pid = (int32_t)getpid();
    h->start_time = ipc_start_time(h->pid);
    h->state = IPC_LIVE;
  }
  ipc_unlock();
  if (!ok)
    return -1;
  P->slot = P->fork_child;
  P->slot_gen = P->fork_child_gen;
  P->cur_seg = 0; /* the parent's */
  return ipc_records_rebuild();
}

static void child(void) {
  enum ipc_fork_mode mode = P->fork_mode;
  P->fork_mode = FORK_NONE;
  P->timer_running = 0; /* threads do not survive fork */
  P->timer_stop = 0;
  if (mode == FORK_PLAIN) {
    /* Nothing held: start afresh, in the same namespace, at the next use. */
    ipc_records_forget();
    ipc_registry_unmap();
    P->state = PROC_OFF;
    P->opt_explicit = 1;
  } else if (mode == FORK_ADOPT) {
    if (adopt() != 0)
      detach();
    pid_t pid = getpid();
    if (P->state == PROC_ON && write(P->fork_pipe[1], &pid, sizeof pid) < 0)
      (void)0; /* the parent then releases our entry: nothing more to do */
    close_pipe();
  } else if (mode == FORK_DETACH) {
    detach();
  }
  if (mode != FORK_NONE)
    P->opt_explicit = 1;
  pthread_mutex_unlock(&P->mu);
}

void ipc_fork_register(void) {
  pthread_atfork(prepare, parent, child);
}
