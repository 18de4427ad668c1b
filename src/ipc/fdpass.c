/* Handles with their segments' descriptors over a Unix socket (SCM_RIGHTS). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ipc/ipc_internal.h"

#define P (&nrt_ipc_g)
#define MAX_FDS 253 /* the kernel's SCM_MAX_FD */

static void close_all(int *fds, size_t n) {
  for (size_t i = 0; i < n; i++)
    close(fds[i]);
}

/* Opens each distinct segment of the handle, in order of first appearance. */
static int open_segments(const void *handle, const struct ipc_wire_header *h, int *fds,
                         size_t *n, struct nrt_error *err) {
  struct ipc_ref seen[MAX_FDS];
  *n = 0;
  int rc = NRT_OK;
  for (uint32_t i = 0; i < h->n_blocks && rc == NRT_OK; i++) {
    struct ipc_wire_block w;
    ipc_wire_read(handle, i, &w);
    size_t j = 0;
    while (j < *n && (seen[j].seg != w.ref.seg || seen[j].seg_gen != w.ref.seg_gen))
      j++;
    if (j < *n)
      continue;
    if (*n == MAX_FDS)
      return nrt_error_set(err, NRT_EINVAL, "a handle of more than %d segments cannot be sent "
                                            "with descriptors",
                           MAX_FDS);
    const struct ipc_segment *e = ipc_entry(TBL_SEGMENTS, w.ref.seg);
    if (!e || e->state != IPC_LIVE || e->gen != w.ref.seg_gen) {
      rc = nrt_error_set(err, NRT_EVALUE, "segment %u of the handle was already freed",
                         w.ref.seg);
      break;
    }
    char path[IPC_PATH_MAX];
    ipc_path(path, P->ns, ".s%u", w.ref.seg);
    int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
      rc = nrt_error_set(err, NRT_EIO, "cannot open %s: %s", path, strerror(errno));
      break;
    }
    seen[*n] = w.ref;
    fds[(*n)++] = fd;
  }
  if (rc) {
    close_all(fds, *n);
    *n = 0;
  }
  return rc;
}

int nrt_ipc_send(int sock, const void *handle, size_t len, struct nrt_error *err) {
  struct ipc_wire_header h;
  int rc = ipc_handle_check(handle, len, 0, &h, err);
  if (rc)
    return rc;
  int fds[MAX_FDS];
  size_t n = 0;
  pthread_mutex_lock(&P->mu);
  rc = ipc_ensure_joined(h.ns, err);
  if (rc == NRT_OK)
    rc = ipc_lock(err);
  if (rc == NRT_OK) {
    rc = open_segments(handle, &h, fds, &n, err);
    ipc_unlock();
  }
  pthread_mutex_unlock(&P->mu);
  if (rc)
    return rc;
  union {
    char buf[CMSG_SPACE(sizeof(int) * MAX_FDS)];
    struct cmsghdr align;
  } ctl;
  struct iovec iov = {(void *)(uintptr_t)handle, len};
  struct msghdr msg = {0};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  if (n) {
    memset(&ctl, 0, sizeof ctl);
    msg.msg_control = ctl.buf;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * n);
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * n);
    memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
  }
  ssize_t sent;
  do
    sent = sendmsg(sock, &msg, MSG_NOSIGNAL);
  while (sent < 0 && errno == EINTR);
  int e = errno;
  close_all(fds, n);
  if (sent < 0)
    return nrt_error_set(err, NRT_EIO, "cannot send a handle on socket %d: %s", sock,
                         strerror(e));
  if ((size_t)sent != len)
    return nrt_error_set(err, NRT_EIO, "socket %d took %zd of the handle's %zu bytes", sock,
                         sent, len);
  return NRT_OK;
}

int nrt_ipc_recv(int sock, void *buf, size_t cap, size_t *len, int *fds, size_t max_fds,
                 size_t *n_fds, struct nrt_error *err) {
  *len = 0;
  *n_fds = 0;
  union {
    char buf[CMSG_SPACE(sizeof(int) * MAX_FDS)];
    struct cmsghdr align;
  } ctl;
  struct iovec iov = {buf, cap};
  struct msghdr msg = {0};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = ctl.buf;
  msg.msg_controllen = sizeof ctl.buf;
  ssize_t n;
  do
    n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n < 0)
    return nrt_error_set(err, NRT_EIO, "cannot receive a handle on socket %d: %s", sock,
                         strerror(errno));
  size_t extra = 0;
  for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
      continue;
    size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < k; i++) {
      int fd;
      memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
      if (fds && *n_fds < max_fds)
        fds[(*n_fds)++] = fd;
      else {
        close(fd);
        extra++;
      }
    }
  }
  int rc = NRT_OK;
  if (n == 0 && !*n_fds)
    rc = nrt_error_set(err, NRT_EIO, "socket %d was closed by its peer", sock);
  else if (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC) || extra)
    rc = nrt_error_set(err, NRT_ERANGE,
                       "a message on socket %d did not fit (%zu bytes of room, %zu descriptors "
                       "of room)",
                       sock, cap, max_fds);
  if (rc) {
    close_all(fds, *n_fds);
    *n_fds = 0;
    return rc;
  }
  *len = (size_t)n;
  return NRT_OK;
}
