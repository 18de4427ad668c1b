/* The UDF benchmark of issue 6.
 *  - compile time of the seed UDF (DESIGN.md) next to Numba's @njit on the same source;
 *  - the seed UDF and six realistic UDFs (parse an int field, normalise names with strip()
 *    and title(), split and join, f-string formatting, a loop over characters, a string built
 *    with += in a loop) over 1,000,000 rows: rows/s on 1 thread and on all cores, next to
 *    CPython, pandas Series.apply and Numba @njit (bench_udf.py, same sources and data, run in
 *    the same run);
 *  - the seed UDF next to the same UDF hand-written in C against the string API (both in
 *    their write forms, which write the result in place, and in their value forms);
 *  - refcount operations executed per row before and after refprune (counting build).
 * The machine may be shared: CPU times (which exclude waiting for a core) are printed next to
 * wall times, and the 1-thread ratios use CPU time.
 * usage: bench_udf [ROWS] [RUNS]   (NRT_BENCH_UDF_ONLY=name,... runs only those rows) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, mkstemp */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nrt/exec.h"
#include "nrt/io.h"
#include "nrt/str.h"
#include "nrt/udf.h"
#include "common/seed_udf.h"

struct udf_case {
  const char *name;
  const char *corpus; /* seed, ints, names, csv, mixed */
  const char *src;
};

static const struct udf_case cases[] = {
    {"seed", "seed",
     "def udf(string):\n    if len(string) > 2:\n        result = string.upper()\n"
     "    else:\n        result = string + string\n    return result + 'abc'\n"},
    {"parse_int", "ints", "def f(s):\n    return int(s) * 2 + 1\n"},
    {"try_int", "mixed",
     "def f(s):\n    try:\n        return int(s) * 2 + 1\n    except ValueError:\n"
     "        return -1\n"},
    {"names", "names", "def f(s):\n    return s.strip().title()\n"},
    {"split_join", "csv", "def f(s):\n    return '-'.join(s.split(','))\n"},
    {"fstring", "seed", "def f(s):\n    return f'{s:>12}|{len(s):04d}'\n"},
    {"str_format", "seed", "def f(s):\n    return '{:>12}|{:04d}'.format(s, len(s))\n"},
    {"percent", "seed", "def f(s):\n    return '%12s|%04d' % (s, len(s))\n"},
    {"percent_keys", "seed",
     "def f(s):\n    return '%(s)12s|%(n)04d' % {'s': s, 'n': len(s)}\n"},
    {"translate", "seed",
     "T = str.maketrans('aeiouAEIOU', 'AEIOUaeiou', ' ')\ndef f(s):\n    return s.translate(T)\n"},
    {"repr_list", "csv", "def f(s):\n    return repr(s.split(','))\n"},
    {"char_loop", "seed",
     "def f(s):\n    n = 0\n    for c in s:\n        if c in 'aeiouAEIOU':\n            n += 1\n"
     "    return n\n"},
    {"build", "seed",
     "def f(s):\n    out = ''\n    for c in s:\n        if c.isalnum():\n"
     "            out += c.lower()\n        elif len(out) > 0 and not out.endswith('-'):\n"
     "            out += '-'\n    return out\n"},
    {"dict_lookup", "names",
     "TABLE = {'Anna': 'A', 'Bob': 'B', 'Émile': 'E', 'Zoë': 'Z', 'Ölaf': 'O', 'Jürgen': 'J'}\n"
     "def f(s):\n    return TABLE.get(s.strip(), s)\n"},
    {"re_sub", "names",
     "import re\ndef f(s):\n    return re.sub(r'[^a-z0-9]+', '-', s.lower()).strip('-')\n"},
    {"re_compiled", "csv",
     "import re\nPAIR = re.compile(r'(\\w+),(\\w+)')\ndef f(s):\n    m = PAIR.search(s)\n"
     "    return m.group(2) + m.group(1) if m else ''\n"},
    {"sort_key", "names", "def f(s):\n    return ' '.join(sorted(s.split(), key=len))\n"},
};
#define NCASES (sizeof cases / sizeof cases[0])

/* ------------------------------------------------------------------ corpora */

static uint64_t rng = 0x2545F4914F6CDD1Du;
static uint64_t next(void) { /* xorshift64* */
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 0x2545F4914F6CDD1Du;
}

static void gen_seed(char *buf, size_t *n) {
  static const char *extra[] = {" ", "é", "ü", "ß", "漢", "字"};
  int chars = (int)(next() % 25);
  for (int k = 0; k < chars; k++) {
    unsigned p = (unsigned)(next() % 58);
    if (p < 52) {
      buf[(*n)++] = (char)(p < 26 ? 'a' + p : 'A' + p - 26);
    } else {
      size_t l = strlen(extra[p - 52]);
      memcpy(buf + *n, extra[p - 52], l);
      *n += l;
    }
  }
}

static void gen_int(char *buf, size_t *n) {
  long long v = (long long)(next() % 2000000001u) - 1000000000;
  *n = (size_t)snprintf(buf, 64, next() % 8 == 0 ? " %lld " : "%lld", v);
}

static void word(char *buf, size_t *n, int minlen, int maxlen, bool random_case) {
  int len = minlen + (int)(next() % (unsigned)(maxlen - minlen + 1));
  for (int i = 0; i < len; i++) {
    char c = (char)('a' + next() % 26);
    if (random_case && next() % 3 == 0)
      c = (char)(c - 'a' + 'A');
    buf[(*n)++] = c;
  }
}

static void gen_name(char *buf, size_t *n) {
  int words = 2 + (int)(next() % 2);
  for (int s = (int)(next() % 3); s > 0; s--)
    buf[(*n)++] = ' ';
  for (int w = 0; w < words; w++) {
    if (w)
      buf[(*n)++] = ' ';
    word(buf, n, 3, 9, true);
  }
  for (int s = (int)(next() % 3); s > 0; s--)
    buf[(*n)++] = ' ';
}

static void gen_csv(char *buf, size_t *n) {
  int fields = 1 + (int)(next() % 6);
  for (int f = 0; f < fields; f++) {
    if (f)
      buf[(*n)++] = ',';
    word(buf, n, 0, 8, false);
  }
}

/* Ints, one row in four a word: a parse that raises and is caught. */
static void gen_mixed(char *buf, size_t *n) {
  if (next() % 4 == 0)
    word(buf, n, 1, 8, true);
  else
    gen_int(buf, n);
}

static nrt_column *make_corpus(const char *kind, int64_t rows) {
  nrt_col_builder *b;
  if (nrt_col_builder_new(NRT_COL_UTF8, rows, &b, NULL))
    return NULL;
  for (int64_t i = 0; i < rows; i++) {
    char buf[256];
    size_t n = 0;
    if (strcmp(kind, "seed") == 0)
      gen_seed(buf, &n);
    else if (strcmp(kind, "ints") == 0)
      gen_int(buf, &n);
    else if (strcmp(kind, "names") == 0)
      gen_name(buf, &n);
    else if (strcmp(kind, "mixed") == 0)
      gen_mixed(buf, &n);
    else
      gen_csv(buf, &n);
    nrt_col_builder_append_view(b, buf, (int64_t)n);
  }
  nrt_column *c = NULL;
  nrt_col_builder_finish(b, &c, NULL);
  return c;
}

/* ------------------------------------------------------------------ timing */

static double clock_ms(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

struct timing {
  double wall, cpu;
};

/* How a timed apply runs: a compiled UDF (its write form for a str result, or its value form
 * with value_form), or a C row function (fn, or the writing wfn). */
struct runner {
  const nrt_udf *udf;
  bool value_form;
  nrt_row_fn fn;
  nrt_row_write_fn wfn;
};

/* Times applies of r over in. */
static struct timing time_apply(struct runner r, nrt_column *in, int threads, int runs) {
  double wall[16], cpu[16];
  if (runs > 16)
    runs = 16;
  for (int k = 0; k < runs; k++) {
    struct nrt_exec_options o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    struct nrt_udf_apply_options uo;
    memset(&uo, 0, sizeof uo);
    uo.threads = threads;
    uo.value_form = r.value_form;
    nrt_column *out = NULL;
    struct nrt_error err;
    double w = clock_ms(CLOCK_MONOTONIC), c = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    int rc = r.udf  ? nrt_udf_apply(r.udf, &in, 1, &uo, &out, NULL, &err)
             : r.fn ? nrt_exec_apply(&in, 1, r.fn, NULL, &o, &out, NULL, &err)
                    : nrt_exec_apply_write(&in, 1, r.wfn, NULL, &o, &out, NULL, &err);
    wall[k] = clock_ms(CLOCK_MONOTONIC) - w;
    cpu[k] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c;
    if (rc)
      fprintf(stderr, "apply failed: %s\n", err.message);
    nrt_col_release(out);
  }
  struct timing t = {median(wall, runs), median(cpu, runs)};
  return t;
}

/* ------------------------------------------------------------------ baselines */

struct base {
  double cpython_wall, cpython_cpu, pandas_wall, pandas_cpu, numba_wall, numba_cpu, numba_compile;
};

static void run_baselines(const char *spec, int runs, struct base *b) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s %s %d", NRT_BENCH_UDF_PY, spec, runs);
  FILE *p = popen(cmd, "r");
  if (!p)
    return;
  char line[512];
  while (fgets(line, sizeof line, p)) {
    if (line[0] == '#') {
      fputs(line, stdout);
      continue;
    }
    char name[64], what[64];
    double w, c;
    if (sscanf(line, "%63s %63s %lf %lf", name, what, &w, &c) != 4)
      continue;
    for (size_t i = 0; i < NCASES; i++) {
      if (strcmp(name, cases[i].name) != 0)
        continue;
      if (strcmp(what, "cpython") == 0) {
        b[i].cpython_wall = w;
        b[i].cpython_cpu = c;
      } else if (strcmp(what, "pandas") == 0) {
        b[i].pandas_wall = w;
        b[i].pandas_cpu = c;
      } else if (strcmp(what, "numba") == 0) {
        b[i].numba_wall = w;
        b[i].numba_cpu = c;
      } else if (strcmp(what, "numba_compile") == 0) {
        b[i].numba_compile = w;
      }
    }
  }
  pclose(p);
}

static double rate(int64_t rows, double ms) { return ms > 0 ? (double)rows / ms * 1e3 : 0; }

/* NRT_BENCH_UDF_ONLY=name,name,... runs only those rows (and the seed, which the summary
 * uses). */
static bool selected(const char *name) {
  const char *only = getenv("NRT_BENCH_UDF_ONLY");
  if (!only || !*only || strcmp(name, "seed") == 0)
    return true;
  size_t n = strlen(name);
  for (const char *p = only; (p = strstr(p, name)) != NULL; p += n)
    if ((p == only || p[-1] == ',') && (p[n] == ',' || p[n] == 0))
      return true;
  return false;
}

int main(int argc, char **argv) {
  int64_t rows = argc > 1 ? atoll(argv[1]) : 1000000;
  int runs = argc > 2 ? atoi(argv[2]) : 3;
  if (rows < 1000 || runs < 1) {
    fprintf(stderr, "usage: bench_udf [ROWS >= 1000] [RUNS >= 1]\n");
    return 2;
  }
  int cores = nrt_exec_cores();
  static const char *const corpora[] = {"seed", "ints", "names", "csv", "mixed"};
  enum { NCORPORA = sizeof corpora / sizeof corpora[0] };
  nrt_column *col[NCORPORA];
  char paths[NCORPORA][64];
  char spec[] = "/tmp/nrt_bench_udf_spec_XXXXXX";
  int sfd = mkstemp(spec);
  FILE *sf = sfd >= 0 ? fdopen(sfd, "w") : NULL;
  if (!sf) {
    fprintf(stderr, "bench_udf: cannot create a temporary file\n");
    return 1;
  }
  for (int k = 0; k < NCORPORA; k++) {
    col[k] = make_corpus(corpora[k], rows);
    snprintf(paths[k], sizeof paths[k], "/tmp/nrt_bench_udf_%s_XXXXXX", corpora[k]);
    int fd = mkstemp(paths[k]);
    if (!col[k] || fd < 0 || nrt_io_write_path(paths[k], col[k], NULL, NULL)) {
      fprintf(stderr, "bench_udf: cannot make the %s corpus\n", corpora[k]);
      return 1;
    }
    close(fd);
  }
  for (size_t i = 0; i < NCASES; i++) {
    int k = 0;
    if (!selected(cases[i].name))
      continue;
    while (strcmp(corpora[k], cases[i].corpus) != 0)
      k++;
    fprintf(sf, "%s\t%s\t", cases[i].name, paths[k]);
    for (const char *p = cases[i].src; *p; p++)
      fputs(*p == '\n' ? "\\n" : (char[2]){*p, 0}, sf);
    fputc('\n', sf);
  }
  fclose(sf);

  printf("bench_udf: %lld rows per corpus, %d runs (medians), %d cores\n", (long long)rows, runs,
         cores);
  printf("running the CPython / pandas / Numba baselines (same sources, same data)...\n");
  fflush(stdout);
  struct base base[NCASES];
  memset(base, 0, sizeof base);
  run_baselines(spec, runs, base);

  struct row {
    double compile_cpu, compile_wall;
    struct timing t1, tn, value1; /* value1: the value form on 1 thread (str results) */
    double refops_naive, refops_pruned;
  } r[NCASES];
  memset(r, 0, sizeof r);
  for (size_t i = 0; i < NCASES; i++) {
    int k = 0;
    if (!selected(cases[i].name))
      continue;
    while (strcmp(corpora[k], cases[i].corpus) != 0)
      k++;
    double cw[5], cc[5];
    nrt_udf *u = NULL;
    struct nrt_error err;
    for (int n = 0; n < 5; n++) {
      nrt_udf_free(u);
      u = NULL;
      double w = clock_ms(CLOCK_MONOTONIC), c = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
      if (nrt_udf_compile(cases[i].src, strlen(cases[i].src), NULL, &u, &err)) {
        fprintf(stderr, "%s: %s\n", cases[i].name, err.message);
        return 1;
      }
      cw[n] = clock_ms(CLOCK_MONOTONIC) - w;
      cc[n] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c;
    }
    r[i].compile_wall = median(cw, 5);
    r[i].compile_cpu = median(cc, 5);
    r[i].t1 = time_apply((struct runner){u, false, NULL, NULL}, col[k], 1, runs);
    r[i].tn = time_apply((struct runner){u, false, NULL, NULL}, col[k], cores, runs);
    if (nrt_udf_write_function(u))
      r[i].value1 = time_apply((struct runner){u, true, NULL, NULL}, col[k], 1, runs);
    nrt_udf_free(u);
    /* Refcount operations per row of the value form (the write form of a str result makes no
     * string): counting wrappers, naive IR vs pruned IR. */
    int64_t nrows = rows < 100000 ? rows : 100000;
    nrt_column *part = NULL;
    nrt_col_slice(col[k], 0, nrows, &part, NULL);
    for (int prune = 0; prune < 2 && part; prune++) {
      struct nrt_udf_options o;
      memset(&o, 0, sizeof o);
      o.nparams = 1;
      o.count_refops = true;
      o.no_prune = !prune;
      nrt_udf *cu = NULL;
      if (nrt_udf_compile(cases[i].src, strlen(cases[i].src), &o, &cu, &err))
        break;
      nrt_udf_refops_reset();
      struct nrt_udf_apply_options ao;
      memset(&ao, 0, sizeof ao);
      ao.threads = 1;
      ao.value_form = true;
      nrt_column *out = NULL;
      nrt_udf_apply(cu, &part, 1, &ao, &out, NULL, &err);
      double per_row = (double)nrt_udf_refops_executed() / (double)nrows;
      if (prune)
        r[i].refops_pruned = per_row;
      else
        r[i].refops_naive = per_row;
      nrt_col_release(out);
      nrt_udf_free(cu);
    }
    nrt_col_release(part);
  }
  struct timing c1 = time_apply((struct runner){NULL, false, seed_udf, NULL}, col[0], 1, runs);
  struct timing cw1 =
      time_apply((struct runner){NULL, false, NULL, seed_write}, col[0], 1, runs);
  struct timing cwn =
      time_apply((struct runner){NULL, false, NULL, seed_write}, col[0], cores, runs);

  printf("\ncompile time of the seed UDF: nrt %.1f ms CPU (%.1f ms wall); Numba @njit %.0f ms "
         "(%.0fx); target <= 50 ms\n",
         r[0].compile_cpu, r[0].compile_wall, base[0].numba_compile,
         r[0].compile_cpu > 0 ? base[0].numba_compile / r[0].compile_cpu : 0);
  printf("\nthroughput in M rows/s (1 thread: CPU time; %d threads: wall time); ratios are nrt "
         "1 thread / baseline (CPU time)\n",
         cores);
  printf("(a str result is written in place: the write form; \"value 1T\": the value form, a "
         "managed result string per row; refops/row: the value form's, naive -> pruned)\n");
  printf("%-11s %8s %8s %8s %8s %8s %8s %8s %9s %9s %9s %13s\n", "udf", "compile", "nrt 1T",
         "nrt NT", "value 1T", "CPython", "pandas", "Numba", "xCPython", "xpandas", "xNumba",
         "refops/row");
  for (size_t i = 0; i < NCASES; i++) {
    if (!selected(cases[i].name))
      continue;
    double n1 = rate(rows, r[i].t1.cpu), nn = rate(rows, r[i].tn.wall);
    double py = rate(rows, base[i].cpython_cpu), pd = rate(rows, base[i].pandas_cpu),
           nb = base[i].numba_cpu > 0 ? rate(rows, base[i].numba_cpu) : 0;
    printf("%-11s %6.1fms %8.2f %8.2f ", cases[i].name, r[i].compile_cpu, n1 / 1e6, nn / 1e6);
    if (r[i].value1.cpu > 0)
      printf("%8.2f ", rate(rows, r[i].value1.cpu) / 1e6);
    else
      printf("%8s ", "-");
    printf("%8.2f %8.2f ", py / 1e6, pd / 1e6);
    if (nb > 0)
      printf("%8.2f ", nb / 1e6);
    else
      printf("%8s ", "n/a");
    printf("%8.1fx %8.1fx ", py > 0 ? n1 / py : 0, pd > 0 ? n1 / pd : 0);
    if (nb > 0)
      printf("%8.1fx ", n1 / nb);
    else
      printf("%9s ", "n/a");
    printf("%5.2f -> %4.2f\n", r[i].refops_naive, r[i].refops_pruned);
  }
  printf("\nseed UDF compiled by nrt vs hand-written in C against the string API:\n");
  printf("  1 thread, write forms: nrt %.1f ms CPU, C %.1f ms CPU: nrt/C = %.2fx (target <= "
         "1.3x)\n",
         r[0].t1.cpu, cw1.cpu, cw1.cpu > 0 ? r[0].t1.cpu / cw1.cpu : 0);
  printf("  1 thread, value forms: nrt %.1f ms CPU, C %.1f ms CPU: nrt/C = %.2fx\n",
         r[0].value1.cpu, c1.cpu, c1.cpu > 0 ? r[0].value1.cpu / c1.cpu : 0);
  printf("  %d threads, write forms: nrt %.1f ms wall, C %.1f ms wall: nrt/C = %.2fx\n", cores,
         r[0].tn.wall, cwn.wall, cwn.wall > 0 ? r[0].tn.wall / cwn.wall : 0);
  printf("  wall times, 1 thread: nrt %.1f ms, C %.1f ms, CPython %.1f ms, pandas %.1f ms, "
         "Numba %.1f ms\n",
         r[0].t1.wall, cw1.wall, base[0].cpython_wall, base[0].pandas_wall,
         base[0].numba_wall);
  struct nrt_stats s;
  for (int k = 0; k < NCORPORA; k++) {
    nrt_col_release(col[k]);
    unlink(paths[k]);
  }
  unlink(spec);
  nrt_stats_get(&s);
  printf("\nruntime statistics after everything: alloc %llu free %llu mi_alloc %llu mi_free %llu "
         "(%s)\n",
         (unsigned long long)s.alloc, (unsigned long long)s.free,
         (unsigned long long)s.mi_alloc, (unsigned long long)s.mi_free,
         s.alloc == s.free && s.mi_alloc == s.mi_free ? "balanced" : "NOT balanced");
  return 0;
}
