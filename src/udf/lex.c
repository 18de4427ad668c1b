/* The UDF tokenizer: Python 3.11's lexical rules (see lex.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/unicode.h"
#include "udf/lex.h"

enum { MAX_INDENT = 100, MAX_BRACKETS = 200 };

typedef struct lexer {
  udf_diagctx *dc;
  udf_arena *a;
  const char *src, *p, *end;
  const char *line_start;
  int line;
  udf_loc start;
  bool expr_mode;
  udf_token *toks;
  int n, cap;
  int indent[MAX_INDENT], altindent[MAX_INDENT];
  int nindent;
  /* column cache: the code point count of [line_start, col_pos) is col_count, so a long line
   * is counted once, not once per token */
  const char *col_pos;
  int col_count;
  char brackets[MAX_BRACKETS];
  udf_loc bracket_loc[MAX_BRACKETS];
  int depth;
} lexer;

static udf_loc loc_at(lexer *L, const char *q) {
  udf_loc l;
  l.line = L->line;
  if (q < L->line_start) { /* a token that started on an earlier line: the caller knows */
    l.col = 1;
    return l;
  }
  if (L->col_pos < L->line_start) {
    L->col_pos = L->line_start;
    L->col_count = 0;
  }
  if (q >= L->col_pos)
    L->col_count += (int)nrt_utf8_count(L->col_pos, (size_t)(q - L->col_pos));
  else
    L->col_count -= (int)nrt_utf8_count(q, (size_t)(L->col_pos - q));
  L->col_pos = q;
  int base = (L->line == L->start.line) ? L->start.col : 1;
  l.col = base + L->col_count;
  return l;
}

static int err_at(lexer *L, int code, const char *q, const char *msg) {
  return udf_diag_error(L->dc, code, loc_at(L, q), "%s", msg);
}

static udf_token *push(lexer *L, udf_tok_kind kind, const char *text, size_t tlen) {
  if (L->n == L->cap) {
    int ncap = L->cap ? L->cap * 2 : 64;
    udf_token *grown = udf_arena_alloc(L->a, (size_t)ncap * sizeof *grown);
    if (!grown) {
      udf_diag_error(L->dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory");
      return NULL;
    }
    if (L->n) memcpy(grown, L->toks, (size_t)L->n * sizeof *grown);
    L->toks = grown;
    L->cap = ncap;
  }
  udf_token *t = &L->toks[L->n++];
  memset(t, 0, sizeof *t);
  t->kind = kind;
  t->text = text;
  t->tlen = tlen;
  t->loc = loc_at(L, text);
  return t;
}

/* Consumes a line break at L->p (\n, \r\n or \r) and starts the next line. */
static void newline(lexer *L) {
  if (L->p >= L->end) return;
  if (*L->p == '\r' && L->p + 1 < L->end && L->p[1] == '\n') L->p++;
  L->p++;
  L->line++;
  L->line_start = L->p;
}

static bool is_id_start_cp(uint32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         (c >= 0x80 && nrt_uc_is_xid_start(c));
}
static bool is_id_cont_cp(uint32_t c) {
  return is_id_start_cp(c) || (c >= '0' && c <= '9') || (c >= 0x80 && nrt_uc_is_xid_continue(c));
}
static uint32_t peek_cp(const lexer *L, const char *q, size_t *n) {
  if (q >= L->end) {
    *n = 0;
    return 0;
  }
  if ((unsigned char)*q < 0x80) {
    *n = 1;
    return (unsigned char)*q;
  }
  return nrt_utf8_decode(q, (size_t)(L->end - q), n);
}

static const struct {
  const char *word;
  udf_kw kw;
} keywords[] = {
    {"False", UDF_KW_FALSE}, {"None", UDF_KW_NONE_LIT}, {"True", UDF_KW_TRUE},
    {"and", UDF_KW_AND}, {"as", UDF_KW_AS}, {"assert", UDF_KW_ASSERT},
    {"async", UDF_KW_ASYNC}, {"await", UDF_KW_AWAIT}, {"break", UDF_KW_BREAK},
    {"class", UDF_KW_CLASS}, {"continue", UDF_KW_CONTINUE}, {"def", UDF_KW_DEF},
    {"del", UDF_KW_DEL}, {"elif", UDF_KW_ELIF}, {"else", UDF_KW_ELSE},
    {"except", UDF_KW_EXCEPT}, {"finally", UDF_KW_FINALLY}, {"for", UDF_KW_FOR},
    {"from", UDF_KW_FROM}, {"global", UDF_KW_GLOBAL}, {"if", UDF_KW_IF},
    {"import", UDF_KW_IMPORT}, {"in", UDF_KW_IN}, {"is", UDF_KW_IS},
    {"lambda", UDF_KW_LAMBDA}, {"nonlocal", UDF_KW_NONLOCAL}, {"not", UDF_KW_NOT},
    {"or", UDF_KW_OR}, {"pass", UDF_KW_PASS}, {"raise", UDF_KW_RAISE},
    {"return", UDF_KW_RETURN}, {"try", UDF_KW_TRY}, {"while", UDF_KW_WHILE},
    {"with", UDF_KW_WITH}, {"yield", UDF_KW_YIELD},
};

static udf_kw keyword_of(const char *s, size_t n) {
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
    if (strlen(keywords[i].word) == n && memcmp(keywords[i].word, s, n) == 0)
      return keywords[i].kw;
  return UDF_KW_NONE;
}

/* ---- numbers ---- */

static int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

/* Scans `(_? digit)*` in base `base` from q; returns the end. Sets *bad_us when an
 * underscore is not followed by a digit. */
static const char *scan_digits(const lexer *L, const char *q, int base, bool *bad_us) {
  while (q < L->end) {
    if (*q == '_') {
      if (q + 1 < L->end && digit_value(q[1]) < base) {
        q += 2;
        continue;
      }
      *bad_us = true;
      return q;
    }
    if (digit_value(*q) < base)
      q++;
    else
      break;
  }
  return q;
}

static bool id_char_at(const lexer *L, const char *q) {
  size_t n;
  uint32_t c = peek_cp(L, q, &n);
  return n && is_id_cont_cp(c);
}

static int lex_number(lexer *L) {
  const char *s = L->p, *q = s;
  bool bad = false;
  if (*q == '0' && q + 1 < L->end && strchr("xXoObB", q[1])) {
    int base = (q[1] == 'x' || q[1] == 'X') ? 16 : (q[1] == 'o' || q[1] == 'O') ? 8 : 2;
    const char *name = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
    q += 2;
    if (q < L->end && *q == '_') q++; /* 0x_ff is allowed */
    const char *ds = q;
    q = scan_digits(L, q, base, &bad);
    char msg[80];
    if (!bad && q < L->end && base < 16 && *q >= '0' && *q <= '9') {
      snprintf(msg, sizeof msg, "invalid digit '%c' in %s literal", *q, name);
      return err_at(L, NRT_EPARSE, q, msg);
    }
    if (bad || q == ds || id_char_at(L, q)) {
      snprintf(msg, sizeof msg, "invalid %s literal", name);
      return err_at(L, NRT_EPARSE, s, msg);
    }
    uint64_t v = 0;
    bool over = false;
    for (const char *d = ds; d < q; d++) {
      if (*d == '_') continue;
      uint64_t dv = (uint64_t)digit_value(*d);
      if (v > (UINT64_MAX - dv) / (uint64_t)base) over = true;
      v = v * (uint64_t)base + dv;
    }
    if (over || v > (uint64_t)INT64_MAX + 1)
      return err_at(L, NRT_EUNSUPPORTED, s,
                    "unsupported: integer literal out of the 64-bit range");
    udf_token *t = push(L, UDF_T_INT, s, (size_t)(q - s));
    if (!t) return NRT_ENOMEM;
    t->ival = v;
    t->big = v > (uint64_t)INT64_MAX;
    L->p = q;
    return NRT_OK;
  }
  bool is_float = false;
  if (*q != '.') q = scan_digits(L, q, 10, &bad);
  if (bad) return err_at(L, NRT_EPARSE, s, "invalid decimal literal");
  if (q < L->end && *q == '.') {
    is_float = true;
    q++;
    if (q < L->end && *q >= '0' && *q <= '9') q = scan_digits(L, q, 10, &bad);
    if (bad) return err_at(L, NRT_EPARSE, s, "invalid decimal literal");
  }
  if (q < L->end && (*q == 'e' || *q == 'E')) {
    const char *e = q + 1;
    if (e < L->end && (*e == '+' || *e == '-')) e++;
    if (e < L->end && *e >= '0' && *e <= '9') {
      is_float = true;
      q = scan_digits(L, e, 10, &bad);
      if (bad) return err_at(L, NRT_EPARSE, s, "invalid decimal literal");
    } else {
      return err_at(L, NRT_EPARSE, s, "invalid decimal literal");
    }
  }
  if (q < L->end && (*q == 'j' || *q == 'J'))
    return err_at(L, NRT_EUNSUPPORTED, s, "unsupported: complex numbers");
  if (id_char_at(L, q)) return err_at(L, NRT_EPARSE, s, "invalid decimal literal");
  /* Copy without underscores. */
  size_t n = (size_t)(q - s);
  char *buf = udf_arena_alloc(L->a, n + 1);
  if (!buf) return udf_diag_error(L->dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory");
  size_t k = 0;
  for (const char *d = s; d < q; d++)
    if (*d != '_') buf[k++] = *d;
  buf[k] = '\0';
  if (is_float) {
    udf_token *t = push(L, UDF_T_FLOAT, s, n);
    if (!t) return NRT_ENOMEM;
    t->fval = strtod(buf, NULL);
  } else {
    /* Leading zeros: only "0", "00", "0_0" ... are allowed. */
    if (buf[0] == '0') {
      for (size_t i = 0; i < k; i++)
        if (buf[i] != '0')
          return err_at(L, NRT_EPARSE, s,
                        "leading zeros in decimal integer literals are not permitted; use an "
                        "0o prefix for octal integers");
    }
    uint64_t v = 0;
    bool over = false;
    for (size_t i = 0; i < k; i++) {
      uint64_t dv = (uint64_t)(buf[i] - '0');
      if (v > (UINT64_MAX - dv) / 10) over = true;
      v = v * 10 + dv;
    }
    if (over || v > (uint64_t)INT64_MAX + 1)
      return err_at(L, NRT_EUNSUPPORTED, s,
                    "unsupported: integer literal out of the 64-bit range");
    udf_token *t = push(L, UDF_T_INT, s, n);
    if (!t) return NRT_ENOMEM;
    t->ival = v;
    t->big = v > (uint64_t)INT64_MAX;
  }
  L->p = q;
  return NRT_OK;
}

/* ---- strings ---- */

static size_t put_cp(char *out, uint32_t cp) { return nrt_utf8_encode(cp, out); }

int udf_lex_decode_string(udf_diagctx *dc, udf_arena *a, const char *body, size_t blen,
                          bool raw, udf_loc loc, udf_strlit *out) {
  char *buf = udf_arena_alloc(a, blen + 1);
  if (!buf) return udf_diag_error(dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory");
  size_t k = 0;
  for (size_t i = 0; i < blen;) {
    char c = body[i];
    if (c == '\r') { /* universal newlines */
      buf[k++] = '\n';
      i += (i + 1 < blen && body[i + 1] == '\n') ? 2 : 1;
      continue;
    }
    if (c != '\\' || raw) {
      if (c == '\\' && raw && i + 1 < blen) { /* keep the pair, e.g. r"\'" */
        buf[k++] = c;
        i++;
        c = body[i];
        if (c == '\r') continue;
      }
      buf[k++] = c;
      i++;
      continue;
    }
    /* an escape */
    size_t es = i;
    if (i + 1 >= blen) {
      buf[k++] = '\\';
      i++;
      continue;
    }
    char e = body[i + 1];
    i += 2;
    switch (e) {
    case '\n': break;
    case '\r':
      if (i < blen && body[i] == '\n') i++;
      break;
    case '\\': buf[k++] = '\\'; break;
    case '\'': buf[k++] = '\''; break;
    case '"': buf[k++] = '"'; break;
    case 'a': buf[k++] = '\a'; break;
    case 'b': buf[k++] = '\b'; break;
    case 'f': buf[k++] = '\f'; break;
    case 'n': buf[k++] = '\n'; break;
    case 'r': buf[k++] = '\r'; break;
    case 't': buf[k++] = '\t'; break;
    case 'v': buf[k++] = '\v'; break;
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
      uint32_t v = (uint32_t)(e - '0');
      for (int d = 0; d < 2 && i < blen && body[i] >= '0' && body[i] <= '7'; d++, i++)
        v = v * 8 + (uint32_t)(body[i] - '0');
      k += put_cp(buf + k, v);
      break;
    }
    case 'x': case 'u': case 'U': {
      int want = e == 'x' ? 2 : e == 'u' ? 4 : 8;
      uint32_t v = 0;
      int got = 0;
      while (got < want && i < blen && digit_value(body[i]) < 16) {
        v = v * 16 + (uint32_t)digit_value(body[i]);
        i++;
        got++;
      }
      if (got < want)
        return udf_diag_error(dc, NRT_EPARSE, loc,
                              "(unicode error) 'unicodeescape' codec can't decode bytes in "
                              "position %zu-%zu: truncated \\%c%s escape",
                              es, i - 1, e,
                              e == 'x' ? "XX" : e == 'u' ? "XXXX" : "XXXXXXXX");
      if (v > 0x10FFFF)
        return udf_diag_error(dc, NRT_EPARSE, loc,
                              "(unicode error) 'unicodeescape' codec can't decode bytes in "
                              "position %zu-%zu: illegal Unicode character",
                              es, i - 1);
      if (v >= 0xD800 && v <= 0xDFFF)
        return udf_diag_error(dc, NRT_EUNSUPPORTED, loc,
                              "unsupported: surrogate code point \\%c%0*X in a string literal "
                              "(strings are UTF-8)",
                              e, want, (unsigned)v);
      k += put_cp(buf + k, v);
      break;
    }
    case 'N':
      return udf_diag_error(dc, NRT_EUNSUPPORTED, loc,
                            "unsupported: \\N{...} escapes (write the character or use "
                            "\\uXXXX)");
    default:
      /* Unknown escapes keep the backslash (Python warns but accepts them). */
      buf[k++] = '\\';
      i--;
      break;
    }
  }
  buf[k] = '\0';
  out->data = buf;
  out->len = (int64_t)k;
  return NRT_OK;
}

/* p points at the opening quote; pstart at the prefix. */
static int lex_string(lexer *L, const char *pstart, bool raw, bool is_f) {
  const char *q = L->p;
  char quote = *q;
  bool triple = q + 2 < L->end && q[1] == quote && q[2] == quote;
  udf_loc sloc = loc_at(L, pstart);
  q += triple ? 3 : 1;
  const char *body = q;
  udf_loc body_loc = loc_at(L, body);
  for (;;) {
    if (q >= L->end) {
      L->p = q;
      return udf_diag_error(L->dc, NRT_EPARSE, sloc,
                            triple ? "unterminated triple-quoted string literal (detected at "
                                     "line %d)"
                                   : "unterminated string literal (detected at line %d)",
                            L->line);
    }
    char c = *q;
    if (c == '\\' && q + 1 < L->end) {
      q++;
      if (*q == '\n' || *q == '\r') {
        L->p = q;
        newline(L);
        q = L->p;
      } else {
        q++;
      }
      continue;
    }
    if (c == '\n' || c == '\r') {
      if (!triple) {
        return udf_diag_error(L->dc, NRT_EPARSE, sloc,
                              "unterminated string literal (detected at line %d)", L->line);
      }
      L->p = q;
      newline(L);
      q = L->p;
      continue;
    }
    if (c == quote && (!triple || (q + 2 < L->end && q[1] == quote && q[2] == quote))) break;
    q++;
  }
  const char *bend = q;
  q += triple ? 3 : 1;
  udf_token *t = push(L, UDF_T_STRING, pstart, (size_t)(q - pstart));
  if (!t) return NRT_ENOMEM;
  t->loc = sloc;
  t->is_f = is_f;
  t->is_raw = raw;
  t->body = body;
  t->blen = (size_t)(bend - body);
  t->body_loc = body_loc;
  L->p = q;
  if (!is_f) {
    int rc = udf_lex_decode_string(L->dc, L->a, body, t->blen, raw, sloc, &t->value);
    if (rc) return rc;
  }
  return NRT_OK;
}

/* ---- operators ---- */

static const struct {
  const char *s;
  udf_opk op;
} ops[] = {
    {"**=", UDF_O_DSTAREQ}, {"//=", UDF_O_DSLASHEQ}, {"<<=", UDF_O_LSHIFTEQ},
    {">>=", UDF_O_RSHIFTEQ}, {"...", UDF_O_ELLIPSIS}, {"->", UDF_O_ARROW},
    {":=", UDF_O_WALRUS}, {"**", UDF_O_DSTAR}, {"//", UDF_O_DSLASH}, {"<<", UDF_O_LSHIFT},
    {">>", UDF_O_RSHIFT}, {"==", UDF_O_EQEQ}, {"!=", UDF_O_NOTEQ}, {"<=", UDF_O_LE},
    {">=", UDF_O_GE}, {"+=", UDF_O_PLUSEQ}, {"-=", UDF_O_MINUSEQ}, {"*=", UDF_O_STAREQ},
    {"/=", UDF_O_SLASHEQ}, {"%=", UDF_O_PERCENTEQ}, {"@=", UDF_O_ATEQ},
    {"|=", UDF_O_VBAREQ}, {"^=", UDF_O_CIRCUMEQ}, {"&=", UDF_O_AMPEREQ},
    {"(", UDF_O_LPAR}, {")", UDF_O_RPAR}, {"[", UDF_O_LSQB}, {"]", UDF_O_RSQB},
    {"{", UDF_O_LBRACE}, {"}", UDF_O_RBRACE}, {",", UDF_O_COMMA}, {":", UDF_O_COLON},
    {";", UDF_O_SEMI}, {".", UDF_O_DOT}, {"=", UDF_O_EQUAL}, {"@", UDF_O_AT},
    {"+", UDF_O_PLUS}, {"-", UDF_O_MINUS}, {"*", UDF_O_STAR}, {"/", UDF_O_SLASH},
    {"%", UDF_O_PERCENT}, {"&", UDF_O_AMPER}, {"|", UDF_O_VBAR}, {"^", UDF_O_CIRCUM},
    {"~", UDF_O_TILDE}, {"<", UDF_O_LT}, {">", UDF_O_GT}, {"!", UDF_O_BANG},
};

static int lex_op(lexer *L) {
  const char *q = L->p;
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    size_t n = strlen(ops[i].s);
    if ((size_t)(L->end - q) >= n && memcmp(q, ops[i].s, n) == 0) {
      udf_opk op = ops[i].op;
      if (op == UDF_O_BANG && !L->expr_mode) break;
      char c = *q;
      if (c == '(' || c == '[' || c == '{') {
        if (L->depth >= MAX_BRACKETS)
          return err_at(L, NRT_EPARSE, q, "too many nested parentheses");
        L->brackets[L->depth] = c;
        L->bracket_loc[L->depth] = loc_at(L, q);
        L->depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        int base = L->expr_mode ? 1 : 0;
        if (L->depth <= base) {
          char msg[40];
          snprintf(msg, sizeof msg, "unmatched '%c'", c);
          return err_at(L, NRT_EPARSE, q, msg);
        }
        char open = L->brackets[L->depth - 1];
        char want = open == '(' ? ')' : open == '[' ? ']' : '}';
        if (c != want) {
          udf_loc ol = L->bracket_loc[L->depth - 1];
          if (ol.line != L->line)
            return udf_diag_error(L->dc, NRT_EPARSE, loc_at(L, q),
                                  "closing parenthesis '%c' does not match opening "
                                  "parenthesis '%c' on line %d",
                                  c, open, ol.line);
          return udf_diag_error(L->dc, NRT_EPARSE, loc_at(L, q),
                                "closing parenthesis '%c' does not match opening parenthesis "
                                "'%c'",
                                c, open);
        }
        L->depth--;
      }
      udf_token *t = push(L, UDF_T_OP, q, n);
      if (!t) return NRT_ENOMEM;
      t->op = op;
      L->p = q + n;
      return NRT_OK;
    }
  }
  size_t n;
  uint32_t c = peek_cp(L, q, &n);
  if (c < 0x80 && c >= 0x20 && c != 0x7f) return err_at(L, NRT_EPARSE, q, "invalid syntax");
  if (!nrt_uc_is_printable(c))
    return udf_diag_error(L->dc, NRT_EPARSE, loc_at(L, q),
                          "invalid non-printable character U+%04X", (unsigned)c);
  return udf_diag_error(L->dc, NRT_EPARSE, loc_at(L, q), "invalid character '%.*s' (U+%04X)",
                        (int)n, q, (unsigned)c);
}

/* ---- indentation ---- */

static int lex_indent(lexer *L, bool *blank) {
  int col = 0, alt = 0;
  const char *q = L->p;
  for (; q < L->end; q++) {
    if (*q == ' ') {
      col++;
      alt++;
    } else if (*q == '\t') {
      col = (col / 8 + 1) * 8;
      alt++;
    } else if (*q == '\f') {
      col = alt = 0;
    } else {
      break;
    }
  }
  L->p = q;
  if (q >= L->end || *q == '#' || *q == '\n' || *q == '\r' ||
      (*q == '\\' && q + 1 < L->end && (q[1] == '\n' || q[1] == '\r'))) {
    *blank = true; /* blank, comment-only and continued lines carry no indentation */
    return NRT_OK;
  }
  *blank = false;
  int top = L->indent[L->nindent - 1], alttop = L->altindent[L->nindent - 1];
  if (col == top) {
    if (alt != alttop)
      return err_at(L, NRT_EPARSE, L->line_start,
                    "inconsistent use of tabs and spaces in indentation");
  } else if (col > top) {
    if (alt <= alttop)
      return err_at(L, NRT_EPARSE, L->line_start,
                    "inconsistent use of tabs and spaces in indentation");
    if (L->nindent >= MAX_INDENT) return err_at(L, NRT_EPARSE, q, "too many levels of indentation");
    L->indent[L->nindent] = col;
    L->altindent[L->nindent] = alt;
    L->nindent++;
    if (!push(L, UDF_T_INDENT, q, 0)) return NRT_ENOMEM;
  } else {
    while (L->nindent > 1 && col < L->indent[L->nindent - 1]) {
      L->nindent--;
      if (!push(L, UDF_T_DEDENT, q, 0)) return NRT_ENOMEM;
    }
    if (col != L->indent[L->nindent - 1]) {
      const char *eol = q; /* CPython points at the end of the line */
      while (eol < L->end && *eol != '\n' && *eol != '\r') eol++;
      return err_at(L, NRT_EPARSE, eol, "unindent does not match any outer indentation level");
    }
    if (alt != L->altindent[L->nindent - 1])
      return err_at(L, NRT_EPARSE, L->line_start,
                    "inconsistent use of tabs and spaces in indentation");
  }
  return NRT_OK;
}

static bool string_prefix(const char *s, size_t n, bool *raw, bool *is_f, bool *is_b) {
  *raw = *is_f = *is_b = false;
  if (n > 2) return false;
  bool u = false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == 'r' || c == 'R') {
      if (*raw) return false;
      *raw = true;
    } else if (c == 'f' || c == 'F') {
      if (*is_f) return false;
      *is_f = true;
    } else if (c == 'b' || c == 'B') {
      if (*is_b) return false;
      *is_b = true;
    } else if (c == 'u' || c == 'U') {
      u = true;
    } else {
      return false;
    }
  }
  if (u) return n == 1;
  return !(*is_f && *is_b);
}

int udf_lex(udf_diagctx *dc, udf_arena *a, const char *src, size_t len, udf_loc start,
            bool expr_mode, udf_token **toks, int *ntoks) {
  lexer L;
  memset(&L, 0, sizeof L);
  L.dc = dc;
  L.a = a;
  L.src = L.p = L.line_start = src;
  L.end = src + len;
  L.line = start.line;
  L.start = start;
  L.expr_mode = expr_mode;
  L.nindent = 1;
  L.depth = expr_mode ? 1 : 0;
  bool at_line_start = !expr_mode;
  int rc = NRT_OK;
  int ended = 0; /* tokens before this index have their end location */
  while (rc == NRT_OK) {
    for (; ended < L.n; ended++)
      if (L.toks[ended].end.line == 0) L.toks[ended].end = loc_at(&L, L.p);
    if (at_line_start && L.depth == 0) {
      bool blank;
      rc = lex_indent(&L, &blank);
      if (rc) break;
      at_line_start = false;
      if (blank) {
        if (L.p < L.end && *L.p == '\\') { /* only a line continuation on this line */
          L.p++;
          newline(&L);
          at_line_start = true;
          continue;
        }
        while (L.p < L.end && *L.p != '\n' && *L.p != '\r') L.p++; /* a comment */
        if (L.p >= L.end) break;
        newline(&L);
        at_line_start = true;
        continue;
      }
    }
    while (L.p < L.end && (*L.p == ' ' || *L.p == '\t' || *L.p == '\f')) L.p++;
    if (L.p >= L.end) break;
    char c = *L.p;
    if (c == '#') {
      while (L.p < L.end && *L.p != '\n' && *L.p != '\r') L.p++;
      continue;
    }
    if (c == '\n' || c == '\r') {
      if (L.depth == 0) {
        if (!push(&L, UDF_T_NEWLINE, L.p, 1)) return NRT_ENOMEM;
        at_line_start = true;
      }
      newline(&L);
      continue;
    }
    if (c == '\\') {
      if (L.p + 1 >= L.end) {
        rc = err_at(&L, NRT_EPARSE, L.p, "unexpected EOF while parsing");
        break;
      }
      if (L.p[1] == '\n' || L.p[1] == '\r') {
        L.p++;
        newline(&L);
        if (L.p >= L.end) {
          rc = err_at(&L, NRT_EPARSE, L.p, "unexpected EOF while parsing");
          break;
        }
        continue;
      }
      rc = err_at(&L, NRT_EPARSE, L.p + 1,
                  "unexpected character after line continuation character");
      break;
    }
    size_t n;
    uint32_t cp = peek_cp(&L, L.p, &n);
    if (is_id_start_cp(cp)) {
      const char *s = L.p, *q = L.p + n;
      for (;;) {
        uint32_t d = peek_cp(&L, q, &n);
        if (!n || !is_id_cont_cp(d)) break;
        q += n;
      }
      bool raw, is_f, is_b;
      if (q < L.end && (*q == '\'' || *q == '"') &&
          string_prefix(s, (size_t)(q - s), &raw, &is_f, &is_b)) {
        if (is_b) {
          rc = err_at(&L, NRT_EUNSUPPORTED, s, "unsupported: bytes literals");
          break;
        }
        L.p = q;
        rc = lex_string(&L, s, raw, is_f);
        continue;
      }
      udf_token *t = push(&L, UDF_T_NAME, s, (size_t)(q - s));
      if (!t) return NRT_ENOMEM;
      t->kw = keyword_of(s, (size_t)(q - s));
      L.p = q;
      continue;
    }
    if ((c >= '0' && c <= '9') || (c == '.' && L.p + 1 < L.end && L.p[1] >= '0' && L.p[1] <= '9')) {
      rc = lex_number(&L);
      continue;
    }
    if (c == '\'' || c == '"') {
      rc = lex_string(&L, L.p, false, false);
      continue;
    }
    rc = lex_op(&L);
  }
  if (rc) return rc;
  if (!expr_mode && L.depth > 0)
    return udf_diag_error(dc, NRT_EPARSE, L.bracket_loc[L.depth - 1], "'%c' was never closed",
                          L.brackets[L.depth - 1]);
  if (!expr_mode) {
    if (L.n > 0 && L.toks[L.n - 1].kind != UDF_T_NEWLINE &&
        L.toks[L.n - 1].kind != UDF_T_DEDENT && L.toks[L.n - 1].kind != UDF_T_INDENT) {
      if (!push(&L, UDF_T_NEWLINE, L.p, 0)) return NRT_ENOMEM;
    }
    while (L.nindent > 1) {
      L.nindent--;
      if (!push(&L, UDF_T_DEDENT, L.p, 0)) return NRT_ENOMEM;
    }
  }
  if (!push(&L, UDF_T_END, L.p, 0)) return NRT_ENOMEM;
  *toks = L.toks;
  *ntoks = L.n;
  return NRT_OK;
}
