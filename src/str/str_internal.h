/* Internal helpers shared by the str layer's files: the managed-string payload and inline
 * UTF-8 stepping over valid input. Not part of the public API. */
#ifndef NRT_STR_INTERNAL_H
#define NRT_STR_INTERNAL_H

#include "nrt/str.h"
#include "unicode/uc_lookup.h"
#include "str/str_alloc.h"

#include <string.h>

#define NRT_STR_HIDDEN __attribute__((visibility("hidden")))

/* The payload of a managed string's MemInfo: the byte length, then the bytes and a NUL. */
struct nrt_str_payload {
  int64_t len;
  char bytes[];
};

/* Largest byte length of a string (keeps every size computation below SIZE_MAX / 2). */
#define NRT_STR_MAX_LEN ((int64_t)(INT64_MAX / 4))

/* Byte length of the UTF-8 sequence whose lead byte is b (valid input). */
static inline int nrt_u8_seqlen(unsigned char b) {
  return b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
}

/* True for a byte that starts a code point (not 10xxxxxx). */
static inline int nrt_u8_is_lead(unsigned char b) {
  return (b & 0xC0) != 0x80;
}

/* Decodes the code point at p (valid UTF-8) and advances *n by its byte length. */
static inline uint32_t nrt_u8_dec(const char *p, int *n) {
  const unsigned char *u = (const unsigned char *)p;
  unsigned char b = u[0];
  if (b < 0x80) {
    *n = 1;
    return b;
  }
  if (b < 0xE0) {
    *n = 2;
    return ((uint32_t)(b & 0x1F) << 6) | (u[1] & 0x3F);
  }
  if (b < 0xF0) {
    *n = 3;
    return ((uint32_t)(b & 0x0F) << 12) | ((uint32_t)(u[1] & 0x3F) << 6) | (u[2] & 0x3F);
  }
  *n = 4;
  return ((uint32_t)(b & 0x07) << 18) | ((uint32_t)(u[1] & 0x3F) << 12) |
         ((uint32_t)(u[2] & 0x3F) << 6) | (u[3] & 0x3F);
}

/* Decodes the code point ending at s + end (valid UTF-8, end > 0); *n = its byte length. */
static inline uint32_t nrt_u8_dec_back(const char *s, int64_t end, int *n) {
  int64_t i = end - 1;
  while (i > 0 && !nrt_u8_is_lead((unsigned char)s[i]))
    i--;
  uint32_t cp = nrt_u8_dec(s + i, n);
  return cp;
}

/* Encodes cp into out (room for 4); returns the byte count. */
static inline int nrt_u8_enc(uint32_t cp, char *out) {
  return nrt_uc_encode_utf8(cp, out);
}


/* Hands the result of an operation back: the input itself (retained) when the result covers
 * all of it, else a new string copied from r[0..rlen). */
NRT_STR_HIDDEN int nrt_str_result_sub(const nrt_str *in, const char *r, int64_t rlen,
                                      nrt_str *out, struct nrt_error *err);

/* Python's str.isspace for one code point (ASCII inline, the rest via nrt_uc_is_space). */
NRT_STR_HIDDEN bool nrt_str_is_space_cp(uint32_t cp);

/* Each ASCII character c followed by a NUL at [2c], [2c+1]: the static one-character
 * strings handed out as borrowed views. */
extern NRT_STR_HIDDEN const char nrt_str_ascii_table[256];

/* The one-character strings U+0080..U+07FF: 2 bytes and a NUL each, from U+0080. */
extern NRT_STR_HIDDEN const char nrt_str_two_byte_table[3 * 1920];

/* A string with the bytes r[0..rlen): the empty view, a static one-character view (every
 * code point below U+0800), or a new managed copy. */
static inline int nrt_str_make(const char *r, int64_t rlen, nrt_str *out,
                               struct nrt_error *err) {
  if (rlen == 1 && (unsigned char)r[0] < 0x80) {
    out->mi = NULL;
    out->data = &nrt_str_ascii_table[2 * (unsigned char)r[0]];
    out->len = 1;
    return NRT_OK;
  }
  if (rlen == 2 && ((unsigned char)r[0] & 0xE0) == 0xC0) { /* one 2-byte code point */
    uint32_t cp = ((uint32_t)((unsigned char)r[0] & 0x1F) << 6) | ((unsigned char)r[1] & 0x3F);
    out->mi = NULL;
    out->data = &nrt_str_two_byte_table[3 * (cp - 0x80)];
    out->len = 2;
    return NRT_OK;
  }
  return nrt_str_new(r, rlen, out, err);
}

/* Loads 8 bytes from p (any alignment). */
static inline uint64_t nrt_load64(const char *p) {
  uint64_t w;
  memcpy(&w, p, 8);
  return w;
}

#define NRT_HIGH_BITS 0x8080808080808080ULL

/* Number of code points that start in the 8 bytes of w. */
static inline int nrt_word_leads(uint64_t w) {
  uint64_t cont = (w & ~(w << 1) & NRT_HIGH_BITS) >> 7; /* 1 in each byte 10xxxxxx */
  /* Horizontal byte sum by multiplication (portable; no popcount instruction needed). */
  return 8 - (int)((cont * 0x0101010101010101ULL) >> 56);
}

/* True when some byte of w is below n (n <= 128) or is not ASCII: the word may hold a
 * whitespace or line-boundary character (all ASCII ones are below 0x21). */
static inline bool nrt_word_maybe_special(uint64_t w, unsigned n) {
  uint64_t below = (w - 0x0101010101010101ULL * n) & ~w & NRT_HIGH_BITS;
  return (below | (w & NRT_HIGH_BITS)) != 0;
}

/* Byte offset of code point number idx of s (len if idx >= the count). */
NRT_STR_HIDDEN int64_t nrt_str_cp_offset(const char *s, int64_t len, int64_t idx);

/* First / last occurrence of sub[0..sublen) in hay[0..hlen) (bytes), or NULL. An empty sub
 * is found at the start / at the end. */
NRT_STR_HIDDEN const char *nrt_str_find_bytes(const char *hay, int64_t hlen, const char *sub,
                                              int64_t sublen);
NRT_STR_HIDDEN const char *nrt_str_rfind_bytes(const char *hay, int64_t hlen, const char *sub,
                                               int64_t sublen);

/* The selection s[start:end] of the search methods (Python's ADJUST_INDICES): byte range
 * [b0, b1), code point index c0 of b0. Returns false when start is beyond end (nothing to
 * search, not even the empty string). */
struct nrt_str_span {
  int64_t b0, b1; /* byte range */
  int64_t c0, c1; /* code point range */
};
NRT_STR_HIDDEN bool nrt_str_adjust(const char *s, int64_t len, int64_t start, int64_t end,
                                   struct nrt_str_span *sp);

/* The words of s.split() for a short s (at most NRT_SHORT_MAX bytes) whose whitespace is all
 * ASCII: bit i of *word set when byte i is not whitespace (a word is a run of set bits);
 * *ascii when no byte is >= 0x80 (every word's len() is its byte count); bytes (unless NULL,
 * NRT_SHORT_MAX + 8 bytes) receives s zero-padded. Returns false (nothing set) for a longer s
 * or one that may hold non-ASCII whitespace. str_split.c */
NRT_STR_HIDDEN bool nrt_str_split_ws_short_masks(const char *s, int64_t n, uint64_t *word,
                                                 bool *ascii, unsigned char *bytes);

#endif
