/* The typed AST of a UDF module: the contract between the front end (lex, parse, types) and
 * the code generator.
 *
 * Life cycle: udf_front_compile (front.h) parses and checks a source text and returns a
 * udf_module whose every node, string, array and variable lives in one arena owned by the
 * module; udf_module_free releases all of it at once. Nothing in the tree is freed alone and
 * nothing points outside the arena except `udf_module.file` (also copied into the arena).
 *
 * After a successful check the tree satisfies these guarantees, so the code generator never
 * has to re-derive a type or report an error of its own:
 *  - every expression has `type` set (never UDF_TY_UNKNOWN);
 *  - arithmetic operands have the type of the operation: the checker wraps promotions in
 *    UDF_E_CAST nodes (bool->int, bool->float, int->float), so both operands of a UDF_E_BINARY
 *    and both sides of each comparison step have the same type (see the per-node notes for the
 *    str*int repetition and `in` exceptions);
 *  - every condition (if/while/elif test, `not` operand, conditional-expression test,
 *    comprehension `if`, `and`/`or` operands in a boolean context) has type bool: non-bool
 *    values are wrapped in UDF_E_TRUTH nodes;
 *  - calls are resolved: builtins, string methods (arguments placed in the method's fixed
 *    parameter slots, absent ones NULL) and helper functions (all parameters filled, defaults
 *    included);
 *  - names point at their udf_var; a variable has one type for the whole function.
 *
 * Locations: every node has `loc`, line and column both 1-based; the column counts code
 * points from the start of the line (a tab counts as one), as in CPython's SyntaxError. */
#ifndef NRT_UDF_AST_H
#define NRT_UDF_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------------------------------
 * Source locations */

typedef struct udf_loc {
  int32_t line; /* 1-based */
  int32_t col;  /* 1-based, in code points */
} udf_loc;

/* ------------------------------------------------------------------------------------------
 * Types
 *
 * A udf_type is a base kind, optionally OR'ed with UDF_TY_NULLABLE. Nullable types ("str |
 * None") only arise from None: a function whose returns mix T and None has result type
 * T|NULLABLE, and a variable or expression that carries such a result (a call to such a helper,
 * `x if c else None`, a variable assigned both None and T) is nullable too. A nullable value may
 * only be returned, assigned to a variable of the same nullable type, passed on where the same
 * nullable type is expected, or tested with `is None` / `is not None`; every other use is a
 * compile error. Code generation represents a nullable str as nrt_str with data == NULL for
 * None, and a nullable int/float/bool as a value plus a "present" flag (the codegen's choice).
 *
 * UDF_TY_NONE alone is the type of the literal None and the result type of a function that
 * always returns None (or never returns a value). */
typedef uint32_t udf_type;

enum {
  UDF_TY_UNKNOWN = 0,   /* not yet inferred: never present after a successful check */
  UDF_TY_NONE = 1,      /* the None value */
  UDF_TY_BOOL = 2,      /* i1 / bool */
  UDF_TY_INT = 3,       /* int64_t; overflow is a runtime OverflowError */
  UDF_TY_FLOAT = 4,     /* double */
  UDF_TY_STR = 5,       /* nrt_str (nrt/str.h): borrowed or managed */
  UDF_TY_LIST_STR = 6,  /* an immutable list of str (split results, displays, comprehensions) */
  UDF_TY_TUPLE_STR = 7, /* a tuple of str: partition/rpartition results (3 items) and tuple
                         * displays whose items are all str (length on the node) */
  UDF_TY_TUPLE = 8,     /* a tuple display of mixed types: only as the right-hand side of an
                         * unpacking assignment (`a, b = b, a`), never stored */
  UDF_TY_RANGE = 9,     /* range(...): only as the iterable of a for loop or comprehension */
  UDF_TY_ITER = 10,     /* enumerate(...), zip(...), reversed(...): only as the iterable of a
                         * for loop or comprehension (or an argument of enumerate/zip there);
                         * a tuple item is unpacked into the target by its structure */
  /* Kinds reserved for the container, regex and function work of issue #14 (one number
   * each, so that branches adding them do not collide): */
  UDF_TY_DICT = 11,  /* dict: key kind in param1, value kind in param2 */
  UDF_TY_SET = 12,   /* set: element kind in param1 */
  UDF_TY_LIST = 13,  /* mutable list: element kind in param1 */
  UDF_TY_MATCH = 14, /* re match object */
  UDF_TY_FUNC = 15,  /* a lambda or nested def used as a value */
  UDF_TY_BASE_MASK = 0xff,
  UDF_TY_NULLABLE = 0x100, /* flag: the value may also be None */
  UDF_TY_PARAM1_SHIFT = 16, /* bits 16..23: first type parameter (a base kind) */
  UDF_TY_PARAM2_SHIFT = 24  /* bits 24..31: second type parameter (a base kind) */
};

/* A parameterised type: a container kind with the base kinds of its key/element (p1) and
 * value (p2). Types compare equal only when their parameters do. */
static inline udf_type udf_type_make(udf_type base, udf_type p1, udf_type p2) {
  return base | ((p1 & UDF_TY_BASE_MASK) << UDF_TY_PARAM1_SHIFT) |
         ((p2 & UDF_TY_BASE_MASK) << UDF_TY_PARAM2_SHIFT);
}
static inline udf_type udf_type_param1(udf_type t) {
  return (t >> UDF_TY_PARAM1_SHIFT) & UDF_TY_BASE_MASK;
}
static inline udf_type udf_type_param2(udf_type t) {
  return (t >> UDF_TY_PARAM2_SHIFT) & UDF_TY_BASE_MASK;
}

static inline udf_type udf_type_base(udf_type t) { return t & UDF_TY_BASE_MASK; }
static inline bool udf_type_is_nullable(udf_type t) { return (t & UDF_TY_NULLABLE) != 0; }

/* Python's spelling of a type for messages: "str", "int", "float", "bool", "NoneType",
 * "list", "tuple", "range", "str | None" (nullable). A static string; never NULL. */
const char *udf_type_name(udf_type t);

/* ------------------------------------------------------------------------------------------
 * Operators */

typedef enum udf_binop {
  UDF_OP_ADD,      /* + : int, float, str+str, list+list */
  UDF_OP_SUB,      /* - */
  UDF_OP_MUL,      /* * : int, float, and repetition str*int / int*str / list*int / int*list */
  UDF_OP_DIV,      /* / : true division, operands float (ints are cast), result float */
  UDF_OP_FLOORDIV, /* // : Python floor division (rounds toward -inf) */
  UDF_OP_MOD,      /* % : Python modulo (sign of the divisor) */
  UDF_OP_POW,      /* ** : float**float, or int**int -> int. A negative int literal exponent
                    * makes both sides float (2 ** -1 == 0.5); a negative exponent known only
                    * at runtime cannot give Python's float result in an int expression: the
                    * code raises ValueError "negative exponent in int ** int (write a float
                    * base)" for it */
  /* Parsed with Python's precedence; the checker rejects them ("unsupported: ...") except
   * | ^ & between sets (and | between dicts), so only those reach code generation: */
  UDF_OP_MATMUL, UDF_OP_BITOR, UDF_OP_BITXOR, UDF_OP_BITAND, UDF_OP_LSHIFT, UDF_OP_RSHIFT
} udf_binop;

typedef enum udf_unop {
  UDF_UOP_NEG,   /* -x : int (OverflowError on INT64_MIN), float */
  UDF_UOP_POS,   /* +x : int, float (bool operands are cast to int) */
  UDF_UOP_NOT,   /* not x : operand bool (wrapped in UDF_E_TRUTH), result bool */
  UDF_UOP_INVERT /* ~x : parsed, rejected by the checker */
} udf_unop;

typedef enum udf_cmpop {
  UDF_CMP_EQ, UDF_CMP_NE, UDF_CMP_LT, UDF_CMP_LE, UDF_CMP_GT, UDF_CMP_GE,
  UDF_CMP_IN,     /* left in right: str in str (substring), str in list[str] / tuple[str] */
  UDF_CMP_NOT_IN,
  UDF_CMP_IS,     /* only `x is None` (either side None) */
  UDF_CMP_IS_NOT  /* only `x is not None` */
} udf_cmpop;

typedef enum udf_boolop { UDF_BOOL_AND, UDF_BOOL_OR } udf_boolop;

/* ------------------------------------------------------------------------------------------
 * Builtins and string methods (the full argument rules are in the table in types_methods.c,
 * the one place that lists them) */

typedef enum udf_builtin {
  UDF_BI_LEN,   /* len(str|list|tuple) -> int (code points for str) */
  UDF_BI_STR,   /* str(str|int|float|bool) -> str (Python's repr of floats) */
  UDF_BI_INT,   /* int(int|bool|float) ; int(str) ; int(str, base:int) (base= keyword moved
                 * into the second argument) */
  UDF_BI_FLOAT, /* float(int|bool|float|str) */
  UDF_BI_BOOL,  /* never in the tree: bool(x) becomes x itself or a UDF_E_TRUTH. str(), int(),
                 * float() and bool() without arguments become the literals '', 0, 0.0, False */
  UDF_BI_ORD,   /* ord(str) -> int (TypeError at runtime unless one character) */
  UDF_BI_CHR,   /* chr(int) -> str (ValueError at runtime out of range) */
  UDF_BI_ABS,   /* abs(int|float) -> same type (bool is cast to int) */
  UDF_BI_MIN,   /* min(a, b, ...) all of one type int|float|str|bool (mixed types are
                 * rejected: Python's result type would depend on the values), or min(x) of
                 * one str (its smallest character), list[str] or tuple[str] (ValueError at
                 * runtime when empty); the argument may be a UDF_E_GENEXP */
  UDF_BI_MAX,   /* as min */
  UDF_BI_RANGE, /* range(stop) | range(start, stop) | range(start, stop, step), int args;
                 * type UDF_TY_RANGE (ValueError at runtime for step 0) */
  UDF_BI_ENUMERATE, /* enumerate(iterable[, start]) type ITER: cargs[0] the iterable (any
                     * for-loop iterable, ITER included), cargs[1] the INT start when given
                     * (ncargs 2) */
  UDF_BI_ZIP,       /* zip(a, b, ...) type ITER: cargs the iterables (stops at the shortest) */
  UDF_BI_REVERSED,  /* reversed(str|list|tuple) type ITER: the items from the last */
  UDF_BI_LIST,  /* list() -> [] ; list(str) -> its characters ; list(list|tuple|generator of
                 * str) -> a new list of the same items (lists are mutable: a copy) */
  /* The math module's functions (imports.h), named "math.floor" ... in the tree:
   * floor/ceil/trunc(int|float) -> int; isnan/isinf/isfinite(float) -> bool;
   * sqrt/fabs/exp/log2/log10(float), log(float[, base:float]), pow(float, float) -> float
   * (int and bool arguments are cast to float, or to int for floor/ceil/trunc). */
  UDF_BI_MATH_FLOOR, UDF_BI_MATH_CEIL, UDF_BI_MATH_TRUNC, UDF_BI_MATH_SQRT,
  UDF_BI_MATH_ISNAN, UDF_BI_MATH_ISINF, UDF_BI_MATH_ISFINITE, UDF_BI_MATH_FABS,
  UDF_BI_MATH_EXP, UDF_BI_MATH_LOG, UDF_BI_MATH_LOG2, UDF_BI_MATH_LOG10, UDF_BI_MATH_POW,
  /* Mutable lists of str (types_mlist.inc, codegen_mlist.c): the methods of a LIST_STR, the
   * list in cargs[0]. xs[i] = v is LIST_SETITEM (xs, i, v), v evaluated first as in Python;
   * del xs[i] is LIST_DELITEM (xs, i). Keyed forms: cargs[1] the key expression (NULL: none)
   * computed with the UDF_E_NAME cargs[3] (the key's parameter, a comprehension-like variable
   * of the element type) bound to each item; cargs[2] reverse (BOOL) for sort/sorted, the
   * default (the item type) for min/max. Lists of numbers (UDF_TY_LIST, param1 INT or
   * FLOAT) take the same builtins, their item arguments of the item type. */
  UDF_BI_LIST_APPEND,  /* (xs, x:str) -> None */
  UDF_BI_LIST_EXTEND,  /* (xs, it:list|tuple|str) -> None */
  UDF_BI_LIST_INSERT,  /* (xs, i:int, x:str) -> None */
  UDF_BI_LIST_POP,     /* (xs, i:int|NULL) -> str */
  UDF_BI_LIST_REMOVE,  /* (xs, x:str) -> None */
  UDF_BI_LIST_INDEX,   /* (xs, x:str) -> int */
  UDF_BI_LIST_COUNT,   /* (xs, x:str) -> int */
  UDF_BI_LIST_REVERSE, /* (xs) -> None */
  UDF_BI_LIST_CLEAR,   /* (xs) -> None */
  UDF_BI_LIST_COPY,    /* (xs) -> list */
  UDF_BI_LIST_SETITEM, /* (xs, i:int, v:str) -> None */
  UDF_BI_LIST_DELITEM, /* (xs, i:int) -> None */
  UDF_BI_LIST_SORT,    /* (xs, key, reverse, keyvar) -> None */
  UDF_BI_SORTED,       /* (iterable: str|list|tuple, key, reverse, keyvar) -> list */
  UDF_BI_MIN_KEY,      /* min(iterable, key=, default=): (iterable, key, default, keyvar) */
  UDF_BI_MAX_KEY,      /* -> the item type (the default's type too) */
  UDF_BI_SUM,          /* sum(list of int|float) -> int|float: cargs[0] the list */
  UDF_BI_LIST_IMUL,    /* xs *= n: (xs, n:int) -> None, in place (xs += v is xs.extend(v)) */
  /* The re module (types_re.c, codegen_re.c). cargs[0] of the first seven is a UDF_E_INT
   * whose value is the pattern's index in udf_module.res (flags are part of the pattern):
   * MATCH/SEARCH/FULLMATCH (re, s) -> re.Match | None (type parameters: the pattern index);
   * SUB (re, repl: a checked literal template, s, count: int) -> str; SPLIT (re, s, maxsplit)
   * and FINDALL (re, s) -> list[str]; ESCAPE (s) -> str. Match methods take the match first:
   * GROUP (m, g: int) -> str, or str | None when g may not take part; START/END (m, g) ->
   * int; GROUPS (m) -> tuple[str]. */
  UDF_BI_RE_MATCH, UDF_BI_RE_SEARCH, UDF_BI_RE_FULLMATCH, UDF_BI_RE_SUB, UDF_BI_RE_SPLIT,
  UDF_BI_RE_FINDALL, UDF_BI_RE_ESCAPE, UDF_BI_RE_GROUP, UDF_BI_RE_START, UDF_BI_RE_END,
  UDF_BI_RE_GROUPS,
  UDF_BI_RE_FINDITER, /* (re, s): the iterable of a for loop or comprehension only; its type
                       * is MATCH | UDF_TY_RE_MATCHES (types_re.h), its items re.Match */
  UDF_BI_RE_SUBN_COUNT, /* as SUB -> int: the number of replacements (re.subn is the tuple
                         * display of SUB and SUBN_COUNT) */
  UDF_BI_RE_SUB_FN,  /* re.sub with a function: (re, call, s, count) where call is the UDF_CALL_FUNC
                      * of the module's def on a CURRENT node; type str (or int: the count, for
                      * re.subn's) */
  UDF_BI_RE_CURRENT, /* () the match being replaced by SUB_FN: re.Match, borrowed */
  UDF_BI_UCD, /* unicodedata.<fn>(...) (types_ucd.c, codegen_ucd.c): cargs[0] a UDF_E_INT, the
               * function (NRT_UDF_UCD_* of runtime_ucd.h), then its 1 or 2 arguments */
  /* Formatting (types_formatting.inc, codegen_format.c): TRANSLATE (s, table) -> str where
   * table is a UDF_E_STR holding a table folded at compile time (runtime_translate.h: bytes,
   * not text); TRANSLATE_DICT (s, d: dict) -> str; REPR_VALUE (x: list, tuple or dict,
   * mode: a UDF_E_INT 'r', 'a' or 's') -> str, CPython's repr/ascii/str of the value. */
  UDF_BI_TRANSLATE, UDF_BI_TRANSLATE_DICT, UDF_BI_REPR_VALUE
} udf_builtin;

/* String methods. Each has fixed parameter slots (call.cargs[i], NULL = not given or given as
 * None where Python treats None as "not given"); types per slot:
 *   0 args, -> str:  UPPER LOWER CASEFOLD CAPITALIZE TITLE SWAPCASE
 *   0 args, -> bool: ISALPHA ISALNUM ISDECIMAL ISDIGIT ISNUMERIC ISSPACE ISUPPER ISLOWER
 *                    ISTITLE ISASCII ISIDENTIFIER ISPRINTABLE
 *   (sub:str, start:int?, end:int?) -> int:  FIND RFIND INDEX RINDEX COUNT
 *   (prefix:str|tuple[str], start:int?, end:int?) -> bool: STARTSWITH ENDSWITH
 *   (old:str, new:str, count:int?) -> str: REPLACE
 *   (chars:str?) -> str: STRIP LSTRIP RSTRIP
 *   (sep:str?, maxsplit:int?) -> list[str]: SPLIT RSPLIT (keywords sep=, maxsplit= allowed)
 *   (keepends:bool?) -> list[str]: SPLITLINES (keyword keepends= allowed; an int is cast to
 *                    bool by Python's truth rules, i.e. wrapped in UDF_E_TRUTH)
 *   (sep:str) -> tuple[str] of 3: PARTITION RPARTITION
 *   (iterable:list[str]|tuple[str]|str) -> str: JOIN (a str argument joins its characters)
 *   (width:int, fillchar:str?) -> str: CENTER LJUST RJUST
 *   (width:int) -> str: ZFILL
 *   (tabsize:int?) -> str: EXPANDTABS (keyword tabsize= allowed)
 *   (prefix:str) -> str: REMOVEPREFIX ; (suffix:str) -> str: REMOVESUFFIX
 * int slots hold int expressions (bools are cast). */
typedef enum udf_method {
  UDF_M_UPPER, UDF_M_LOWER, UDF_M_CASEFOLD, UDF_M_CAPITALIZE, UDF_M_TITLE, UDF_M_SWAPCASE,
  UDF_M_ISALPHA, UDF_M_ISALNUM, UDF_M_ISDECIMAL, UDF_M_ISDIGIT, UDF_M_ISNUMERIC, UDF_M_ISSPACE,
  UDF_M_ISUPPER, UDF_M_ISLOWER, UDF_M_ISTITLE, UDF_M_ISASCII, UDF_M_ISIDENTIFIER,
  UDF_M_ISPRINTABLE,
  UDF_M_FIND, UDF_M_RFIND, UDF_M_INDEX, UDF_M_RINDEX, UDF_M_COUNT,
  UDF_M_STARTSWITH, UDF_M_ENDSWITH,
  UDF_M_REPLACE,
  UDF_M_STRIP, UDF_M_LSTRIP, UDF_M_RSTRIP,
  UDF_M_SPLIT, UDF_M_RSPLIT, UDF_M_SPLITLINES,
  UDF_M_PARTITION, UDF_M_RPARTITION,
  UDF_M_JOIN,
  UDF_M_CENTER, UDF_M_LJUST, UDF_M_RJUST, UDF_M_ZFILL,
  UDF_M_EXPANDTABS,
  UDF_M_REMOVEPREFIX, UDF_M_REMOVESUFFIX,
  UDF_M_COUNT_ /* number of methods */
} udf_method;

/* The Python name of a method ("upper", ...), or NULL for an out-of-range value. */
const char *udf_method_name(udf_method m);

/* ------------------------------------------------------------------------------------------
 * Expressions */

typedef enum udf_expr_kind {
  UDF_E_NONE,      /* None                                        type NONE */
  UDF_E_BOOL,      /* True / False: u.bval                        type BOOL */
  UDF_E_INT,       /* integer literal: u.ival                     type INT */
  UDF_E_FLOAT,     /* float literal: u.fval                       type FLOAT */
  UDF_E_STR,       /* string literal (adjacent literals joined, escapes decoded): u.str */
  UDF_E_FSTRING,   /* f-string: u.fstring                         type STR */
  UDF_E_NAME,      /* variable use: u.name */
  UDF_E_UNARY,     /* u.unary */
  UDF_E_BINARY,    /* u.binary */
  UDF_E_BOOLOP,    /* a and b and c / a or b: u.boolop (n-ary, short-circuit) */
  UDF_E_COMPARE,   /* a < b <= c: u.compare (chained, each middle operand evaluated once) */
  UDF_E_IFEXP,     /* body if test else orelse: u.ifexp */
  UDF_E_CALL,      /* call: u.call (resolved by the checker, see udf_call_kind) */
  UDF_E_ATTRIBUTE, /* value.attr: only as the callee of a method call (u.attribute) */
  UDF_E_SUBSCRIPT, /* value[index]: u.subscript; str -> str (IndexError), list/tuple -> str */
  UDF_E_SLICE,     /* value[lower:upper:step]: u.slice; str -> str, list -> list[str] */
  UDF_E_LIST,      /* [a, b, ...]: u.seq, items str                type LIST_STR */
  UDF_E_TUPLE,     /* (a, b, ...) / a, b: u.seq                    type TUPLE_STR or TUPLE */
  UDF_E_LISTCOMP,  /* [elt for ... if ...]: u.comp, elt str        type LIST_STR */
  UDF_E_GENEXP,    /* (elt for ...): u.comp; materialised as a list type LIST_STR */
  UDF_E_CAST,      /* inserted by the checker: u.cast.operand converted to this node's type:
                    * BOOL->INT (0/1), BOOL->FLOAT, INT->FLOAT (round to nearest), and
                    * T|NULLABLE->T: a nullable variable the checker knows is not None here
                    * (after `if x is None: return/break/continue`, inside `if x is not None:`
                    * or the else of `if x is None:`), so take its value */
  UDF_E_NAMED,     /* (name := value): u.named; binds the variable (a function local, also
                    * from inside a comprehension, as in Python) and has value's type */
  UDF_E_DICT,      /* {k: v, ...}: u.dict (dict.c notes in types_dict.h)  type DICT */
  UDF_E_SET,       /* {a, b, ...}: u.dict, values NULL              type SET */
  UDF_E_DICTCOMP,  /* {k: v for ...}: u.comp, elt the key, value the value  type DICT */
  UDF_E_SETCOMP,   /* {a for ...}: u.comp                           type SET */
  UDF_E_TRUTH      /* inserted by the checker (and from bool(x)): Python truth value of
                    * u.truth.operand: str/list/tuple non-empty, int/float non-zero; the
                    * operand may also be NONE (false) or nullable (None is false); BOOL */
} udf_expr_kind;

typedef struct udf_expr udf_expr;
typedef struct udf_var udf_var;
typedef struct udf_func udf_func;
typedef struct udf_stmt udf_stmt;

/* A string constant: UTF-8 bytes (valid; may contain NUL), followed by a NUL not counted. */
typedef struct udf_strlit {
  const char *data;
  int64_t len;
} udf_strlit;

/* One piece of an f-string: literal text, or a replacement field {expr!conv:spec}. */
typedef struct udf_fpart {
  bool is_field;
  udf_strlit text;   /* literal piece (is_field false), escapes and {{ }} decoded */
  udf_expr *expr;    /* replacement field value (is_field true): str, int, float or bool */
  char conversion;   /* 0, 's', 'r' or 'a' (the !conversion) */
  udf_strlit spec;   /* the format spec text after ':' (empty when absent), passed verbatim to
                      * the runtime formatter: [[fill]align][sign][#][0][width][,|_][.prec][type].
                      * Nested replacement fields in a spec are rejected as unsupported. A
                      * self-documenting field {x=} is desugared: its "x=" text becomes a
                      * literal part and the conversion defaults to 'r' when no spec is given. */
  char percent;      /* from %-formatting (parse_format.h): its conversion ('d', 'x', 'f',
                      * ...) whose type rules the checker applies (a float for %d is
                      * truncated by int()), else 0 */
  bool percent_single; /* the whole right operand of a %, not a tuple display: a tuple value
                        * there would be the argument tuple itself */
} udf_fpart;

/* One `for target in iter if cond if cond` clause of a comprehension. */
typedef struct udf_comp_for {
  udf_var *target;   /* the loop variable (scoped to the comprehension); NULL when unpack */
  udf_expr *unpack;  /* a tuple target (`for i, (a, b) in ...`): a UDF_E_TUPLE of UDF_E_NAMEs
                      * and nested UDF_E_TUPLEs, matched to the iterable's structure (the
                      * items of enumerate/zip) by the checker; else NULL */
  udf_loc target_loc;
  udf_expr *iter;    /* str (characters), LIST_STR, TUPLE_STR, RANGE or ITER */
  udf_expr **ifs;    /* conditions, each of type BOOL */
  int nifs;
} udf_comp_for;

/* Keyword argument as written (name=value); after checking, also placed into call.cargs. */
typedef struct udf_keyword {
  const char *name;
  udf_expr *value;
  udf_loc loc;
  udf_var *lambda_param; /* key=lambda p: body: value is the body, p its parameter (a
                          * comprehension-like variable); else NULL */
} udf_keyword;

typedef enum udf_call_kind {
  UDF_CALL_UNRESOLVED, /* as parsed; never after a successful check */
  UDF_CALL_BUILTIN,    /* call.builtin, positional arguments in cargs */
  UDF_CALL_METHOD,     /* call.method on call.receiver (a str), slots in cargs */
  UDF_CALL_FUNC,       /* call.callee, one argument per parameter in cargs (defaults filled) */
  UDF_CALL_DICT        /* a dict/set operation (types_dict.h): call.dict_op on call.receiver
                        * (NULL for dict()/set()/len()), arguments in cargs */
} udf_call_kind;

struct udf_expr {
  udf_expr_kind kind;
  udf_loc loc;
  udf_type type;   /* inferred type, set by the checker */
  union {
    bool bval;
    int64_t ival;
    double fval;
    udf_strlit str;
    struct {
      udf_fpart *parts;
      int nparts;
    } fstring;
    struct {
      const char *id; /* the identifier as written */
      udf_var *var;   /* the variable it denotes (set by the checker) */
      bool check_bound; /* the variable may be unassigned here on some path: the code must
                         * raise UnboundLocalError "cannot access local variable 'x' where it
                         * is not associated with a value" when it is */
      bool readonly;    /* a dict/set lookup position (types_dict.c): a[k], a.get(..),
                         * x in a, len(a), for .. in a / a.keys() / a.values() / a.items() */
    } name;
    struct {
      udf_unop op;
      udf_expr *operand;
    } unary;
    struct {
      udf_binop op;
      udf_expr *left, *right;
      /* MUL with one str/list side is repetition: the other side is INT (cast from bool). */
    } binary;
    struct {
      udf_boolop op;
      udf_expr **values; /* n >= 2. In a boolean context every value is BOOL; otherwise all
                          * values have the node's type (Python value semantics: `a or b`
                          * yields a if a is true else b) */
      int n;
    } boolop;
    struct {
      udf_expr **operands; /* n+1 operands */
      udf_cmpop *ops;      /* n operators: operands[i] ops[i] operands[i+1] */
      int n;               /* comparisons of ordering/equality have equal operand types after
                            * casts (INT/FLOAT/BOOL/STR; == and != also for LIST_STR,
                            * TUPLE_STR); IN/NOT_IN have a STR left side and a STR, LIST_STR or
                            * TUPLE_STR right side; IS/IS_NOT have one UDF_E_NONE side */
    } compare;
    struct {
      udf_expr *test, *body, *orelse; /* test BOOL; body and orelse of the node's type (a
                                       * UDF_E_NONE branch makes the node nullable) */
    } ifexp;
    struct {
      udf_expr *func;         /* as parsed: UDF_E_NAME (builtin or def) or UDF_E_ATTRIBUTE */
      udf_expr **args;        /* positional arguments as written */
      int nargs;
      udf_keyword *keywords;  /* keyword arguments as written */
      int nkeywords;
      /* Set by the checker: */
      udf_call_kind ckind;
      udf_builtin builtin;
      udf_method method;
      udf_expr *receiver;     /* the str whose method is called (UDF_CALL_METHOD) */
      udf_func *callee;       /* UDF_CALL_FUNC */
      int dict_op;            /* UDF_CALL_DICT: a udf_dict_op (types_dict.h) */
      udf_expr **cargs;       /* normalised arguments (see udf_call_kind), NULL = absent */
      int ncargs;
    } call;
    struct {
      udf_expr *value;
      const char *attr;
    } attribute;
    struct {
      udf_expr *value, *index; /* index INT (cast from bool) */
    } subscript;
    struct {
      udf_expr *value;
      udf_expr *lower, *upper, *step; /* INT or NULL when omitted (or written None) */
    } slice;
    struct {
      udf_expr **items;
      int n;
    } seq;
    struct {
      udf_expr **keys, **values; /* n items; values NULL for a set display */
      int n;
      bool readonly;   /* in a lookup position, or the one binding of a name only looked up */
      int const_index; /* >= 0: all items literal and read-only: built once per compile, the
                        * module's const_displays[const_index]; else -1 (built per row) */
    } dict;
    struct {
      udf_expr *elt;           /* STR */
      udf_comp_for *gens;      /* the for clauses, outermost first */
      int ngens;
      udf_expr *value;         /* UDF_E_DICTCOMP: the value (elt is the key), else NULL */
    } comp;
    struct {
      udf_expr *operand;
    } cast;
    struct {
      udf_expr *operand;
    } truth;
    struct {
      udf_expr *target; /* UDF_E_NAME: u.name.var set by the checker */
      udf_expr *value;
    } named;
  } u;
};

/* ------------------------------------------------------------------------------------------
 * Statements */

typedef struct udf_block {
  udf_stmt **items;
  int n;
} udf_block;

typedef enum udf_stmt_kind {
  UDF_S_EXPR,      /* expression statement: u.expr (value discarded; docstrings stay as
                    * UDF_E_STR statements and cost nothing) */
  UDF_S_ASSIGN,    /* t1 = t2 = value: u.assign */
  UDF_S_AUGASSIGN, /* target op= value: u.augassign */
  UDF_S_IF,        /* u.if_ (elif is an else block holding one UDF_S_IF) */
  UDF_S_WHILE,     /* u.while_ */
  UDF_S_FOR,       /* u.for_ */
  UDF_S_BREAK,
  UDF_S_CONTINUE,
  UDF_S_RETURN,    /* u.ret */
  UDF_S_PASS,
  UDF_S_TRY,       /* try/except/else/finally: u.try_ */
  UDF_S_RAISE,     /* raise E(msg) / raise E / bare raise: u.raise */
  UDF_S_SETITEM,   /* d[k] = v: u.setitem (a dict target) */
  UDF_S_DELITEM    /* del d[k]: u.setitem, value NULL */
} udf_stmt_kind;

/* One `except [E | (E1, E2)] [as name]:` clause of a try statement. */
typedef struct udf_handler {
  udf_loc loc;
  udf_expr *type;    /* as written: NULL for a bare `except:`, a UDF_E_NAME or a UDF_E_TUPLE of
                      * UDF_E_NAMEs naming built-in exception classes */
  uint32_t catches;  /* set by the checker: the UDF_EXC_* bits (exceptions.h) it catches */
  udf_var *name;     /* `as name` (a str local holding the message, unbound after the
                      * clause as in Python), or NULL */
  udf_loc name_loc;
  udf_block body;
} udf_handler;

struct udf_stmt {
  udf_stmt_kind kind;
  udf_loc loc;
  union {
    udf_expr *expr;
    struct {
      udf_expr **targets; /* n >= 1 targets, assigned left to right: each a UDF_E_NAME, or a
                           * UDF_E_TUPLE of UDF_E_NAMEs (unpacking; the value is then a
                           * TUPLE_STR or LIST_STR that must have that length at runtime
                           * (ValueError "too many values to unpack (expected 2)" / "not enough
                           * values to unpack (expected 3, got 1)" otherwise), or a UDF_E_TUPLE
                           * display of the same length, all of whose items are evaluated
                           * before any target is assigned). A target's `type` and its var's
                           * type may be nullable while the value is NONE or plain T: store
                           * None / the value accordingly */
      int ntargets;
      udf_expr *value;
    } assign;
    struct {
      udf_expr *target; /* UDF_E_NAME */
      udf_binop op;
      udf_expr *value;  /* cast so that `target op value` has the target's type; the
                         * checker rejects an op whose result type differs from the target's */
    } augassign;
    struct {
      udf_expr *test; /* BOOL */
      udf_block body, orelse;
    } if_;
    struct {
      udf_expr *test; /* BOOL */
      udf_block body;
      udf_block orelse; /* runs when the loop ends without break (Python's while-else) */
    } while_;
    struct {
      udf_var *target;  /* loop variable: a function local (shared with other uses of the name;
                         * it keeps its last value after the loop, as in Python); NULL when
                         * unpack is set */
      udf_expr *unpack; /* a tuple target, as udf_comp_for.unpack (names are function locals) */
      udf_loc target_loc;
      udf_expr *iter;   /* STR (characters), LIST_STR, TUPLE_STR, RANGE or ITER */
      udf_block body;
      udf_block orelse; /* for-else */
    } for_;
    struct {
      udf_expr *value; /* NULL for a bare `return` (returns None) */
    } ret;
    struct {
      udf_block body;
      udf_handler **handlers; /* nhandlers clauses, a bare one last */
      int nhandlers;
      udf_block orelse;      /* runs when the body ends without an exception */
      udf_block finalbody;   /* runs on every way out (n == 0: no finally) */
    } try_;
    struct {
      udf_expr *target; /* the UDF_E_SUBSCRIPT d[k] */
      udf_expr *value;
    } setitem;
    struct {
      udf_expr *exc;  /* as written: NULL for a bare `raise` (inside an except clause), a
                       * UDF_E_NAME of a class, or a UDF_E_CALL of one with at most one
                       * argument */
      int code;       /* set by the checker: the status raised (NRT_EVALUE, ...) */
      udf_expr *msg;  /* set by the checker: the str argument, or NULL for none */
    } raise;
  } u;
};

/* ------------------------------------------------------------------------------------------
 * Variables and functions */

struct udf_var {
  const char *name;
  udf_type type;     /* one type for the whole function */
  int index;         /* position in the owning function's `locals` */
  bool is_param;
  bool is_comp_var;  /* a comprehension's loop variable (its own scope, as in Python 3) */
  bool needs_bound_flag; /* some use has check_bound: keep a runtime "assigned" flag */
  bool is_exc_name;  /* bound by `except ... as name`: only str(name) and f"{name}" use it */
  udf_loc loc;       /* first binding */
};

struct udf_func {
  const char *name;
  udf_loc loc;         /* of the `def` keyword (or `lambda`) */
  bool is_lambda;      /* a module made of one lambda: body is one UDF_S_RETURN */
  udf_var **params;    /* nparams parameters, also the first nparams entries of locals */
  udf_expr **defaults; /* per parameter: the default value (a literal) or NULL */
  int nparams;
  udf_var **locals;    /* every variable of the function (params, locals, comprehension vars) */
  int nlocals;
  udf_block body;
  udf_type result;       /* join of the returns: T, T|NULLABLE, or NONE */
  bool falls_off_end;    /* the end of the body is reachable: an implicit `return None` */
  bool checked;          /* type-checked (reachable from the entry); unchecked helpers have
                          * no types and must not be compiled */
  int index;             /* position in the module's funcs */
  /* Functions (types_funcs.c): */
  bool recursive;        /* in a cycle of calls: checks the recursion depth on entry */
  udf_func *parent;      /* a nested def or named lambda: the function it is defined in */
  int ncaptures;         /* the last ncaptures params are hidden: the enclosing functions'
                          * variables it reads (lambda lifting), passed by every call */
};

/* A module-level constant `NAME = expr`: its value folded to a literal (NONE, BOOL, INT,
 * FLOAT, STR) or a UDF_E_TUPLE of literals; a use in a function becomes a copy of it. */
typedef struct udf_const {
  const char *name;
  udf_expr *value;
  udf_loc loc;
} udf_const;

typedef struct udf_module {
  const char *file;   /* file name used in messages */
  udf_func **funcs;   /* in source order */
  int nfuncs;
  udf_func *entry;    /* the entry function, checked with the given parameter types */
  bool names_exceptions; /* some `except ... as name` reads an error's message */
  /* Module-level `NAME = {...}` dict and set displays (read-only constants). */
  udf_expr **const_names; /* the UDF_E_NAME targets */
  udf_expr **const_values;
  int nconsts;
  /* The displays built once per compile (set by the checker; see u.dict.const_index). */
  udf_expr **const_displays;
  int nconst_displays, capconst_displays;
  void **const_built; /* set before code generation: each one built (nrt_udf_dict *) */
  struct udf_const *literal_consts; /* module-level constants, last binding of each name (parse) */
  int nliteral_consts;
  struct udf_arena *arena; /* owns everything above */
  struct udf_re_set *res;  /* the compiled patterns of its re calls (re_compile.h), or NULL;
                           * freed with the module unless taken over (set to NULL) */
} udf_module;

/* Calls visit(ctx, var) for the variable of every name in a for target: `var`, or every
 * UDF_E_NAME in `unpack` (left to right). */
void udf_target_each_var(udf_var *var, const udf_expr *unpack,
                         void (*visit)(void *ctx, udf_var *v), void *ctx);

/* Releases the module and everything in its arena. NULL is a no-op. */
void udf_module_free(udf_module *m);

/* Calls visit(ctx, child) for every direct subexpression of e, in evaluation order where it
 * has one, each once. A checked call's children are its receiver and normalised arguments
 * (cargs); an unresolved call's are its func, arguments and keyword values as written. */
void udf_expr_each_child(const udf_expr *e, void (*visit)(void *ctx, const udf_expr *child),
                         void *ctx);

#endif
