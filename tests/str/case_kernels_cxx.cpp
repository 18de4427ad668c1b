// Compile check: the case mapping and predicate kernels build unchanged as C++ (for a CUDA
// device build).
#include "str/case.c"
#include "str/predicates.c"
