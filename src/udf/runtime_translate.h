/* str.translate (runtime_translate.c) and its tables (translate_table.c). Internal to libnrt.
 *
 * A table folded at compile time (from a literal str.maketrans(...) or dict display) is one
 * flat block of bytes that the code generator embeds as a read-only constant, so every thread
 * shares it and nothing is built per row: a direct entry per ASCII code point (the hot loop
 * indexes it with the byte), then the other code points' entries sorted for binary search,
 * then the replacement bytes. Fields are read with memcpy (the block has no alignment). */
#ifndef NRT_UDF_RUNTIME_TRANSLATE_H
#define NRT_UDF_RUNTIME_TRANSLATE_H

#include <stdint.h>

#include "nrt/column.h"
#include "nrt/core.h"
#include "nrt/str.h"

/* What one code point maps to: len >= 0 the replacement (pool bytes [off, off + len); 0
 * deletes it), or one of these. */
enum {
  NRT_UDF_TRANS_KEEP = -1,      /* not in the table */
  NRT_UDF_TRANS_RANGE = -2,     /* an int outside range(0x110000): ValueError when met */
  NRT_UDF_TRANS_BAD_TYPE = -3   /* a value that is no int, None or str: TypeError when met */
};

typedef struct nrt_udf_trans_entry {
  uint32_t cp;
  int32_t len;
  uint32_t off;
} nrt_udf_trans_entry;

/* ascii_size's flags: the character is in the table; its mapping raises. */
#define NRT_UDF_TRANS_MAPPED 0x100
#define NRT_UDF_TRANS_RAISES INT32_MIN

typedef struct nrt_udf_trans_head {
  int32_t ascii_len[128];
  uint32_t ascii_off[128];
  /* The hot loop's forms of the same, without branches: the bytes it writes (low byte) with
   * the flags above; and, when every ASCII entry writes at most 4 bytes (short_ascii), those
   * bytes (the character itself when not mapped) to be stored 4 at a time. */
  int32_t ascii_size[128];
  uint32_t ascii_bytes[128];
  uint32_t short_ascii;
  uint32_t nbig; /* entries for code points >= 128 that follow, sorted by cp */
} nrt_udf_trans_head;

/* s.translate(table) for a folded table (its bytes, `size` of them): a new reference in *out
 * (s itself when nothing maps). CPython's ValueError / TypeError for a bad mapping met. */
int32_t nrt_udf_rt_translate(struct nrt_error *err, const nrt_str *s, const char *table,
                             int64_t size, nrt_str *out);

/* The same written into the row being written (the write form; runtime.h). */
int32_t nrt_udf_rt_write_translate(struct nrt_error *err, nrt_col_row_writer *w,
                                   const nrt_str *s, const char *table, int64_t size);

/* s.translate(d) for a dict value (runtime_dict.h): int keys are looked up by code point (str
 * keys never match, as in CPython), values str, int (chr) or float (TypeError). */
int32_t nrt_udf_rt_translate_dict(struct nrt_error *err, const nrt_str *s, const void *dict,
                                  nrt_str *out);

#endif
