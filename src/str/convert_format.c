/* format(int, spec) and format(float, spec): CPython 3.11's format-spec mini-language
 * (Python/formatter_unicode.c), C locale (no grouping for 'n', '.' as decimal point). */
#include "str/convert_internal.h"

#include "nrt/unicode.h"

#include <math.h>

/* ------------------------------------------------------------------ parsing */

static bool is_align(uint32_t c) {
  return c == '<' || c == '>' || c == '=' || c == '^';
}

static bool is_sign(uint32_t c) {
  return c == ' ' || c == '+' || c == '-';
}

/* The spec as code points, read one at a time. */
struct spec_reader {
  const char *s;
  int64_t len;
  int64_t pos;
};

static uint32_t at(const struct spec_reader *r, int64_t ahead) {
  int64_t pos = r->pos;
  int k;
  uint32_t cp = 0;
  for (int64_t i = 0; i <= ahead; i++) {
    if (pos >= r->len)
      return 0xFFFFFFFFu;
    cp = nrt_u8_dec(r->s + pos, &k);
    pos += k;
  }
  return cp;
}

static void skip(struct spec_reader *r) {
  int k;
  nrt_u8_dec(r->s + r->pos, &k);
  r->pos += k;
}

static bool at_end(const struct spec_reader *r) {
  return r->pos >= r->len;
}

/* get_integer: Unicode decimal digits; -1 on overflow of Py_ssize_t. */
static int get_integer(struct spec_reader *r, int64_t *result) {
  int64_t acc = 0;
  int digits = 0;
  while (!at_end(r)) {
    int d = nrt_uc_decimal_value(at(r, 0));
    if (d < 0)
      break;
    if (acc > (INT64_MAX - d) / 10)
      return -1;
    acc = acc * 10 + d;
    skip(r);
    digits++;
  }
  *result = acc;
  return digits;
}

/* "Cannot specify ',' with 'x'." / "Unknown format code 'q' ..." print the code as %c when
 * it is a printable ASCII character, else as \x%x. */
static void code_text(uint32_t type, char *buf, size_t cap) {
  if (type > 32 && type < 128)
    snprintf(buf, cap, "%c", (char)type);
  else
    snprintf(buf, cap, "\\x%x", (unsigned)type);
}

static const char *type_name(enum nrt_format_kind kind) {
  return kind == NRT_FORMAT_FLOAT ? "float" : "int";
}

int nrt_format_spec_parse(const char *spec, int64_t len, enum nrt_format_kind kind,
                          nrt_format_spec *f, struct nrt_error *err) {
  struct spec_reader r = {spec ? spec : "", len, 0};
  bool align_specified = false, fill_specified = false;
  uint32_t type = 0;
  memset(f, 0, sizeof *f);
  f->fill = ' ';
  f->align = '>';
  f->width = -1;
  f->precision = -1;
  f->empty = len == 0;
  if (len == 0)
    return NRT_OK;

  if (is_align(at(&r, 1))) {
    f->fill = at(&r, 0);
    f->align = (char)at(&r, 1);
    fill_specified = align_specified = true;
    skip(&r);
    skip(&r);
  } else if (is_align(at(&r, 0))) {
    f->align = (char)at(&r, 0);
    align_specified = true;
    skip(&r);
  }
  if (is_sign(at(&r, 0))) {
    f->sign = (char)at(&r, 0);
    skip(&r);
  }
  if (at(&r, 0) == 'z') {
    f->no_neg_0 = true;
    skip(&r);
  }
  if (at(&r, 0) == '#') {
    f->alternate = true;
    skip(&r);
  }
  if (!fill_specified && at(&r, 0) == '0') {
    f->fill = '0';
    if (!align_specified)
      f->align = '=';
    skip(&r);
  }
  int consumed = get_integer(&r, &f->width);
  if (consumed < 0)
    return nrt_error_set(err, NRT_EVALUE, "Too many decimal digits in format string");
  if (consumed == 0)
    f->width = -1;
  if (at(&r, 0) == ',') {
    f->thousands = ',';
    skip(&r);
  }
  if (at(&r, 0) == '_') {
    if (f->thousands)
      return nrt_error_set(err, NRT_EVALUE, "Cannot specify both ',' and '_'.");
    f->thousands = '_';
    skip(&r);
  }
  if (at(&r, 0) == ',' && f->thousands == '_')
    return nrt_error_set(err, NRT_EVALUE, "Cannot specify both ',' and '_'.");
  if (at(&r, 0) == '.') {
    skip(&r);
    consumed = get_integer(&r, &f->precision);
    if (consumed < 0)
      return nrt_error_set(err, NRT_EVALUE, "Too many decimal digits in format string");
    if (consumed == 0)
      return nrt_error_set(err, NRT_EVALUE, "Format specifier missing precision");
  }
  if (!at_end(&r) && at(&r, 1) != 0xFFFFFFFFu) {
    /* The spec is quoted raw, as CPython does. A NUL in it ends the message there, as it
     * ends Python's message seen as a C string. */
    const char *nul = (const char *)memchr(spec, '\0', (size_t)len);
    if (nul)
      return nrt_error_set(err, NRT_EVALUE, "Invalid format specifier '%s", spec);
    int64_t n = len;
    if (n > 400) { /* keep the message within NRT_ERROR_MESSAGE_SIZE, at a character edge */
      n = 400;
      while (n > 0 && !nrt_u8_is_lead((unsigned char)spec[n]))
        n--;
    }
    return nrt_error_set(err, NRT_EVALUE, "Invalid format specifier '%.*s' for object of type '%s'",
                         (int)n, spec, type_name(kind));
  }
  bool has_type = !at_end(&r);
  if (has_type)
    type = at(&r, 0);
  /* A NUL type code is "no type" to CPython's C switches, except that int's switch has
   * no case for it (format_int_or_long: unknown code '\x0'). */
  bool nul_type = has_type && type == 0;

  char code[16];
  code_text(type, code, sizeof code);
  if (f->thousands) {
    switch (type) {
    case 'd': case 'e': case 'f': case 'g': case 'E': case 'G': case '%': case 'F': case 0:
      break;
    case 'b': case 'o': case 'x': case 'X':
      if (f->thousands == '_')
        break;
      /* fall through */
    default:
      return nrt_error_set(err, NRT_EVALUE, "Cannot specify '%c' with '%s'.", f->thousands,
                           code);
    }
  }

  /* What format_long_internal / format_float_internal check before the value. */
  bool float_type = type == 'e' || type == 'E' || type == 'f' || type == 'F' || type == 'g' ||
                    type == 'G' || type == '%';
  if (kind == NRT_FORMAT_INT) {
    bool int_type = (type == 0 && !nul_type) || type == 'b' || type == 'c' || type == 'd' || type == 'o' ||
                    type == 'x' || type == 'X' || type == 'n';
    if (!int_type && !float_type)
      return nrt_error_set(err, NRT_EVALUE, "Unknown format code '%s' for object of type 'int'",
                           code);
    if (int_type) {
      if (f->precision != -1)
        return nrt_error_set(err, NRT_EVALUE, "Precision not allowed in integer format specifier");
      if (f->no_neg_0)
        return nrt_error_set(err, NRT_EVALUE,
                             "Negative zero coercion (z) not allowed in integer format specifier");
      if (type == 'c' && f->sign)
        return nrt_error_set(err, NRT_EVALUE, "Sign not allowed with integer format specifier 'c'");
      if (type == 'c' && f->alternate)
        return nrt_error_set(err, NRT_EVALUE,
                             "Alternate form (#) not allowed with integer format specifier 'c'");
    }
  } else if (!(type == 0 || type == 'n' || float_type)) {
    return nrt_error_set(err, NRT_EVALUE, "Unknown format code '%s' for object of type 'float'",
                         code);
  }
  if ((kind == NRT_FORMAT_FLOAT || float_type) && f->precision > 2147483647)
    return nrt_error_set(err, NRT_EVALUE, "precision too big");
  f->type = (char)type;
  return NRT_OK;
}

/* ------------------------------------------------------------------ number layout */

/* calc_number_widths + fill_number: [lpad][sign][prefix][spad][grouped digits][.][rest][rpad].
 * digits are ASCII; rest is ASCII except for the 'c' character. */
struct number {
  char sign;           /* '-' when negative, else 0 */
  const char *prefix;  /* "0x" ... */
  int64_t n_prefix;
  const char *digits;
  int64_t n_digits;
  bool has_decimal;
  const char *rest;      /* bytes after the decimal point (or after the digits) */
  int64_t n_rest_bytes;
  int64_t n_rest_chars;  /* in code points, zeros and tail included */
  bool upper;            /* 'X': upper-case prefix and digits */
  int64_t rest_zeros;    /* zeros after rest */
  const char *tail;      /* then these bytes (an exponent, '%') */
  int64_t n_tail;
};

/* Grouping as _PyUnicode_InsertThousandsGrouping: groups of `group` (0: none) filled from the
 * right with digits, then zeros up to min_width. Returns the positions (digits and zeros)
 * and the character count including separators. */
static int64_t grouped_positions(int64_t n_digits, int64_t min_width, int group,
                                 int64_t *count) {
  int64_t remaining = n_digits, positions = 0, cnt = 0;
  bool use_sep = false;
  if (min_width < 0)
    min_width = 0;
  if (group > 0) {
    for (;;) {
      int64_t l = remaining > min_width ? remaining : min_width;
      if (l < 1)
        l = 1;
      if (l > group)
        l = group;
      int64_t n_chars = remaining < l ? remaining : l;
      if (n_chars < 0)
        n_chars = 0;
      cnt += (use_sep ? 1 : 0) + l;
      positions += l;
      use_sep = true;
      remaining -= n_chars;
      min_width -= l;
      if (remaining <= 0 && min_width <= 0)
        break;
      min_width -= 1;
    }
  } else {
    int64_t l = remaining > min_width ? remaining : min_width;
    if (l < 1)
      l = 1;
    positions = cnt = l;
  }
  *count = cnt;
  return positions;
}

/* Where `padding` fill characters go for alignment f->align: left of everything, between
 * the sign (and prefix) and the digits ('='), or right. */
static void split_padding(const nrt_format_spec *f, int64_t padding, int64_t *lpad,
                          int64_t *spad, int64_t *rpad) {
  *lpad = *spad = *rpad = 0;
  if (padding <= 0)
    return;
  switch (f->align) {
  case '<': *rpad = padding; break;
  case '^': *lpad = padding / 2; *rpad = padding - *lpad; break;
  case '=': *spad = padding; break;
  default: *lpad = padding; break;
  }
}

static char upper_ascii(char c) {
  return c >= 'a' && c <= 'z' ? (char)(c - 32) : c;
}

static void emit_number(struct nrt_cw *w, const nrt_format_spec *f, const struct number *num) {
  char sign = 0;
  if (f->sign == '+')
    sign = num->sign == '-' ? '-' : '+';
  else if (f->sign == ' ')
    sign = num->sign == '-' ? '-' : ' ';
  else if (num->sign == '-')
    sign = '-';
  int64_t n_sign = sign ? 1 : 0;
  int64_t n_decimal = num->has_decimal ? 1 : 0;
  int64_t non_digit = n_sign + num->n_prefix + n_decimal + num->n_rest_chars;
  int64_t min_width = f->fill == '0' && f->align == '=' ? f->width - non_digit : 0;
  int group = f->thousands == ',' ? 3 : f->thousands == '_' ? (f->type == 'b' || f->type == 'o' || f->type == 'x' || f->type == 'X' ? 4 : 3) : 0;
  int64_t grouped = 0, positions = 0;
  if (num->n_digits > 0)
    positions = grouped_positions(num->n_digits, min_width, group, &grouped);
  int64_t lpad, spad, rpad;
  split_padding(f, f->width - (non_digit + grouped), &lpad, &spad, &rpad);
  nrt_cw_fill(w, f->fill, lpad);
  if (sign)
    nrt_cw_char(w, sign);
  for (int64_t i = 0; i < num->n_prefix; i++)
    nrt_cw_char(w, num->upper ? upper_ascii(num->prefix[i]) : num->prefix[i]);
  nrt_cw_fill(w, f->fill, spad);
  if (num->n_digits > 0 && group == 0) { /* leading zeros in bulk: a width can be huge */
    nrt_cw_fill(w, '0', positions - num->n_digits);
    for (int64_t i = 0; i < num->n_digits; i++)
      nrt_cw_char(w, num->upper ? upper_ascii(num->digits[i]) : num->digits[i]);
  } else if (num->n_digits > 0) {
    int64_t zeros = positions - num->n_digits;
    for (int64_t pos = 0; pos < positions; pos++) {
      if (pos > 0 && group > 0 && (positions - pos) % group == 0)
        nrt_cw_char(w, f->thousands);
      char ch = pos < zeros ? '0' : num->digits[pos - zeros];
      nrt_cw_char(w, num->upper ? upper_ascii(ch) : ch);
    }
  }
  if (num->has_decimal)
    nrt_cw_char(w, '.');
  nrt_cw_bytes(w, num->rest, num->n_rest_bytes);
  nrt_cw_fill(w, '0', num->rest_zeros);
  nrt_cw_bytes(w, num->tail, num->n_tail);
  nrt_cw_fill(w, f->fill, rpad);
}

/* ------------------------------------------------------------------ floats */

static void format_float(struct nrt_cw *w, double v, const nrt_format_spec *f) {
  char type = f->type;
  int64_t precision = f->precision;
  struct nrt_conv_float_flags flags = {false, f->alternate, f->no_neg_0, false, false};
  int64_t default_precision = 6;
  bool add_pct = false;
  if (type == 0) {
    flags.add_dot_0 = true;
    type = 'r';
    default_precision = 0;
  }
  if (type == 'n')
    type = 'g';
  if (type == '%') {
    type = 'f';
    v *= 100;
    add_pct = true;
  }
  if (precision < 0)
    precision = default_precision;
  else if (type == 'r')
    type = 'g';
  if (type == 'E' || type == 'F' || type == 'G') {
    flags.upper = true;
    type = (char)(type + 32);
  }

  /* The plain text of the number, then its layout. The text is short except for 'f' of a
   * large value or a large precision, so it is produced twice (size, then bytes) only when
   * a width or grouping needs the layout. */
  bool simple = f->sign != '+' && f->sign != ' ' && f->width == -1 && f->type != 'n' &&
                !f->thousands;
  if (simple) {
    nrt_conv_double_to_string(w, v, type, precision, &flags);
    if (add_pct)
      nrt_cw_char(w, '%');
    return;
  }
  /* The text is rendered on the stack, then laid out. Only a huge precision makes it long,
   * and then its tail is zeros: render with a capped precision and add the zeros back
   * before the exponent (or at the end). The cap is past every nonzero digit a double has
   * (767 significant, 1074 after the point), so the capped text differs only by them. */
  int64_t extra_zeros = 0;
  int64_t cap = type == 'f' ? 1080 : 800;
  if ((type == 'f' || type == 'e' || (type == 'g' && flags.alt)) && precision > cap) {
    extra_zeros = precision - cap;
    precision = cap;
  }
  char text[2048];
  struct nrt_cw t = {text, 0};
  nrt_conv_double_to_string(&t, v, type, precision, &flags);
  struct number num = {0, "", 0, NULL, 0, false, NULL, 0, 0, false, 0, "", 0};
  int64_t i = 0;
  if (text[0] == '-') {
    num.sign = '-';
    i = 1;
  }
  int64_t d0 = i;
  while (i < t.n && text[i] >= '0' && text[i] <= '9')
    i++;
  num.digits = text + d0;
  num.n_digits = i - d0;
  if (i < t.n && text[i] == '.') {
    num.has_decimal = true;
    i++;
  }
  int64_t e = i;
  while (e < t.n && text[e] != 'e' && text[e] != 'E')
    e++;
  num.rest = text + i;
  num.n_rest_bytes = e - i;
  num.rest_zeros = extra_zeros;
  num.tail = text + e;
  num.n_tail = t.n - e;
  if (add_pct)
    text[t.n++] = '%', num.n_tail++;
  num.n_rest_chars = num.n_rest_bytes + num.rest_zeros + num.n_tail;
  emit_number(w, f, &num);
}

/* ------------------------------------------------------------------ ints */

/* 'd' without grouping (`{n}`, `{n:5}`, `{n:05d}`, `{n:+}`): emit_number's layout in one
 * pass. A zero fill with '=' alignment pads between sign and digits, which is where
 * emit_number's minimum width puts its zeros when there is no separator to place. */
static void format_decimal(struct nrt_cw *w, int64_t v, const nrt_format_spec *f) {
  char text[NRT_STR_INT64_MAX_BYTES];
  int64_t n = nrt_str_from_int64_into(v, text), n_sign = v < 0 ? 1 : 0; /* str(v) */
  char sign = v < 0 ? '-' : f->sign == '+' ? '+' : f->sign == ' ' ? ' ' : 0;
  int64_t lpad, spad, rpad;
  split_padding(f, f->width - (n - n_sign + (sign ? 1 : 0)), &lpad, &spad, &rpad);
  nrt_cw_fill(w, f->fill, lpad);
  if (sign)
    nrt_cw_char(w, sign);
  nrt_cw_fill(w, f->fill, spad);
  nrt_cw_bytes(w, text + n_sign, n - n_sign);
  nrt_cw_fill(w, f->fill, rpad);
}

static int format_int(struct nrt_cw *w, int64_t v, const nrt_format_spec *f,
                      struct nrt_error *err) {
  char type = f->type ? f->type : 'd';
  if (type == 'd' && !f->thousands) {
    format_decimal(w, v, f);
    return NRT_OK;
  }
  switch (type) {
  case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case '%':
    format_float(w, (double)v, f);
    return NRT_OK;
  default:
    break;
  }
  struct number num = {0, "", 0, NULL, 0, false, "", 0, 0, type == 'X', 0, "", 0};
  char chr[4];
  if (type == 'c') {
    if (v < 0 || v > 0x10FFFF)
      return nrt_error_set(err, NRT_EOVERFLOW, "%%c arg not in range(0x110000)");
    if (v >= 0xD800 && v <= 0xDFFF)
      return nrt_error_set(err, NRT_EVALUE,
                           "format code 'c': U+%04llX is a surrogate, which nrt strings "
                           "(UTF-8) cannot hold",
                           (unsigned long long)v);
    num.rest = chr;
    num.n_rest_bytes = nrt_u8_enc((uint32_t)v, chr);
    num.n_rest_chars = 1;
    emit_number(w, f, &num);
    return NRT_OK;
  }
  int base = type == 'b' ? 2 : type == 'o' ? 8 : type == 'x' || type == 'X' ? 16 : 10;
  static const char digit_chars[] = "0123456789abcdef";
  char buf[72];
  int i = (int)sizeof buf;
  uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do {
    buf[--i] = digit_chars[m % (uint64_t)base];
    m /= (uint64_t)base;
  } while (m);
  num.sign = v < 0 ? '-' : 0;
  num.digits = buf + i;
  num.n_digits = (int64_t)sizeof buf - i;
  if (f->alternate && base != 10) {
    num.prefix = base == 2 ? "0b" : base == 8 ? "0o" : "0x";
    num.n_prefix = 2;
  }
  emit_number(w, f, &num);
  return NRT_OK;
}

/* ------------------------------------------------------------------ public entry points */

int nrt_str_format_int_size(int64_t v, const nrt_format_spec *spec, int64_t *size,
                            struct nrt_error *err) {
  struct nrt_cw w = {NULL, 0};
  if (spec->empty) {
    *size = nrt_str_from_int64_size(v);
    return NRT_OK;
  }
  int rc = format_int(&w, v, spec, err);
  if (rc == NRT_OK)
    *size = w.n;
  return rc;
}

int64_t nrt_str_format_int_into(int64_t v, const nrt_format_spec *spec, char *out) {
  if (spec->empty)
    return nrt_str_from_int64_into(v, out);
  struct nrt_cw w = {out, 0};
  if (format_int(&w, v, spec, NULL) != NRT_OK)
    return 0;
  return w.n;
}

int64_t nrt_str_format_float_size(double v, const nrt_format_spec *spec) {
  if (spec->empty)
    return nrt_str_from_double_size(v);
  struct nrt_cw w = {NULL, 0};
  format_float(&w, v, spec);
  return w.n;
}

int64_t nrt_str_format_float_into(double v, const nrt_format_spec *spec, char *out) {
  if (spec->empty)
    return nrt_str_from_double_into(v, out);
  struct nrt_cw w = {out, 0};
  format_float(&w, v, spec);
  return w.n;
}

/* One allocation of the exact size, filled by the kernel. */
static int finish(int64_t size, nrt_str *out, struct nrt_error *err, int64_t v_int,
                  double v_float, const nrt_format_spec *f, bool is_float) {
  char *bytes;
  if (size > NRT_STR_MAX_LEN)
    return nrt_error_set(err, NRT_ENOMEM, "formatted string of %lld bytes is too large",
                         (long long)size);
  if (size <= 1) {
    char tmp[4];
    int64_t n = is_float ? nrt_str_format_float_into(v_float, f, tmp)
                         : nrt_str_format_int_into(v_int, f, tmp);
    return nrt_str_make(tmp, n, out, err);
  }
  int rc = nrt_str_alloc(size, out, &bytes, err);
  if (rc != NRT_OK)
    return rc;
  if (is_float)
    nrt_str_format_float_into(v_float, f, bytes);
  else
    nrt_str_format_int_into(v_int, f, bytes);
  return NRT_OK;
}

int nrt_str_format_int(int64_t v, const char *spec, int64_t spec_len, nrt_str *out,
                       struct nrt_error *err) {
  nrt_format_spec f;
  int64_t size;
  *out = nrt_str_empty();
  int rc = nrt_format_spec_parse(spec, spec_len, NRT_FORMAT_INT, &f, err);
  if (rc == NRT_OK)
    rc = nrt_str_format_int_size(v, &f, &size, err);
  if (rc != NRT_OK)
    return rc;
  return finish(size, out, err, v, 0.0, &f, false);
}

int nrt_str_format_float(double v, const char *spec, int64_t spec_len, nrt_str *out,
                         struct nrt_error *err) {
  nrt_format_spec f;
  *out = nrt_str_empty();
  int rc = nrt_format_spec_parse(spec, spec_len, NRT_FORMAT_FLOAT, &f, err);
  if (rc != NRT_OK)
    return rc;
  return finish(nrt_str_format_float_size(v, &f), out, err, 0, v, &f, true);
}
