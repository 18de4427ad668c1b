/* ipc within one process: blocks and columns exported and imported (put and get in the same
 * process), every column layout, sharing without copies, malformed and forged handles,
 * descriptor passing, bounded descriptors over many handoffs, allocation failures, and the
 * namespace gone from /dev/shm after shutdown. The multi-process cases are in test_ipc_procs. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/socket.h>

#include "ipc/ipc_internal.h"
#include "ipc/ipc_test.h"
#include "nrt/column.h"

static char ns[NRT_IPC_NAMESPACE_MAX + 1];

static struct nrt_ipc_stats stats(void) {
  struct nrt_ipc_stats s;
  CHECK_EQ_INT(nrt_ipc_stats(&s, NULL), NRT_OK);
  return s;
}

/* ------------------------------------------------------------------ blocks */

static void test_block_put_get(void) {
  struct check_live before = check_live_now();
  struct nrt_ipc_stats s0 = stats();
  nrt_meminfo *mi;
  CHECK_EQ_INT(nrt_ipc_alloc(1000, &mi, NULL), NRT_OK);
  CHECK(nrt_ipc_is_shared(mi));
  CHECK_EQ_INT(nrt_mi_size(mi), 1000);
  CHECK_EQ_INT((uintptr_t)nrt_mi_data(mi) % 64, 0);
  ipc_test_fill(nrt_mi_data(mi), 1000, 7);
  unsigned char h[NRT_IPC_BLOCK_HANDLE_SIZE];
  size_t len = 0;
  CHECK_EQ_INT(nrt_ipc_export_block(mi, h, sizeof h, &len, NULL), NRT_OK);
  CHECK_EQ_INT(len, NRT_IPC_BLOCK_HANDLE_SIZE);
  CHECK_EQ_INT(stats().transits, s0.transits + 1);
  /* The exporter may drop its reference at once: the handle keeps the block. */
  nrt_mi_decref(mi);
  CHECK_EQ_INT(stats().blocks, s0.blocks + 1);
  nrt_meminfo *got;
  CHECK_EQ_INT(nrt_ipc_import_block(h, len, NULL, 0, &got, NULL), NRT_OK);
  CHECK(ipc_test_same(nrt_mi_data(got), 1000, 7));
  CHECK_EQ_INT(stats().transits, s0.transits);
  /* A second import of the same bytes: the same MemInfo, one more reference. */
  nrt_meminfo *again;
  CHECK_EQ_INT(nrt_ipc_import_block(h, len, NULL, 0, &again, NULL), NRT_OK);
  CHECK(again == got);
  CHECK_EQ_INT(nrt_mi_refcount(got), 2);
  nrt_mi_incref(got);
  nrt_mi_decref(got);
  nrt_mi_decref(again);
  nrt_mi_decref(got);
  struct nrt_ipc_stats s1 = stats();
  CHECK_EQ_INT(s1.blocks, s0.blocks);
  CHECK_EQ_INT(s1.blocks_freed - s0.blocks_freed, 1);
  CHECK_EQ_INT(s1.local_blocks, s0.local_blocks);
  /* Freed: importing the handle again is a clear error. */
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_ipc_import_block(h, len, NULL, 0, &got, &err), NRT_EVALUE);
  CHECK(got == NULL);
  CHECK(strstr(err.message, "already freed") != NULL);
  CHECK_NO_LEAK(before);
}

static void test_block_drop_and_many(void) {
  struct nrt_ipc_stats s0 = stats();
  nrt_meminfo *mi[50];
  unsigned char h[50][NRT_IPC_BLOCK_HANDLE_SIZE];
  size_t len = 0;
  for (int i = 0; i < 50; i++) {
    CHECK_EQ_INT(nrt_ipc_alloc((size_t)i * 97 + 1, &mi[i], NULL), NRT_OK);
    ipc_test_fill(nrt_mi_data(mi[i]), nrt_mi_size(mi[i]), (uint64_t)i);
    CHECK_EQ_INT(nrt_ipc_export_block(mi[i], h[i], sizeof h[i], &len, NULL), NRT_OK);
  }
  CHECK_EQ_INT(stats().transits, s0.transits + 50);
  /* Dropping a handle that will never be imported releases its reference; twice is harmless. */
  for (int i = 0; i < 50; i += 2) {
    CHECK_EQ_INT(nrt_ipc_handle_drop(h[i], len, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_ipc_handle_drop(h[i], len, NULL), NRT_OK);
  }
  CHECK_EQ_INT(stats().transits, s0.transits + 25);
  int ok = 1;
  for (int i = 0; i < 50; i++) {
    nrt_meminfo *got;
    CHECK_EQ_INT(nrt_ipc_import_block(h[i], len, NULL, 0, &got, NULL), NRT_OK);
    ok &= got == mi[i] && ipc_test_same(nrt_mi_data(got), nrt_mi_size(got), (uint64_t)i);
    nrt_mi_decref(got);
    nrt_mi_decref(mi[i]);
  }
  CHECK(ok);
  struct nrt_ipc_stats s1 = stats();
  CHECK_EQ_INT(s1.transits, s0.transits);
  CHECK_EQ_INT(s1.blocks, s0.blocks);
  CHECK_EQ_INT(s1.blocks_made - s0.blocks_made, 50);
  CHECK_EQ_INT(s1.blocks_freed - s0.blocks_freed, 50);
}

/* A large block gets a segment of its own, removed with it. */
static void test_large_block(void) {
  struct nrt_ipc_stats s0 = stats();
  nrt_meminfo *mi;
  CHECK_EQ_INT(nrt_ipc_alloc(5u << 20, &mi, NULL), NRT_OK);
  CHECK_EQ_INT(stats().segments, s0.segments + 1);
  ipc_test_fill(nrt_mi_data(mi), 5u << 20, 3);
  CHECK(ipc_test_same(nrt_mi_data(mi), 5u << 20, 3));
  nrt_mi_decref(mi);
  CHECK_EQ_INT(stats().segments, s0.segments);
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_ipc_alloc((size_t)1 << 50, &mi, &err), NRT_ERANGE);
  CHECK(mi == NULL);
}

/* Forges a handle: `edit` changes its wire block, then it is sealed again (valid checksum). */
static void reseal(unsigned char *h, size_t len, int kind, uint32_t n_blocks) {
  ipc_handle_seal(h, len, kind, n_blocks, ns);
}

static void expect_bad_block(const unsigned char *h, size_t len, int code, const char *what) {
  nrt_meminfo *got = (nrt_meminfo *)1;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_ipc_import_block(h, len, NULL, 0, &got, &err), code);
  CHECK(got == NULL);
  if (!strstr(err.message, what))
    check_failf(__FILE__, __LINE__, "message \"%s\" lacks \"%s\"", err.message, what);
}

static void test_malformed_block_handles(void) {
  struct check_live before = check_live_now();
  struct nrt_ipc_stats s0 = stats();
  nrt_meminfo *mi;
  CHECK_EQ_INT(nrt_ipc_alloc(256, &mi, NULL), NRT_OK);
  unsigned char good[NRT_IPC_BLOCK_HANDLE_SIZE], h[NRT_IPC_BLOCK_HANDLE_SIZE + 8];
  size_t len = 0;
  CHECK_EQ_INT(nrt_ipc_export_block(mi, good, 10, &len, NULL), NRT_ERANGE);
  CHECK_EQ_INT(len, NRT_IPC_BLOCK_HANDLE_SIZE);
  CHECK_EQ_INT(nrt_ipc_export_block(mi, good, sizeof good, &len, NULL), NRT_OK);
  struct ipc_wire_block w;
  const size_t wat = sizeof(struct ipc_wire_header);

  expect_bad_block(NULL, len, NRT_EINVAL, "NULL handle");
  expect_bad_block(good, 10, NRT_EINVAL, "too short");
  expect_bad_block(good, len - 1, NRT_EINVAL, "header says");
  memcpy(h, good, len);
  memset(h + len, 0, 8);
  expect_bad_block(h, len + 8, NRT_EINVAL, "header says");
  memcpy(h, good, len);
  h[0] ^= 1;
  expect_bad_block(h, len, NRT_EINVAL, "magic");
  memcpy(h, good, len);
  h[len - 3] ^= 0x40;
  expect_bad_block(h, len, NRT_EINVAL, "checksum");
  /* A bad segment id, a bad offset, a freed block, a wrong size: forged with a valid checksum. */
  memcpy(h, good, len);
  memcpy(&w, h + wat, sizeof w);
  w.ref.seg = 1000000;
  memcpy(h + wat, &w, sizeof w);
  reseal(h, len, HANDLE_BLOCK, 1);
  expect_bad_block(h, len, NRT_EINVAL, "does not exist");
  memcpy(&w, good + wat, sizeof w);
  w.ref.off += 8;
  memcpy(h + wat, &w, sizeof w);
  reseal(h, len, HANDLE_BLOCK, 1);
  expect_bad_block(h, len, NRT_EINVAL, "not a block");
  memcpy(&w, good + wat, sizeof w);
  w.ref.off = 1ull << 40;
  memcpy(h + wat, &w, sizeof w);
  reseal(h, len, HANDLE_BLOCK, 1);
  expect_bad_block(h, len, NRT_EINVAL, "not a block");
  memcpy(&w, good + wat, sizeof w);
  w.ref.seg_gen += 1;
  memcpy(h + wat, &w, sizeof w);
  reseal(h, len, HANDLE_BLOCK, 1);
  expect_bad_block(h, len, NRT_EVALUE, "already freed");
  memcpy(&w, good + wat, sizeof w);
  w.size += 1;
  memcpy(h + wat, &w, sizeof w);
  reseal(h, len, HANDLE_BLOCK, 1);
  expect_bad_block(h, len, NRT_EINVAL, "bytes");
  /* A handle of another namespace. */
  memcpy(h, good, len);
  ipc_handle_seal(h, len, HANDLE_BLOCK, 1, "elsewhere");
  expect_bad_block(h, len, NRT_EINVAL, "namespace elsewhere");
  /* The forged handles released nothing: the genuine one still imports. */
  nrt_meminfo *got;
  CHECK_EQ_INT(nrt_ipc_import_block(good, len, NULL, 0, &got, NULL), NRT_OK);
  CHECK(got == mi);
  nrt_mi_decref(got);
  /* Exporting what is not a shared block. */
  nrt_meminfo *priv;
  CHECK_EQ_INT(nrt_mi_alloc(16, &priv, NULL), NRT_OK);
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_ipc_export_block(priv, good, sizeof good, &len, &err), NRT_EINVAL);
  CHECK(!nrt_ipc_is_shared(priv));
  CHECK(!nrt_ipc_is_shared(NULL));
  nrt_mi_decref(priv);
  nrt_mi_decref(mi);
  CHECK_EQ_INT(stats().blocks, s0.blocks);
  CHECK_EQ_INT(stats().transits, s0.transits);
  CHECK_NO_LEAK(before);
}

/* ------------------------------------------------------------------ columns */

static nrt_column *string_column(enum nrt_col_type type, int64_t n, int nulls) {
  nrt_col_builder *b;
  if (nrt_col_builder_new(type, n, &b, NULL))
    return NULL;
  char buf[64];
  for (int64_t i = 0; i < n; i++) {
    if (nulls && i % 7 == 3) {
      nrt_col_builder_append_null(b);
      continue;
    }
    int len = snprintf(buf, sizeof buf, "row %lld %.*s", (long long)i, (int)(i % 23),
                       "-long-enough-to-be-out-of-line");
    nrt_col_builder_append_view(b, buf, len);
  }
  nrt_column *c;
  return nrt_col_builder_finish(b, &c, NULL) ? NULL : c;
}

static nrt_column *number_column(enum nrt_col_type type, int64_t n) {
  nrt_col_builder *b;
  if (nrt_col_builder_new(type, n, &b, NULL))
    return NULL;
  for (int64_t i = 0; i < n; i++) {
    if (i % 5 == 1)
      nrt_col_builder_append_null(b);
    else if (type == NRT_COL_INT64)
      nrt_col_builder_append_int64(b, i * 1000003);
    else if (type == NRT_COL_FLOAT64)
      nrt_col_builder_append_float64(b, (double)i / 3);
    else
      nrt_col_builder_append_bool(b, i % 3 == 0);
  }
  nrt_column *c;
  return nrt_col_builder_finish(b, &c, NULL) ? NULL : c;
}

static nrt_column *list_column(int64_t n) {
  nrt_col_builder *b;
  if (nrt_col_builder_new_list(NRT_COL_UTF8, n, &b, NULL))
    return NULL;
  for (int64_t i = 0; i < n; i++) {
    if (i % 4 == 2) {
      nrt_col_builder_append_null(b);
      continue;
    }
    nrt_str_list *l;
    if (nrt_str_list_new(4, &l, NULL))
      return NULL;
    for (int64_t k = 0; k < i % 4; k++) {
      char buf[32];
      int len = snprintf(buf, sizeof buf, "item %lld.%lld", (long long)i, (long long)k);
      nrt_str s;
      if (nrt_str_new(buf, len, &s, NULL) == NRT_OK)
        nrt_str_list_append(l, s, NULL);
    }
    nrt_col_builder_append_list(b, l);
    nrt_str_list_release(l);
  }
  nrt_column *c;
  return nrt_col_builder_finish(b, &c, NULL) ? NULL : c;
}

/* A list<float64> column: null rows, empty lists and null items. */
static nrt_column *number_list_column(int64_t n) {
  nrt_col_builder *b;
  if (nrt_col_builder_new_list(NRT_COL_FLOAT64, n, &b, NULL))
    return NULL;
  for (int64_t i = 0; i < n; i++) {
    if (i % 4 == 2) {
      nrt_col_builder_append_null(b);
      continue;
    }
    nrt_col_builder *items = nrt_col_builder_list_items(b);
    for (int64_t k = 0; k < i % 4; k++)
      if (k == 1)
        nrt_col_builder_append_null(items);
      else
        nrt_col_builder_append_float64(items, (double)i / (double)(k + 1));
    nrt_col_builder_end_list(b);
  }
  nrt_column *c;
  return nrt_col_builder_finish(b, &c, NULL) ? NULL : c;
}

/* Exports col, imports it back and compares; returns the import (or NULL). */
static nrt_column *roundtrip(nrt_column *col, unsigned flags) {
  size_t cap = nrt_ipc_column_handle_size(col), len = 0;
  unsigned char *h = malloc(cap);
  nrt_column *got = NULL;
  struct nrt_error err = {0};
  if (nrt_ipc_export_column(col, h, cap, &len, &err) != NRT_OK ||
      nrt_ipc_import_column(h, len, NULL, 0, flags, &got, &err) != NRT_OK)
    check_failf(__FILE__, __LINE__, "roundtrip of a %s column: %s",
                nrt_col_type_name(col->type), err.message);
  free(h);
  if (got && !nrt_col_equal(col, got))
    check_failf(__FILE__, __LINE__, "a %s column changed on its way", nrt_col_type_name(col->type));
  return got;
}

static void test_column_layouts(void) {
  struct check_live before = check_live_now();
  struct nrt_ipc_stats s0 = stats();
  nrt_column *cols[] = {string_column(NRT_COL_UTF8, 1000, 1),
                        string_column(NRT_COL_LARGE_UTF8, 300, 0),
                        string_column(NRT_COL_UTF8_VIEW, 2000, 1),
                        number_column(NRT_COL_INT64, 500),
                        number_column(NRT_COL_FLOAT64, 77),
                        number_column(NRT_COL_BOOL, 1001),
                        list_column(400),
                        number_list_column(300),
                        string_column(NRT_COL_UTF8, 0, 0)};
  for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
    CHECK(cols[i] != NULL);
    if (!cols[i])
      continue;
    nrt_column *got = roundtrip(cols[i], NRT_IPC_VALIDATE);
    /* Slices keep their offset; an imported column exports again (forwarding). */
    if (got && got->length > 10) {
      nrt_column *sl, *sl2;
      CHECK_EQ_INT(nrt_col_slice(got, 3, got->length - 5, &sl, NULL), NRT_OK);
      nrt_column *back = roundtrip(sl, NRT_IPC_VALIDATE);
      CHECK_EQ_INT(nrt_col_slice(cols[i], 3, got->length - 5, &sl2, NULL), NRT_OK);
      CHECK(back && nrt_col_equal(back, sl2));
      nrt_col_release(back);
      nrt_col_release(sl2);
      nrt_col_release(sl);
    }
    nrt_col_release(got);
    nrt_col_release(cols[i]);
  }
  struct nrt_ipc_stats s1 = stats();
  CHECK_EQ_INT(s1.blocks, s0.blocks);
  CHECK_EQ_INT(s1.transits, s0.transits);
  CHECK_EQ_INT(s1.local_blocks, s0.local_blocks);
  CHECK_NO_LEAK(before);
}

/* A shared column exports without copying; so do imported columns and columns built with the
 * shared allocator. */
static void test_share_without_copies(void) {
  struct check_live before = check_live_now();
  nrt_column *col = string_column(NRT_COL_UTF8, 5000, 1), *sh, *sh2;
  CHECK_EQ_INT(nrt_ipc_share_column(col, &sh, NULL), NRT_OK);
  CHECK(sh != col && nrt_col_equal(sh, col));
  CHECK_EQ_INT(nrt_ipc_share_column(sh, &sh2, NULL), NRT_OK);
  CHECK(sh2 == sh); /* nothing left to copy */
  nrt_col_release(sh2);
  struct nrt_ipc_stats s0 = stats();
  for (int k = 0; k < 3; k++) {
    nrt_column *got = roundtrip(sh, 0);
    CHECK(got && got->data.data == sh->data.data); /* same mapping: zero-copy */
    nrt_column *again = roundtrip(got, 0);
    nrt_col_release(again);
    nrt_col_release(got);
  }
  CHECK_EQ_INT(stats().blocks_made, s0.blocks_made);
  nrt_col_release(sh);
  nrt_col_release(col);

  const struct nrt_allocator *saved = nrt_default_allocator();
  nrt_set_default_allocator(nrt_ipc_allocator());
  nrt_column *born = string_column(NRT_COL_UTF8_VIEW, 3000, 1);
  nrt_set_default_allocator(saved);
  CHECK(born != NULL);
  s0 = stats();
  nrt_column *got = roundtrip(born, NRT_IPC_VALIDATE);
  CHECK_EQ_INT(stats().blocks_made, s0.blocks_made);
  nrt_col_release(got);
  nrt_col_release(born);
  CHECK_NO_LEAK(before);
}

static void expect_bad_column(const unsigned char *h, size_t len, const char *what) {
  nrt_column *got = (nrt_column *)1;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_ipc_import_column(h, len, NULL, 0, 0, &got, &err), NRT_EINVAL);
  CHECK(got == NULL);
  if (!strstr(err.message, what))
    check_failf(__FILE__, __LINE__, "message \"%s\" lacks \"%s\"", err.message, what);
}

static void test_malformed_column_handles(void) {
  struct check_live before = check_live_now();
  struct nrt_ipc_stats s0 = stats();
  /* Forged copies of a genuine handle claim its transits as the genuine one would (and a
   * failed import releases them), so the blocks are kept alive by a shared copy meanwhile. */
  nrt_column *col = string_column(NRT_COL_UTF8, 100, 1), *sh;
  CHECK_EQ_INT(nrt_ipc_share_column(col, &sh, NULL), NRT_OK);
  size_t cap = nrt_ipc_column_handle_size(col), len = 0;
  unsigned char *good = malloc(cap), *h = malloc(cap + 64);
  CHECK_EQ_INT(nrt_ipc_export_column(sh, good, 8, &len, NULL), NRT_ERANGE);
  CHECK_EQ_INT(nrt_ipc_export_column(sh, good, cap, &len, NULL), NRT_OK);
  struct ipc_wire_header hh;
  memcpy(&hh, good, sizeof hh);
  size_t at_col = sizeof hh + hh.n_blocks * sizeof(struct ipc_wire_block);
  int64_t v;
  int32_t t;

  expect_bad_column(good, len - 24, "header says");
  /* A block handle is not a column handle. */
  nrt_meminfo *mi;
  CHECK_EQ_INT(nrt_ipc_alloc(8, &mi, NULL), NRT_OK);
  unsigned char bh[NRT_IPC_BLOCK_HANDLE_SIZE];
  size_t blen = 0;
  CHECK_EQ_INT(nrt_ipc_export_block(mi, bh, sizeof bh, &blen, NULL), NRT_OK);
  expect_bad_column(bh, blen, "a block handle where a column handle");
  nrt_mi_decref(mi);
  CHECK_EQ_INT(nrt_ipc_handle_drop(bh, blen, NULL), NRT_OK);
  /* Truncated column part (sealed, so only the structure is wrong). */
  memcpy(h, good, len);
  reseal(h, at_col + 10, HANDLE_COLUMN, hh.n_blocks);
  expect_bad_column(h, at_col + 10, "truncated");
  /* More rows than the buffers hold. */
  memcpy(h, good, len);
  v = 1000;
  memcpy(h + at_col + offsetof(struct ipc_wire_column, length), &v, 8);
  reseal(h, len, HANDLE_COLUMN, hh.n_blocks);
  expect_bad_column(h, len, "too small");
  /* An unknown type; a negative length. */
  memcpy(h, good, len);
  t = 99;
  memcpy(h + at_col, &t, 4);
  reseal(h, len, HANDLE_COLUMN, hh.n_blocks);
  expect_bad_column(h, len, "unknown type");
  memcpy(h, good, len);
  v = -1;
  memcpy(h + at_col + offsetof(struct ipc_wire_column, length), &v, 8);
  reseal(h, len, HANDLE_COLUMN, hh.n_blocks);
  expect_bad_column(h, len, "rows");
  /* A buffer pointing past its block; a buffer naming a block that is not there. */
  size_t at_buf = at_col + sizeof(struct ipc_wire_column) + sizeof(struct ipc_wire_buffer);
  memcpy(h, good, len);
  v = 1 << 20;
  memcpy(h + at_buf + offsetof(struct ipc_wire_buffer, size), &v, 8);
  reseal(h, len, HANDLE_COLUMN, hh.n_blocks);
  expect_bad_column(h, len, "not inside");
  memcpy(h, good, len);
  t = 40;
  memcpy(h + at_buf, &t, 4);
  reseal(h, len, HANDLE_COLUMN, hh.n_blocks);
  expect_bad_column(h, len, "not inside");
  /* Trailing bytes. */
  memcpy(h, good, len);
  memset(h + len, 0, 24);
  reseal(h, len + 24, HANDLE_COLUMN, hh.n_blocks);
  expect_bad_column(h, len + 24, "after its columns");
  /* The genuine handle still imports; once nothing holds its blocks, it is a clear error. */
  nrt_column *got;
  CHECK_EQ_INT(nrt_ipc_import_column(good, len, NULL, 0, NRT_IPC_VALIDATE, &got, NULL), NRT_OK);
  CHECK(got && nrt_col_equal(got, col));
  nrt_col_release(got);
  nrt_col_release(sh);
  CHECK_EQ_INT(stats().blocks, s0.blocks);
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_ipc_import_column(good, len, NULL, 0, 0, &got, &err), NRT_EVALUE);
  CHECK(strstr(err.message, "already freed") != NULL);
  nrt_col_release(col);
  free(good);
  free(h);
  CHECK_EQ_INT(stats().transits, s0.transits);
  CHECK_NO_LEAK(before);
}

/* ------------------------------------------------------------------ descriptors */

static void test_fd_passing(void) {
  int fds0 = ipc_test_fds();
  int sv[2];
  CHECK_EQ_INT(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
  nrt_column *col = string_column(NRT_COL_LARGE_UTF8, 2000, 1), *sh;
  CHECK_EQ_INT(nrt_ipc_share_column(col, &sh, NULL), NRT_OK);
  size_t cap = nrt_ipc_column_handle_size(sh), len = 0, rlen = 0, nfd = 0;
  unsigned char *h = malloc(cap), *r = malloc(cap);
  CHECK_EQ_INT(nrt_ipc_export_column(sh, h, cap, &len, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_ipc_send(sv[0], h, len, NULL), NRT_OK);
  int fds[8];
  CHECK_EQ_INT(nrt_ipc_recv(sv[1], r, cap, &rlen, fds, 8, &nfd, NULL), NRT_OK);
  CHECK_EQ_INT(rlen, len);
  CHECK(nfd >= 1);
  /* Wrong descriptors are refused: too few, or another object. */
  nrt_column *got = NULL;
  struct nrt_error err = {0};
  if (nfd >= 2) {
    CHECK_EQ_INT(nrt_ipc_import_column(r, rlen, fds, nfd - 1, 0, &got, &err), NRT_EINVAL);
    CHECK(strstr(err.message, "descriptors") != NULL);
    /* that failure released the handle: export and send again */
    CHECK_EQ_INT(nrt_ipc_export_column(sh, h, cap, &len, NULL), NRT_OK);
    for (size_t i = 0; i < nfd; i++)
      close(fds[i]);
    CHECK_EQ_INT(nrt_ipc_send(sv[0], h, len, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_ipc_recv(sv[1], r, cap, &rlen, fds, 8, &nfd, NULL), NRT_OK);
  }
  CHECK_EQ_INT(nrt_ipc_import_column(r, rlen, fds, nfd, NRT_IPC_VALIDATE, &got, NULL), NRT_OK);
  CHECK(got && nrt_col_equal(got, col));
  for (size_t i = 0; i < nfd; i++)
    close(fds[i]);
  nrt_col_release(got);
  /* A descriptor of another object is refused (checked against the segment's inode) when the
   * segment is not mapped yet: a fresh large block. */
  nrt_meminfo *mi;
  CHECK_EQ_INT(nrt_ipc_alloc(4u << 20, &mi, NULL), NRT_OK);
  unsigned char bh[NRT_IPC_BLOCK_HANDLE_SIZE];
  size_t blen = 0;
  CHECK_EQ_INT(nrt_ipc_export_block(mi, bh, sizeof bh, &blen, NULL), NRT_OK);
  nrt_meminfo *got_mi;
  int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  CHECK_EQ_INT(nrt_ipc_import_block(bh, blen, &devnull, 1, &got_mi, NULL), NRT_OK);
  CHECK(got_mi == mi); /* already mapped here: the descriptor is not needed */
  close(devnull);
  nrt_mi_decref(got_mi);
  nrt_mi_decref(mi);
  /* Closed peer. */
  close(sv[0]);
  CHECK_EQ_INT(nrt_ipc_recv(sv[1], r, cap, &rlen, fds, 8, &nfd, &err), NRT_EIO);
  close(sv[1]);
  nrt_col_release(sh);
  nrt_col_release(col);
  free(h);
  free(r);
  CHECK_EQ_INT(ipc_test_fds(), fds0);
}

/* Put/get handoffs in one process keep no descriptor open. */
static void test_fds_bounded(void) {
  int64_t n = check_scale(1000000); /* the million handoffs */
  int fds0 = ipc_test_fds();
  struct nrt_ipc_stats s0 = stats();
  unsigned char h[NRT_IPC_BLOCK_HANDLE_SIZE];
  size_t len = 0;
  int ok = 1;
  for (int64_t i = 0; i < n; i++) {
    nrt_meminfo *mi, *got;
    ok &= nrt_ipc_alloc(64 + (size_t)(i % 512), &mi, NULL) == NRT_OK;
    ok &= nrt_ipc_export_block(mi, h, sizeof h, &len, NULL) == NRT_OK;
    nrt_mi_decref(mi);
    ok &= nrt_ipc_import_block(h, len, NULL, 0, &got, NULL) == NRT_OK;
    nrt_mi_decref(got);
    if (!ok)
      break;
  }
  CHECK(ok);
  CHECK_EQ_INT(ipc_test_fds(), fds0);
  struct nrt_ipc_stats s1 = stats();
  CHECK_EQ_INT(s1.blocks_made - s0.blocks_made, n);
  CHECK_EQ_INT(s1.blocks_freed - s0.blocks_freed, n);
  CHECK(s1.segments <= s0.segments + 1);
}

/* ------------------------------------------------------------------ allocation failures */

static nrt_column *fail_col;

static int trial_import(void *ctx) {
  (void)ctx;
  size_t cap = nrt_ipc_column_handle_size(fail_col), len = 0;
  unsigned char h[1024];
  if (cap > sizeof h)
    return NRT_EINVAL;
  int rc = nrt_ipc_export_column(fail_col, h, sizeof h, &len, NULL);
  nrt_column *got = NULL;
  if (rc == NRT_OK)
    rc = nrt_ipc_import_column(h, len, NULL, 0, 0, &got, NULL);
  nrt_col_release(got);
  return rc;
}

static int trial_share(void *ctx) {
  (void)ctx;
  nrt_column *sh = NULL;
  int rc = nrt_ipc_share_column(fail_col, &sh, NULL);
  nrt_col_release(sh);
  return rc;
}

static void test_allocation_failures(void) {
  struct nrt_ipc_stats s0 = stats();
  nrt_column *col = list_column(50), *sh;
  CHECK_EQ_INT(nrt_ipc_share_column(col, &sh, NULL), NRT_OK);
  fail_col = sh;
  CHECK(check_every_allocation_failure("ipc import_column", trial_import, NULL) > 0);
  fail_col = col;
  CHECK(check_every_allocation_failure("ipc share_column", trial_share, NULL) > 0);
  nrt_col_release(sh);
  nrt_col_release(col);
  struct nrt_ipc_stats s1 = stats();
  CHECK_EQ_INT(s1.blocks, s0.blocks);
  CHECK_EQ_INT(s1.transits, s0.transits);
}

/* ------------------------------------------------------------------ names, shutdown */

static void test_namespace_names(void) {
  CHECK_EQ_STR(nrt_ipc_namespace(), ns);
  struct nrt_ipc_options o = {0};
  o.namespace_name = "bad.name";
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_ipc_init(&o, &err), NRT_EINVAL);
  o.namespace_name = ns;
  o.max_bytes = 1;
  CHECK_EQ_INT(nrt_ipc_init(&o, &err), NRT_EINVAL); /* already joined, other options */
  CHECK(strstr(err.message, "other options") != NULL);
  CHECK(nrt_ipc_shm_objects(ns) >= 4);
  CHECK(nrt_ipc_shm_objects(NULL) >= nrt_ipc_shm_objects(ns));
}

static void test_shutdown_removes_everything(void) {
  nrt_meminfo *kept;
  CHECK_EQ_INT(nrt_ipc_alloc(100, &kept, NULL), NRT_OK);
  ipc_test_fill(nrt_mi_data(kept), 100, 9);
  CHECK(nrt_ipc_segments() >= 1);
  nrt_ipc_shutdown();
  CHECK_EQ_INT(nrt_ipc_shm_objects(ns), 0);
  /* A reference held across shutdown stays readable and is released without effect. */
  CHECK(ipc_test_same(nrt_mi_data(kept), 100, 9));
  CHECK(!nrt_ipc_is_shared(kept));
  nrt_mi_decref(kept);
  /* Joining again starts a fresh namespace. */
  CHECK_EQ_INT(nrt_ipc_segments(), 0);
  nrt_meminfo *mi;
  CHECK_EQ_INT(nrt_ipc_alloc(100, &mi, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_ipc_segments(), 1);
  nrt_mi_decref(mi);
  nrt_ipc_shutdown();
  CHECK_EQ_INT(nrt_ipc_shm_objects(ns), 0);
}

int main(void) {
  ipc_test_join("tl", NULL);
  snprintf(ns, sizeof ns, "%s", nrt_ipc_namespace());
  test_block_put_get();
  test_block_drop_and_many();
  test_large_block();
  test_malformed_block_handles();
  test_column_layouts();
  test_share_without_copies();
  test_malformed_column_handles();
  test_fd_passing();
  test_fds_bounded();
  test_allocation_failures();
  test_namespace_names();
  test_shutdown_removes_everything();
  return check_finish("test_ipc_local");
}
