/* The floor of compile time for the compile-time benchmark (bench_compile.c): LLVM
 * operations whose work is linear in a module's size by construction, timed over the module
 * the compiler hands to machine code generation. Their growth per 10x of program size is what
 * the caches and the allocator of this machine make of linear work; a compiler on LLVM cannot
 * grow slower than that. */
#ifndef NRT_BENCH_COMPILE_FLOOR_H
#define NRT_BENCH_COMPILE_FLOOR_H

#include <stddef.h>

#include "nrt/udf.h"

/* The operations timed, in order. */
/* walk: visiting every instruction and its operands, reading only (the cost of the caches
 * alone); the others allocate as a compiler does. */
enum floor_op { FLOOR_WALK, FLOOR_VERIFY, FLOOR_WRITE_BC, FLOOR_READ_BC, FLOOR_CLONE, FLOOR_OPS };
extern const char *const floor_op_names[FLOOR_OPS];

struct floor_module;

/* Compiles `src` once with the IR printed (untimed) and parses the module as it is after
 * optimisation (the input of the jit stage) into a context of its own; NULL with a message on
 * stderr on failure. */
struct floor_module *floor_module_load(const char *src, size_t len);

/* Runs each operation once over the module; ms[op] receives its process CPU time. Returns 0,
 * or -1 with a message on stderr. */
int floor_module_time(struct floor_module *fm, double ms[FLOOR_OPS]);

void floor_module_free(struct floor_module *fm);

/* Process CPU time in milliseconds. */
double floor_cpu_ms(void);

#endif /* NRT_BENCH_COMPILE_FLOOR_H */
