/* bench_str: every str operation over 1,000,000 short strings of the DESIGN.md seed corpus
 * (0-24 characters from ASCII letters, space, é, ü, ß, 漢, 字; fixed seed) and over 10,000
 * ASCII strings of 1 KB, next to CPython calling the same method over the same data (a
 * /usr/bin/python3 subprocess timing a loop, bench_str.py) and next to memcpy of the same
 * bytes. Prints ns/row, rows/s, MB/s, the ratio to CPython, the ratio to memcpy and the
 * allocations per new string from the runtime statistics.
 * Usage: bench_str [SHORT_ROWS] [LONG_ROWS] [OPS] (defaults 1000000, 10000, all). OPS: a
 * list of operation names separated by "|" to run alone, without the CPython baseline (for
 * profiling one operation, e.g. under callgrind); LONG_ROWS 0 skips the 1 KB corpus. */
#define _POSIX_C_SOURCE 200809L /* popen, clock_gettime */
#include "nrt/str.h"
#include "nrt/str_convert.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: robust on a shared machine */
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rng(void) { /* xorshift64*: fixed seed, same corpus every run */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}

struct corpus {
  const char *name;
  char *bytes;
  nrt_str *rows;
  int64_t n, total;
};

static const char *const SEED_ALPHABET[] = {
    "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r",
    "s", "t", "u", "v", "w", "x", "y", "z", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J",
    "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z", " ",
    "\xc3\xa9", "\xc3\xbc", "\xc3\x9f", "\xe6\xbc\xa2", "\xe5\xad\x97"};

static void make_corpus(struct corpus *c, const char *name, int64_t n, int min_cp, int max_cp,
                        int alphabet) {
  c->name = name;
  c->n = n;
  c->bytes = malloc((size_t)n * (size_t)max_cp * 3 + 1);
  c->rows = malloc(sizeof(nrt_str) * (size_t)n);
  char *w = c->bytes;
  for (int64_t i = 0; i < n; i++) {
    int len = min_cp + (int)(rng() % (uint64_t)(max_cp - min_cp + 1));
    char *start = w;
    for (int k = 0; k < len; k++) {
      const char *ch = SEED_ALPHABET[rng() % (uint64_t)alphabet];
      size_t l = strlen(ch);
      memcpy(w, ch, l);
      w += l;
    }
    c->rows[i] = nrt_str_view(start, w - start);
  }
  c->total = w - c->bytes;
}

/* One operation: fills *r (string), *l (list) or returns an int. */
struct result {
  nrt_str s;
  nrt_str_list *l;
};
typedef int64_t (*op_fn)(const nrt_str *s, const nrt_str *u, struct result *r);

static const nrt_str A = {NULL, "a", 1}, AB = {NULL, "ab", 2}, SP = {NULL, " ", 1},
                     XY = {NULL, "xy", 2}, DASH = {NULL, "-", 1};

#define STR_OP(name, call)                                                    \
  static int64_t op_##name(const nrt_str *s, const nrt_str *u, struct result *r) { \
    (void)u;                                                                  \
    (void)r;                                                                  \
    return call;                                                              \
  }
STR_OP(nothing, s->len) /* the loop's own cost, on both sides */
STR_OP(len, nrt_str_len(s->data, s->len))
STR_OP(eq, nrt_str_eq(s->data, s->len, u->data, u->len))
STR_OP(lt, nrt_str_compare(s->data, s->len, u->data, u->len) < 0)
STR_OP(contains, nrt_str_contains(s->data, s->len, "ab", 2))
STR_OP(find, nrt_str_find(s->data, s->len, "a", 1, NRT_STR_NONE, NRT_STR_NONE))
STR_OP(rfind, nrt_str_rfind(s->data, s->len, "a", 1, NRT_STR_NONE, NRT_STR_NONE))
STR_OP(find_ab, nrt_str_find(s->data, s->len, "ab", 2, 2, -2))
STR_OP(count, nrt_str_count(s->data, s->len, "a", 1, NRT_STR_NONE, NRT_STR_NONE))
STR_OP(startswith, nrt_str_startswith(s->data, s->len, "ab", 2, NRT_STR_NONE, NRT_STR_NONE))
STR_OP(endswith, nrt_str_endswith(s->data, s->len, "ab", 2, NRT_STR_NONE, NRT_STR_NONE))
STR_OP(isalpha, nrt_str_isalpha(s->data, s->len))
STR_OP(isspace, nrt_str_isspace(s->data, s->len))
STR_OP(isupper, nrt_str_isupper(s->data, s->len))
STR_OP(istitle, nrt_str_istitle(s->data, s->len))
STR_OP(isascii, nrt_str_isascii(s->data, s->len))
STR_OP(isidentifier, nrt_str_isidentifier(s->data, s->len))
STR_OP(concat, nrt_str_concat(s, u, &r->s, NULL))
STR_OP(repeat, nrt_str_repeat(s, 3, &r->s, NULL))
STR_OP(getitem, s->len ? nrt_str_getitem(s, -1, &r->s, NULL) : 0)
STR_OP(slice, nrt_str_slice(s, 1, -1, NRT_STR_NONE, &r->s, NULL))
STR_OP(reverse, nrt_str_slice(s, NRT_STR_NONE, NRT_STR_NONE, -1, &r->s, NULL))
STR_OP(upper, nrt_str_upper(s, &r->s, NULL))
STR_OP(lower, nrt_str_lower(s, &r->s, NULL))
STR_OP(casefold, nrt_str_casefold(s, &r->s, NULL))
STR_OP(capitalize, nrt_str_capitalize(s, &r->s, NULL))
STR_OP(title, nrt_str_title(s, &r->s, NULL))
STR_OP(swapcase, nrt_str_swapcase(s, &r->s, NULL))
STR_OP(replace, nrt_str_replace(s, &A, &XY, -1, &r->s, NULL))
STR_OP(strip, nrt_str_strip(s, NULL, &r->s, NULL))
STR_OP(strip_chars, nrt_str_strip(s, &AB, &r->s, NULL))
STR_OP(rstrip, nrt_str_rstrip(s, NULL, &r->s, NULL))
STR_OP(split, nrt_str_split(s, NULL, -1, &r->l, NULL))
STR_OP(split_sep, nrt_str_split(s, &SP, -1, &r->l, NULL))
STR_OP(rsplit1, nrt_str_rsplit(s, NULL, 1, &r->l, NULL))
STR_OP(splitlines, nrt_str_splitlines(s, false, &r->l, NULL))
STR_OP(partition, nrt_str_partition(s, &SP, &r->l, NULL))
STR_OP(center, nrt_str_center(s, 30, NULL, &r->s, NULL))
STR_OP(zfill, nrt_str_zfill(s, 30, &r->s, NULL))
STR_OP(removeprefix, nrt_str_removeprefix(s, &A, &r->s, NULL))

/* join: over lists made (untimed) by s.split() for every row. */
static nrt_str_list **join_lists;
static const nrt_str *join_rows;
static int64_t op_join(const nrt_str *s, const nrt_str *u, struct result *r) {
  (void)u;
  return nrt_str_join(&DASH, join_lists[s - join_rows], &r->s, NULL);
}

struct op {
  const char *name;
  op_fn fn;
  const char *python; /* the same operation in Python, over s (and u, the next string) */
};

static const struct op OPS[] = {
    {"(loop only)", op_nothing, "s"},
    {"len", op_len, "len(s)"},
    {"eq", op_eq, "s == u"},
    {"lt", op_lt, "s < u"},
    {"in", op_contains, "'ab' in s"},
    {"find", op_find, "s.find('a')"},
    {"rfind", op_rfind, "s.rfind('a')"},
    {"find(ab,2,-2)", op_find_ab, "s.find('ab', 2, -2)"},
    {"count", op_count, "s.count('a')"},
    {"startswith", op_startswith, "s.startswith('ab')"},
    {"endswith", op_endswith, "s.endswith('ab')"},
    {"isalpha", op_isalpha, "s.isalpha()"},
    {"isspace", op_isspace, "s.isspace()"},
    {"isupper", op_isupper, "s.isupper()"},
    {"istitle", op_istitle, "s.istitle()"},
    {"isascii", op_isascii, "s.isascii()"},
    {"isidentifier", op_isidentifier, "s.isidentifier()"},
    {"concat", op_concat, "s + u"},
    {"repeat*3", op_repeat, "s * 3"},
    {"s[-1]", op_getitem, "s[-1] if s else 0"},
    {"s[1:-1]", op_slice, "s[1:-1]"},
    {"s[::-1]", op_reverse, "s[::-1]"},
    {"upper", op_upper, "s.upper()"},
    {"lower", op_lower, "s.lower()"},
    {"casefold", op_casefold, "s.casefold()"},
    {"capitalize", op_capitalize, "s.capitalize()"},
    {"title", op_title, "s.title()"},
    {"swapcase", op_swapcase, "s.swapcase()"},
    {"replace", op_replace, "s.replace('a', 'xy')"},
    {"strip", op_strip, "s.strip()"},
    {"strip(ab)", op_strip_chars, "s.strip('ab')"},
    {"rstrip", op_rstrip, "s.rstrip()"},
    {"split", op_split, "s.split()"},
    {"split(' ')", op_split_sep, "s.split(' ')"},
    {"rsplit(None,1)", op_rsplit1, "s.rsplit(None, 1)"},
    {"splitlines", op_splitlines, "s.splitlines()"},
    {"partition", op_partition, "s.partition(' ')"},
    {"'-'.join(list)", op_join, "'-'.join(w)"},
    {"center(30)", op_center, "s.center(30)"},
    {"zfill(30)", op_zfill, "s.zfill(30)"},
    {"removeprefix", op_removeprefix, "s.removeprefix('a')"},
};
enum { NOPS = sizeof OPS / sizeof OPS[0] };

static int64_t sink;

/* The OPS argument, or NULL for every operation with the CPython baseline. */
static const char *only_ops;

/* True when operation `name` is selected by only_ops (an exact item of the list). */
static bool selected(const char *name) {
  if (!only_ops)
    return true;
  size_t n = strlen(name);
  for (const char *p = only_ops; *p;) {
    const char *e = strchr(p, '|');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (l == n && memcmp(p, name, n) == 0)
      return true;
    if (!e)
      break;
    p = e + 1;
  }
  return false;
}

/* Runs op over the corpus `reps` times; returns the best seconds. Counts new managed strings
 * (results with a MemInfo, list elements included, lists themselves counted separately). */
static double run_op(const struct op *op, const struct corpus *c, int reps, int64_t *new_strings,
                     int64_t *new_lists, uint64_t *allocs) {
  double best = 1e30;
  for (int rep = 0; rep < reps; rep++) {
    struct nrt_stats st0, st1;
    nrt_stats_get(&st0);
    int64_t ns = 0, nl = 0;
    double t0 = now();
    for (int64_t i = 0; i < c->n; i++) {
      struct result r = {{NULL, NULL, 0}, NULL};
      sink += op->fn(&c->rows[i], &c->rows[i + 1 < c->n ? i + 1 : 0], &r);
      /* new = a managed result nobody else holds (an input returned retained is shared) */
      if (r.s.mi) {
        ns += r.s.mi->refct == 1;
        nrt_str_release(&r.s);
      }
      if (r.l) {
        nl++;
        for (int64_t k = 0; k < r.l->len; k++)
          ns += r.l->items[k].mi != NULL && r.l->items[k].mi->refct == 1;
        nrt_str_list_release(r.l);
      }
    }
    double t = now() - t0;
    nrt_stats_get(&st1);
    if (t < best)
      best = t;
    *new_strings = ns;
    *new_lists = nl;
    *allocs = st1.alloc - st0.alloc;
  }
  return best;
}

static double memcpy_time(const struct corpus *c, int reps) {
  char *dst = malloc((size_t)c->total + 64);
  double best = 1e30;
  for (int rep = 0; rep < reps; rep++) {
    double t0 = now();
    char *w = dst;
    for (int64_t i = 0; i < c->n; i++) {
      memcpy(w, c->rows[i].data, (size_t)c->rows[i].len);
      w += c->rows[i].len;
    }
    double t = now() - t0;
    sink += dst[c->total / 2];
    if (t < best)
      best = t;
  }
  free(dst);
  return best;
}

/* Times every operation in CPython over the same rows (written to a file, one per line). */
static void python_times(const struct corpus *c, double *secs) {
  char path[] = "/tmp/nrt_bench_str_XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  for (int i = 0; i < NOPS; i++)
    secs[i] = 0;
  if (!f)
    return;
  for (int64_t i = 0; i < c->n; i++) {
    fwrite(c->rows[i].data, 1, (size_t)c->rows[i].len, f);
    fputc('\n', f);
  }
  fclose(f);
  size_t cap = 1 << 16, used = 0;
  char *cmd = malloc(cap);
  used += (size_t)snprintf(cmd, cap, "/usr/bin/python3 '%s' '%s' 3", NRT_BENCH_STR_PY, path);
  for (int i = 0; i < NOPS; i++)
    used += (size_t)snprintf(cmd + used, cap - used, " \"%d=%s\"", i, OPS[i].python);
  FILE *p = popen(cmd, "r");
  if (p) {
    int idx;
    double t;
    while (fscanf(p, "%d %lf", &idx, &t) == 2)
      if (idx >= 0 && idx < NOPS)
        secs[idx] = t;
    pclose(p);
  }
  free(cmd);
  remove(path);
}

/* Summary of the issue's targets, filled by bench(). */
static int ops_10x, ops_timed;
static double upper_share, lower_share;
static double allocs_worst = 0;

static void bench(const struct corpus *c, bool short_rows) {
  double py[NOPS];
  printf("\n== %s: %lld rows, %.1f MB, avg %.1f bytes/row\n", c->name, (long long)c->n,
         (double)c->total / 1e6, (double)c->total / (double)c->n);
  fflush(stdout);
  if (only_ops) {
    for (int i = 0; i < NOPS; i++)
      py[i] = 0;
  } else {
    python_times(c, py);
  }
  double mc = memcpy_time(c, 5);
  double mc_mbs = (double)c->total / mc / 1e6;
  printf("memcpy of the same bytes (one call per row): %.2f ms, %.0f MB/s\n", mc * 1e3, mc_mbs);
  printf("%-16s %9s %9s %10s %10s %10s %9s %8s %12s\n", "operation", "nrt ns/r", "py ns/r",
         "nrt Mrow/s", "nrt MB/s", "x CPython", "x memcpy", "new str", "alloc/new");
  for (int i = 0; i < NOPS; i++) {
    int64_t ns, nl;
    uint64_t al;
    if (!selected(OPS[i].name))
      continue;
    if (OPS[i].fn == op_join) { /* the lists to join: s.split() of every row, untimed */
      join_rows = c->rows;
      join_lists = malloc(sizeof(nrt_str_list *) * (size_t)c->n);
      for (int64_t k = 0; k < c->n; k++)
        if (nrt_str_split(&c->rows[k], NULL, -1, &join_lists[k], NULL) != NRT_OK)
          abort();
    }
    double t = run_op(&OPS[i], c, 3, &ns, &nl, &al);
    if (OPS[i].fn == op_join) {
      for (int64_t k = 0; k < c->n; k++)
        nrt_str_list_release(join_lists[k]);
      free(join_lists);
    }
    double per = t / (double)c->n * 1e9;
    double pyper = py[i] / (double)c->n * 1e9;
    char apn[32];
    if (ns + nl)
      snprintf(apn, sizeof apn, "%.3f", (double)al / (double)(ns + nl));
    else
      snprintf(apn, sizeof apn, "%llu allocs", (unsigned long long)al);
    double share = 100.0 * ((double)c->total / t / 1e6) / mc_mbs;
    if (short_rows && py[i] > 0 && OPS[i].fn != op_nothing) {
      ops_timed++;
      ops_10x += py[i] / t >= 10.0;
    }
    if (!short_rows && OPS[i].fn == op_upper)
      upper_share = share;
    if (!short_rows && OPS[i].fn == op_lower)
      lower_share = share;
    if (ns + nl && (double)al / (double)(ns + nl) > allocs_worst)
      allocs_worst = (double)al / (double)(ns + nl);
    printf("%-16s %9.1f %9.1f %10.1f %10.0f %10.1f %8.0f%% %8.2f %12s\n", OPS[i].name, per,
           pyper, (double)c->n / t / 1e6, (double)c->total / t / 1e6,
           py[i] > 0 ? py[i] / t : 0.0, 100.0 * ((double)c->total / t / 1e6) / mc_mbs,
           (double)(ns + nl) / (double)c->n, apn);
    fflush(stdout);
  }
}

int main(int argc, char **argv) {
  int64_t short_rows = argc > 1 ? atoll(argv[1]) : 1000000;
  int64_t long_rows = argc > 2 ? atoll(argv[2]) : 10000;
  only_ops = argc > 3 ? argv[3] : NULL;
  struct corpus seed, kb;
  make_corpus(&seed, "seed corpus (0-24 chars of ASCII letters, space, e-acute, u-umlaut, "
                     "sharp s, 2 CJK)",
              short_rows, 0, 24, 58);
  make_corpus(&kb, "1 KB ASCII strings (letters and space)", long_rows, 1024, 1024, 53);
  printf("bench_str: nrt str operations vs CPython %s (same data, same process machine)\n",
         "/usr/bin/python3");
  printf("x CPython = CPython time / nrt time; x memcpy = nrt MB/s as a share of memcpy MB/s;\n"
         "new str = new managed strings (and lists) per row; alloc/new = allocations per "
         "new string or list (nrt_stats_get)\n");
  bench(&seed, true);
  if (long_rows > 0)
    bench(&kb, false);
  printf("\ntargets: ops >= 10x CPython on short strings: %d of %d; ASCII upper / lower on 1 KB: "
         "%.0f%% / %.0f%% of memcpy (target 30%%); most allocations per new string: %.3f "
         "(target 1)\n",
         ops_10x, ops_timed, upper_share, lower_share, allocs_worst);
  free(seed.bytes);
  free(seed.rows);
  free(kb.bytes);
  free(kb.rows);
  return sink == 42 ? 1 : 0;
}
