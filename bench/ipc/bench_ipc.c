/* ipc benchmark (never a test). A producer hands a 1,000,000-row string column and a 100 MB
 * buffer to 1 and to 4 consumer processes; each consumer imports, reads every byte and
 * releases. Compared in the same run with the baseline every copying transport pays
 * (multiprocessing's pickling included): the bytes written through a pipe and read back.
 * Prints four tables:
 *  1. handoff latency (export, send, receive, import: until the last consumer can read) and
 *     throughput (until every consumer has read every byte), ipc vs pipe copy, with ratios;
 *  2. small-block handoffs between two processes per second, over a million of them, and
 *     the descriptors each process has open before and after;
 *  3. residue in /dev/shm and shared bytes after a consumer, then a producer, is killed
 *     with SIGKILL, before and after the survivor collects.
 * Times are wall-clock medians (handoffs cross processes); on the shared 2-core machine
 * the 4-consumer rows also measure the scheduler.
 * Usage: bench_ipc [rows] [megabytes] [small_handoffs]   (defaults 1000000 100 1000000) */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nrt/column.h"
#include "nrt/ipc.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts); /* system-wide: comparable across processes */
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static _Noreturn void die(const char *what, const struct nrt_error *err) {
  fprintf(stderr, "bench_ipc: %s%s%s\n", what, err ? ": " : "", err ? err->message : "");
  exit(1);
}

static int fd_count(void) {
  DIR *d = opendir("/proc/self/fd");
  int n = 0;
  while (d && readdir(d))
    n++;
  if (d)
    closedir(d);
  return n - 3;
}

static void write_all(int fd, const void *buf, size_t n) {
  const char *p = buf;
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      die("write", NULL);
    p += k;
    n -= (size_t)k;
  }
}

static int read_all(int fd, void *buf, size_t n) {
  char *p = buf;
  while (n) {
    ssize_t k = read(fd, p, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return -1;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

/* Reads every byte (a sum of 8-byte words and the tail). */
static uint64_t touch(const void *p, size_t n) {
  const unsigned char *b = p;
  uint64_t s = 0, w;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    memcpy(&w, b + i, 8);
    s += w;
  }
  for (; i < n; i++)
    s += b[i];
  return s;
}

static uint64_t touch_column(const nrt_column *c) {
  return touch(c->values.data, (size_t)c->values.size) + touch(c->data.data, (size_t)c->data.size) +
         (c->validity.data ? touch(c->validity.data, (size_t)c->validity.size) : 0);
}

/* ------------------------------------------------------------ consumers */

enum { MSG_QUIT, MSG_COLUMN, MSG_BLOCK, MSG_PIPE, MSG_SMALL };

struct msg {
  uint32_t kind;
  uint32_t len; /* handle bytes that follow, or 0 */
  uint64_t raw; /* MSG_PIPE: raw bytes that follow; MSG_SMALL: handoffs that follow */
  uint32_t read; /* read every byte before replying (else reply once the data is readable) */
  uint32_t pad;
};

struct reply {
  double ready; /* when the data could be read (imported, or fully received) */
  uint64_t sum;
  int fds_before, fds_after;
};

struct consumer {
  int to[2], from[2];
  pid_t pid;
};

static void consumer_loop(int in, int out) {
  int fds0 = fd_count();
  char *raw = NULL;
  size_t raw_cap = 0;
  for (;;) {
    struct msg m;
    if (read_all(in, &m, sizeof m))
      break;
    unsigned char h[4096];
    if (m.len > sizeof h || read_all(in, h, m.len))
      break;
    struct reply r = {0, 0, fds0, 0};
    struct nrt_error err = {0};
    if (m.kind == MSG_QUIT) {
      r.fds_after = fd_count();
      write_all(out, &r, sizeof r);
      break;
    } else if (m.kind == MSG_COLUMN) {
      nrt_column *c;
      if (nrt_ipc_import_column(h, m.len, NULL, 0, 0, &c, &err))
        die("import column", &err);
      r.ready = now();
      r.sum = m.read ? touch_column(c) : 0;
      nrt_col_release(c);
    } else if (m.kind == MSG_BLOCK) {
      nrt_meminfo *mi;
      if (nrt_ipc_import_block(h, m.len, NULL, 0, &mi, &err))
        die("import block", &err);
      r.ready = now();
      r.sum = m.read ? touch(nrt_mi_data(mi), nrt_mi_size(mi)) : 0;
      nrt_mi_decref(mi);
    } else if (m.kind == MSG_PIPE) {
      if (m.raw > raw_cap) {
        free(raw);
        raw_cap = m.raw;
        raw = malloc(raw_cap);
      }
      if (!raw || read_all(in, raw, m.raw))
        die("pipe copy", NULL);
      r.ready = now();
      r.sum = m.read ? touch(raw, m.raw) : 0;
    } else if (m.kind == MSG_SMALL) {
      for (uint64_t i = 0; i < m.raw; i++) {
        uint32_t len;
        nrt_meminfo *mi;
        if (read_all(in, &len, 4) || len > sizeof h || read_all(in, h, len) ||
            nrt_ipc_import_block(h, len, NULL, 0, &mi, &err))
          die("small handoff", &err);
        r.sum += touch(nrt_mi_data(mi), nrt_mi_size(mi));
        nrt_mi_decref(mi);
      }
      r.ready = now();
      r.fds_after = fd_count();
    }
    write_all(out, &r, sizeof r);
  }
  free(raw);
}

static struct consumer start_consumer(void) {
  struct consumer c;
  if (pipe2(c.to, O_CLOEXEC) || pipe2(c.from, O_CLOEXEC))
    die("pipe", NULL);
  fflush(stdout);
  c.pid = fork();
  if (c.pid == 0) {
    close(c.to[1]);
    close(c.from[0]);
    consumer_loop(c.to[0], c.from[1]);
    exit(0); /* leaves the namespace (nrt_ipc_shutdown at exit) */
  }
  close(c.to[0]);
  close(c.from[1]);
  return c;
}

static void stop_consumer(struct consumer *c) {
  struct msg m = {MSG_QUIT, 0, 0, 0, 0};
  write_all(c->to[1], &m, sizeof m);
  struct reply r;
  (void)read_all(c->from[0], &r, sizeof r);
  close(c->to[1]);
  close(c->from[0]);
  waitpid(c->pid, NULL, 0);
}

/* ------------------------------------------------------------ one handoff */

struct sample {
  double latency, total;
};

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Hands `what` (a column, a block, or raw bytes) to consumers [0, n): one export per consumer
 * (each gets its own handle). */
static struct sample handoff(struct consumer *cs, int n, int read, nrt_column *col,
                             nrt_meminfo *mi, const void *raw, size_t raw_len, uint64_t *sum) {
  double t0 = now();
  for (int i = 0; i < n; i++) {
    unsigned char h[4096];
    size_t len = 0;
    struct nrt_error err = {0};
    struct msg m = {MSG_PIPE, 0, raw_len, (uint32_t)read, 0};
    if (col) {
      m.kind = MSG_COLUMN;
      m.raw = 0;
      if (nrt_ipc_export_column(col, h, sizeof h, &len, &err))
        die("export column", &err);
    } else if (mi) {
      m.kind = MSG_BLOCK;
      m.raw = 0;
      if (nrt_ipc_export_block(mi, h, sizeof h, &len, &err))
        die("export block", &err);
    }
    m.len = (uint32_t)len;
    write_all(cs[i].to[1], &m, sizeof m);
    write_all(cs[i].to[1], h, len);
    if (m.kind == MSG_PIPE)
      write_all(cs[i].to[1], raw, raw_len);
  }
  struct sample s = {0, 0};
  for (int i = 0; i < n; i++) {
    struct reply r;
    if (read_all(cs[i].from[0], &r, sizeof r))
      die("consumer died", NULL);
    if (r.ready - t0 > s.latency)
      s.latency = r.ready - t0;
    *sum = r.sum;
  }
  s.total = now() - t0;
  return s;
}

/* Medians of `reps` handoffs: the latency with consumers that only import (so the last
 * consumer's latency does not include waiting for a core while the others read), the total
 * with consumers that read every byte. */
static struct sample median(struct consumer *cs, int n, int reps, nrt_column *col,
                            nrt_meminfo *mi, const void *raw, size_t raw_len, uint64_t *sum) {
  double lat[64], tot[64];
  if (reps > 64)
    reps = 64;
  for (int r = 0; r < reps; r++) {
    lat[r] = handoff(cs, n, 0, col, mi, raw, raw_len, sum).latency;
    tot[r] = handoff(cs, n, 1, col, mi, raw, raw_len, sum).total;
  }
  qsort(lat, (size_t)reps, sizeof *lat, cmp_double);
  qsort(tot, (size_t)reps, sizeof *tot, cmp_double);
  return (struct sample){lat[reps / 2], tot[reps / 2]};
}

/* ------------------------------------------------------------ payloads */

static nrt_column *make_column(int64_t rows) {
  nrt_col_builder *b;
  if (nrt_col_builder_new(NRT_COL_UTF8, rows, &b, NULL))
    die("builder", NULL);
  unsigned x = 12345;
  char buf[40];
  for (int64_t i = 0; i < rows; i++) {
    x = x * 1103515245u + 12345u;
    int len = 4 + (int)((x >> 16) % 24); /* 15.5 bytes per row, as the word-list sample */
    for (int k = 0; k < len; k++)
      buf[k] = (char)('a' + (x >> (k % 16)) % 26);
    nrt_col_builder_append_view(b, buf, len);
  }
  nrt_column *c;
  struct nrt_error err = {0};
  if (nrt_col_builder_finish(b, &c, &err))
    die("finish", &err);
  return c;
}

static void row(const char *what, int n, struct sample ipc, struct sample pipe, double bytes) {
  printf("%-26s %2d  %10.1f  %10.1f  %8.0fx  %8.2f  %8.2f  %6.1fx\n", what, n,
         ipc.latency * 1e6, pipe.latency * 1e6, pipe.latency / ipc.latency,
         bytes * n / ipc.total / 1e9, bytes * n / pipe.total / 1e9, pipe.total / ipc.total);
}

/* ------------------------------------------------------------ residue after kill -9 */

static uint64_t shm_bytes(void) {
  struct nrt_ipc_stats s;
  return nrt_ipc_stats(&s, NULL) ? 0 : s.segment_bytes;
}

static void report(const char *what, uint64_t o0, uint64_t b0, uint64_t o1, uint64_t b1,
                   uint64_t reaped, uint64_t o2, uint64_t b2) {
  printf("%-32s %9lld %9.1f %9llu %9lld %9.1f\n", what, (long long)(o1 - o0),
         ((double)b1 - (double)b0) / 1e6, (unsigned long long)reaped, (long long)(o2 - o0),
         ((double)b2 - (double)b0) / 1e6);
}

static void residue(nrt_column *col, nrt_meminfo *buf) {
  const char *ns = nrt_ipc_namespace();
  nrt_ipc_collect(NULL, NULL); /* the baseline: what this process holds, nobody else's */
  printf("\n/dev/shm residue after kill -9 (objects and MB of segments beyond those before)\n");
  printf("%-32s %9s %9s %9s %9s %9s\n", "case", "objects", "MB", "reaped", "objects", "MB");
  printf("%-32s %19s %9s %19s\n", "", "after the kill", "", "after collect");
  /* A consumer killed while it holds the column and the buffer. */
  uint64_t o0 = nrt_ipc_shm_objects(ns), b0 = shm_bytes();
  int hold[2], back[2]; /* handles to the victim; its "holding" back */
  if (pipe2(hold, O_CLOEXEC) || pipe2(back, O_CLOEXEC))
    die("pipe", NULL);
  pid_t pid = fork();
  if (pid == 0) {
    unsigned char h[4096];
    uint32_t len;
    nrt_column *got;
    nrt_meminfo *mi;
    if (read_all(hold[0], &len, 4) || read_all(hold[0], h, len) ||
        nrt_ipc_import_column(h, len, NULL, 0, 0, &got, NULL) || read_all(hold[0], &len, 4) ||
        read_all(hold[0], h, len) || nrt_ipc_import_block(h, len, NULL, 0, &mi, NULL))
      _exit(3);
    touch_column(got);
    (void)!write(back[1], "x", 1);
    for (;;)
      pause();
  }
  unsigned char h[4096];
  size_t len;
  struct nrt_error err = {0};
  /* Private copies the producer drops: only the victim keeps them alive. */
  nrt_column *mine;
  if (nrt_ipc_share_column(col, &mine, &err))
    die("share", &err);
  nrt_meminfo *copy;
  if (nrt_ipc_alloc(nrt_mi_size(buf), &copy, &err))
    die("alloc", &err);
  memcpy(nrt_mi_data(copy), nrt_mi_data(buf), nrt_mi_size(buf));
  uint32_t l32;
  if (nrt_ipc_export_column(mine, h, sizeof h, &len, &err))
    die("export", &err);
  l32 = (uint32_t)len;
  write_all(hold[1], &l32, 4);
  write_all(hold[1], h, len);
  if (nrt_ipc_export_block(copy, h, sizeof h, &len, &err))
    die("export", &err);
  l32 = (uint32_t)len;
  write_all(hold[1], &l32, 4);
  write_all(hold[1], h, len);
  nrt_mi_decref(copy);
  char x;
  (void)!read(back[0], &x, 1);
  nrt_col_release(mine); /* the victim alone holds them now */
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
  uint64_t o1 = nrt_ipc_shm_objects(ns), b1 = shm_bytes();
  struct nrt_ipc_collect_result res;
  nrt_ipc_collect(&res, NULL);
  uint64_t o2 = nrt_ipc_shm_objects(ns), b2 = shm_bytes();
  report("consumer killed holding both", o0, b0, o1, b1, res.holders_reaped, o2, b2);
  o0 = nrt_ipc_shm_objects(ns);
  b0 = shm_bytes();
  /* A producer killed after its consumer imported: the consumer keeps reading, then frees. */
  pid = fork();
  if (pid == 0) {
    nrt_column *sh;
    nrt_meminfo *mi;
    if (nrt_ipc_share_column(col, &sh, NULL) || nrt_ipc_alloc(nrt_mi_size(buf), &mi, NULL) ||
        nrt_ipc_export_column(sh, h, sizeof h, &len, NULL))
      _exit(3);
    l32 = (uint32_t)len;
    write_all(back[1], &l32, 4);
    write_all(back[1], h, len);
    for (;;)
      pause();
  }
  nrt_column *got;
  if (read_all(back[0], &l32, 4) || read_all(back[0], h, l32) ||
      nrt_ipc_import_column(h, l32, NULL, 0, 0, &got, &err))
    die("import from doomed producer", &err);
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
  touch_column(got); /* still readable */
  o1 = nrt_ipc_shm_objects(ns);
  b1 = shm_bytes();
  nrt_col_release(got);
  nrt_ipc_collect(&res, NULL);
  o2 = nrt_ipc_shm_objects(ns);
  b2 = shm_bytes();
  report("producer killed, consumer done", o0, b0, o1, b1, res.holders_reaped, o2, b2);
  close(hold[0]);
  close(hold[1]);
  close(back[0]);
  close(back[1]);
}

/* ------------------------------------------------------------ small handoffs */

static void small_handoffs(int64_t n) {
  struct consumer c = start_consumer();
  int fds0 = fd_count();
  struct msg m = {MSG_SMALL, 0, (uint64_t)n, 1, 0};
  write_all(c.to[1], &m, sizeof m);
  double t0 = now();
  char buf[65536];
  size_t used = 0;
  for (int64_t i = 0; i < n; i++) {
    nrt_meminfo *mi;
    struct nrt_error err = {0};
    if (nrt_ipc_alloc(64, &mi, &err))
      die("alloc", &err);
    memset(nrt_mi_data(mi), (int)(i & 0xff), 64);
    size_t len;
    if (used + 4 + NRT_IPC_BLOCK_HANDLE_SIZE > sizeof buf) {
      write_all(c.to[1], buf, used);
      used = 0;
    }
    if (nrt_ipc_export_block(mi, buf + used + 4, NRT_IPC_BLOCK_HANDLE_SIZE, &len, &err))
      die("export", &err);
    uint32_t l32 = (uint32_t)len;
    memcpy(buf + used, &l32, 4);
    used += 4 + len;
    nrt_mi_decref(mi);
  }
  write_all(c.to[1], buf, used);
  struct reply r;
  if (read_all(c.from[0], &r, sizeof r))
    die("consumer died", NULL);
  double dt = r.ready - t0;
  int fds1 = fd_count();
  stop_consumer(&c);
  printf("\nsmall-block handoffs between two processes (64-byte blocks, batched writes)\n");
  printf("%-12s %14s %12s %22s %22s\n", "handoffs", "handoffs/s", "us each",
         "producer fds (before)", "consumer fds (before)");
  printf("%-12lld %14.0f %12.2f %14d (%5d) %14d (%5d)\n", (long long)n, (double)n / dt,
         dt / (double)n * 1e6, fds1, fds0, r.fds_after, r.fds_before);
}

int main(int argc, char **argv) {
  int64_t rows = argc > 1 ? atoll(argv[1]) : 1000000;
  int64_t mb = argc > 2 ? atoll(argv[2]) : 100;
  int64_t small = argc > 3 ? atoll(argv[3]) : 1000000;
  char ns[32];
  snprintf(ns, sizeof ns, "bench%d", (int)getpid());
  struct nrt_ipc_options o = {0};
  o.namespace_name = ns;
  struct nrt_error err = {0};
  if (nrt_ipc_init(&o, &err))
    die("init", &err);
  enum { MAXC = 4 };
  struct consumer cs[MAXC];
  for (int i = 0; i < MAXC; i++)
    cs[i] = start_consumer();

  nrt_column *priv = make_column(rows), *col;
  double t0 = now();
  if (nrt_ipc_share_column(priv, &col, &err))
    die("share", &err);
  double share_s = now() - t0;
  size_t col_bytes = (size_t)(col->values.size + col->data.size);
  nrt_meminfo *buf;
  size_t buf_bytes = (size_t)mb << 20;
  t0 = now();
  if (nrt_ipc_alloc(buf_bytes, &buf, &err))
    die("alloc", &err);
  double alloc_s = now() - t0;
  memset(nrt_mi_data(buf), 0x61, buf_bytes);
  /* The pipe baseline sends the column's two buffers as one serialized message. */
  char *col_raw = malloc(col_bytes);
  memcpy(col_raw, col->values.data, (size_t)col->values.size);
  memcpy(col_raw + col->values.size, col->data.data, (size_t)col->data.size);

  printf("ipc handoff vs copy through a pipe (%lld-row utf8 column = %.1f MB; %lld MB buffer)\n",
         (long long)rows, (double)col_bytes / 1e6, (long long)mb);
  printf("one-time costs: share the private column (one copy) %.1f ms; allocate the buffer "
         "%.1f ms\n\n",
         share_s * 1e3, alloc_s * 1e3);
  printf("%-26s %2s  %10s  %10s  %9s  %8s  %8s  %7s\n", "payload", "n", "ipc us", "pipe us",
         "latency", "ipc GB/s", "pipe GB/s", "total");
  uint64_t sum;
  int fds_before = fd_count();
  for (int n = 1; n <= MAXC; n += 3) {
    struct sample a = median(cs, n, 21, col, NULL, NULL, 0, &sum);
    struct sample b = median(cs, n, 5, NULL, NULL, col_raw, col_bytes, &sum);
    row("1M-row string column", n, a, b, (double)col_bytes);
    a = median(cs, n, 21, NULL, buf, NULL, 0, &sum);
    b = median(cs, n, 5, NULL, NULL, nrt_mi_data(buf), buf_bytes, &sum);
    row("100 MB buffer", n, a, b, (double)buf_bytes);
  }
  printf("(latency: until the last consumer can read; GB/s: bytes x consumers / time until all "
         "read every byte; ratios pipe / ipc)\n");
  printf("producer fds before / after the handoffs: %d / %d\n", fds_before, fd_count());
  for (int i = 0; i < MAXC; i++)
    stop_consumer(&cs[i]);
  free(col_raw);

  small_handoffs(small);
  residue(priv, buf);
  nrt_mi_decref(buf);
  nrt_col_release(col);
  nrt_col_release(priv);
  nrt_ipc_shutdown();
  printf("\nafter shutdown: %llu objects of namespace %s in /dev/shm\n",
         (unsigned long long)nrt_ipc_shm_objects(ns), ns);
  return 0;
}
