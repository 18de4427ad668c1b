/* ipc between real processes (fork, and fork + exec): one producer and four consumers, a
 * handle forwarded to a third process, a producer that exits first, consumers and producers
 * killed with SIGKILL at random points, collection on the timer and under memory pressure, and
 * references inherited through fork. After each case nothing is left: no block, no handle in
 * flight, no holder of a dead process, no stray object in /dev/shm. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include "ipc/ipc_internal.h"
#include "ipc/ipc_test.h"
#include "nrt/column.h"

static char ns[NRT_IPC_NAMESPACE_MAX + 1];

static struct nrt_ipc_stats stats(void) {
  struct nrt_ipc_stats s;
  if (nrt_ipc_stats(&s, NULL) != NRT_OK)
    memset(&s, 0xff, sizeof s);
  return s;
}

static void collect(void) {
  struct nrt_error err = {0};
  if (nrt_ipc_collect(NULL, &err) != NRT_OK)
    check_failf(__FILE__, __LINE__, "collect: %s", err.message);
}

/* Objects in /dev/shm whose name starts with "nrt.<ns>.<kind>". */
static int shm_count(char kind) {
  char prefix[64];
  int pl = snprintf(prefix, sizeof prefix, "nrt.%s.%c", ns, kind);
  DIR *d = opendir("/dev/shm");
  int n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL)
    n += strncmp(e->d_name, prefix, (size_t)pl) == 0;
  if (d)
    closedir(d);
  return n;
}

/* Nothing but `blocks` blocks of this process left in the namespace, and only this process
 * registered: checked in the registry and in /dev/shm. */
static void check_clean(uint64_t blocks, int line) {
  collect();
  struct nrt_ipc_stats s = stats();
  if (s.holders != 1 || s.transits != 0 || s.blocks != blocks || s.local_blocks != blocks)
    check_failf(__FILE__, line,
                "left behind: %llu holders, %llu transits, %llu blocks (%llu expected, %llu "
                "held here)",
                (unsigned long long)s.holders, (unsigned long long)s.transits,
                (unsigned long long)s.blocks, (unsigned long long)blocks,
                (unsigned long long)s.local_blocks);
  else
    check_pass();
  /* One holder's record chunks (ours), and exactly the live segments. */
  if (shm_count('h') != (int)nrt_ipc_g.n_chunks || shm_count('s') != (int)s.segments)
    check_failf(__FILE__, line, "/dev/shm holds %d record chunks (%u expected), %d segments "
                                "(%llu live)",
                shm_count('h'), nrt_ipc_g.n_chunks, shm_count('s'),
                (unsigned long long)s.segments);
  else
    check_pass();
}

static pid_t spawn(int (*fn)(void *), void *arg) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0)
    exit(fn(arg)); /* a normal exit: nrt_ipc_shutdown runs at exit */
  return pid;
}

static int wait_ok(pid_t pid) {
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR)
      return 0;
  return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void kill_wait(pid_t pid) {
  kill(pid, SIGKILL);
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
}

/* A child's verdict: its own checks only (forked children inherit the parent's counters). */
static int child_checks(void) {
  return check_finish("  child") == EXIT_SUCCESS ? 0 : 1;
}

struct pipe2_ {
  int r, w;
};

static struct pipe2_ make_pipe(void) {
  int fd[2];
  if (pipe2(fd, O_CLOEXEC)) {
    perror("pipe2");
    exit(2);
  }
  return (struct pipe2_){fd[0], fd[1]};
}

/* A column every process can rebuild to compare with. */
static nrt_column *word_column(int64_t n, uint64_t seed) {
  nrt_col_builder *b;
  if (nrt_col_builder_new(NRT_COL_UTF8, n, &b, NULL))
    return NULL;
  char buf[64];
  for (int64_t i = 0; i < n; i++) {
    if ((i + (int64_t)seed) % 11 == 5) {
      nrt_col_builder_append_null(b);
      continue;
    }
    int len = snprintf(buf, sizeof buf, "w%llu-%lld%.*s", (unsigned long long)seed,
                       (long long)i, (int)((i * 7) % 19), "0123456789abcdefghij");
    nrt_col_builder_append_view(b, buf, len);
  }
  nrt_column *c;
  return nrt_col_builder_finish(b, &c, NULL) ? NULL : c;
}

/* ---------------------------------------------------- 1 producer, 4 consumers */

struct consumer {
  struct pipe2_ in;
  int64_t expect;
  const int *close_fds; /* the other consumers' pipes, inherited: close for end of file */
  int n_close;
};

static int consume(void *arg) {
  struct consumer *c = arg;
  for (int i = 0; i < c->n_close; i++)
    close(c->close_fds[i]);
  struct check_live before = check_live_now();
  unsigned char h[256];
  size_t len = 0;
  int64_t got = 0, bad = 0;
  while (ipc_test_recv(c->in.r, h, sizeof h, &len) == 0) {
    uint64_t seed;
    memcpy(&seed, h, 8);
    nrt_meminfo *mi;
    struct nrt_error err = {0};
    if (nrt_ipc_import_block(h + 8, len - 8, NULL, 0, &mi, &err) != NRT_OK) {
      fprintf(stderr, "consumer: import %llu: %s\n", (unsigned long long)seed, err.message);
      bad++;
      continue;
    }
    bad += !ipc_test_same(nrt_mi_data(mi), nrt_mi_size(mi), seed);
    nrt_mi_decref(mi);
    got++;
  }
  CHECK_EQ_INT(bad, 0);
  CHECK_EQ_INT(got, c->expect);
  CHECK_EQ_INT(stats().local_blocks, 0);
  CHECK_NO_LEAK(before); /* every MemInfo this process made died here */
  return child_checks();
}

static void test_one_producer_four_consumers(void) {
  enum { C = 4 };
  int64_t n = check_scale(100000);
  struct nrt_ipc_stats s0 = stats();
  struct consumer cs[C];
  int writers[C];
  for (int i = 0; i < C; i++) {
    cs[i].in = make_pipe();
    cs[i].expect = n / C + (i < n % C);
    writers[i] = cs[i].in.w;
    cs[i].close_fds = writers;
    cs[i].n_close = C;
  }
  pid_t pids[C];
  for (int i = 0; i < C; i++) {
    pids[i] = spawn(consume, &cs[i]);
    close(cs[i].in.r);
  }
  unsigned char msg[8 + NRT_IPC_BLOCK_HANDLE_SIZE];
  size_t len = 0;
  int ok = 1;
  for (int64_t i = 0; i < n && ok; i++) {
    nrt_meminfo *mi;
    uint64_t seed = (uint64_t)i;
    ok &= nrt_ipc_alloc(16 + (size_t)(i * 37 % 1000), &mi, NULL) == NRT_OK;
    if (!ok)
      break;
    ipc_test_fill(nrt_mi_data(mi), nrt_mi_size(mi), seed);
    memcpy(msg, &seed, 8);
    ok &= nrt_ipc_export_block(mi, msg + 8, sizeof msg - 8, &len, NULL) == NRT_OK;
    nrt_mi_decref(mi); /* the handle keeps the block until the consumer takes it */
    ok &= ipc_test_send(cs[i % C].in.w, msg, 8 + len) == 0;
  }
  CHECK(ok);
  for (int i = 0; i < C; i++)
    close(cs[i].in.w);
  for (int i = 0; i < C; i++)
    CHECK(wait_ok(pids[i]));
  /* Every block freed exactly once, wherever its last reference went. */
  struct nrt_ipc_stats s1 = stats();
  CHECK_EQ_INT(s1.blocks_made - s0.blocks_made, n);
  CHECK_EQ_INT(s1.blocks_freed - s0.blocks_freed, n);
  CHECK_EQ_INT(s1.holders_reaped, s0.holders_reaped); /* they left normally */
  check_clean(0, __LINE__);
}

/* ---------------------------------------------------- forwarding to a third process */

struct relay {
  struct pipe2_ in, out, ack;
};

static int relay_first(void *arg) {
  struct relay *r = arg;
  unsigned char h[4096], h2[4096];
  size_t len = 0, len2 = 0;
  nrt_column *expect = word_column(3000, 42), *col = NULL;
  CHECK_EQ_INT(ipc_test_recv(r->in.r, h, sizeof h, &len), 0);
  CHECK_EQ_INT(nrt_ipc_import_column(h, len, NULL, 0, 0, &col, NULL), NRT_OK);
  CHECK(col && nrt_col_equal(col, expect));
  /* On to the third process: a handle of our own, and the bytes we received as they are. */
  CHECK_EQ_INT(nrt_ipc_export_column(col, h2, sizeof h2, &len2, NULL), NRT_OK);
  CHECK_EQ_INT(ipc_test_send(r->out.w, h2, len2), 0);
  CHECK_EQ_INT(ipc_test_send(r->out.w, h, len), 0);
  char c;
  CHECK_EQ_INT(ipc_test_read(r->ack.r, &c, 1), 0); /* the third one holds it now */
  nrt_col_release(col);
  nrt_col_release(expect);
  return child_checks();
}

static int relay_third(void *arg) {
  struct relay *r = arg;
  unsigned char h[4096];
  size_t len = 0;
  nrt_column *expect = word_column(3000, 42), *a = NULL, *b = NULL;
  CHECK_EQ_INT(ipc_test_recv(r->out.r, h, sizeof h, &len), 0);
  CHECK_EQ_INT(nrt_ipc_import_column(h, len, NULL, 0, NRT_IPC_VALIDATE, &a, NULL), NRT_OK);
  CHECK_EQ_INT(ipc_test_recv(r->out.r, h, sizeof h, &len), 0);
  CHECK_EQ_INT(nrt_ipc_import_column(h, len, NULL, 0, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(ipc_test_write(r->ack.w, "k", 1), 0);
  CHECK(a && b && nrt_col_equal(a, expect) && nrt_col_equal(b, expect));
  CHECK(a && b && a->data.data == b->data.data); /* one mapping, shared by both */
  nrt_col_release(a);
  nrt_col_release(b);
  nrt_col_release(expect);
  return child_checks();
}

static void test_forward_to_third_process(void) {
  struct relay r = {make_pipe(), make_pipe(), make_pipe()};
  pid_t p1 = spawn(relay_first, &r), p2 = spawn(relay_third, &r);
  nrt_column *col = word_column(3000, 42), *sh;
  CHECK_EQ_INT(nrt_ipc_share_column(col, &sh, NULL), NRT_OK);
  unsigned char h[4096];
  size_t len = 0;
  CHECK_EQ_INT(nrt_ipc_export_column(sh, h, sizeof h, &len, NULL), NRT_OK);
  nrt_col_release(sh); /* the producer keeps nothing */
  nrt_col_release(col);
  CHECK_EQ_INT(ipc_test_send(r.in.w, h, len), 0);
  CHECK(wait_ok(p1));
  CHECK(wait_ok(p2));
  int fds[] = {r.in.r, r.in.w, r.out.r, r.out.w, r.ack.r, r.ack.w};
  for (int i = 0; i < 6; i++)
    close(fds[i]);
  check_clean(0, __LINE__);
}

/* ---------------------------------------------------- the producer exits first */

struct early {
  struct pipe2_ handles, go;
};

/* What the early producer still holds when it exits (reachable: not a leak; not static, so
 * the stores are not optimised away). */
nrt_column *early_held[2];
nrt_meminfo *early_block;

static int early_producer(void *arg) {
  struct early *e = arg;
  nrt_column *col = word_column(20000, 7), *sh = NULL;
  CHECK_EQ_INT(nrt_ipc_share_column(col, &sh, NULL), NRT_OK);
  early_held[0] = col;
  early_held[1] = sh;
  unsigned char h[4096];
  size_t len = 0;
  CHECK_EQ_INT(nrt_ipc_export_column(sh, h, sizeof h, &len, NULL), NRT_OK);
  CHECK_EQ_INT(ipc_test_send(e->handles.w, h, len), 0);
  nrt_meminfo *mi;
  CHECK_EQ_INT(nrt_ipc_alloc(12345, &mi, NULL), NRT_OK);
  early_block = mi;
  ipc_test_fill(nrt_mi_data(mi), 12345, 99);
  CHECK_EQ_INT(nrt_ipc_export_block(mi, h, sizeof h, &len, NULL), NRT_OK);
  CHECK_EQ_INT(ipc_test_send(e->handles.w, h, len), 0);
  /* Exits holding its references: exit() releases them and leaves the handles in flight. */
  return child_checks();
}

static int early_consumer(void *arg) {
  struct early *e = arg;
  CHECK_EQ_INT(nrt_ipc_collect(NULL, NULL), NRT_OK); /* joins before the producer leaves */
  char c;
  CHECK_EQ_INT(ipc_test_read(e->go.r, &c, 1), 0); /* the producer is gone */
  unsigned char h[4096];
  size_t len = 0;
  nrt_column *expect = word_column(20000, 7), *col = NULL;
  nrt_meminfo *mi = NULL;
  CHECK_EQ_INT(ipc_test_recv(e->handles.r, h, sizeof h, &len), 0);
  CHECK_EQ_INT(nrt_ipc_import_column(h, len, NULL, 0, 0, &col, NULL), NRT_OK);
  CHECK(col && nrt_col_equal(col, expect));
  CHECK_EQ_INT(ipc_test_recv(e->handles.r, h, sizeof h, &len), 0);
  CHECK_EQ_INT(nrt_ipc_import_block(h, len, NULL, 0, &mi, NULL), NRT_OK);
  CHECK(mi && ipc_test_same(nrt_mi_data(mi), 12345, 99));
  nrt_mi_decref(mi);
  nrt_col_release(col);
  nrt_col_release(expect);
  return child_checks();
}

static void test_producer_exits_first(void) {
  struct early e = {make_pipe(), make_pipe()};
  pid_t c = spawn(early_consumer, &e);
  pid_t p = spawn(early_producer, &e);
  CHECK(wait_ok(p));
  CHECK_EQ_INT(ipc_test_write(e.go.w, "g", 1), 0);
  CHECK(wait_ok(c));
  int fds[] = {e.handles.r, e.handles.w, e.go.r, e.go.w};
  for (int i = 0; i < 4; i++)
    close(fds[i]);
  check_clean(0, __LINE__);
}

/* ---------------------------------------------------- consumers killed at random points */

struct victim {
  struct pipe2_ in;
  nrt_meminfo **pinned;
  int n_pinned;
};

/* Imports, checks and keeps or drops whatever comes, until killed. */
static int victim_main(void *arg) {
  struct victim *v = arg;
  /* References inherited through fork are this process's own copies. */
  for (int i = 0; i < v->n_pinned; i++)
    if (!ipc_test_same(nrt_mi_data(v->pinned[i]), nrt_mi_size(v->pinned[i]), 1000u + i))
      _exit(3);
  unsigned char h[256];
  size_t len = 0;
  nrt_meminfo *kept[64];
  int n_kept = 0;
  while (ipc_test_recv(v->in.r, h, sizeof h, &len) == 0) {
    uint64_t seed;
    memcpy(&seed, h, 8);
    nrt_meminfo *mi;
    if (nrt_ipc_import_block(h + 8, len - 8, NULL, 0, &mi, NULL) != NRT_OK)
      _exit(4);
    if (!ipc_test_same(nrt_mi_data(mi), nrt_mi_size(mi), seed))
      _exit(5);
    if (seed % 3 == 0 && n_kept < 64)
      kept[n_kept++] = mi; /* held until the end: the collector must release it */
    else
      nrt_mi_decref(mi);
    if (seed % 5 == 0 && n_kept) {
      nrt_meminfo *again;
      unsigned char h2[NRT_IPC_BLOCK_HANDLE_SIZE];
      size_t l2;
      if (nrt_ipc_export_block(kept[0], h2, sizeof h2, &l2, NULL) ||
          nrt_ipc_import_block(h2, l2, NULL, 0, &again, NULL))
        _exit(6);
      nrt_mi_decref(again);
    }
  }
  pause(); /* waits for the signal */
  return 0;
}

static void test_kill_consumers(void) {
  int trials = (int)check_scale(100);
  enum { PINNED = 8 };
  nrt_meminfo *pinned[PINNED];
  for (int i = 0; i < PINNED; i++) {
    CHECK_EQ_INT(nrt_ipc_alloc(100 + (size_t)i * 5000, &pinned[i], NULL), NRT_OK);
    ipc_test_fill(nrt_mi_data(pinned[i]), nrt_mi_size(pinned[i]), 1000u + (uint64_t)i);
  }
  struct nrt_ipc_stats s0 = stats();
  srand(12345);
  int bad_exits = 0;
  for (int t = 0; t < trials; t++) {
    struct victim v = {make_pipe(), pinned, PINNED};
    pid_t pid = spawn(victim_main, &v);
    close(v.in.r);
    /* Pinned blocks (we keep them) and fresh ones (dropped as soon as sent), then the kill at
     * a random moment: while the victim imports, checks, releases, or holds the lock. */
    int n = 1 + rand() % 200;
    unsigned char (*sent)[NRT_IPC_BLOCK_HANDLE_SIZE] = calloc((size_t)n, sizeof *sent);
    size_t len = 0;
    for (int i = 0; i < n; i++) {
      unsigned char msg[8 + NRT_IPC_BLOCK_HANDLE_SIZE];
      uint64_t seed;
      nrt_meminfo *mi;
      if (i % 10 == 0) {
        seed = 1000u + (uint64_t)(i / 10 % PINNED);
        mi = pinned[i / 10 % PINNED];
        nrt_mi_incref(mi);
      } else {
        seed = (uint64_t)t * 1000 + (uint64_t)i + 2000000u;
        if (nrt_ipc_alloc(32 + (size_t)(rand() % 3000), &mi, NULL) != NRT_OK)
          break;
        ipc_test_fill(nrt_mi_data(mi), nrt_mi_size(mi), seed);
      }
      memcpy(msg, &seed, 8);
      if (nrt_ipc_export_block(mi, msg + 8, sizeof msg - 8, &len, NULL) == NRT_OK) {
        memcpy(sent[i], msg + 8, len);
        ipc_test_send(v.in.w, msg, 8 + len);
      }
      nrt_mi_decref(mi);
    }
    struct timespec d = {0, (long)(rand() % 3000) * 1000};
    nanosleep(&d, NULL);
    kill(pid, SIGKILL);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
      ;
    bad_exits += !(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    close(v.in.w);
    /* What never reached the victim is ours to release: the handles still in the pipe. */
    for (int i = 0; i < n; i++)
      nrt_ipc_handle_drop(sent[i], len, NULL);
    free(sent);
    check_clean(PINNED, __LINE__);
    /* No survivor sees freed memory: reuse whatever was freed, then check the pinned blocks. */
    nrt_meminfo *fresh[16];
    for (int i = 0; i < 16; i++)
      if (nrt_ipc_alloc(64 + (size_t)i * 300, &fresh[i], NULL) == NRT_OK)
        memset(nrt_mi_data(fresh[i]), 0xEE, nrt_mi_size(fresh[i]));
      else
        fresh[i] = NULL;
    int intact = 1;
    for (int i = 0; i < PINNED; i++)
      intact &= ipc_test_same(nrt_mi_data(pinned[i]), nrt_mi_size(pinned[i]), 1000u + i) &&
                nrt_mi_refcount(pinned[i]) == 1;
    CHECK(intact);
    for (int i = 0; i < 16; i++)
      nrt_mi_decref(fresh[i]);
  }
  CHECK_EQ_INT(bad_exits, 0); /* the victims died of the signal, not of a failed check */
  struct nrt_ipc_stats s1 = stats();
  CHECK_EQ_INT(s1.holders_reaped - s0.holders_reaped, trials);
  printf("  %d consumers killed; the registry was repaired %llu times after a death inside "
         "its lock\n",
         trials, (unsigned long long)(s1.recoveries - s0.recoveries));
  for (int i = 0; i < PINNED; i++)
    nrt_mi_decref(pinned[i]);
  check_clean(0, __LINE__);
}

/* ---------------------------------------------------- killed holding the registry lock */

struct wrecker {
  nrt_meminfo *mi;
  struct pipe2_ ready;
};

/* Takes the registry lock, leaves the derived state wrong (a block count, a free list, a
 * half-made object) and waits to be killed inside the lock. */
static int wreck_inside_lock(void *arg) {
  struct wrecker *w = arg;
  pthread_mutex_lock(&nrt_ipc_g.mu);
  if (ipc_lock(NULL))
    _exit(3);
  struct ipc_block *b;
  if (ipc_block_get(&((struct ipc_record *)w->mi)->ref, -1, &b, NULL))
    _exit(4);
  b->count += 5;
  nrt_ipc_g.reg->tables[TBL_TRANSITS].free_head = 0;
  nrt_ipc_g.reg->blocks += 3;
  char path[IPC_PATH_MAX];
  void *addr;
  ipc_path(path, ns, ".s%u", 4000u);
  if (ipc_obj_create(path, 4096, &addr, NULL, NULL))
    _exit(5);
  if (ipc_test_write(w->ready.w, "r", 1))
    _exit(6);
  for (;;)
    pause();
}

static void test_killed_inside_lock(void) {
  struct wrecker w = {NULL, make_pipe()};
  CHECK_EQ_INT(nrt_ipc_alloc(777, &w.mi, NULL), NRT_OK);
  ipc_test_fill(nrt_mi_data(w.mi), 777, 8);
  struct nrt_ipc_stats s0 = stats();
  pid_t pid = spawn(wreck_inside_lock, &w);
  char c;
  CHECK_EQ_INT(ipc_test_read(w.ready.r, &c, 1), 0);
  kill_wait(pid);
  /* The next locker finds the lock's owner dead and recounts everything. */
  check_clean(1, __LINE__);
  struct nrt_ipc_stats s1 = stats();
  CHECK_EQ_INT(s1.recoveries, s0.recoveries + 1);
  CHECK_EQ_INT(s1.blocks, 1);
  CHECK(ipc_test_same(nrt_mi_data(w.mi), 777, 8));
  nrt_mi_decref(w.mi); /* the true count (ours alone) lets it go */
  check_clean(0, __LINE__);
  CHECK_EQ_INT(stats().blocks_freed, s0.blocks_freed + 1);
  close(w.ready.r);
  close(w.ready.w);
}

/* ---------------------------------------------------- the producer killed */

struct doomed {
  struct pipe2_ handles, ready, verify, done;
};

static int doomed_producer(void *arg) {
  struct doomed *d = arg;
  nrt_column *col = word_column(5000, 3), *sh;
  if (nrt_ipc_share_column(col, &sh, NULL))
    _exit(3);
  unsigned char h[4096];
  size_t len = 0;
  /* Two columns and two blocks: the consumer takes one of each, the others stay in flight. */
  for (int k = 0; k < 2; k++) {
    if (nrt_ipc_export_column(sh, h, sizeof h, &len, NULL) || ipc_test_send(d->handles.w, h, len))
      _exit(4);
    nrt_meminfo *mi;
    if (nrt_ipc_alloc(50000, &mi, NULL))
      _exit(5);
    ipc_test_fill(nrt_mi_data(mi), 50000, 77);
    if (nrt_ipc_export_block(mi, h, sizeof h, &len, NULL) || ipc_test_send(d->handles.w, h, len))
      _exit(6);
  }
  if (ipc_test_write(d->done.w, "d", 1))
    _exit(7); /* all four handles are in flight: the parent may kill us now */
  for (;;)
    pause(); /* holding everything until killed */
}

static int doomed_consumer(void *arg) {
  struct doomed *d = arg;
  unsigned char h[4096];
  size_t len = 0;
  nrt_column *expect = word_column(5000, 3), *col = NULL;
  nrt_meminfo *mi = NULL;
  CHECK_EQ_INT(ipc_test_recv(d->handles.r, h, sizeof h, &len), 0);
  CHECK_EQ_INT(nrt_ipc_import_column(h, len, NULL, 0, 0, &col, NULL), NRT_OK);
  CHECK_EQ_INT(ipc_test_recv(d->handles.r, h, sizeof h, &len), 0);
  CHECK_EQ_INT(nrt_ipc_import_block(h, len, NULL, 0, &mi, NULL), NRT_OK);
  CHECK_EQ_INT(ipc_test_write(d->ready.w, "r", 1), 0);
  char c;
  CHECK_EQ_INT(ipc_test_read(d->verify.r, &c, 1), 0); /* the producer is dead and collected */
  CHECK(col && nrt_col_equal(col, expect));
  CHECK(mi && ipc_test_same(nrt_mi_data(mi), 50000, 77));
  nrt_mi_decref(mi);
  nrt_col_release(col);
  nrt_col_release(expect);
  return child_checks();
}

static void test_kill_producer(void) {
  struct doomed d = {make_pipe(), make_pipe(), make_pipe(), make_pipe()};
  struct nrt_ipc_stats s0 = stats();
  pid_t p = spawn(doomed_producer, &d);
  pid_t c = spawn(doomed_consumer, &d);
  char ch;
  CHECK_EQ_INT(ipc_test_read(d.done.r, &ch, 1), 0);
  CHECK_EQ_INT(ipc_test_read(d.ready.r, &ch, 1), 0);
  kill_wait(p);
  struct nrt_ipc_collect_result res;
  CHECK_EQ_INT(nrt_ipc_collect(&res, NULL), NRT_OK);
  CHECK_EQ_INT(res.holders_reaped, 1);
  CHECK(res.transits_released >= 2); /* the handles the consumer never took */
  struct nrt_ipc_stats s1 = stats();
  CHECK_EQ_INT(s1.transits, 0);
  CHECK(s1.blocks > s0.blocks); /* what the consumer holds */
  /* Reuse the freed memory before the consumer looks again. */
  nrt_meminfo *fresh[8];
  for (int i = 0; i < 8; i++) {
    CHECK_EQ_INT(nrt_ipc_alloc(50000, &fresh[i], NULL), NRT_OK);
    memset(nrt_mi_data(fresh[i]), 0x5A, 50000);
  }
  CHECK_EQ_INT(ipc_test_write(d.verify.w, "v", 1), 0);
  CHECK(wait_ok(c));
  for (int i = 0; i < 8; i++)
    nrt_mi_decref(fresh[i]);
  int fds[] = {d.handles.r, d.handles.w, d.ready.r, d.ready.w,
               d.verify.r,  d.verify.w,  d.done.r,  d.done.w};
  for (int i = 0; i < 8; i++)
    close(fds[i]);
  check_clean(0, __LINE__);
}

/* ---------------------------------------------------- fork: inherited references */

static int inherit_child(void *arg) {
  nrt_meminfo *mi = arg;
  /* Two references inherited; dropping them does not touch the parent's. */
  CHECK_EQ_INT(nrt_mi_refcount(mi), 2);
  CHECK(nrt_ipc_is_shared(mi));
  CHECK(ipc_test_same(nrt_mi_data(mi), 4096, 5));
  nrt_mi_decref(mi);
  nrt_mi_decref(mi);
  CHECK_EQ_INT(stats().local_blocks, 0);
  return child_checks();
}

struct outlive {
  nrt_meminfo *mi;
  struct pipe2_ go;
};

static int outlive_child(void *arg) {
  struct outlive *o = arg;
  char c;
  CHECK_EQ_INT(ipc_test_read(o->go.r, &c, 1), 0); /* the parent dropped it and reused memory */
  CHECK(ipc_test_same(nrt_mi_data(o->mi), 4096, 6));
  nrt_mi_decref(o->mi);
  return child_checks();
}

static void test_fork_inherits_copies(void) {
  nrt_meminfo *mi;
  CHECK_EQ_INT(nrt_ipc_alloc(4096, &mi, NULL), NRT_OK);
  ipc_test_fill(nrt_mi_data(mi), 4096, 5);
  nrt_mi_incref(mi);
  CHECK(wait_ok(spawn(inherit_child, mi)));
  CHECK_EQ_INT(nrt_mi_refcount(mi), 2);
  CHECK(ipc_test_same(nrt_mi_data(mi), 4096, 5));
  nrt_mi_decref(mi);
  nrt_mi_decref(mi);
  check_clean(0, __LINE__);

  struct outlive o = {NULL, make_pipe()};
  CHECK_EQ_INT(nrt_ipc_alloc(4096, &o.mi, NULL), NRT_OK);
  ipc_test_fill(nrt_mi_data(o.mi), 4096, 6);
  pid_t pid = spawn(outlive_child, &o);
  nrt_mi_decref(o.mi); /* the child's copy keeps the block */
  CHECK_EQ_INT(stats().blocks, 1);
  nrt_meminfo *fresh;
  CHECK_EQ_INT(nrt_ipc_alloc(4096, &fresh, NULL), NRT_OK);
  memset(nrt_mi_data(fresh), 0, 4096);
  CHECK_EQ_INT(ipc_test_write(o.go.w, "g", 1), 0);
  CHECK(wait_ok(pid));
  nrt_mi_decref(fresh);
  close(o.go.r);
  close(o.go.w);
  check_clean(0, __LINE__);
}

/* ---------------------------------------------------- exec: a fresh process */

static int exec_child_main(int fd_in, int fd_out) {
  unsigned char h[4096];
  size_t len = 0;
  nrt_column *col = NULL, *view = NULL;
  CHECK_EQ_INT(ipc_test_recv(fd_in, h, sizeof h, &len), 0);
  CHECK_EQ_INT(nrt_ipc_import_column(h, len, NULL, 0, 0, &col, NULL), NRT_OK);
  nrt_column *expect = word_column(4000, 11);
  CHECK(col && nrt_col_equal(col, expect));
  /* Work on it directly, and send the result back (its buffers are copied to shared memory). */
  CHECK_EQ_INT(nrt_col_convert(col, NRT_COL_UTF8_VIEW, &view, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_ipc_export_column(view, h, sizeof h, &len, NULL), NRT_OK);
  CHECK_EQ_INT(ipc_test_send(fd_out, h, len), 0);
  nrt_col_release(view);
  nrt_col_release(col);
  nrt_col_release(expect);
  return check_finish("  exec'd child");
}

static void test_exec_child(void) {
  struct pipe2_ to = make_pipe(), from = make_pipe();
  char self[4096];
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1); /* valgrind gives ours */
  CHECK(sl > 0);
  self[sl > 0 ? sl : 0] = 0;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    char a[16], b[16];
    snprintf(a, sizeof a, "%d", to.r);
    snprintf(b, sizeof b, "%d", from.w);
    fcntl(to.r, F_SETFD, 0);
    fcntl(from.w, F_SETFD, 0);
    execl(self, "test_ipc_procs", "--exec-child", a, b, (char *)NULL);
    _exit(127);
  }
  close(to.r);
  close(from.w);
  nrt_column *col = word_column(4000, 11), *got = NULL;
  unsigned char h[4096];
  size_t len = 0;
  CHECK_EQ_INT(nrt_ipc_export_column(col, h, sizeof h, &len, NULL), NRT_OK);
  CHECK_EQ_INT(ipc_test_send(to.w, h, len), 0);
  CHECK_EQ_INT(ipc_test_recv(from.r, h, sizeof h, &len), 0);
  CHECK_EQ_INT(nrt_ipc_import_column(h, len, NULL, 0, NRT_IPC_VALIDATE, &got, NULL), NRT_OK);
  CHECK(got && got->type == NRT_COL_UTF8_VIEW && nrt_col_equal(got, col));
  CHECK(wait_ok(pid));
  nrt_col_release(got);
  nrt_col_release(col);
  close(to.w);
  close(from.r);
  check_clean(0, __LINE__);
}

/* ---------------------------------------------------- timer and memory pressure */

struct holder_child {
  struct pipe2_ ready;
  size_t bytes;
};

static int hold_and_wait(void *arg) {
  struct holder_child *h = arg;
  nrt_meminfo *mi;
  if (nrt_ipc_alloc(h->bytes, &mi, NULL))
    _exit(3);
  memset(nrt_mi_data(mi), 1, h->bytes);
  if (ipc_test_write(h->ready.w, "r", 1))
    _exit(4);
  for (;;)
    pause();
}

/* In a child of its own (options are fixed when a process joins): a limit on shared bytes,
 * reached while a killed process still holds memory; the allocation collects it. */
static int pressure_main(void *arg) {
  struct nrt_ipc_options o = {0};
  o.namespace_name = ns;
  o.max_bytes = *(uint64_t *)arg; /* what is in use now, plus 20 MiB */
  CHECK_EQ_INT(nrt_ipc_init(&o, NULL), NRT_OK);
  struct holder_child h = {make_pipe(), 14u << 20};
  pid_t pid = spawn(hold_and_wait, &h);
  char c;
  CHECK_EQ_INT(ipc_test_read(h.ready.r, &c, 1), 0);
  nrt_meminfo *mi = NULL;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_ipc_alloc(14u << 20, &mi, &err), NRT_ENOMEM); /* 28 MiB more > 20 */
  CHECK(strstr(err.message, "limit") != NULL);
  kill_wait(pid);
  uint64_t reaped = stats().holders_reaped;
  CHECK_EQ_INT(nrt_ipc_alloc(14u << 20, &mi, &err), NRT_OK); /* collects, then fits */
  CHECK_EQ_INT(stats().holders_reaped, reaped + 1);
  nrt_mi_decref(mi);
  return child_checks();
}

static int timer_main_(void *arg) {
  (void)arg;
  struct holder_child h = {make_pipe(), 100000};
  pid_t pid = spawn(hold_and_wait, &h); /* before our timer thread exists */
  struct nrt_ipc_options o = {0};
  o.namespace_name = ns;
  o.collect_interval_ms = 20;
  CHECK_EQ_INT(nrt_ipc_init(&o, NULL), NRT_OK);
  char c;
  CHECK_EQ_INT(ipc_test_read(h.ready.r, &c, 1), 0);
  CHECK_EQ_INT(stats().blocks, 1);
  kill_wait(pid);
  /* No explicit collection: the timer finds the dead holder. */
  int waited = 0;
  while (stats().blocks != 0 && waited < 10000) {
    struct timespec d = {0, 10 * 1000000};
    nanosleep(&d, NULL);
    waited += 10;
  }
  CHECK_EQ_INT(stats().blocks, 0);
  CHECK_EQ_INT(stats().holders, 2); /* us and the parent */
  return child_checks();
}

static void test_pressure_and_timer(void) {
  uint64_t limit = stats().segment_bytes + (20u << 20);
  CHECK(wait_ok(spawn(pressure_main, &limit)));
  check_clean(0, __LINE__);
  CHECK(wait_ok(spawn(timer_main_, NULL)));
  check_clean(0, __LINE__);
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "--exec-child") == 0)
    return exec_child_main(atoi(argv[2]), atoi(argv[3]));
  ipc_test_join("tp", NULL);
  snprintf(ns, sizeof ns, "%s", nrt_ipc_namespace());
  test_one_producer_four_consumers();
  test_forward_to_third_process();
  test_producer_exits_first();
  test_fork_inherits_copies();
  test_exec_child();
  test_kill_producer();
  test_kill_consumers();
  test_killed_inside_lock();
  test_pressure_and_timer();
  nrt_ipc_shutdown();
  CHECK_EQ_INT(nrt_ipc_shm_objects(ns), 0);
  return check_finish("test_ipc_procs");
}
