/* Discarding error messages nobody reads (internal to libnrt). While an apply turns failing
 * rows into nulls, only the first failure's message is ever shown; formatting the others
 * (CPython's "invalid literal for int() with base 10: '...'") can cost more than the row.
 * While the calling thread discards, nrt_error_set and the other setters record the code and
 * an empty message. */
#ifndef NRT_CORE_ERROR_DISCARD_H
#define NRT_CORE_ERROR_DISCARD_H

#include <stdbool.h>

#include "nrt/core.h"

#if defined(__GNUC__)
#define NRT_ERROR_HIDDEN __attribute__((visibility("hidden")))
#else
#define NRT_ERROR_HIDDEN
#endif

/* Turns discarding on or off for the calling thread (off in every new thread). */
NRT_ERROR_HIDDEN void nrt_error_discard_messages(bool on);
/* Whether the calling thread discards messages now. */
NRT_ERROR_HIDDEN bool nrt_error_discarding(void);

#endif
