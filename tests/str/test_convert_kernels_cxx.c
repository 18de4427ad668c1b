/* Compile check: the conversion and padding kernels build unchanged as C++ (for a later CUDA
 * device build). Compiled as C++ by convert_tests.cmake; a failure breaks the build. */
#include "str/convert_char.c"
#include "str/convert_dtoa.c"
#include "str/convert_float.c"
#include "str/convert_format.c"
#include "str/convert_int.c"
#include "str/convert_repr.c"
#include "str/pad.c"
