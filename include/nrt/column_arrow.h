/* nrt column <-> Arrow C Data Interface and C Stream Interface, zero-copy both ways.
 *
 * Formats: "u" utf8, "U" large_utf8, "vu" utf8_view, "l" int64, "g" float64, "b" bool, and
 * "+l" list with one child of format "u", "U", "vu", "l", "g" or "b" (its schema's
 * children[0], named "item"; the array's children[0]): a list column and its child column
 * (with its own validity: null items) are exported and imported together, each zero-copy.
 * Other nested or dictionary types are not supported.
 *
 * Export: the ArrowArray's buffers point straight into the column's buffers (slices keep
 * their offset); the array holds a reference to the column, dropped by its release callback
 * (from any thread), so the column's blocks live as long as the consumer needs them.
 *
 * Import: the ArrowArray is moved into nrt (its struct is copied into an EXTERNAL memblock and
 * the caller's copy is marked released), and the column's buffers point into the producer's
 * buffers. The producer's release callback runs when nrt's last reference to them goes.
 * Imported arrays are validated first (see nrt_col_import_arrow); a bad array is an error
 * naming the row and the defect, never a crash. */
#ifndef NRT_COLUMN_ARROW_H
#define NRT_COLUMN_ARROW_H

#include <stddef.h>
#include <stdint.h>

#include "nrt/column.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The Arrow C Data Interface, exactly as the Arrow specification defines it. */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  // Array type description
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;

  // Release callback
  void (*release)(struct ArrowSchema*);
  // Opaque producer-specific data
  void* private_data;
};

struct ArrowArray {
  // Array data description
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;

  // Release callback
  void (*release)(struct ArrowArray*);
  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

/* The Arrow C Stream Interface, exactly as the Arrow specification defines it. */
#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
  // Callback to get the stream type
  // (will be the same for all arrays in the stream).
  //
  // Return value: 0 if successful, an `errno`-compatible error code otherwise.
  //
  // If successful, the ArrowSchema must be released independently from the stream.
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);

  // Callback to get the next array
  // (if no error and the array is released, the stream has ended)
  //
  // Return value: 0 if successful, an `errno`-compatible error code otherwise.
  //
  // If successful, the ArrowArray must be released independently from the stream.
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);

  // Callback to get optional detailed error information.
  // This must only be called if the last stream operation failed
  // with a non-0 return code.
  //
  // Return value: pointer to a null-terminated character array describing
  // the last error, or NULL if no description is available.
  //
  // The returned pointer is only valid until the next operation on this stream
  // (including release).
  const char* (*get_last_error)(struct ArrowArrayStream*);

  // Release callback: release the stream's own resources.
  // Note that arrays returned by `get_next` must be individually released.
  void (*release)(struct ArrowArrayStream*);

  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_STREAM_INTERFACE

/* The Arrow format string of a column type ("u", "U", "vu", "l", "g", "b", "+l"), or NULL. */
NRT_API const char *nrt_col_arrow_format(enum nrt_col_type type);

/* The column type of an Arrow format string; NRT_EUNSUPPORTED (message naming the format) for
 * any other format, NRT_EINVAL for NULL. */
NRT_API int nrt_col_type_from_arrow_format(const char *format, enum nrt_col_type *type,
                                           struct nrt_error *err);

/* Fills *out with the schema of a column of `type` (format as above, name `name` copied, may
 * be NULL, flags ARROW_FLAG_NULLABLE). The consumer calls out->release. NRT_COL_LIST gives
 * the schema of a list of utf8 (nrt_col_export_list_schema names another item layout).
 * NRT_EINVAL for a bad type, NRT_ENOMEM (then *out is untouched). */
NRT_API int nrt_col_export_schema(enum nrt_col_type type, const char *name,
                                  struct ArrowSchema *out, struct nrt_error *err);

/* As nrt_col_export_schema for a list column whose items have type `child_type` (its one
 * child schema, "item", of format "u", "U", "vu", "l", "g" or "b", is released with *out).
 * NRT_EINVAL when child_type is not a string layout, NRT_COL_INT64, NRT_COL_FLOAT64 or
 * NRT_COL_BOOL; NRT_ENOMEM. */
NRT_API int nrt_col_export_list_schema(enum nrt_col_type child_type, const char *name,
                                       struct ArrowSchema *out, struct nrt_error *err);

/* Exports `col` zero-copy: *out's buffers point into the column's buffers, and *out holds a
 * reference to the column until the consumer calls out->release (from any thread). `schema`
 * may be NULL; otherwise it is filled with the column's schema (a list's with its child's
 * layout). A list's child column is exported as out->children[0], with its own reference and
 * release (a consumer may move it out, as the specification allows).
 * On failure (NRT_ENOMEM) nothing is filled and no reference is taken. */
NRT_API int nrt_col_export_arrow(nrt_column *col, struct ArrowArray *out,
                                 struct ArrowSchema *schema, struct nrt_error *err);

/* Imports `array` of Arrow format `format` (e.g. schema->format) zero-copy. The array is
 * validated: format supported (not "+l": a list's item format is in its schema, so lists are
 * imported by nrt_col_import_arrow_schema; here they are NRT_EINVAL), no children or
 * dictionary, buffer count for the format,
 * length/offset/null_count >= 0 (null_count -1 = unknown), required buffers present, offsets
 * monotonic with the first >= 0 and the last inside the data buffer (whose size nrt takes to
 * be the last offset), views' buffer indices and ranges inside the variadic buffers (sizes
 * from the trailing sizes buffer), inline views' padding zero, null_count equal to the
 * bitmap's count, UTF-8 valid per row. A defect returns NRT_EVALUE (NRT_EILSEQ for invalid
 * UTF-8, NRT_EUNSUPPORTED for an unknown format) with a message naming the row and the
 * defect; the array is then left untouched (still owned by the caller, who releases it).
 * On success the array is moved: *array is marked released (release == NULL), *out owns a
 * column whose buffers are the producer's, and the producer's release runs when the column
 * and every slice or conversion sharing its buffers are gone. */
NRT_API int nrt_col_import_arrow(struct ArrowArray *array, const char *format,
                                 nrt_column **out, struct nrt_error *err);

/* Flags for nrt_col_import_arrow_flags. */
/* Trust the producer's content: only the O(1) checks run (format, buffer counts, lengths,
 * offset, null_count range, required buffers, variadic sizes); the per-row ones (offsets,
 * views, UTF-8, null_count against the bitmap) are skipped, so the import takes constant
 * time whatever the array's size. For arrays nrt itself exported or already validated. */
#define NRT_COL_IMPORT_TRUSTED 1u
/* Every check but the per-row ones (offsets, views, UTF-8): buffer sizes and null_count
 * against the bitmap run, and the importer promises to run nrt_col_validate_rows over every
 * row before reading it, e.g. one chunk at a time with nrt_exec_options.validate_inputs,
 * while the chunk's bytes are in cache for the function that reads them next. */
#define NRT_COL_IMPORT_ROWS_UNCHECKED 2u

/* nrt_col_import_arrow with flags (0 = validate everything, as nrt_col_import_arrow). */
NRT_API int nrt_col_import_arrow_flags(struct ArrowArray *array, const char *format,
                                       unsigned flags, nrt_column **out,
                                       struct nrt_error *err);

/* Imports `array` described by `schema` (borrowed; not released), zero-copy, with flags as
 * nrt_col_import_arrow_flags: every format above, lists included. A "+l" array must have one
 * child array (schema->children[0] gives its format: a string, "l", "g" or "b") and two
 * buffers (validity, int32 offsets); its offsets must start >= 0, never decrease and end inside the child array, and
 * the child is validated as an array of its own (a defect there is named "child: row N: ...").
 * The child array moves with its parent: the producer's release of the parent (which releases
 * the child) runs when the last column using either is gone. Errors as nrt_col_import_arrow,
 * plus NRT_EINVAL for a NULL or released schema or a list schema without one child, and
 * NRT_EUNSUPPORTED for a dictionary or a list of another item type. */
NRT_API int nrt_col_import_arrow_schema(struct ArrowArray *array,
                                        const struct ArrowSchema *schema, unsigned flags,
                                        nrt_column **out, struct nrt_error *err);

/* ------------------------------------------------------------------- streams */

/* A chunked column: n chunks of one type. */
struct nrt_col_chunked {
  enum nrt_col_type type;
  size_t n_chunks;
  nrt_column **chunks; /* each owns one reference */
  int64_t length;      /* total rows */
  nrt_memblock *storage; /* owns the chunks array (internal) */
};

/* Releases every chunk and the chunk array, and zeroes *c. NULL is ignored. */
NRT_API void nrt_col_chunked_release(struct nrt_col_chunked *c);

/* Exports n >= 0 columns of type `type` as a stream whose schema is that of `type` (so an
 * empty stream still has one): each get_next exports the next column (as
 * nrt_col_export_arrow), then the stream ends. The stream holds a reference to every column
 * until out->release. Lists: every column's items must have one type, which the schema
 * names (utf8 for an empty stream). NRT_EINVAL when a column is not of `type` (or a list of
 * another item layout); NRT_ENOMEM. */
NRT_API int nrt_col_export_stream(nrt_column *const *cols, size_t n, enum nrt_col_type type,
                                  struct ArrowArrayStream *out, struct nrt_error *err);

/* Imports every array of `stream` into *out (chunks validated as nrt_col_import_arrow_schema
 * with the stream's schema, so streams of lists are read too).
 * The stream is released in every case. On failure (a stream error with its get_last_error
 * message, a bad chunk naming its chunk index, row and defect, NRT_ENOMEM) *out is empty and
 * everything imported so far is released. */
NRT_API int nrt_col_import_stream(struct ArrowArrayStream *stream, struct nrt_col_chunked *out,
                                  struct nrt_error *err);

#ifdef __cplusplus
}
#endif

#endif /* NRT_COLUMN_ARROW_H */
