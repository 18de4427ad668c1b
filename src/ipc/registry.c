/* The registry of a namespace: its creation (under a temporary name, linked into place once
 * initialised, so nobody sees it half made), its robust lock, and its three growable tables. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipc/ipc_internal.h"

struct ipc_proc nrt_ipc_g = {.mu = PTHREAD_MUTEX_INITIALIZER,
                             .timer_cv = PTHREAD_COND_INITIALIZER,
                             .fork_pipe = {-1, -1}};

static const uint32_t entry_size[TBL_COUNT] = {sizeof(struct ipc_holder),
                                               sizeof(struct ipc_segment),
                                               sizeof(struct ipc_transit)};
static const uint32_t entry_base[TBL_COUNT] = {64, 256, 1024};
static const size_t next_free_at[TBL_COUNT] = {offsetof(struct ipc_holder, next_free),
                                               offsetof(struct ipc_segment, next_free),
                                               offsetof(struct ipc_transit, next_free)};
static const char table_letter[TBL_COUNT] = {'H', 'S', 'T'};

static size_t table_chunk_bytes(int t, uint32_t k) {
  return ((size_t)entry_base[t] << k) * entry_size[t];
}

#define REGISTRY_BYTES 4096u
_Static_assert(sizeof(struct ipc_registry) <= REGISTRY_BYTES, "registry header fits a page");

/* Makes a registry under a temporary name and links it as `path`. Returns NRT_OK, or -1 when
 * another process linked one first (open that one), or an error. */
static int create_registry(const char *path, struct nrt_error *err) {
  char tmp[IPC_PATH_MAX];
  ipc_path(tmp, nrt_ipc_g.ns, ".tmp%d", (int)getpid());
  void *addr;
  int rc = ipc_obj_create(tmp, REGISTRY_BYTES, &addr, NULL, err);
  if (rc)
    return rc;
  struct ipc_registry *r = addr;
  pthread_mutexattr_t at;
  int e = pthread_mutexattr_init(&at);
  if (!e)
    e = pthread_mutexattr_setpshared(&at, PTHREAD_PROCESS_SHARED);
  if (!e)
    e = pthread_mutexattr_setrobust(&at, PTHREAD_MUTEX_ROBUST);
  if (!e)
    e = pthread_mutex_init(&r->lock, &at);
  pthread_mutexattr_destroy(&at);
  if (e) {
    munmap(addr, REGISTRY_BYTES);
    unlink(tmp);
    return nrt_error_set(err, NRT_EIO, "cannot initialise the registry lock: %s", strerror(e));
  }
  r->next_gen = 1;
  for (int t = 0; t < TBL_COUNT; t++) {
    r->tables[t].entry_size = entry_size[t];
    r->tables[t].base = entry_base[t];
  }
  r->version = IPC_VERSION;
  r->magic = IPC_MAGIC_REGISTRY;
  e = link(tmp, path) ? errno : 0;
  unlink(tmp);
  munmap(addr, REGISTRY_BYTES);
  if (e == EEXIST)
    return -1;
  if (e)
    return nrt_error_set(err, NRT_EIO, "cannot create the registry %s: %s", path, strerror(e));
  return NRT_OK;
}

void ipc_registry_unmap(void) {
  struct ipc_proc *p = &nrt_ipc_g;
  for (int t = 0; t < TBL_COUNT; t++)
    for (uint32_t k = 0; k < TBL_MAX_CHUNKS; k++)
      if (p->tbl_map[t][k]) {
        munmap(p->tbl_map[t][k], table_chunk_bytes(t, k));
        p->tbl_map[t][k] = NULL;
      }
  if (p->reg)
    munmap(p->reg, REGISTRY_BYTES);
  p->reg = NULL;
}

int ipc_registry_open(struct nrt_error *err) {
  struct ipc_proc *p = &nrt_ipc_g;
  char path[IPC_PATH_MAX];
  ipc_path(path, p->ns, "%s", "");
  /* Each retry follows a race lost to another process (creation, or the last process
   * removing the namespace): a handful always suffices. */
  for (int attempt = 0; attempt < 1000; attempt++) {
    int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0 && errno == ENOENT) {
      int rc = create_registry(path, err);
      if (rc > 0)
        return rc;
      continue;
    }
    if (fd < 0)
      return nrt_error_set(err, NRT_EIO, "cannot open the registry %s: %s", path,
                           strerror(errno));
    struct stat st;
    int rc = fstat(fd, &st) ? nrt_error_set(err, NRT_EIO, "cannot stat %s: %s", path,
                                            strerror(errno))
                            : NRT_OK;
    void *addr = MAP_FAILED;
    if (!rc && st.st_size < (off_t)REGISTRY_BYTES)
      rc = -1; /* the process that removes a namespace truncates nothing: a stranger's file */
    if (!rc) {
      addr = mmap(NULL, REGISTRY_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (addr == MAP_FAILED)
        rc = nrt_error_set(err, NRT_EIO, "cannot map %s: %s", path, strerror(errno));
    }
    close(fd);
    if (rc < 0)
      return nrt_error_set(err, NRT_EIO, "%s is not an nrt registry", path);
    if (rc)
      return rc;
    struct ipc_registry *r = addr;
    if (r->magic != IPC_MAGIC_REGISTRY || r->version != IPC_VERSION) {
      munmap(addr, REGISTRY_BYTES);
      return nrt_error_set(err, NRT_EUNSUPPORTED,
                           "%s was made by another nrt version (registry version %u, this "
                           "nrt uses %u)",
                           path, r->version, IPC_VERSION);
    }
    p->reg = r;
    p->reg_ino = (uint64_t)st.st_ino;
    rc = ipc_lock(err);
    if (rc) {
      ipc_registry_unmap();
      return rc;
    }
    /* The last process may have removed the namespace between our open and our lock. */
    struct stat now;
    if (!r->closed && stat(path, &now) == 0 && (uint64_t)now.st_ino == p->reg_ino)
      return NRT_OK; /* locked */
    ipc_unlock();
    ipc_registry_unmap();
  }
  return nrt_error_set(err, NRT_EIO, "cannot open the registry %s: it keeps changing", path);
}

int ipc_lock(struct nrt_error *err) {
  int rc = pthread_mutex_lock(&REG->lock);
  if (rc == EOWNERDEAD) {
    /* Its owner died inside a change: the derived state is recounted before anyone goes on
     * (and again by the next locker, should this process die while recounting). */
    REG->needs_recovery = 1;
    REG->recoveries++;
    rc = pthread_mutex_consistent(&REG->lock);
  }
  if (rc)
    return nrt_error_set(err, NRT_EIO, "cannot lock the registry of namespace %s: %s",
                         nrt_ipc_g.ns, strerror(rc));
  if (REG->needs_recovery)
    ipc_recover();
  return NRT_OK;
}

void ipc_unlock(void) {
  pthread_mutex_unlock(&REG->lock);
}

/* Chunk of entry i, and i's index inside it. */
static uint32_t chunk_of(int t, uint32_t i, uint32_t *within) {
  uint64_t q = (uint64_t)i / entry_base[t] + 1;
  uint32_t k = 63u - (uint32_t)__builtin_clzll(q);
  *within = i - (uint32_t)(entry_base[t] * ((1u << k) - 1u));
  return k;
}

static void table_path(char *buf, int t, uint32_t k) {
  ipc_path(buf, nrt_ipc_g.ns, ".%c%u", table_letter[t], k);
}

void *ipc_entry(int t, uint32_t i) {
  struct ipc_proc *p = &nrt_ipc_g;
  uint32_t within;
  uint32_t k = chunk_of(t, i, &within);
  if (k >= REG->tables[t].n_chunks || k >= TBL_MAX_CHUNKS)
    return NULL;
  if (!p->tbl_map[t][k]) {
    char path[IPC_PATH_MAX];
    table_path(path, t, k);
    void *addr;
    if (ipc_obj_map(path, -1, table_chunk_bytes(t, k), 0, &addr, NULL))
      return NULL;
    p->tbl_map[t][k] = addr;
  }
  return p->tbl_map[t][k] + (size_t)within * entry_size[t];
}

uint32_t ipc_table_capacity(int t) {
  return entry_base[t] * ((1u << REG->tables[t].n_chunks) - 1u);
}

static uint32_t *next_free(int t, void *e) {
  return (uint32_t *)((char *)e + next_free_at[t]);
}

int ipc_entry_alloc(int t, uint32_t *index, struct nrt_error *err) {
  struct ipc_table *tb = &REG->tables[t];
  if (!tb->free_head) {
    uint32_t k = tb->n_chunks;
    if (k >= TBL_MAX_CHUNKS)
      return nrt_error_set(err, NRT_ENOMEM, "the registry of namespace %s is full",
                           nrt_ipc_g.ns);
    char path[IPC_PATH_MAX];
    table_path(path, t, k);
    void *addr;
    int rc = ipc_obj_create(path, table_chunk_bytes(t, k), &addr, NULL,
                            err);
    if (rc)
      return rc;
    if (nrt_ipc_g.tbl_map[t][k])
      munmap(nrt_ipc_g.tbl_map[t][k], table_chunk_bytes(t, k));
    nrt_ipc_g.tbl_map[t][k] = addr;
    tb->n_chunks = k + 1;
    /* Lowest indexes first. */
    uint32_t first = entry_base[t] * ((1u << k) - 1u), n = entry_base[t] << k; /* < 2^31 */
    for (uint32_t j = n; j-- > 0;) {
      void *e = ipc_entry(t, first + j);
      *next_free(t, e) = tb->free_head;
      tb->free_head = first + j + 1;
    }
  }
  uint32_t i = tb->free_head - 1;
  void *e = ipc_entry(t, i);
  if (!e)
    return nrt_error_set(err, NRT_EIO, "cannot map table %c of namespace %s", table_letter[t],
                         nrt_ipc_g.ns);
  tb->free_head = *next_free(t, e);
  uint32_t gen;
  memcpy(&gen, (char *)e + 4, sizeof gen);
  memset(e, 0, entry_size[t]);
  gen = gen + 1 ? gen + 1 : 1;
  memcpy((char *)e + 4, &gen, sizeof gen);
  tb->in_use++;
  *index = i;
  return NRT_OK;
}

void ipc_entry_free(int t, uint32_t i) {
  void *e = ipc_entry(t, i);
  if (!e)
    return;
  uint32_t state = IPC_FREE;
  memcpy(e, &state, sizeof state);
  *next_free(t, e) = REG->tables[t].free_head;
  REG->tables[t].free_head = i + 1;
  REG->tables[t].in_use--;
}

void ipc_table_rebuild(int t) {
  struct ipc_table *tb = &REG->tables[t];
  tb->free_head = 0;
  tb->in_use = 0;
  for (uint32_t i = ipc_table_capacity(t); i-- > 0;) {
    void *e = ipc_entry(t, i);
    if (!e)
      continue;
    uint32_t state;
    memcpy(&state, e, sizeof state);
    if (state == IPC_FREE) {
      *next_free(t, e) = tb->free_head;
      tb->free_head = i + 1;
    } else {
      tb->in_use++;
    }
  }
}
