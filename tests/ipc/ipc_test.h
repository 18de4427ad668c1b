/* Helpers shared by the ipc tests: a private namespace per test process, handles over pipes,
 * descriptor counts, and recognisable block contents. */
#ifndef NRT_TESTS_IPC_TEST_H
#define NRT_TESTS_IPC_TEST_H

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nrt/ipc.h"
#include "support/check.h"

/* Joins a namespace of its own ("<prefix><pid>"), so that tests running in parallel (and the
 * other builds' runs) never see each other's segments; children inherit it. */
static inline void ipc_test_join(const char *prefix, const struct nrt_ipc_options *base) {
  static char ns[NRT_IPC_NAMESPACE_MAX + 1];
  snprintf(ns, sizeof ns, "%s%d", prefix, (int)getpid());
  struct nrt_ipc_options o = base ? *base : (struct nrt_ipc_options){0};
  o.namespace_name = ns;
  struct nrt_error err = {0};
  if (nrt_ipc_init(&o, &err) != NRT_OK) {
    fprintf(stderr, "nrt_ipc_init: %s\n", err.message);
    exit(2);
  }
  setenv("NRT_IPC_NAMESPACE", ns, 1); /* for exec'd children */
}

/* Open descriptors of this process. */
static inline int ipc_test_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  int n = 0;
  if (!d)
    return -1;
  while (readdir(d))
    n++;
  closedir(d);
  return n - 3; /* ".", ".." and the directory's own descriptor */
}

/* Writes all of buf; 0 on success. */
static inline int ipc_test_write(int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return -1;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

/* Reads exactly n bytes; 0 on success, 1 at end of file, -1 on error. */
static inline int ipc_test_read(int fd, void *buf, size_t n) {
  char *p = buf;
  while (n) {
    ssize_t k = read(fd, p, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k == 0)
      return p == (char *)buf ? 1 : -1;
    if (k < 0)
      return -1;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

/* A message: a 4-byte length, then the bytes. */
static inline int ipc_test_send(int fd, const void *msg, size_t n) {
  uint32_t len = (uint32_t)n;
  char buf[4 + 4096];
  if (n > 4096)
    return -1;
  memcpy(buf, &len, 4);
  memcpy(buf + 4, msg, n);
  return ipc_test_write(fd, buf, 4 + n); /* one write: atomic on a pipe (<= PIPE_BUF) */
}

static inline int ipc_test_recv(int fd, void *msg, size_t cap, size_t *n) {
  uint32_t len = 0;
  int rc = ipc_test_read(fd, &len, 4);
  if (rc)
    return rc;
  if (len > cap)
    return -1;
  *n = len;
  return ipc_test_read(fd, msg, len) ? -1 : 0;
}

/* Fills / checks a block's bytes from a seed. */
static inline void ipc_test_fill(void *p, size_t n, uint64_t seed) {
  unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    b[i] = (unsigned char)(seed * 131u + i * 7u + (i >> 8));
}

static inline int ipc_test_same(const void *p, size_t n, uint64_t seed) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    if (b[i] != (unsigned char)(seed * 131u + i * 7u + (i >> 8)))
      return 0;
  return 1;
}

#endif
