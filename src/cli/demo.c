/* nrt demo: the seed UDF of DESIGN.md over a built-in multilingual sample (>= 1,000,000 rows
 * made deterministically from Debian's word lists), printing a few results, the compile time,
 * the throughput on one thread and on all cores, and the balanced runtime statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nrt/exec.h"
#include "nrt/udf.h"
#include "nrt/unicode.h"

/* The sample is one utf8 column (at most 2 GiB of text, some 130 million rows). */
#define DEMO_MAX_ROWS 100000000

static const char seed_udf[] =
    "def udf(string):\n"
    "    if len(string) > 2:\n"
    "        result = string.upper()      # new allocation\n"
    "    else:\n"
    "        result = string + string     # new allocation\n"
    "    return result + 'abc'\n";

static const char *const word_lists[] = {"/usr/share/dict/american-english",
                                         "/usr/share/dict/ngerman", "/usr/share/dict/french",
                                         "/usr/share/dict/spanish"};

struct words {
  char *bytes;   /* every word, each followed by a NUL */
  size_t *start; /* offsets of the words */
  size_t n, cap, size, bytes_cap;
};

static int add_word(struct words *w, const char *s, size_t len) {
  if (len == 0 || nrt_utf8_validate(s, len, NULL, NULL) != NRT_OK)
    return 0;
  if (w->n == w->cap) {
    size_t cap = w->cap ? w->cap * 2 : 1 << 16;
    size_t *ns = realloc(w->start, cap * sizeof *ns);
    if (!ns)
      return -1;
    w->start = ns;
    w->cap = cap;
  }
  if (w->size + len + 1 > w->bytes_cap) {
    size_t cap = w->bytes_cap ? w->bytes_cap * 2 : 1 << 20;
    while (cap < w->size + len + 1)
      cap *= 2;
    char *nb = realloc(w->bytes, cap);
    if (!nb)
      return -1;
    w->bytes = nb;
    w->bytes_cap = cap;
  }
  w->start[w->n++] = w->size;
  memcpy(w->bytes + w->size, s, len);
  w->bytes[w->size + len] = 0;
  w->size += len + 1;
  return 0;
}

static int load_words(struct words *w) {
  char line[512];
  for (size_t i = 0; i < sizeof word_lists / sizeof word_lists[0]; i++) {
    FILE *f = fopen(word_lists[i], "r");
    if (!f)
      continue;
    while (fgets(line, sizeof line, f)) {
      size_t len = strcspn(line, "\r\n");
      if (add_word(w, line, len)) {
        fclose(f);
        return -1;
      }
    }
    fclose(f);
  }
  return 0;
}

/* A deterministic generator (64-bit LCG, Knuth's constants). */
static uint64_t next(uint64_t *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return *state >> 33;
}

/* Row i: one to three words joined by a space; every eighth row a short word piece of one or
 * two characters, so both branches of the seed UDF run. */
static nrt_column *make_sample(const struct words *w, int64_t rows, int64_t *bytes) {
  nrt_col_builder *b;
  struct nrt_error err;
  if (nrt_col_builder_new(NRT_COL_UTF8, rows, &b, &err))
    return NULL;
  uint64_t state = 20240611;
  char row[1600];
  *bytes = 0;
  for (int64_t i = 0; i < rows; i++) {
    size_t len = 0;
    if (i % 8 == 7) {
      const char *word = w->bytes + w->start[next(&state) % w->n];
      size_t k = (size_t)(next(&state) % 2) + 1, off = 0;
      for (size_t c = 0; c < k && word[off]; c++) {
        size_t cp;
        nrt_utf8_decode(word + off, strlen(word + off), &cp);
        off += cp;
      }
      memcpy(row, word, off);
      len = off;
    } else {
      int nw = (int)(next(&state) % 3) + 1;
      for (int j = 0; j < nw; j++) {
        const char *word = w->bytes + w->start[next(&state) % w->n];
        size_t wl = strlen(word);
        if (j)
          row[len++] = ' ';
        memcpy(row + len, word, wl);
        len += wl;
      }
    }
    *bytes += (int64_t)len;
    nrt_col_builder_append_view(b, row, (int64_t)len);
  }
  nrt_column *col = NULL;
  if (nrt_col_builder_finish(b, &col, &err)) {
    fprintf(stderr, "nrt demo: building the sample: %s\n", err.message);
    return NULL;
  }
  return col;
}

static void show_row(const nrt_column *in, const nrt_column *out, int64_t i) {
  nrt_str a, b;
  bool na, nb;
  struct nrt_error err;
  if (nrt_col_get_str(in, i, &a, &na, &err) || nrt_col_get_str(out, i, &b, &nb, &err))
    return;
  printf("  %-34.*s -> %.*s\n", (int)a.len, a.data, (int)b.len, b.data);
}

int cli_demo(int argc, char **argv) {
  int64_t rows = 1000000, threads = 0;
  for (int i = 1; i < argc; i++) {
    bool is_rows = strcmp(argv[i], "--rows") == 0;
    if ((is_rows || strcmp(argv[i], "--threads") == 0) && i + 1 < argc) {
      const char *v = argv[++i];
      int64_t max = is_rows ? DEMO_MAX_ROWS : 4096;
      if (!cli_parse_int(v, 1, max, false, is_rows ? &rows : &threads)) {
        fprintf(stderr, "nrt demo: %s needs a number from 1 to %lld, not '%s'\n", argv[i - 1],
                (long long)max, v);
        return CLI_USAGE;
      }
    } else {
      fprintf(stderr, "usage: nrt demo [--rows N] [--threads N]\n");
      return CLI_USAGE;
    }
  }
  struct words w;
  memset(&w, 0, sizeof w);
  if (load_words(&w) || w.n == 0) {
    fprintf(stderr, "nrt demo: no word list found under /usr/share/dict (install wamerican, "
                    "wngerman, wfrench, wspanish)\n");
    free(w.bytes);
    free(w.start);
    return CLI_USAGE;
  }
  int64_t bytes;
  nrt_column *in = make_sample(&w, rows, &bytes);
  size_t nwords = w.n;
  free(w.bytes);
  free(w.start);
  if (!in)
    return CLI_USAGE;
  printf("nrt demo: the seed UDF of DESIGN.md\n\n%s\n", seed_udf);
  printf("input: %lld rows (%.1f MB) from %zu words of Debian's English, German, French and "
         "Spanish word lists\n",
         (long long)rows, (double)bytes / 1e6, nwords);

  struct nrt_error err;
  memset(&err, 0, sizeof err);
  nrt_udf *udf = NULL;
  int rc = nrt_udf_compile(seed_udf, sizeof seed_udf - 1, NULL, &udf, &err);
  if (rc) {
    fprintf(stderr, "nrt demo: %s\n", err.message);
    nrt_col_release(in);
    return CLI_USAGE;
  }
  const struct nrt_udf_compile_info *ci = nrt_udf_info(udf);
  printf("compile: %.1f ms (front end %.2f, IR %.2f, refprune %.2f, optimise %.1f, JIT %.1f); "
         "refcount calls %zu -> %zu after refprune\n",
         ci->compile_ms, ci->front_ms, ci->codegen_ms, ci->prune_ms, ci->optimize_ms,
         ci->jit_ms, ci->refops_before, ci->refops_after);

  /* The write form (the result written straight into the output column) on 1 thread and on
   * all cores, then the value form (a managed result string per row) for comparison; each
   * run's string allocations per row come from the runtime statistics. */
  int cores = nrt_exec_cores();
  int counts[3] = {1, threads ? (int)threads : cores, 1};
  nrt_column *out = NULL;
  int status = CLI_OK;
  for (int k = 0; k < 3 && status == CLI_OK; k++) {
    struct nrt_udf_apply_options ao;
    memset(&ao, 0, sizeof ao);
    ao.threads = counts[k];
    ao.value_form = k == 2;
    nrt_col_release(out);
    out = NULL;
    struct nrt_stats s0, s1;
    nrt_stats_get(&s0);
    double t0 = cli_now_ms();
    rc = nrt_udf_apply(udf, &in, 1, &ao, &out, NULL, &err);
    double ms = cli_now_ms() - t0;
    nrt_stats_get(&s1);
    if (rc) {
      fprintf(stderr, "nrt demo: %s\n", err.message);
      status = CLI_ROW_ERROR;
      break;
    }
    printf("apply, %s form, %d thread%s: %.1f ms, %.2f M rows/s, %.0f MB/s of input, "
           "%.2f strings made per row\n",
           k == 2 ? "value" : "write", counts[k], counts[k] == 1 ? "" : "s", ms,
           (double)rows / ms / 1e3, (double)bytes / ms / 1e3,
           (double)(s1.mi_alloc - s0.mi_alloc) / (double)rows);
  }
  if (status == CLI_OK) {
    printf("\nsome results:\n");
    int64_t picks[6] = {0, 1, 2, 7, rows / 2, rows - 1};
    for (int i = 0; i < 6; i++)
      if (picks[i] < rows)
        show_row(in, out, picks[i]);
  }
  nrt_col_release(out);
  nrt_col_release(in);
  nrt_udf_free(udf);
  printf("\nruntime statistics (every string made was released):\n");
  fflush(stdout);
  struct nrt_stats s;
  nrt_stats_get(&s);
  printf("  alloc: %llu\n  free: %llu\n  mi_alloc: %llu\n  mi_free: %llu\n  balanced: %s\n",
         (unsigned long long)s.alloc, (unsigned long long)s.free,
         (unsigned long long)s.mi_alloc, (unsigned long long)s.mi_free,
         s.alloc == s.free && s.mi_alloc == s.mi_free ? "yes" : "NO");
  return status;
}
