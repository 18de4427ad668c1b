/* The UDF tokenizer (internal): Python 3.11's tokens and indentation rules.
 *
 * Produces the whole token array at once, in the arena. Indentation follows CPython: tabs
 * advance to the next multiple of 8, a line whose indentation compares differently with tab
 * size 8 and tab size 1 is a TabError ("inconsistent use of tabs and spaces in indentation");
 * blank and comment-only lines carry no indentation; newlines inside brackets and after a
 * backslash continuation are not tokens. */
#ifndef NRT_UDF_LEX_H
#define NRT_UDF_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "udf/ast.h"
#include "udf/ast_arena.h"
#include "udf/diag.h"

typedef enum udf_tok_kind {
  UDF_T_END,     /* end of input (ENDMARKER) */
  UDF_T_NEWLINE, /* end of a logical line */
  UDF_T_INDENT,
  UDF_T_DEDENT,
  UDF_T_NAME,    /* identifier (keywords have kw != UDF_KW_NONE) */
  UDF_T_INT,     /* integer literal: ival (values above INT64_MAX are kept in ival as uint64;
                  * `big` is set above 2**63) */
  UDF_T_FLOAT,   /* float literal: fval */
  UDF_T_STRING,  /* one string literal (see the str fields) */
  UDF_T_OP       /* operator or delimiter: op */
} udf_tok_kind;

typedef enum udf_kw {
  UDF_KW_NONE, UDF_KW_FALSE, UDF_KW_NONE_LIT, UDF_KW_TRUE, UDF_KW_AND, UDF_KW_AS,
  UDF_KW_ASSERT, UDF_KW_ASYNC, UDF_KW_AWAIT, UDF_KW_BREAK, UDF_KW_CLASS, UDF_KW_CONTINUE,
  UDF_KW_DEF, UDF_KW_DEL, UDF_KW_ELIF, UDF_KW_ELSE, UDF_KW_EXCEPT, UDF_KW_FINALLY,
  UDF_KW_FOR, UDF_KW_FROM, UDF_KW_GLOBAL, UDF_KW_IF, UDF_KW_IMPORT, UDF_KW_IN, UDF_KW_IS,
  UDF_KW_LAMBDA, UDF_KW_NONLOCAL, UDF_KW_NOT, UDF_KW_OR, UDF_KW_PASS, UDF_KW_RAISE,
  UDF_KW_RETURN, UDF_KW_TRY, UDF_KW_WHILE, UDF_KW_WITH, UDF_KW_YIELD
} udf_kw;

typedef enum udf_opk {
  UDF_O_LPAR, UDF_O_RPAR, UDF_O_LSQB, UDF_O_RSQB, UDF_O_LBRACE, UDF_O_RBRACE,
  UDF_O_COMMA, UDF_O_COLON, UDF_O_SEMI, UDF_O_DOT, UDF_O_ELLIPSIS, UDF_O_ARROW,
  UDF_O_WALRUS, UDF_O_EQUAL, UDF_O_AT,
  UDF_O_PLUS, UDF_O_MINUS, UDF_O_STAR, UDF_O_SLASH, UDF_O_DSLASH, UDF_O_PERCENT,
  UDF_O_DSTAR, UDF_O_AMPER, UDF_O_VBAR, UDF_O_CIRCUM, UDF_O_TILDE, UDF_O_LSHIFT,
  UDF_O_RSHIFT,
  UDF_O_EQEQ, UDF_O_NOTEQ, UDF_O_LT, UDF_O_GT, UDF_O_LE, UDF_O_GE,
  /* augmented assignments, in the order of udf_binop */
  UDF_O_PLUSEQ, UDF_O_MINUSEQ, UDF_O_STAREQ, UDF_O_SLASHEQ, UDF_O_DSLASHEQ, UDF_O_PERCENTEQ,
  UDF_O_DSTAREQ, UDF_O_ATEQ, UDF_O_VBAREQ, UDF_O_CIRCUMEQ, UDF_O_AMPEREQ, UDF_O_LSHIFTEQ,
  UDF_O_RSHIFTEQ,
  UDF_O_BANG /* '!' (only meaningful inside f-string fields) */
} udf_opk;

typedef struct udf_token {
  udf_tok_kind kind;
  udf_loc loc;      /* first character */
  udf_loc end;      /* just after the last character */
  const char *text; /* the source text of the token */
  size_t tlen;
  udf_kw kw;        /* UDF_T_NAME */
  udf_opk op;       /* UDF_T_OP */
  uint64_t ival;    /* UDF_T_INT */
  bool big;         /* UDF_T_INT: value > INT64_MAX (only 2**63 itself is kept usable) */
  double fval;      /* UDF_T_FLOAT */
  /* UDF_T_STRING: */
  bool is_f;        /* f-string: `body` is parsed by the parser */
  bool is_raw;
  udf_strlit value; /* decoded value (not for f-strings) */
  const char *body; /* text between the quotes */
  size_t blen;
  udf_loc body_loc; /* location of body[0] */
} udf_token;

/* Tokenizes src[0..len). `start` is the location of src[0] (1:1 for a file). In expression
 * mode (f-string replacement fields) the text is tokenized as if inside brackets: no
 * NEWLINE/INDENT/DEDENT tokens. Returns NRT_OK with the tokens (ending with UDF_T_END), or the
 * error code recorded in dc (NRT_EPARSE, NRT_EUNSUPPORTED, NRT_ENOMEM). */
int udf_lex(udf_diagctx *dc, udf_arena *a, const char *src, size_t len, udf_loc start,
            bool expr_mode, udf_token **toks, int *ntoks);

/* Decodes the escapes of a non-raw string body (or copies a raw one) into arena memory as
 * UTF-8. `loc` is the location of body[0], for messages. Used by the lexer for plain strings
 * and by the parser for the literal pieces of f-strings. */
int udf_lex_decode_string(udf_diagctx *dc, udf_arena *a, const char *body, size_t blen,
                          bool raw, udf_loc loc, udf_strlit *out);

#endif
