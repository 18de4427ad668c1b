/* Internal: Python's repr() of a float, for the writers. */
#ifndef NRT_IO_FLOAT_REPR_H
#define NRT_IO_FLOAT_REPR_H

#include <stddef.h>

/* Room for any repr (sign, 17 digits, point, exponent, NUL). */
#define IO_FLOAT_REPR_SIZE 32

/* Writes repr(x) as Python 3 prints it ("1.0", "0.1", "1e+16", "1.5e-05", "-0.0", "inf",
 * "nan") into out and returns its length: the shortest digit string that reads back as x,
 * in fixed notation for decimal exponents -4..15 and scientific notation otherwise. */
size_t io_float_repr(double x, char out[IO_FLOAT_REPR_SIZE]);

#endif
