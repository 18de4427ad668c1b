// Compile check: the unicode layer's sources, unicodedata's included, build unchanged as
// C++ (for a CUDA device build).
#include "unicode/unicode_tables.c"
#include "unicode/utf8.c"
#include "unicode/properties.c"
#include "unicode/ucd_tables.c"
#include "unicode/ucd_props.c"
#include "unicode/ucd_names.c"
#include "unicode/normalize.c"
