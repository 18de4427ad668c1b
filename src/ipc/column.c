/* Columns across processes: sharing a column's buffers (copied once into shared blocks unless
 * they already are), exporting every buffer in one handle, and importing it as a column of
 * this process whose buffers point into the shared segments. */
#define _GNU_SOURCE
#include <string.h>

#include "column/column_internal.h"
#include "ipc/ipc_internal.h"

#define P (&nrt_ipc_g)

/* Where an empty but present buffer points after import (never NULL: code may add 0 to it). */
static const char empty_buffer[64] __attribute__((aligned(64)));

static struct nrt_col_buffer slot_buffer(const nrt_column *c, int s) {
  return s == NRT_COL_SLOT_VALIDITY ? c->validity
         : s == NRT_COL_SLOT_VALUES ? c->values
         : s == NRT_COL_SLOT_DATA   ? c->data
                                    : c->variadic[s - NRT_COL_SLOT_VARIADIC];
}

/* A column and, for a list, its child (and so on): the nodes of a handle, parent first. */
#define MAX_NODES 4

struct nodes {
  int n;
  nrt_column *col[MAX_NODES];
  int first_slot[MAX_NODES + 1]; /* node j's buffers are plan slots [first_slot[j], [j+1]) */
};

static int nodes_of(nrt_column *col, struct nodes *nd, struct nrt_error *err) {
  nd->n = 0;
  nd->first_slot[0] = 0;
  for (nrt_column *c = col; c; c = c->type == NRT_COL_LIST ? nrt_col_list_child(c) : NULL) {
    if (nd->n == MAX_NODES)
      return nrt_error_set(err, NRT_EUNSUPPORTED, "columns nested deeper than %d levels",
                           MAX_NODES);
    if (c->n_variadic < 0 || c->n_variadic > INT32_MAX - NRT_COL_SLOT_VARIADIC - 64)
      return nrt_error_set(err, NRT_EINVAL, "column with %d variadic buffers", c->n_variadic);
    nd->col[nd->n] = c;
    nd->first_slot[nd->n + 1] = nd->first_slot[nd->n] + NRT_COL_SLOT_VARIADIC + c->n_variadic;
    nd->n++;
  }
  if (col->type == NRT_COL_LIST && nd->n < 2)
    return nrt_error_set(err, NRT_EINVAL, "list column without a child");
  return NRT_OK;
}

/* For every buffer of every node: the shared record it lies in (a reference taken for us),
 * or a copy in a new shared block. A list's child slot has no buffer. */
struct plan {
  struct nodes nd;
  int n;
  struct ipc_record **rec; /* NULL: absent or empty buffer */
  unsigned char *copied;
};

static struct nrt_col_buffer plan_buffer(const struct plan *pl, int i, int *node, int *slot) {
  int j = 0;
  while (i >= pl->nd.first_slot[j + 1])
    j++;
  *node = j;
  *slot = i - pl->nd.first_slot[j];
  const nrt_column *c = pl->nd.col[j];
  if (c->type == NRT_COL_LIST && *slot == NRT_COL_SLOT_CHILD)
    return (struct nrt_col_buffer){NULL, 0};
  return slot_buffer(c, *slot);
}

static void plan_release(struct plan *pl) {
  for (int s = 0; s < pl->n; s++)
    if (pl->rec[s])
      nrt_mi_decref(&pl->rec[s]->mi);
  nrt_free(pl->rec, (size_t)pl->n * sizeof *pl->rec);
  nrt_free(pl->copied, (size_t)pl->n);
}

/* The record of this process whose payload holds [ptr, ptr + size), found through the block
 * owning the buffer: an imported buffer's EXTERNAL wrapper, or a POD block whose chunks came
 * from nrt_ipc_allocator. p->mu held. */
static struct ipc_record *find_shared(const char *ptr, int64_t size, nrt_memblock *owner) {
  const char *base = NULL;
  switch (nrt_memblock_kind(owner)) {
  case NRT_MEMBLOCK_EXTERNAL:
    base = nrt_memblock_external_data(owner);
    break;
  case NRT_MEMBLOCK_POD:
  case NRT_MEMBLOCK_ZEROINIT:
    for (size_t i = 0, n = nrt_memblock_pod_chunk_count(owner); i < n && !base; i++) {
      const char *cb;
      size_t used;
      if (nrt_memblock_pod_chunk(owner, i, &cb, &used) == NRT_OK && ptr >= cb &&
          ptr <= cb + used)
        base = cb;
    }
    break;
  default:
    break;
  }
  struct ipc_record *r = base ? ipc_record_find(base) : NULL;
  if (!r || ptr < (const char *)r->mi.data ||
      (uint64_t)(ptr - (const char *)r->mi.data) + (uint64_t)size > r->mi.size)
    return NULL;
  return r;
}

static int plan_make(nrt_column *col, struct plan *pl, struct nrt_error *err) {
  int rc = nodes_of(col, &pl->nd, err);
  if (rc)
    return rc;
  pl->n = pl->nd.first_slot[pl->nd.n];
  pl->rec = nrt_allocate((size_t)pl->n * sizeof *pl->rec, err);
  pl->copied = pl->rec ? nrt_allocate((size_t)pl->n, err) : NULL;
  if (!pl->copied) {
    nrt_free(pl->rec, (size_t)pl->n * sizeof *pl->rec);
    return NRT_ENOMEM;
  }
  memset(pl->rec, 0, (size_t)pl->n * sizeof *pl->rec);
  memset(pl->copied, 0, (size_t)pl->n);
  pthread_mutex_lock(&P->mu);
  rc = ipc_ensure_joined(NULL, err);
  for (int i = 0; i < pl->n && rc == NRT_OK; i++) {
    int j, s;
    struct nrt_col_buffer b = plan_buffer(pl, i, &j, &s);
    if (!b.data || b.size <= 0)
      continue;
    struct ipc_record *r = find_shared(b.data, b.size, nrt_col_owner(pl->nd.col[j], s));
    if (r && ipc_record_tryref(r))
      pl->rec[i] = r;
  }
  pthread_mutex_unlock(&P->mu);
  for (int i = 0; i < pl->n && rc == NRT_OK; i++) {
    int j, s;
    struct nrt_col_buffer b = plan_buffer(pl, i, &j, &s);
    if (!b.data || b.size <= 0 || pl->rec[i])
      continue;
    if ((rc = ipc_alloc_record((size_t)b.size, &pl->rec[i], err)) == NRT_OK) {
      memcpy(pl->rec[i]->mi.data, b.data, (size_t)b.size);
      pl->copied[i] = 1;
    }
  }
  if (rc)
    plan_release(pl);
  return rc;
}

static void wrapper_dtor(void *data, size_t size, void *info) {
  (void)data;
  (void)size;
  nrt_mi_decref(info);
}

/* An EXTERNAL block standing for this process's reference to r, which it takes over. */
static int wrap(struct ipc_record *r, nrt_memblock **out, struct nrt_error *err) {
  int rc = nrt_memblock_external_new(r->mi.data, r->mi.size, wrapper_dtor, &r->mi, out, err);
  if (rc)
    nrt_mi_decref(&r->mi);
  return rc;
}

/* A new header for node j of the plan over its copied buffers (the others shared with the
 * original); `child` (retained, may be NULL) becomes a list's child. */
static int share_node(struct plan *pl, int j, nrt_column *child, nrt_column **out,
                      struct nrt_error *err) {
  const nrt_column *col = pl->nd.col[j];
  nrt_column *c;
  int rc = nrt_col_new(col->type, col->n_variadic, &c, err);
  if (rc)
    return rc;
  c->length = col->length;
  c->offset = col->offset;
  c->null_count = col->null_count;
  for (int i = pl->nd.first_slot[j]; i < pl->nd.first_slot[j + 1] && rc == NRT_OK; i++) {
    int node, s;
    struct nrt_col_buffer b = plan_buffer(pl, i, &node, &s);
    if (col->type == NRT_COL_LIST && s == NRT_COL_SLOT_CHILD) {
      nrt_col_set_child(c, child);
    } else if (!pl->copied[i]) {
      nrt_col_set_buffer(c, s, b.data, b.size, nrt_col_owner(col, s));
    } else {
      nrt_memblock *w;
      struct ipc_record *r = pl->rec[i];
      pl->rec[i] = NULL;
      if ((rc = wrap(r, &w, err)) == NRT_OK) {
        nrt_col_set_buffer(c, s, r->mi.data, b.size, w);
        nrt_memblock_release(w);
      }
    }
  }
  if (rc) {
    nrt_col_release(c);
    return rc;
  }
  *out = c;
  return NRT_OK;
}

int nrt_ipc_share_column(nrt_column *col, nrt_column **out, struct nrt_error *err) {
  *out = NULL;
  if (!col)
    return nrt_error_set(err, NRT_EINVAL, "share of a NULL column");
  struct plan pl;
  int rc = plan_make(col, &pl, err);
  if (rc)
    return rc;
  int copies = 0;
  for (int i = 0; i < pl.n; i++)
    copies += pl.copied[i];
  if (!copies) {
    plan_release(&pl);
    nrt_col_retain(col);
    *out = col;
    return NRT_OK;
  }
  nrt_column *child = NULL;
  for (int j = pl.nd.n; j-- > 0 && rc == NRT_OK;) {
    nrt_column *c;
    rc = share_node(&pl, j, child, &c, err);
    nrt_col_release(child); /* the parent holds it now */
    child = rc ? NULL : c;
  }
  plan_release(&pl);
  *out = child;
  return rc;
}

static size_t node_bytes(const nrt_column *c) {
  size_t n = NRT_COL_SLOT_VARIADIC + (size_t)(c->n_variadic > 0 ? c->n_variadic : 0);
  return n * (sizeof(struct ipc_wire_block) + sizeof(struct ipc_wire_buffer)) +
         sizeof(struct ipc_wire_column);
}

size_t nrt_ipc_column_handle_size(const nrt_column *col) {
  size_t n = sizeof(struct ipc_wire_header);
  int depth = 0;
  for (const nrt_column *c = col; c && depth < MAX_NODES;
       c = c->type == NRT_COL_LIST ? nrt_col_list_child(c) : NULL, depth++)
    n += node_bytes(c);
  return n;
}

/* Makes one transit per distinct record of the plan, in the order of block_of (registry
 * lock held); on failure drops those made. */
static int make_transits(struct plan *pl, const int32_t *block_of, char *blocks,
                         struct nrt_error *err) {
  size_t made = 0;
  int rc = NRT_OK;
  for (int i = 0; i < pl->n && rc == NRT_OK; i++) {
    if (!pl->rec[i] || (size_t)block_of[i] != made)
      continue;
    struct ipc_wire_block w;
    if ((rc = ipc_transit_new(pl->rec[i], &w, err)) == NRT_OK)
      memcpy(blocks + made++ * sizeof w, &w, sizeof w);
  }
  if (rc)
    for (size_t k = 0; k < made; k++) {
      struct ipc_wire_block w;
      memcpy(&w, blocks + k * sizeof w, sizeof w);
      ipc_drop_transits(&w, 1);
    }
  return rc;
}

int nrt_ipc_export_column(nrt_column *col, void *buf, size_t cap, size_t *len,
                          struct nrt_error *err) {
  *len = nrt_ipc_column_handle_size(col);
  if (!col)
    return nrt_error_set(err, NRT_EINVAL, "export of a NULL column");
  if (!buf || cap < *len)
    return nrt_error_set(err, NRT_ERANGE, "this column's handle needs %zu bytes, %zu given",
                         *len, buf ? cap : 0);
  struct plan pl;
  int rc = plan_make(col, &pl, err);
  if (rc)
    return rc;
  /* One wire block per distinct record; buffers name their block. */
  int32_t *block_of = nrt_allocate((size_t)pl.n * sizeof *block_of, err);
  if (!block_of) {
    plan_release(&pl);
    return NRT_ENOMEM;
  }
  size_t nb = 0;
  for (int i = 0; i < pl.n; i++) {
    int j, s;
    block_of[i] = plan_buffer(&pl, i, &j, &s).data ? EMPTY_BUFFER : NO_BUFFER;
    if (!pl.rec[i])
      continue;
    int k = 0;
    while (k < i && pl.rec[k] != pl.rec[i])
      k++;
    block_of[i] = k < i ? block_of[k] : (int32_t)nb++;
  }
  char *out = buf;
  pthread_mutex_lock(&P->mu);
  rc = ipc_lock(err);
  if (rc == NRT_OK) {
    rc = make_transits(&pl, block_of, out + sizeof(struct ipc_wire_header), err);
    ipc_unlock();
  }
  pthread_mutex_unlock(&P->mu);
  if (rc == NRT_OK) {
    size_t at = sizeof(struct ipc_wire_header) + nb * sizeof(struct ipc_wire_block);
    for (int j = 0; j < pl.nd.n; j++) {
      const nrt_column *c = pl.nd.col[j];
      struct ipc_wire_column wc = {(int32_t)c->type, c->n_variadic, c->length, c->offset,
                                   c->null_count};
      memcpy(out + at, &wc, sizeof wc);
      at += sizeof wc;
      for (int i = pl.nd.first_slot[j]; i < pl.nd.first_slot[j + 1]; i++) {
        int node, s;
        struct nrt_col_buffer b = plan_buffer(&pl, i, &node, &s);
        struct ipc_wire_buffer wb = {block_of[i], 0, 0, b.data ? b.size : 0};
        if (pl.rec[i] && !pl.copied[i])
          wb.offset = (uint64_t)((const char *)b.data - (const char *)pl.rec[i]->mi.data);
        memcpy(out + at, &wb, sizeof wb);
        at += sizeof wb;
      }
    }
    *len = at;
    ipc_handle_seal(buf, at, HANDLE_COLUMN, (uint32_t)nb, P->ns);
  }
  nrt_free(block_of, (size_t)pl.n * sizeof *block_of);
  plan_release(&pl);
  return rc;
}

/* ------------------------------------------------------------ import */

static int too_small(struct nrt_error *err, const char *what, int64_t have, int64_t rows) {
  return nrt_error_set(err, NRT_EINVAL,
                       "column handle: %s buffer of %lld bytes is too small for %lld rows",
                       what, (long long)have, (long long)rows);
}

/* Checks that offsets [offset, rows] (int32 or int64) exist and stay in [0, limit]. */
static int check_offsets(const nrt_column *c, int width, int64_t limit, const char *what,
                         struct nrt_error *err) {
  int64_t rows = c->offset + c->length;
  if (!rows && !c->values.data)
    return NRT_OK;
  if (rows > INT64_MAX / width - 1 || c->values.size < (rows + 1) * width)
    return too_small(err, "offsets", c->values.size, rows);
  int64_t first, last;
  if (width == 4) {
    first = ((const int32_t *)c->values.data)[c->offset];
    last = ((const int32_t *)c->values.data)[rows];
  } else {
    first = ((const int64_t *)c->values.data)[c->offset];
    last = ((const int64_t *)c->values.data)[rows];
  }
  if (first < 0 || first > last || last > limit)
    return nrt_error_set(err, NRT_EINVAL,
                         "column handle: offsets [%lld, %lld] outside %s of %lld",
                         (long long)first, (long long)last, what, (long long)limit);
  return NRT_OK;
}

/* Checks in O(1) that the buffers are large enough for the rows the handle claims (row
 * contents are checked with NRT_IPC_VALIDATE). */
static int check_sizes(const nrt_column *c, struct nrt_error *err) {
  int64_t rows = c->offset + c->length;
  if (c->validity.data && c->validity.size < (rows + 7) / 8)
    return too_small(err, "validity", c->validity.size, rows);
  int64_t width = 0;
  switch (c->type) {
  case NRT_COL_UTF8:
    return check_offsets(c, 4, c->data.size, "a data buffer", err);
  case NRT_COL_LARGE_UTF8:
    return check_offsets(c, 8, c->data.size, "a data buffer", err);
  case NRT_COL_LIST:
    return check_offsets(c, 4, nrt_col_list_child(c)->length, "a child column", err);
  case NRT_COL_UTF8_VIEW:
    width = 16;
    break;
  case NRT_COL_INT64:
  case NRT_COL_FLOAT64:
    width = 8;
    break;
  case NRT_COL_BOOL:
    if (c->values.size < (rows + 7) / 8)
      return too_small(err, "values", c->values.size, rows);
    return NRT_OK;
  }
  if (rows > INT64_MAX / width || c->values.size < rows * width)
    return too_small(err, "values", c->values.size, rows);
  return NRT_OK;
}

/* One column node of a handle. */
struct wire_node {
  struct ipc_wire_column wc;
  size_t first_buffer; /* in the handle's list of buffers */
};

/* Reads and checks the column nodes after the blocks; *n_buffers counts their buffers. */
static int read_nodes(const void *handle, size_t len, const struct ipc_wire_header *h,
                      struct wire_node *nodes, int *n_nodes, size_t *n_buffers,
                      struct nrt_error *err) {
  size_t at = sizeof *h + (size_t)h->n_blocks * sizeof(struct ipc_wire_block);
  *n_nodes = 0;
  *n_buffers = 0;
  for (;;) {
    struct ipc_wire_column *wc = &nodes[*n_nodes].wc;
    if (len - at < sizeof *wc)
      return nrt_error_set(err, NRT_EINVAL, "column handle of %zu bytes is truncated", len);
    memcpy(wc, (const char *)handle + at, sizeof *wc);
    at += sizeof *wc;
    if (wc->type < NRT_COL_UTF8 || wc->type > NRT_COL_LIST)
      return nrt_error_set(err, NRT_EINVAL, "column handle of unknown type %d", wc->type);
    if (*n_nodes && !nrt_col_list_item_type((enum nrt_col_type)wc->type))
      return nrt_error_set(err, NRT_EINVAL, "column handle: a list of %s items",
                           nrt_col_type_name((enum nrt_col_type)wc->type));
    if (wc->n_variadic < 0 || (wc->n_variadic && wc->type != NRT_COL_UTF8_VIEW))
      return nrt_error_set(err, NRT_EINVAL, "a %s column handle with %d variadic buffers",
                           nrt_col_type_name((enum nrt_col_type)wc->type), wc->n_variadic);
    if (wc->length < 0 || wc->offset < 0 || wc->offset > INT64_MAX - wc->length ||
        wc->null_count < 0 || wc->null_count > wc->length)
      return nrt_error_set(err, NRT_EINVAL,
                           "column handle with %lld rows at offset %lld and %lld nulls",
                           (long long)wc->length, (long long)wc->offset,
                           (long long)wc->null_count);
    size_t nbuf = NRT_COL_SLOT_VARIADIC + (size_t)wc->n_variadic;
    if ((len - at) / sizeof(struct ipc_wire_buffer) < nbuf)
      return nrt_error_set(err, NRT_EINVAL, "column handle of %zu bytes is truncated", len);
    nodes[*n_nodes].first_buffer = *n_buffers;
    *n_buffers += nbuf;
    at += nbuf * sizeof(struct ipc_wire_buffer);
    ++*n_nodes;
    if (wc->type != NRT_COL_LIST)
      break;
    if (*n_nodes == MAX_NODES)
      return nrt_error_set(err, NRT_EINVAL, "column handle nested deeper than %d levels",
                           MAX_NODES);
  }
  if (at != len)
    return nrt_error_set(err, NRT_EINVAL, "column handle has %zu bytes after its columns",
                         len - at);
  return NRT_OK;
}

static void release_records(struct ipc_record **recs, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (recs[k])
      nrt_mi_decref(&recs[k]->mi);
}

/* Claims every block of the handle; on failure releases what was claimed and the rest of the
 * handle's transits. */
static int import_blocks(const struct ipc_wire_header *h, const struct ipc_wire_block *wb,
                         const int *fds, size_t n_fds, struct ipc_record **recs,
                         struct nrt_error *err) {
  size_t nb = h->n_blocks;
  pthread_mutex_lock(&P->mu);
  int rc = ipc_ensure_joined(h->ns, err);
  if (rc == NRT_OK)
    rc = ipc_lock(err);
  if (rc == NRT_OK) {
    for (size_t k = 0; k < nb; k++) {
      int fd;
      rc = ipc_fd_for(wb, nb, k, fds, n_fds, err, &fd);
      if (rc == NRT_OK)
        rc = ipc_import_one(&wb[k], fd, &recs[k], err);
      if (rc) {
        ipc_drop_transits(wb + k, nb - k);
        break;
      }
    }
    ipc_unlock();
  }
  pthread_mutex_unlock(&P->mu);
  if (rc)
    release_records(recs, nb);
  return rc;
}

/* Builds node j (and, below it, its child) over the wrappers of the imported blocks. */
static int build_node(const struct wire_node *nodes, int n_nodes, int j,
                      const struct ipc_wire_buffer *bufs, nrt_memblock **wrappers,
                      nrt_column **out, struct nrt_error *err) {
  const struct ipc_wire_column *wc = &nodes[j].wc;
  nrt_column *child = NULL, *c;
  int rc = NRT_OK;
  if (wc->type == NRT_COL_LIST &&
      (rc = build_node(nodes, n_nodes, j + 1, bufs, wrappers, &child, err)) != NRT_OK)
    return rc;
  if ((rc = nrt_col_new((enum nrt_col_type)wc->type, wc->n_variadic, &c, err)) != NRT_OK) {
    nrt_col_release(child);
    return rc;
  }
  c->length = wc->length;
  c->offset = wc->offset;
  c->null_count = wc->null_count;
  for (int s = 0; s < NRT_COL_SLOT_VARIADIC + wc->n_variadic; s++) {
    const struct ipc_wire_buffer *b = &bufs[nodes[j].first_buffer + (size_t)s];
    if (wc->type == NRT_COL_LIST && s == NRT_COL_SLOT_CHILD)
      nrt_col_set_child(c, child);
    else if (b->block == EMPTY_BUFFER)
      nrt_col_set_buffer(c, s, empty_buffer, 0, NULL);
    else if (b->block >= 0)
      nrt_col_set_buffer(c, s,
                         (char *)nrt_memblock_external_data(wrappers[b->block]) + b->offset,
                         b->size, wrappers[b->block]);
  }
  nrt_col_release(child);
  if ((rc = check_sizes(c, err)) != NRT_OK) {
    nrt_col_release(c);
    return rc;
  }
  *out = c;
  return NRT_OK;
}

/* Builds the column over the imported records (each handed to a wrapper). */
static int build(const struct wire_node *nodes, int n_nodes, const struct ipc_wire_buffer *bufs,
                 struct ipc_record **recs, size_t nb, nrt_column **out, struct nrt_error *err) {
  nrt_memblock **wrappers = nrt_allocate((nb ? nb : 1) * sizeof *wrappers, err);
  if (!wrappers) {
    release_records(recs, nb);
    return NRT_ENOMEM;
  }
  size_t made = 0;
  int rc = NRT_OK;
  for (; made < nb && rc == NRT_OK; made++) {
    struct ipc_record *r = recs[made];
    recs[made] = NULL;
    rc = wrap(r, &wrappers[made], err);
  }
  if (rc) {
    release_records(recs, nb);
    made--; /* the failed one made no wrapper */
  } else {
    rc = build_node(nodes, n_nodes, 0, bufs, wrappers, out, err);
  }
  for (size_t j = 0; j < made; j++)
    nrt_memblock_release(wrappers[j]);
  nrt_free(wrappers, (nb ? nb : 1) * sizeof *wrappers);
  return rc;
}

int nrt_ipc_import_column(const void *handle, size_t len, const int *fds, size_t n_fds,
                          unsigned flags, nrt_column **out, struct nrt_error *err) {
  *out = NULL;
  struct ipc_wire_header h;
  struct wire_node nodes[MAX_NODES];
  int n_nodes;
  size_t nbuf;
  int rc = ipc_handle_check(handle, len, HANDLE_COLUMN, &h, err);
  if (rc == NRT_OK)
    rc = read_nodes(handle, len, &h, nodes, &n_nodes, &nbuf, err);
  if (rc)
    return rc;
  size_t nb = h.n_blocks;
  size_t bytes = nb * (sizeof(struct ipc_wire_block) + sizeof(struct ipc_record *)) +
                 nbuf * sizeof(struct ipc_wire_buffer);
  char *scratch = nrt_allocate(bytes, err);
  if (!scratch) {
    nrt_ipc_handle_drop(handle, len, NULL);
    return NRT_ENOMEM;
  }
  struct ipc_wire_block *wb = (struct ipc_wire_block *)scratch;
  struct ipc_wire_buffer *bufs = (struct ipc_wire_buffer *)(wb + nb);
  struct ipc_record **recs = (struct ipc_record **)(bufs + nbuf);
  for (size_t k = 0; k < nb; k++) {
    ipc_wire_read(handle, k, &wb[k]);
    recs[k] = NULL;
  }
  for (int j = 0; j < n_nodes; j++) {
    size_t at = sizeof h + nb * sizeof *wb;
    for (int i = 0; i <= j; i++)
      at += sizeof(struct ipc_wire_column) +
            (i < j ? (NRT_COL_SLOT_VARIADIC + (size_t)nodes[i].wc.n_variadic) *
                         sizeof(struct ipc_wire_buffer)
                   : 0);
    memcpy(bufs + nodes[j].first_buffer, (const char *)handle + at,
           (NRT_COL_SLOT_VARIADIC + (size_t)nodes[j].wc.n_variadic) * sizeof *bufs);
  }
  for (size_t s = 0; s < nbuf && rc == NRT_OK; s++) {
    const struct ipc_wire_buffer *b = &bufs[s];
    if (b->block == NO_BUFFER || b->block == EMPTY_BUFFER)
      continue;
    if (b->block < 0 || (size_t)b->block >= nb || b->size < 0 ||
        b->offset > wb[b->block].size || (uint64_t)b->size > wb[b->block].size - b->offset)
      rc = nrt_error_set(err, NRT_EINVAL,
                         "column handle: buffer %zu is not inside one of its %zu blocks", s, nb);
  }
  if (rc == NRT_OK)
    rc = import_blocks(&h, wb, fds, n_fds, recs, err);
  else
    nrt_ipc_handle_drop(handle, len, NULL);
  if (rc == NRT_OK)
    rc = build(nodes, n_nodes, bufs, recs, nb, out, err);
  nrt_free(scratch, bytes);
  if (rc == NRT_OK && (flags & NRT_IPC_VALIDATE) && (rc = nrt_col_validate(*out, err)) != 0) {
    nrt_col_release(*out);
    *out = NULL;
  }
  return rc;
}
