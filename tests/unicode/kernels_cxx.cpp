// Compile check: the unicode layer's sources build unchanged as C++ (for a CUDA device build).
#include "unicode/unicode_tables.c"
#include "unicode/utf8.c"
#include "unicode/properties.c"
