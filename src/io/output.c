/* Output files replaced atomically (see nrt/io_output.h): a temporary file next to the target,
 * renamed over it on commit. */
#define _XOPEN_SOURCE 700 /* fchmod, fchown, lstat, realpath */
#include "nrt/io_output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct nrt_io_output {
  int fd;
  int slot;       /* registry slot of the temporary name, -1 when it has none */
  char *target;   /* the file renamed over */
  char *temp;     /* the temporary file; NULL when writing in place */
  size_t target_size, temp_size;
};

/* The temporary names a signal handler may have to remove. A slot's path lives in static
 * memory, so a handler never reads freed memory; its state says whether the path is whole. */
enum { SLOT_FREE, SLOT_FILLING, SLOT_LIVE };
#define OUTPUT_SLOTS 16
static struct {
  atomic_int state;
  char path[PATH_MAX];
} temps[OUTPUT_SLOTS];

static int register_temp(const char *path) {
  size_t n = strlen(path);
  if (n >= PATH_MAX)
    return -1;
  for (int i = 0; i < OUTPUT_SLOTS; i++) {
    int expected = SLOT_FREE;
    if (atomic_compare_exchange_strong(&temps[i].state, &expected, SLOT_FILLING)) {
      memcpy(temps[i].path, path, n + 1);
      atomic_store(&temps[i].state, SLOT_LIVE);
      return i;
    }
  }
  return -1; /* more outputs open than slots: this one is not removed on a signal */
}

static void unregister_temp(int slot) {
  if (slot >= 0)
    atomic_store(&temps[slot].state, SLOT_FREE);
}

void nrt_io_output_remove_temps(void) {
  for (int i = 0; i < OUTPUT_SLOTS; i++)
    if (atomic_load(&temps[i].state) == SLOT_LIVE)
      unlink(temps[i].path);
}

static char *copy_string(const char *s, size_t *size, struct nrt_error *err) {
  *size = strlen(s) + 1;
  char *c = nrt_allocate(*size, err);
  if (c)
    memcpy(c, s, *size);
  return c;
}

static void free_output(nrt_io_output *o) {
  if (o->target)
    nrt_free(o->target, o->target_size);
  if (o->temp)
    nrt_free(o->temp, o->temp_size);
  nrt_free(o, sizeof *o);
}

static int open_retrying(const char *path, int flags) {
  int fd;
  do
    fd = open(path, flags | O_CLOEXEC, 0666);
  while (fd < 0 && errno == EINTR);
  return fd;
}

/* ".NAME.nrt-PID-N.tmp" in the target's directory (NAME cut to keep within NAME_MAX). */
static int make_temp(nrt_io_output *o, const struct stat *old, struct nrt_error *err) {
  static atomic_uint counter;
  const char *slash = strrchr(o->target, '/');
  size_t dir_len = slash ? (size_t)(slash - o->target) + 1 : 0;
  const char *base = o->target + dir_len;
  int base_len = (int)strnlen(base, 200);
  o->temp_size = dir_len + (size_t)base_len + 64;
  o->temp = nrt_allocate(o->temp_size, err);
  if (!o->temp)
    return NRT_ENOMEM;
  for (int attempt = 0; attempt < 100; attempt++) {
    snprintf(o->temp, o->temp_size, "%.*s.%.*s.nrt-%ld-%u.tmp", (int)dir_len, o->target,
             base_len, base, (long)getpid(), atomic_fetch_add(&counter, 1));
    /* Registered before it exists: a signal arriving while it is created still removes it. */
    o->slot = register_temp(o->temp);
    o->fd = open_retrying(o->temp, O_WRONLY | O_CREAT | O_EXCL);
    if (o->fd >= 0)
      break;
    int e = errno;
    unregister_temp(o->slot);
    o->slot = -1;
    if (e != EEXIST)
      return nrt_error_set(err, NRT_EIO, "%s: cannot create a temporary file beside it: %s",
                           o->target, strerror(e));
  }
  if (o->fd < 0)
    return nrt_error_set(err, NRT_EIO, "%s: no free temporary name", o->target);
  if (old) { /* the replacement keeps the old file's owner (where allowed) and mode */
    if (fchown(o->fd, old->st_uid, old->st_gid) != 0) {
      /* only root may give a file away: the new file keeps our owner */
    }
    if (fchmod(o->fd, old->st_mode & 07777) != 0) {
      int e = errno;
      close(o->fd);
      unlink(o->temp);
      unregister_temp(o->slot);
      o->fd = -1;
      return nrt_error_set(err, NRT_EIO, "%s: %s", o->temp, strerror(e));
    }
  }
  return NRT_OK;
}

int nrt_io_output_open(const char *path, nrt_io_output **out, struct nrt_error *err) {
  if (!out)
    return nrt_error_set(err, NRT_EINVAL, "output: out is NULL");
  *out = NULL;
  if (!path || !*path)
    return nrt_error_set(err, NRT_EINVAL, "output: no path");
  nrt_io_output *o = nrt_allocate(sizeof *o, err);
  if (!o)
    return NRT_ENOMEM;
  memset(o, 0, sizeof *o);
  o->fd = -1;
  o->slot = -1;
  struct stat st;
  bool exists = lstat(path, &st) == 0;
  if (!exists && errno != ENOENT) {
    int e = errno;
    free_output(o);
    return nrt_error_set(err, NRT_EIO, "%s: %s", path, strerror(e));
  }
  bool in_place = false;
  char *resolved = NULL;
  if (exists && S_ISLNK(st.st_mode)) {
    /* Follow the link to the file it names; a dangling link is written through. */
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !(resolved = realpath(path, NULL)))
      in_place = true;
  } else if (exists && !S_ISREG(st.st_mode)) {
    in_place = true;
  }
  o->target = copy_string(resolved ? resolved : path, &o->target_size, err);
  free(resolved);
  if (!o->target) {
    free_output(o);
    return NRT_ENOMEM;
  }
  int rc = NRT_OK;
  if (in_place) {
    o->fd = open_retrying(path, O_WRONLY | O_CREAT | O_TRUNC);
    if (o->fd < 0)
      rc = nrt_error_set(err, NRT_EIO, "%s: %s", path, strerror(errno));
  } else {
    rc = make_temp(o, exists ? &st : NULL, err);
  }
  if (rc) {
    free_output(o);
    return rc;
  }
  *out = o;
  return NRT_OK;
}

int nrt_io_output_fd(const nrt_io_output *o) { return o ? o->fd : -1; }

int nrt_io_output_write(nrt_io_output *o, const void *data, size_t len, struct nrt_error *err) {
  const char *p = data;
  while (len > 0) {
    ssize_t put = write(o->fd, p, len);
    if (put < 0) {
      if (errno == EINTR)
        continue;
      return nrt_error_set(err, NRT_EIO, "write error: %s", strerror(errno));
    }
    p += put;
    len -= (size_t)put;
  }
  return NRT_OK;
}

int nrt_io_output_commit(nrt_io_output *o, struct nrt_error *err) {
  if (!o)
    return nrt_error_set(err, NRT_EINVAL, "output: NULL");
  int rc = NRT_OK;
  /* A file system without fsync (EINVAL) is no error; anything else (EIO, a full disk seen
   * only now) is. */
  if (o->temp && fsync(o->fd) != 0 && errno != EINVAL)
    rc = nrt_error_set(err, NRT_EIO, "%s: %s", o->target, strerror(errno));
  if (close(o->fd) != 0 && errno != EINTR && rc == NRT_OK)
    rc = nrt_error_set(err, NRT_EIO, "%s: %s", o->target, strerror(errno));
  o->fd = -1;
  if (o->temp) {
    if (rc == NRT_OK && rename(o->temp, o->target) != 0)
      rc = nrt_error_set(err, NRT_EIO, "%s: %s", o->target, strerror(errno));
    if (rc != NRT_OK)
      unlink(o->temp);
    unregister_temp(o->slot);
  }
  free_output(o);
  return rc;
}

void nrt_io_output_discard(nrt_io_output *o) {
  if (!o)
    return;
  if (o->fd >= 0)
    close(o->fd);
  if (o->temp) {
    unlink(o->temp);
    unregister_temp(o->slot);
  }
  free_output(o);
}
