/* Internal: layouts in shared memory and the per-process state of the ipc layer (see
 * src/ipc/README.md for the protocol). Every structure placed in shared memory has a fixed
 * size checked by a static assertion, and holds offsets and ids, never pointers (except the
 * MemInfo of a record, which only its owning process reads as pointers). */
#ifndef NRT_IPC_INTERNAL_H
#define NRT_IPC_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nrt/ipc.h"

#define IPC_HIDDEN __attribute__((visibility("hidden")))

#define IPC_DIR "/dev/shm"
#define IPC_PREFIX "nrt."
#define IPC_VERSION 1u
#define IPC_MAGIC_REGISTRY 0x5247524eu /* "NRGR" */
#define IPC_MAGIC_SEGMENT 0x4753524eu  /* "NRSG" */
#define IPC_MAGIC_BLOCK 0x4b4c424eu    /* "NBLK" */

#define IPC_ALIGN 64u                /* block headers and payloads */
#define IPC_SEG_HEADER 64u           /* the segment header before the first block */
#define IPC_DEFAULT_SEGMENT (8u << 20)
#define IPC_PATH_MAX 96

/* Entry states (tables, blocks, records). 0 is always "free". */
enum { IPC_FREE = 0, IPC_LIVE = 1, IPC_FORKING = 2 };

/* ------------------------------------------------------------ shared layouts */

/* A block's identity: its segment (id and incarnation) and its offset and generation there. */
struct ipc_ref {
  uint32_t seg;
  uint32_t seg_gen;
  uint64_t off;
  uint32_t gen;
  uint32_t pad;
};

enum { TBL_HOLDERS, TBL_SEGMENTS, TBL_TRANSITS, TBL_COUNT };
#define TBL_MAX_CHUNKS 20 /* chunk k holds base << k entries (base <= 1024) */

/* A growable table: entries in chunk objects "nrt.<ns>.<letter><k>". Indexes are 0-based;
 * links (free lists, owners) store index + 1 so that 0 means none. */
struct ipc_table {
  uint32_t entry_size;
  uint32_t base;
  uint32_t n_chunks;
  uint32_t free_head; /* derived: rebuilt by recovery */
  uint64_t in_use;    /* derived */
};

/* Registry header, the whole of object "nrt.<ns>". */
struct ipc_registry {
  uint32_t magic;
  uint32_t version;
  uint32_t closed;         /* the last process left: joiners must start over */
  uint32_t needs_recovery; /* derived state may be stale: recount at the next lock */
  pthread_mutex_t lock;    /* process-shared, robust */
  uint64_t next_gen;
  struct ipc_table tables[TBL_COUNT];
  /* derived (recovery recomputes them) */
  uint64_t segment_bytes;
  uint64_t blocks;
  uint64_t block_bytes;
  /* cumulative */
  uint64_t blocks_made;
  uint64_t blocks_freed;
  uint64_t holders_reaped;
  uint64_t recoveries;
};

/* A process registered in the namespace. Its records live in objects
 * "nrt.<ns>.h<index>.<gen>.<k>", chunk k holding IPC_RECORDS_BASE << k records. */
struct ipc_holder {
  uint32_t state; /* FREE, LIVE, FORKING (made by `creator` for a child being forked) */
  uint32_t gen;
  int32_t pid;
  uint32_t n_chunks;
  uint64_t start_time; /* /proc/<pid>/stat field 22 */
  uint32_t creator;    /* FORKING: index + 1 of the forking holder */
  uint32_t creator_gen;
  uint32_t next_free;
  uint32_t pad;
  uint64_t reserved[3];
};

/* A data segment, object "nrt.<ns>.s<index>". */
struct ipc_segment {
  uint32_t state;
  uint32_t gen;
  uint64_t size;
  uint64_t used;       /* bump offset: blocks lie in [IPC_SEG_HEADER, used) */
  uint64_t live;       /* derived: blocks in use */
  uint64_t live_bytes; /* derived */
  uint64_t ino;        /* the object's inode, to check descriptors received by SCM_RIGHTS */
  uint32_t open_by;    /* index + 1 of the holder allocating from it; 0: none */
  uint32_t next_free;
  uint64_t reserved;
};

/* A handle in flight: one reference to a block, owned by its exporter (0: orphan). */
struct ipc_transit {
  uint32_t state;
  uint32_t gen;
  uint32_t owner;
  uint32_t owner_gen;
  struct ipc_ref ref;
  uint64_t born_ms; /* CLOCK_MONOTONIC, for transit_timeout_ms */
  uint32_t next_free;
  uint32_t pad;
};

/* Start of every data segment. */
struct ipc_segment_header {
  uint32_t magic;
  uint32_t id;
  uint32_t gen;
  uint32_t pad;
  uint64_t size;
  uint64_t reserved[5];
};

/* Header of a block inside a data segment; the payload follows. */
struct ipc_block {
  uint32_t magic;
  uint32_t state; /* FREE or LIVE */
  uint32_t gen;
  uint32_t pad;
  uint64_t off;   /* its own offset, checked on import */
  uint64_t size;  /* payload bytes */
  uint64_t span;  /* header + payload, rounded to IPC_ALIGN */
  uint64_t count; /* derived: LIVE records and transits naming it */
  uint64_t reserved[2];
};

/* One process's references to one block: the MemInfo users hold (its refcount is this
 * process's reference count, its data this process's address of the payload), and the block
 * it stands for. `state` is written under the registry lock; a collector releases the block of
 * every LIVE record of a dead holder. */
struct ipc_record {
  nrt_meminfo mi;
  struct ipc_ref ref;
  uint32_t state;
  uint32_t index;
};

#define IPC_RECORDS_BASE 256u
#define IPC_HOLDER_MAX_CHUNKS 24

_Static_assert(sizeof(struct ipc_ref) == 24, "ipc_ref layout");
_Static_assert(sizeof(struct ipc_holder) == 64, "ipc_holder layout");
_Static_assert(sizeof(struct ipc_segment) == 64, "ipc_segment layout");
_Static_assert(sizeof(struct ipc_transit) == 56, "ipc_transit layout");
_Static_assert(sizeof(struct ipc_segment_header) == IPC_SEG_HEADER, "segment header layout");
_Static_assert(sizeof(struct ipc_block) == IPC_ALIGN, "block header layout");
_Static_assert(sizeof(struct ipc_record) == 80, "record layout");

/* ------------------------------------------------------------ process state */

/* A data segment as this process maps it. */
struct ipc_map {
  char *addr; /* NULL: not mapped */
  uint64_t size;
  uint32_t gen;
  uint64_t uses; /* LIVE records of this process in it */
};

/* Open-addressing map from a payload address to this process's record for it. */
struct ipc_addr_map {
  struct ipc_record **slots; /* NULL: empty */
  size_t cap;                /* power of two, or 0 */
  size_t n;
};

enum ipc_proc_state { PROC_OFF = 0, PROC_ON = 1 };
/* What a fork does with this process's references: nothing to do (not joined), none held
 * (the child starts afresh), copies handed over (adopt), or copies kept private (detach: the
 * hand-over could not be prepared). */
enum ipc_fork_mode { FORK_NONE, FORK_PLAIN, FORK_ADOPT, FORK_DETACH };

struct ipc_proc {
  pthread_mutex_t mu; /* this process's ipc state; taken before the registry lock */
  enum ipc_proc_state state;
  char ns[NRT_IPC_NAMESPACE_MAX + 1];
  struct nrt_ipc_options opt;
  int opt_explicit; /* joined through nrt_ipc_init with options */
  struct ipc_registry *reg;
  uint64_t reg_ino;
  char *tbl_map[TBL_COUNT][TBL_MAX_CHUNKS];
  uint32_t slot; /* our holder index */
  uint32_t slot_gen;
  /* record chunks */
  struct ipc_record *chunk[IPC_HOLDER_MAX_CHUNKS];
  uint32_t n_chunks;
  uint32_t *free_recs; /* indexes of FREE records */
  size_t n_free, cap_free;
  uint64_t live_records;
  struct ipc_addr_map addrs;
  struct ipc_map *maps; /* by segment index */
  size_t n_maps;
  uint32_t cur_seg; /* index + 1 of the segment we allocate from; 0: none */
  /* timer */
  pthread_t timer;
  int timer_running;
  int timer_stop;
  pthread_cond_t timer_cv;
  /* fork */
  enum ipc_fork_mode fork_mode;
  uint32_t fork_child; /* holder index of the child being forked */
  uint32_t fork_child_gen;
  int fork_pipe[2];
  /* records of an earlier incarnation (before nrt_ipc_shutdown), still mapped */
  struct ipc_record *retired[64];
  size_t retired_size[64];
  size_t n_retired;
};

extern IPC_HIDDEN struct ipc_proc nrt_ipc_g;

/* ---------------------------------------------------------------- objects (names.c) */

/* "/dev/shm/nrt.<ns><suffix>" into buf (IPC_PATH_MAX bytes). */
IPC_HIDDEN void ipc_path(char *buf, const char *ns, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Creates object `path` of `size` bytes (committed with fallocate, so a full /dev/shm is an
 * error here and never a SIGBUS later), maps it shared read-write, closes it. A stale object
 * of that name is replaced. *ino receives its inode (may be NULL). */
IPC_HIDDEN int ipc_obj_create(const char *path, uint64_t size, void **addr, uint64_t *ino,
                              struct nrt_error *err);

/* Opens and maps an existing object; its size must be at least `size`. `fd` >= 0 maps that
 * descriptor instead (its inode must be `ino` when ino != 0). Returns NRT_EVALUE when the
 * object does not exist. */
IPC_HIDDEN int ipc_obj_map(const char *path, int fd, uint64_t size, uint64_t ino, void **addr,
                           struct nrt_error *err);

/* Frees the object's memory at once (even while stale mappings remain) and unlinks it. */
IPC_HIDDEN void ipc_obj_destroy(const char *path);

/* Start time of `pid` (0 if unreadable), and whether the holder it names is alive: the pid
 * exists with that start time and still maps its first record chunk (a holder that exec'd
 * another program no longer does). Unreadable /proc counts as alive. */
IPC_HIDDEN uint64_t ipc_start_time(int pid);
IPC_HIDDEN bool ipc_holder_alive(const struct ipc_holder *h, uint32_t index);

/* Name (without directory) of record chunk k of holder `index` of generation `gen`. */
IPC_HIDDEN void ipc_chunk_path(char *buf, uint32_t index, uint32_t gen, uint32_t k);
IPC_HIDDEN size_t ipc_chunk_bytes(uint32_t k);

/* Removes objects of the namespace that nothing in the registry names (left by a process
 * killed while creating them). Registry lock held. Returns how many. */
IPC_HIDDEN uint64_t ipc_sweep(void);

/* Validates a namespace name. */
IPC_HIDDEN bool ipc_ns_valid(const char *ns);

IPC_HIDDEN uint64_t ipc_now_ms(void);

/* ---------------------------------------------------------------- registry (registry.c) */

/* Opens (creating if needed) the registry of p->ns and maps it. */
IPC_HIDDEN int ipc_registry_open(struct nrt_error *err);
/* Unmaps the registry and its table chunks (not the objects). */
IPC_HIDDEN void ipc_registry_unmap(void);

/* Takes the registry lock; repairs the registry first when its previous owner died. */
IPC_HIDDEN int ipc_lock(struct nrt_error *err);
IPC_HIDDEN void ipc_unlock(void);

/* Entry i of a table (NULL when i is beyond its chunks or a chunk cannot be mapped). */
IPC_HIDDEN void *ipc_entry(int table, uint32_t i);
/* Number of entries the table's chunks hold. */
IPC_HIDDEN uint32_t ipc_table_capacity(int table);
/* Takes a free entry (zeroed but for gen, which is incremented), growing the table. */
IPC_HIDDEN int ipc_entry_alloc(int table, uint32_t *index, struct nrt_error *err);
/* Returns entry i to the free list (state FREE). */
IPC_HIDDEN void ipc_entry_free(int table, uint32_t i);
/* Rebuilds a table's free list and in_use from the entries' states. */
IPC_HIDDEN void ipc_table_rebuild(int table);

#define REG (nrt_ipc_g.reg)

/* ---------------------------------------------------------------- segments (segment.c) */

/* This process's mapping of segment `seg` of generation `gen` (mapping it if needed; `fd`
 * >= 0 is used instead of the name). NULL with err set when the segment is not live. */
IPC_HIDDEN char *ipc_seg_map(uint32_t seg, uint32_t gen, int fd, struct nrt_error *err);
/* The block header named by ref, checked (live segment, offset, magic, generation, state).
 * NRT_EINVAL for a ref that names nothing, NRT_EVALUE for a block already freed. */
IPC_HIDDEN int ipc_block_get(const struct ipc_ref *ref, int fd, struct ipc_block **out,
                             struct nrt_error *err);
/* Allocates a block of `size` payload bytes with count 1; *ref names it. */
IPC_HIDDEN int ipc_block_alloc(size_t size, struct ipc_ref *ref, struct ipc_block **out,
                               struct nrt_error *err);
/* Drops one count of the block; frees it (and maybe its segment) at zero. Never fails
 * (a ref that names nothing is ignored). Returns 1 when the block was freed. */
IPC_HIDDEN int ipc_block_put(const struct ipc_ref *ref);
/* Stops allocating from segment `seg` (holder leaving or moving on); destroys it if empty. */
IPC_HIDDEN void ipc_seg_close(uint32_t seg);
/* Removes segment `seg` (no live blocks). */
IPC_HIDDEN void ipc_seg_destroy(uint32_t seg);
/* Unmaps this process's unused mappings of segments that are gone. */
IPC_HIDDEN void ipc_maps_prune(bool all_unused);
IPC_HIDDEN void ipc_maps_forget(void);

/* ---------------------------------------------------------------- holders (holder.c) */

/* Joins the namespace if not yet joined (p->mu held). */
IPC_HIDDEN int ipc_ensure_joined(const char *ns_hint, struct nrt_error *err);
/* A new LIVE record of this process for block `ref` (registry lock and p->mu held); the block
 * count must already include it. */
IPC_HIDDEN int ipc_record_new(const struct ipc_ref *ref, char *data, uint64_t size,
                              struct ipc_record **out, struct nrt_error *err);
/* Makes sure one more record can be made without allocating (p->mu held). */
IPC_HIDDEN int ipc_record_reserve(struct nrt_error *err);
/* This process's record whose payload starts at `data`, or NULL. */
IPC_HIDDEN struct ipc_record *ipc_record_find(const void *data);
/* Takes r out of the address map (a record being destroyed, replaced by a new one). */
IPC_HIDDEN void ipc_record_unindex(struct ipc_record *r);
/* Whether `mi` is a record of this process's current incarnation. */
IPC_HIDDEN bool ipc_record_owned(const void *mi);
/* Increments a record's count unless it already dropped to zero. */
IPC_HIDDEN bool ipc_record_tryref(struct ipc_record *r);
/* Rebuilds the address map, free list and mapping uses from the record chunks (a forked
 * child). */
IPC_HIDDEN int ipc_records_rebuild(void);
/* Drops the record chunks (kept mapped when references remain) and this process's mappings. */
IPC_HIDDEN void ipc_records_forget(void);
/* Releases every reference of holder `index` (registry lock held); `crashed` releases its
 * transits too, otherwise they become orphans. */
IPC_HIDDEN void ipc_holder_reap(uint32_t index, bool crashed);
/* Maps record chunk k of holder index/gen for a collector (caller unmaps). */
IPC_HIDDEN struct ipc_record *ipc_holder_chunk_map(uint32_t index, uint32_t gen, uint32_t k);

/* ---------------------------------------------------------------- collect.c */

/* Collects with the registry lock held; fills *res. */
IPC_HIDDEN void ipc_collect_locked(struct nrt_ipc_collect_result *res);
/* Recounts every derived field from holders' records and transits (registry lock held). */
IPC_HIDDEN void ipc_recover(void);
IPC_HIDDEN void ipc_timer_start(void);
IPC_HIDDEN void ipc_timer_stop(void);
/* Running totals of what collections and releases did (registry lock held to change them);
 * a collection reports the difference. */
extern IPC_HIDDEN struct nrt_ipc_collect_result nrt_ipc_tally;

/* ---------------------------------------------------------------- fork.c */

IPC_HIDDEN void ipc_fork_register(void);

/* ---------------------------------------------------------------- handles (handle.c) */

#define IPC_HANDLE_MAGIC 0x484e524eu /* "NRNH" */
enum { HANDLE_BLOCK = 1, HANDLE_COLUMN = 2 };

struct ipc_wire_header {
  uint32_t magic;
  uint16_t version;
  uint16_t kind;
  uint32_t length;
  uint32_t n_blocks;
  char ns[NRT_IPC_NAMESPACE_MAX + 1];
  uint64_t checksum;
  uint64_t reserved;
};

struct ipc_wire_block {
  struct ipc_ref ref;
  uint64_t size;
  uint32_t transit; /* index + 1; 0: none */
  uint32_t transit_gen;
};

_Static_assert(sizeof(struct ipc_wire_header) == 64, "wire header layout");
_Static_assert(sizeof(struct ipc_wire_block) == 40, "wire block layout");
_Static_assert(sizeof(struct ipc_wire_header) + sizeof(struct ipc_wire_block) ==
                   NRT_IPC_BLOCK_HANDLE_SIZE,
               "block handle size");

/* The wire form of a column, after the handle's blocks. */
struct ipc_wire_column {
  int32_t type;
  int32_t n_variadic;
  int64_t length;
  int64_t offset;
  int64_t null_count;
};

/* One buffer: its block (or NO_BUFFER / EMPTY_BUFFER), offset in the payload and size. */
struct ipc_wire_buffer {
  int32_t block;
  uint32_t pad;
  uint64_t offset;
  int64_t size;
};

enum { NO_BUFFER = -1, EMPTY_BUFFER = -2 };

_Static_assert(sizeof(struct ipc_wire_column) == 32, "wire column layout");
_Static_assert(sizeof(struct ipc_wire_buffer) == 24, "wire buffer layout");

/* Checks the header of a handle of `kind` (0: any) and its length and checksum; copies the
 * header to *out. */
IPC_HIDDEN int ipc_handle_check(const void *handle, size_t len, int kind,
                                struct ipc_wire_header *out, struct nrt_error *err);
/* Copies wire block i of a handle (checked) to *w. */
IPC_HIDDEN void ipc_wire_read(const void *handle, size_t i, struct ipc_wire_block *w);
/* Writes a handle's header (namespace ns), its length and checksum included. */
IPC_HIDDEN void ipc_handle_seal(void *handle, size_t len, int kind, uint32_t n_blocks,
                                const char *ns);
/* Makes a transit for the block of record r (registry lock held); fills w. */
IPC_HIDDEN int ipc_transit_new(const struct ipc_record *r, struct ipc_wire_block *w,
                               struct nrt_error *err);
/* Imports one wire block (p->mu and registry lock held): claims its transit or takes a new
 * count. *out owns one reference. */
IPC_HIDDEN int ipc_import_one(const struct ipc_wire_block *w, int fd, struct ipc_record **out,
                              struct nrt_error *err);
/* Releases the transits of wire blocks [from, n) (registry lock held). */
IPC_HIDDEN void ipc_drop_transits(const struct ipc_wire_block *w, size_t n);
/* Releases transit i (registry lock held): its block count and the entry. */
IPC_HIDDEN void ipc_transit_release(uint32_t i);
/* Finds the descriptor given for segment `seg` among a handle's segments in fds. */
IPC_HIDDEN int ipc_fd_for(const struct ipc_wire_block *blocks, size_t n_blocks, size_t k,
                          const int *fds, size_t n_fds, struct nrt_error *err, int *fd);

/* Allocates a shared block and returns its record (p->mu not held). */
IPC_HIDDEN int ipc_alloc_record(size_t size, struct ipc_record **out, struct nrt_error *err);

#endif
