/* center, ljust, rjust, zfill, expandtabs, removeprefix, removesuffix (CPython 3.11's
 * Objects/unicodeobject.c: pad(), unicode_center_impl, unicode_zfill_impl,
 * unicode_expandtabs_impl, unicode_removeprefix_impl). */
#include "str/convert_internal.h"
#include "str/str_copy.h"

int nrt_str_fillchar(const char *fill, int64_t fill_len, uint32_t *cp, struct nrt_error *err) {
  int k = 0;
  if (fill_len > 0)
    *cp = nrt_u8_dec(fill, &k);
  if (fill_len <= 0 || k != fill_len)
    return nrt_error_set(err, NRT_ETYPE, "The fill character must be exactly one character long");
  return NRT_OK;
}

/* Bytes of s padded with left + right copies of fill; -1 when that overflows int64. */
static int64_t pad_size(int64_t len, int64_t left, int64_t right, uint32_t fill) {
  char enc[4];
  int64_t k = nrt_u8_enc(fill, enc);
  int64_t pads = left + right; /* each <= width, which is an int64 */
  if (pads < 0 || pads > (INT64_MAX - len) / k)
    return -1;
  return len + pads * k;
}

static int64_t pad_into(const char *s, int64_t len, int64_t left, int64_t right, uint32_t fill,
                        char *out) {
  struct nrt_cw w = {out, 0};
  nrt_cw_fill(&w, fill, left);
  nrt_cw_bytes(&w, s, len);
  nrt_cw_fill(&w, fill, right);
  return w.n;
}

/* The pads of each operation: none when width <= len(s). */
enum pad_kind { PAD_CENTER, PAD_LJUST, PAD_RJUST };

static void pads(const char *s, int64_t len, int64_t width, enum pad_kind kind, int64_t *left,
                 int64_t *right) {
  *left = *right = 0;
  if (width <= 0 || width <= len / 4) /* a code point has at most 4 bytes */
    return;
  int64_t n = nrt_str_len(s, len);
  if (n >= width)
    return;
  int64_t marg = width - n;
  switch (kind) {
  case PAD_CENTER:
    *left = marg / 2 + (marg & width & 1);
    *right = marg - *left;
    break;
  case PAD_LJUST:
    *right = marg;
    break;
  case PAD_RJUST:
    *left = marg;
    break;
  }
}

static int64_t kind_size(const char *s, int64_t len, int64_t width, uint32_t fill,
                         enum pad_kind kind) {
  int64_t l, r;
  pads(s, len, width, kind, &l, &r);
  return pad_size(len, l, r, fill);
}

static int64_t kind_into(const char *s, int64_t len, int64_t width, uint32_t fill,
                         enum pad_kind kind, char *out) {
  int64_t l, r;
  pads(s, len, width, kind, &l, &r);
  return pad_into(s, len, l, r, fill, out);
}

int64_t nrt_str_center_size(const char *s, int64_t len, int64_t width, uint32_t fill) {
  return kind_size(s, len, width, fill, PAD_CENTER);
}
int64_t nrt_str_center_into(const char *s, int64_t len, int64_t width, uint32_t fill,
                            char *out) {
  return kind_into(s, len, width, fill, PAD_CENTER, out);
}
int64_t nrt_str_ljust_size(const char *s, int64_t len, int64_t width, uint32_t fill) {
  return kind_size(s, len, width, fill, PAD_LJUST);
}
int64_t nrt_str_ljust_into(const char *s, int64_t len, int64_t width, uint32_t fill,
                           char *out) {
  return kind_into(s, len, width, fill, PAD_LJUST, out);
}
int64_t nrt_str_rjust_size(const char *s, int64_t len, int64_t width, uint32_t fill) {
  return kind_size(s, len, width, fill, PAD_RJUST);
}
int64_t nrt_str_rjust_into(const char *s, int64_t len, int64_t width, uint32_t fill,
                           char *out) {
  return kind_into(s, len, width, fill, PAD_RJUST, out);
}

int64_t nrt_str_zfill_size(const char *s, int64_t len, int64_t width) {
  return kind_size(s, len, width, '0', PAD_RJUST);
}

int64_t nrt_str_zfill_into(const char *s, int64_t len, int64_t width, char *out) {
  int64_t l, r;
  pads(s, len, width, PAD_RJUST, &l, &r);
  int64_t n = pad_into(s, len, l, 0, '0', out);
  /* A sign that ended up after the zeros moves to the front. */
  if (l > 0 && (out[l] == '+' || out[l] == '-')) {
    out[0] = out[l];
    out[l] = '0';
  }
  return n;
}

/* expandtabs: one pass that counts (out == NULL) or writes. -1 on int64 overflow. */
static int64_t expand(const char *s, int64_t len, int64_t tabsize, char *out) {
  int64_t j = 0, line_pos = 0;
  for (int64_t i = 0; i < len;) {
    unsigned char b = (unsigned char)s[i];
    if (b == '\t') {
      i++;
      if (tabsize > 0) {
        int64_t incr = tabsize - (line_pos % tabsize);
        if (j > INT64_MAX - incr)
          return -1;
        if (out)
          memset(out + j, ' ', (size_t)incr);
        line_pos += incr;
        j += incr;
      }
      continue;
    }
    int k = b < 0x80 ? 1 : nrt_u8_seqlen(b);
    if (out)
      memcpy(out + j, s + i, (size_t)k);
    j += k;
    i += k;
    line_pos++;
    if (b == '\n' || b == '\r')
      line_pos = 0;
  }
  return j;
}

int64_t nrt_str_expandtabs_size(const char *s, int64_t len, int64_t tabsize) {
  return expand(s, len, tabsize, NULL);
}

int64_t nrt_str_expandtabs_into(const char *s, int64_t len, int64_t tabsize, char *out) {
  return expand(s, len, tabsize, out);
}

int64_t nrt_str_removeprefix_size(const char *s, int64_t len, const char *prefix,
                                  int64_t prefix_len) {
  if (prefix_len > 0 && prefix_len <= len && memcmp(s, prefix, (size_t)prefix_len) == 0)
    return len - prefix_len;
  return len;
}

int64_t nrt_str_removesuffix_size(const char *s, int64_t len, const char *suffix,
                                  int64_t suffix_len) {
  if (suffix_len > 0 && suffix_len <= len &&
      memcmp(s + len - suffix_len, suffix, (size_t)suffix_len) == 0)
    return len - suffix_len;
  return len;
}

/* ------------------------------------------------------------------ managed forms */

static int same(const nrt_str *s, nrt_str *out) {
  nrt_str_copy(out, s);
  nrt_str_retain(out);
  return NRT_OK;
}

/* One allocation of `size` bytes filled by the kernel `fill_fn`. */
typedef int64_t (*into_fn)(const nrt_str *s, int64_t arg, uint32_t fill, char *out);

static int build(const nrt_str *s, int64_t size, int64_t arg, uint32_t fill, into_fn fn,
                 bool padding, nrt_str *out, struct nrt_error *err) {
  if (size < 0)
    return nrt_error_set(err, NRT_EOVERFLOW, "%s",
                         padding ? "padded string is too long" : "result too long");
  if (padding && size == s->len) /* padding only adds: same size means no change */
    return same(s, out);
  char *bytes;
  int rc = nrt_str_alloc(size, out, &bytes, err);
  if (rc != NRT_OK)
    return rc;
  fn(s, arg, fill, bytes);
  return NRT_OK;
}

static int64_t center_fn(const nrt_str *s, int64_t w, uint32_t fill, char *out) {
  return nrt_str_center_into(s->data, s->len, w, fill, out);
}
static int64_t ljust_fn(const nrt_str *s, int64_t w, uint32_t fill, char *out) {
  return nrt_str_ljust_into(s->data, s->len, w, fill, out);
}
static int64_t rjust_fn(const nrt_str *s, int64_t w, uint32_t fill, char *out) {
  return nrt_str_rjust_into(s->data, s->len, w, fill, out);
}
static int64_t zfill_fn(const nrt_str *s, int64_t w, uint32_t fill, char *out) {
  (void)fill;
  return nrt_str_zfill_into(s->data, s->len, w, out);
}
static int64_t expand_fn(const nrt_str *s, int64_t t, uint32_t fill, char *out) {
  (void)fill;
  return nrt_str_expandtabs_into(s->data, s->len, t, out);
}

/* Results up to this many bytes with an ASCII fill are built by pad_short. */
#define PAD_SHORT_MAX 64

/* The managed s padded with left and right copies of the ASCII character fill, the result at
 * most PAD_SHORT_MAX bytes: the fill stored over the whole result as eight clamped, overlapping
 * words, then s copied over its place: the lengths need no measuring pass and no library call
 * (memset and memcpy calls cost more than these bytes). */
static int pad_short(const nrt_str *s, int64_t left, int64_t right, char fill, nrt_str *out,
                     char **bytes, struct nrt_error *err) {
  int64_t size = s->len + left + right;
  const char *src = s->data; /* read before the allocation: out may be s */
  int64_t len = s->len;
  char *p;
  int rc = nrt_str_alloc_nonempty(size, out, &p, err);
  if (rc != NRT_OK)
    return rc;
  if (size >= 8) {
    uint64_t pattern = 0x0101010101010101ULL * (unsigned char)fill;
    int64_t last = size - 8;
    for (int64_t o = 0; o < PAD_SHORT_MAX; o += 8)
      memcpy(p + (o < last ? o : last), &pattern, 8);
  } else {
    for (int64_t i = 0; i < size; i++)
      p[i] = fill;
  }
  nrt_copy_short(p + left, src, len);
  *bytes = p;
  return NRT_OK;
}

static int justify(const nrt_str *s, int64_t width, const nrt_str *fill, enum pad_kind kind,
                   nrt_str *out, struct nrt_error *err) {
  uint32_t cp = ' ';
  *out = nrt_str_empty();
  if (fill) {
    int rc = nrt_str_fillchar(fill->data, fill->len, &cp, err);
    if (rc != NRT_OK)
      return rc;
  }
  if (cp < 0x80 && s->len <= NRT_SHORT_MAX && width <= PAD_SHORT_MAX) {
    int64_t l, r;
    pads(s->data, s->len, width, kind, &l, &r);
    if (l + r == 0)
      return same(s, out);
    if (s->len + l + r <= PAD_SHORT_MAX) {
      char *bytes;
      return pad_short(s, l, r, (char)cp, out, &bytes, err);
    }
  }
  int64_t size = kind_size(s->data, s->len, width, cp, kind);
  into_fn fn = kind == PAD_CENTER ? center_fn : kind == PAD_LJUST ? ljust_fn : rjust_fn;
  return build(s, size, width, cp, fn, true, out, err);
}

int nrt_str_center(const nrt_str *s, int64_t width, const nrt_str *fill, nrt_str *out,
                   struct nrt_error *err) {
  return justify(s, width, fill, PAD_CENTER, out, err);
}

int nrt_str_ljust(const nrt_str *s, int64_t width, const nrt_str *fill, nrt_str *out,
                  struct nrt_error *err) {
  return justify(s, width, fill, PAD_LJUST, out, err);
}

int nrt_str_rjust(const nrt_str *s, int64_t width, const nrt_str *fill, nrt_str *out,
                  struct nrt_error *err) {
  return justify(s, width, fill, PAD_RJUST, out, err);
}

int nrt_str_zfill(const nrt_str *s, int64_t width, nrt_str *out, struct nrt_error *err) {
  *out = nrt_str_empty();
  if (s->len <= NRT_SHORT_MAX && width <= PAD_SHORT_MAX) {
    int64_t l, r;
    pads(s->data, s->len, width, PAD_RJUST, &l, &r);
    if (l == 0)
      return same(s, out);
    if (s->len + l <= PAD_SHORT_MAX) {
      char *p;
      int rc = pad_short(s, l, 0, '0', out, &p, err);
      if (rc == NRT_OK && (p[l] == '+' || p[l] == '-')) { /* the sign moves to the front */
        p[0] = p[l];
        p[l] = '0';
      }
      return rc;
    }
  }
  return build(s, nrt_str_zfill_size(s->data, s->len, width), width, '0', zfill_fn,
               true, out, err);
}

int nrt_str_expandtabs(const nrt_str *s, int64_t tabsize, nrt_str *out, struct nrt_error *err) {
  *out = nrt_str_empty();
  if (tabsize < INT32_MIN || tabsize > INT32_MAX) /* expandtabs() takes a C int */
    return nrt_error_set(err, NRT_EOVERFLOW, "Python int too large to convert to C int");
  if (s->len == 0 || !memchr(s->data, '\t', (size_t)s->len))
    return same(s, out);
  return build(s, nrt_str_expandtabs_size(s->data, s->len, tabsize), tabsize, ' ', expand_fn,
               false, out, err);
}

int nrt_str_removeprefix(const nrt_str *s, const nrt_str *prefix, nrt_str *out,
                         struct nrt_error *err) {
  int64_t n = nrt_str_removeprefix_size(s->data, s->len, prefix->data, prefix->len);
  if (n == s->len)
    return same(s, out);
  return nrt_str_make(s->data + s->len - n, n, out, err);
}

int nrt_str_removesuffix(const nrt_str *s, const nrt_str *suffix, nrt_str *out,
                         struct nrt_error *err) {
  int64_t n = nrt_str_removesuffix_size(s->data, s->len, suffix->data, suffix->len);
  if (n == s->len)
    return same(s, out);
  return nrt_str_make(s->data, n, out, err);
}
