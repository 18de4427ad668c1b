/* Benchmark of the unicode layer and the str case/predicate operations.
 *
 * Two data sets: 10,000 ASCII strings of 1 KB, and 1,000,000 short strings of 0..24
 * characters drawn from ASCII letters, space, é, ü, ß, 漢, 字 (the seed corpus of DESIGN.md).
 * For each operation: MB/s and rows/s, the ratio to memcpy of the same bytes, and the ratio to
 * CPython running the same method over the same data (a /usr/bin/python3 subprocess timing a
 * list comprehension), plus the allocations per row of the managed form.
 *
 *   bench_unicode [python]   (python defaults to /usr/bin/python3; "none" skips CPython) */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nrt/str.h"
#include "nrt/unicode.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct corpus {
  const char *name;
  char *bytes;       /* all strings back to back */
  int64_t *offsets;  /* n + 1 offsets */
  int64_t n;
  int64_t total;
};

static unsigned long long rng = 88172645463325252ull;
static unsigned next_random(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned)(rng >> 11);
}

static void corpus_long(struct corpus *c) {
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,";
  c->name = "10k x 1 KB ASCII";
  c->n = 10000;
  c->total = c->n * 1024;
  c->bytes = malloc((size_t)c->total);
  c->offsets = malloc(sizeof(int64_t) * (size_t)(c->n + 1));
  for (int64_t i = 0; i < c->total; i++)
    c->bytes[i] = alphabet[next_random() % (sizeof alphabet - 1)];
  for (int64_t i = 0; i <= c->n; i++)
    c->offsets[i] = i * 1024;
}

static void corpus_short(struct corpus *c) {
  static const char *const pieces[] = {
      "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r",
      "s", "t", "u", "v", "w", "x", "y", "z", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J",
      "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z", " ",
      "\xc3\xa9", "\xc3\xbc", "\xc3\x9f", "\xe6\xbc\xa2", "\xe5\xad\x97"};
  const size_t npieces = sizeof pieces / sizeof pieces[0];
  c->name = "1M short (seed corpus)";
  c->n = 1000000;
  c->bytes = malloc((size_t)c->n * 24 * 3);
  c->offsets = malloc(sizeof(int64_t) * (size_t)(c->n + 1));
  int64_t pos = 0;
  for (int64_t i = 0; i < c->n; i++) {
    c->offsets[i] = pos;
    unsigned len = next_random() % 25;
    for (unsigned k = 0; k < len; k++) {
      const char *p = pieces[next_random() % npieces];
      size_t l = strlen(p);
      memcpy(c->bytes + pos, p, l);
      pos += (int64_t)l;
    }
  }
  c->offsets[c->n] = pos;
  c->total = pos;
}

enum kind { K_MEMCPY, K_VALIDATE, K_INTO, K_SIZE_INTO, K_MANAGED, K_PRED };

struct op {
  const char *name;
  const char *python; /* expression over s, or NULL */
  enum kind kind;
  int64_t (*size)(const char *, int64_t);
  int64_t (*into)(const char *, int64_t, char *);
  int (*managed)(const nrt_str *, nrt_str *, struct nrt_error *);
  bool (*pred)(const char *, int64_t);
};

static volatile int64_t sink;

/* Seconds for one pass of op over the corpus (best of `trials`); *allocs: allocations/row. */
static double run(const struct op *op, const struct corpus *c, char *out, double *allocs) {
  double best = 1e30;
  struct nrt_stats s0, s1;
  for (int t = 0; t < 5; t++) {
    nrt_stats_get(&s0);
    double t0 = now();
    int64_t acc = 0;
    for (int64_t i = 0; i < c->n; i++) {
      const char *s = c->bytes + c->offsets[i];
      int64_t len = c->offsets[i + 1] - c->offsets[i];
      switch (op->kind) {
      case K_MEMCPY:
        memcpy(out, s, (size_t)len);
        acc += out[0];
        break;
      case K_VALIDATE:
        acc += nrt_utf8_validate(s, (size_t)len, NULL, NULL);
        break;
      case K_INTO:
        acc += op->into(s, len, out);
        break;
      case K_SIZE_INTO:
        acc += op->size(s, len);
        acc += op->into(s, len, out);
        break;
      case K_MANAGED: {
        nrt_str in = nrt_str_view(s, len), r;
        if (op->managed(&in, &r, NULL) == NRT_OK) {
          acc += r.len;
          nrt_str_release(&r);
        }
        break;
      }
      case K_PRED:
        acc += op->pred(s, len);
        break;
      }
    }
    double dt = now() - t0;
    nrt_stats_get(&s1);
    sink = acc;
    if (dt < best)
      best = dt;
  }
  *allocs = (double)(s1.alloc - s0.alloc) / (double)c->n;
  return best;
}

/* Seconds CPython takes for `expr` over every string of the corpus (best of 5), or -1. */
static double python_time(const char *python, const struct corpus *c, const char *expr) {
  if (!python || !expr)
    return -1;
  char path[] = "/tmp/nrt_bench_unicode_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0)
    return -1;
  FILE *f = fdopen(fd, "wb");
  for (int64_t i = 0; i < c->n; i++) {
    fwrite(c->bytes + c->offsets[i], 1, (size_t)(c->offsets[i + 1] - c->offsets[i]), f);
    fputc('\n', f);
  }
  fclose(f);
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "%s -c \"import time,sys\n"
           "d=open('%s',encoding='utf-8').read().split('\\n')[:-1]\n"
           "b=1e9\n"
           "for _ in range(5):\n"
           "  t=time.perf_counter(); r=[%s for s in d]; b=min(b,time.perf_counter()-t)\n"
           "print(b)\"",
           python, path, expr);
  FILE *p = popen(cmd, "r");
  double secs = -1;
  if (p) {
    if (fscanf(p, "%lf", &secs) != 1)
      secs = -1;
    pclose(p);
  }
  remove(path);
  return secs;
}

int main(int argc, char **argv) {
  const char *python = argc > 1 ? argv[1] : "/usr/bin/python3";
  if (strcmp(python, "none") == 0)
    python = NULL;
  static const struct op ops[] = {
      {"memcpy (baseline)", NULL, K_MEMCPY, NULL, NULL, NULL, NULL},
      {"utf8_validate", NULL, K_VALIDATE, NULL, NULL, NULL, NULL},
      {"upper_into", NULL, K_INTO, NULL, nrt_str_upper_into, NULL, NULL},
      {"lower_into", NULL, K_INTO, NULL, nrt_str_lower_into, NULL, NULL},
      {"upper size+into", NULL, K_SIZE_INTO, nrt_str_upper_size, nrt_str_upper_into, NULL, NULL},
      {"upper (managed)", "s.upper()", K_MANAGED, NULL, NULL, nrt_str_upper, NULL},
      {"lower (managed)", "s.lower()", K_MANAGED, NULL, NULL, nrt_str_lower, NULL},
      {"casefold (managed)", "s.casefold()", K_MANAGED, NULL, NULL, nrt_str_casefold, NULL},
      {"title (managed)", "s.title()", K_MANAGED, NULL, NULL, nrt_str_title, NULL},
      {"capitalize (managed)", "s.capitalize()", K_MANAGED, NULL, NULL, nrt_str_capitalize, NULL},
      {"swapcase (managed)", "s.swapcase()", K_MANAGED, NULL, NULL, nrt_str_swapcase, NULL},
      {"isalpha", "s.isalpha()", K_PRED, NULL, NULL, NULL, nrt_str_isalpha},
      {"isupper", "s.isupper()", K_PRED, NULL, NULL, NULL, nrt_str_isupper},
      {"istitle", "s.istitle()", K_PRED, NULL, NULL, NULL, nrt_str_istitle},
      {"isidentifier", "s.isidentifier()", K_PRED, NULL, NULL, NULL, nrt_str_isidentifier},
  };
  struct corpus corpora[2];
  corpus_long(&corpora[0]);
  corpus_short(&corpora[1]);
  char *out = malloc(1024 * 3 + 64);
  for (int ci = 0; ci < 2; ci++) {
    const struct corpus *c = &corpora[ci];
    printf("\n%s: %lld strings, %.1f MB\n", c->name, (long long)c->n, (double)c->total / 1e6);
    printf("%-22s %10s %12s %10s %10s %12s\n", "operation", "MB/s", "Mrows/s", "x memcpy",
           "x CPython", "allocs/row");
    double base = 0, allocs;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
      double t = run(&ops[k], c, out, &allocs);
      if (k == 0)
        base = t;
      double py = python_time(python, c, ops[k].python);
      char pyratio[32] = "-";
      if (py > 0)
        snprintf(pyratio, sizeof pyratio, "%.1f", py / t);
      printf("%-22s %10.0f %12.2f %10.2f %10s %12.2f\n", ops[k].name,
             (double)c->total / t / 1e6, (double)c->n / t / 1e6, base / t, pyratio, allocs);
    }
  }
  free(out);
  for (int ci = 0; ci < 2; ci++) {
    free(corpora[ci].bytes);
    free(corpora[ci].offsets);
  }
  return 0;
}
