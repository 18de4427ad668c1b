/* Shared memory objects: names, creation, mapping, removal; /proc checks of holders; the
 * sweep of stray objects. Objects are files in /dev/shm (what shm_open opens), used by path so
 * that the registry can be created under a temporary name and linked into place. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ipc/ipc_internal.h"

void ipc_path(char *buf, const char *ns, const char *fmt, ...) {
  int n = snprintf(buf, IPC_PATH_MAX, IPC_DIR "/" IPC_PREFIX "%s", ns);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + n, IPC_PATH_MAX - (size_t)n, fmt, ap);
  va_end(ap);
}

bool ipc_ns_valid(const char *ns) {
  size_t n = strlen(ns);
  if (n == 0 || n > NRT_IPC_NAMESPACE_MAX)
    return false;
  for (size_t i = 0; i < n; i++) {
    char c = ns[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          c == '_' || c == '-'))
      return false;
  }
  return true;
}

uint64_t ipc_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Commits the object's pages: tmpfs hands out pages on first touch, and a touch that finds
 * /dev/shm full raises SIGBUS; fallocate turns that into ENOSPC now. */
static int commit(int fd, uint64_t size) {
  if (fallocate(fd, 0, 0, (off_t)size) == 0)
    return 0;
  return errno == EOPNOTSUPP || errno == ENOSYS ? 0 : errno;
}

int ipc_obj_create(const char *path, uint64_t size, void **addr, uint64_t *ino,
                   struct nrt_error *err) {
  *addr = NULL;
  int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0 && errno == EEXIST) {
    /* A stale object of this name: the registry says nobody uses it. */
    unlink(path);
    fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  }
  if (fd < 0)
    return nrt_error_set(err, errno == EMFILE || errno == ENFILE ? NRT_ENOMEM : NRT_EIO,
                         "cannot create shared memory object %s: %s", path, strerror(errno));
  int e = ftruncate(fd, (off_t)size) ? errno : commit(fd, size);
  struct stat st;
  if (!e && fstat(fd, &st))
    e = errno;
  void *p = MAP_FAILED;
  if (!e) {
    p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
      e = errno;
  }
  close(fd);
  if (e) {
    unlink(path);
    return nrt_error_set(err, e == ENOSPC || e == ENOMEM ? NRT_ENOMEM : NRT_EIO,
                         "cannot make shared memory object %s of %llu bytes: %s", path,
                         (unsigned long long)size, strerror(e));
  }
  if (ino)
    *ino = (uint64_t)st.st_ino;
  *addr = p;
  return NRT_OK;
}

int ipc_obj_map(const char *path, int fd, uint64_t size, uint64_t ino, void **addr,
                struct nrt_error *err) {
  *addr = NULL;
  int own = fd < 0;
  if (own) {
    fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
      return nrt_error_set(err, errno == ENOENT ? NRT_EVALUE : NRT_EIO,
                           "cannot open shared memory object %s: %s", path, strerror(errno));
  }
  struct stat st;
  int rc = NRT_OK;
  if (fstat(fd, &st))
    rc = nrt_error_set(err, NRT_EIO, "cannot stat %s: %s", path, strerror(errno));
  else if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size < size)
    rc = nrt_error_set(err, NRT_EINVAL, "%s is not a shared memory object of %llu bytes",
                       own ? path : "the descriptor given", (unsigned long long)size);
  else if (ino && (uint64_t)st.st_ino != ino)
    rc = nrt_error_set(err, NRT_EINVAL, "the descriptor given is not %s", path);
  if (rc == NRT_OK) {
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
      rc = nrt_error_set(err, errno == ENOMEM ? NRT_ENOMEM : NRT_EIO, "cannot map %s: %s",
                         path, strerror(errno));
    else
      *addr = p;
  }
  if (own)
    close(fd);
  return rc;
}

void ipc_obj_destroy(const char *path) {
  int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
  if (fd >= 0) {
    struct stat st;
    /* Punching the whole object frees its pages now, although processes that have not yet
     * pruned their cached mapping of it still map it. */
    if (fstat(fd, &st) == 0 && st.st_size > 0)
      (void)fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, st.st_size);
    close(fd);
  }
  unlink(path);
}

/* Reads up to cap - 1 bytes of a /proc file; -1 with errno on failure. */
static ssize_t read_small(const char *path, char *buf, size_t cap) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  ssize_t n = read(fd, buf, cap - 1);
  int e = errno;
  close(fd);
  if (n < 0) {
    errno = e;
    return -1;
  }
  buf[n] = 0;
  return n;
}

uint64_t ipc_start_time(int pid) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  if (read_small(path, buf, sizeof buf) < 0)
    return 0;
  /* Field 2 (the command) may hold spaces and parentheses: count from the last ')', which is
   * followed by the space before field 3. */
  char *p = strrchr(buf, ')');
  if (!p)
    return 0;
  p++;
  for (int field = 3; field < 22 && p; field++)
    p = strchr(p + 1, ' ');
  return p ? strtoull(p + 1, NULL, 10) : 0;
}

/* Whether /proc/<pid>/maps names `needle` (which ends with '\n'); -1 when unreadable. */
static int maps_contain(int pid, const char *needle) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/maps", pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT || errno == ESRCH ? 0 : -1;
  size_t nl = strlen(needle);
  char buf[8192];
  size_t have = 0;
  int found = 0;
  for (;;) {
    ssize_t n = read(fd, buf + have, sizeof buf - 1 - have);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    have += (size_t)n;
    buf[have] = 0;
    if (memmem(buf, have, needle, nl)) {
      found = 1;
      break;
    }
    /* Keep the tail, which may hold the start of the needle. */
    if (have > nl) {
      memmove(buf, buf + have - nl, nl);
      have = nl;
    }
  }
  close(fd);
  return found;
}

void ipc_chunk_path(char *buf, uint32_t index, uint32_t gen, uint32_t k) {
  ipc_path(buf, nrt_ipc_g.ns, ".h%u.%u.%u", index, gen, k);
}

size_t ipc_chunk_bytes(uint32_t k) {
  return ((size_t)IPC_RECORDS_BASE << k) * sizeof(struct ipc_record);
}

bool ipc_holder_alive(const struct ipc_holder *h, uint32_t index) {
  if (h->pid <= 0)
    return false;
  if (kill(h->pid, 0) != 0 && errno == ESRCH)
    return false;
  char path[64];
  snprintf(path, sizeof path, "/proc/%d", (int)h->pid);
  struct stat st;
  if (stat(path, &st) != 0)
    return errno != ENOENT;
  uint64_t start = ipc_start_time(h->pid);
  if (start == 0)
    return true; /* unreadable: assume alive, never free what may be in use */
  if (start != h->start_time)
    return false; /* the pid was reused */
  char needle[IPC_PATH_MAX + 2];
  ipc_chunk_path(needle, index, h->gen, 0);
  strcat(needle, "\n");
  return maps_contain(h->pid, needle) != 0;
}

/* Parses a decimal number at *s, advancing it; false when there is none. */
static bool parse_u32(const char **s, uint32_t *out) {
  const char *p = *s;
  if (*p < '0' || *p > '9')
    return false;
  uint64_t v = 0;
  while (*p >= '0' && *p <= '9') {
    v = v * 10 + (uint64_t)(*p - '0');
    if (v > UINT32_MAX)
      return false;
    p++;
  }
  *s = p;
  *out = (uint32_t)v;
  return true;
}

/* Whether the registry names object "nrt.<ns>.<rest>". */
static bool referenced(const char *rest) {
  uint32_t a, b, c;
  const char *s = rest + 1;
  switch (rest[0]) {
  case 'H':
  case 'S':
  case 'T': {
    int t = rest[0] == 'H' ? TBL_HOLDERS : rest[0] == 'S' ? TBL_SEGMENTS : TBL_TRANSITS;
    return parse_u32(&s, &a) && !*s && a < REG->tables[t].n_chunks;
  }
  case 's': {
    if (!parse_u32(&s, &a) || *s)
      return false;
    const struct ipc_segment *e = ipc_entry(TBL_SEGMENTS, a);
    return e && e->state == IPC_LIVE;
  }
  case 'h': {
    if (!parse_u32(&s, &a) || *s++ != '.' || !parse_u32(&s, &b) || *s++ != '.' ||
        !parse_u32(&s, &c) || *s)
      return false;
    const struct ipc_holder *h = ipc_entry(TBL_HOLDERS, a);
    return h && h->state != IPC_FREE && h->gen == b && c < h->n_chunks;
  }
  case 't': /* a registry being created by process <pid> */
    if (strncmp(rest, "tmp", 3) != 0)
      return false;
    s = rest + 3;
    return parse_u32(&s, &a) && !*s && (kill((pid_t)a, 0) == 0 || errno == EPERM);
  default:
    return false;
  }
}

uint64_t ipc_sweep(void) {
  DIR *d = opendir(IPC_DIR);
  if (!d)
    return 0;
  char prefix[NRT_IPC_NAMESPACE_MAX + 8];
  size_t pl = (size_t)snprintf(prefix, sizeof prefix, IPC_PREFIX "%s.", nrt_ipc_g.ns);
  uint64_t removed = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, prefix, pl) != 0 || referenced(e->d_name + pl))
      continue;
    if (unlinkat(dirfd(d), e->d_name, 0) == 0)
      removed++;
  }
  closedir(d);
  return removed;
}

uint64_t nrt_ipc_shm_objects(const char *namespace_name) {
  DIR *d = opendir(IPC_DIR);
  if (!d)
    return 0;
  char prefix[NRT_IPC_NAMESPACE_MAX + 8];
  size_t pl = namespace_name ? (size_t)snprintf(prefix, sizeof prefix, IPC_PREFIX "%s",
                                                namespace_name)
                             : (size_t)snprintf(prefix, sizeof prefix, IPC_PREFIX);
  uint64_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (strncmp(e->d_name, prefix, pl) == 0 &&
        (!namespace_name || e->d_name[pl] == 0 || e->d_name[pl] == '.'))
      n++;
  closedir(d);
  return n;
}
