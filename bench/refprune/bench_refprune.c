/* refprune benchmark.
 *
 *   bench_refprune [--no-python]
 *
 * Table 1: pass time on generated single-function modules of 1k, 10k and 100k blocks (a mix of
 * per-block pairs, diamonds, fanouts with a raising exit, loops, escaping increfs and calls),
 * nrt's pass against llvmlite's refprune on the same IR text (through /usr/bin/python3 and
 * tools/numba_ir/llvmlite_prune.py; the time of its pass manager run only). Time per block must
 * stay flat; "walk" is the CPU time of one bare walk over every instruction, the floor that
 * grows as the module outgrows the caches, and nrt/walk shows the pass's own scaling. All
 * times are thread CPU times (the machine is shared). Table 2: refops removed on the Numba corpus, nrt against llvmlite. */
#define _POSIX_C_SOURCE 200809L /* popen, clock_gettime */
#include <dirent.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nrt/refprune.h"

#define N_PTR 8

struct text {
  char *buf;
  size_t len, cap;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void put(struct text *t, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < t->cap - t->len) {
      t->len += (size_t)n;
      return;
    }
    size_t cap = t->cap ? t->cap * 2 : 1 << 16;
    char *b = realloc(t->buf, cap);
    if (!b) {
      fprintf(stderr, "out of memory\n");
      exit(1);
    }
    t->buf = b;
    t->cap = cap;
  }
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static unsigned rnd(unsigned n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned)(rng % n);
}

/* One function of about `blocks` blocks made of motifs chained one after another. */
static void generate(struct text *t, int blocks) {
  put(t, "declare void @NRT_incref(i8*)\ndeclare void @NRT_decref(i8*)\ndeclare void @use(i8*)\n\n");
  put(t, "define i32 @big(i1 %%c");
  for (int i = 0; i < N_PTR; i++)
    put(t, ", i8* %%p%d", i);
  put(t, ", i32* %%exc) {\nentry:\n  br label %%m0\n");
  int b = 1, m = 0;
  while (b < blocks) {
    int p = (int)rnd(N_PTR), q = (p + 1) % N_PTR;
    put(t, "m%d:\n", m);
    switch (rnd(6)) {
    case 0: /* per-block pair around a call */
      put(t, "  call void @NRT_incref(i8* %%p%d)\n  call void @use(i8* %%p%d)\n"
             "  call void @NRT_decref(i8* %%p%d)\n  br label %%m%d\n", p, p, p, m + 1);
      b += 1;
      break;
    case 1: /* diamond */
      put(t, "  call void @NRT_incref(i8* %%p%d)\n  br i1 %%c, label %%m%d.l, label %%m%d.r\n"
             "m%d.l:\n  store i8 1, i8* %%p%d\n  br label %%m%d.j\n"
             "m%d.r:\n  br label %%m%d.j\n"
             "m%d.j:\n  call void @NRT_decref(i8* %%p%d)\n  br label %%m%d\n",
          p, m, m, m, p, m, m, m, m, p, m + 1);
      b += 4;
      break;
    case 2: /* fanout with a raising exit */
      put(t, "  call void @NRT_incref(i8* %%p%d)\n  br i1 %%c, label %%m%d.ok, label %%m%d.err\n"
             "m%d.err:\n  store i32 1, i32* %%exc, !numba_exception_output !0\n  ret i32 1\n"
             "m%d.ok:\n  call void @NRT_decref(i8* %%p%d)\n  br label %%m%d\n",
          p, m, m, m, m, p, m + 1);
      b += 3;
      break;
    case 3: /* a loop whose body holds a pair, then an unrelated decref */
      put(t, "  br label %%m%d.body\n"
             "m%d.body:\n  call void @NRT_incref(i8* %%p%d)\n  store i8 2, i8* %%p%d\n"
             "  call void @NRT_decref(i8* %%p%d)\n  br i1 %%c, label %%m%d.body, label %%m%d.out\n"
             "m%d.out:\n  call void @NRT_incref(i8* %%p%d)\n  br label %%m%d\n",
          m, m, p, p, p, m, m, m, q, m + 1);
      b += 3;
      break;
    case 4: /* an incref whose decref comes after a decref of another value: stays */
      put(t, "  call void @NRT_incref(i8* %%p%d)\n  br label %%m%d.x\n"
             "m%d.x:\n  call void @NRT_decref(i8* %%p%d)\n  store i8 3, i8* %%p%d\n"
             "  call void @NRT_decref(i8* %%p%d)\n  br label %%m%d\n",
          p, m, m, q, p, p, m + 1);
      b += 2;
      break;
    default: /* fanout over two paths that meet again */
      put(t, "  call void @NRT_incref(i8* %%p%d)\n  br i1 %%c, label %%m%d.a, label %%m%d.b\n"
             "m%d.a:\n  call void @NRT_decref(i8* %%p%d)\n  br label %%m%d\n"
             "m%d.b:\n  call void @NRT_decref(i8* %%p%d)\n  br label %%m%d\n",
          p, m, m, m, p, m + 1, m, p, m + 1);
      b += 3;
      break;
    }
    m++;
  }
  put(t, "m%d:\n  ret i32 0\n}\n\n!0 = !{i1 true}\n", m);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the machine is shared */
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static LLVMModuleRef parse(LLVMContextRef ctx, const char *text, size_t len) {
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, len, "bench");
  LLVMModuleRef mod = NULL;
  char *msg = NULL;
  if (LLVMParseIRInContext(ctx, buf, &mod, &msg)) {
    fprintf(stderr, "parse error: %s\n", msg);
    exit(1);
  }
  return mod;
}

static size_t count_refops(const char *text) {
  size_t n = 0;
  for (const char *p = text; (p = strstr(p, "call void @NRT_")) != NULL; p++)
    n += strncmp(p + 15, "incref", 6) == 0 || strncmp(p + 15, "decref", 6) == 0;
  return n;
}

/* Baseline: one walk over every instruction of the module, reading each call's callee (the
 * least any pass must do); shows what memory costs as the module outgrows the caches. */
static double time_walk(const char *text, size_t len, int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = parse(ctx, text, len);
    double t0 = now();
    size_t calls = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
          calls += LLVMIsACallInst(i) && LLVMGetCalledValue(i) != NULL;
    double t = now() - t0;
    if (calls == 0)
      fprintf(stderr, "no calls?\n");
    best = t < best ? t : best;
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
  }
  return best;
}

/* Best of `reps` runs of nrt's pass; *left receives the refops left. */
static double time_nrt(const char *text, size_t len, int reps, size_t *left) {
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = parse(ctx, text, len);
    double t0 = now();
    struct nrt_refprune_stats st;
    if (nrt_refprune_module(mod, NULL, &st, NULL) != NRT_OK) {
      fprintf(stderr, "refprune failed\n");
      exit(1);
    }
    double t = now() - t0;
    best = t < best ? t : best;
    char *out = LLVMPrintModuleToString(mod);
    *left = count_refops(out);
    LLVMDisposeMessage(out);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
  }
  return best;
}

/* llvmlite on one file: refops after and best pass time; 0 on failure. */
static int run_llvmlite(const char *path, int reps, size_t *before, size_t *after, double *secs) {
  char cmd[2048];
  snprintf(cmd, sizeof(cmd), "/usr/bin/python3 '%s' --repeat %d '%s'", RP_SCRIPT, reps, path);
  FILE *p = popen(cmd, "r");
  if (!p)
    return 0;
  char line[2048], name[1024];
  size_t bb, dia, fan, fr;
  int ok = fgets(line, sizeof(line), p) &&
           sscanf(line, "%1023s %zu %zu %zu %zu %zu %zu %lf", name, before, after, &bb, &dia, &fan,
                  &fr, secs) == 8;
  return pclose(p) == 0 && ok;
}

static void table_sizes(int python) {
  printf("Generated modules (one function; best of 3, llvmlite best of 1 at 100k;\n"
         "llvmlite = its pass manager run only)\n");
  printf("%8s %8s %9s %9s %9s %8s %9s %11s %8s %8s %9s\n", "blocks", "refops", "walk ns/b",
         "nrt ms", "ns/block", "nrt/walk", "lite ms", "lite ns/blk", "lite/nrt", "nrt left",
         "lite left");
  int sizes[] = {1000, 10000, 100000};
  for (int i = 0; i < 3; i++) {
    struct text t = {0};
    generate(&t, sizes[i]);
    size_t left = 0;
    double secs = time_nrt(t.buf, t.len, 3, &left);
    double walk = time_walk(t.buf, t.len, 3) * 1e9 / sizes[i];
    size_t before = count_refops(t.buf), lite_before = 0, lite_after = 0;
    double lite = 0;
    int have = 0;
    if (python) {
      char path[64];
      snprintf(path, sizeof(path), "/tmp/bench_refprune_%d.ll", sizes[i]);
      FILE *f = fopen(path, "w");
      if (f && fwrite(t.buf, 1, t.len, f) == t.len && fclose(f) == 0)
        have = run_llvmlite(path, sizes[i] >= 100000 ? 1 : 3, &lite_before, &lite_after, &lite);
      remove(path);
    }
    if (have)
      printf("%8d %8zu %9.1f %9.2f %9.1f %8.1f %9.1f %11.1f %8.2f %8zu %9zu\n", sizes[i], before,
             walk, secs * 1e3, secs * 1e9 / sizes[i], secs * 1e9 / sizes[i] / walk, lite * 1e3,
             lite * 1e9 / sizes[i], lite / secs, left, lite_after);
    else
      printf("%8d %8zu %9.1f %9.2f %9.1f %8.1f %9s %11s %8s %8zu %9s\n", sizes[i], before, walk,
             secs * 1e3, secs * 1e9 / sizes[i], secs * 1e9 / sizes[i] / walk, "-", "-", "-", left,
             "-");
    free(t.buf);
  }
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void table_corpus(int python) {
  DIR *d = opendir(RP_CORPUS);
  if (!d)
    return;
  char *names[64];
  int n = 0;
  for (struct dirent *e = readdir(d); e && n < 64; e = readdir(d)) {
    size_t len = strlen(e->d_name);
    if (len > 3 && strcmp(e->d_name + len - 3, ".ll") == 0) {
      names[n] = malloc(len + 1);
      memcpy(names[n++], e->d_name, len + 1);
    }
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof(names[0]), cmp_str);
  printf("\nNumba corpus (tools/numba_ir/corpus): refops removed, pass time (best of 5)\n");
  printf("%-24s %7s %9s %9s %9s %9s %8s\n", "file", "refops", "nrt rm", "lite rm", "nrt us",
         "lite us", "lite/nrt");
  size_t tb = 0, tn = 0, tl = 0;
  double sn = 0, sl = 0;
  for (int i = 0; i < n; i++) {
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", RP_CORPUS, names[i]);
    FILE *f = fopen(path, "rb");
    if (!f)
      continue;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    size_t got = fread(text, 1, (size_t)size, f);
    fclose(f);
    text[got] = '\0';
    size_t before = count_refops(text), left = 0, lb = 0, la = 0;
    double secs = time_nrt(text, got, 5, &left), lite = 0;
    int have = python && run_llvmlite(path, 5, &lb, &la, &lite);
    tb += before;
    tn += before - left;
    sn += secs;
    if (have) {
      tl += lb - la;
      sl += lite;
      printf("%-24s %7zu %9zu %9zu %9.1f %9.1f %8.2f\n", names[i], before, before - left, lb - la,
             secs * 1e6, lite * 1e6, lite / secs);
    } else {
      printf("%-24s %7zu %9zu %9s %9.1f %9s %8s\n", names[i], before, before - left, "-",
             secs * 1e6, "-", "-");
    }
    free(text);
    free(names[i]);
  }
  printf("%-24s %7zu %9zu %9zu %9.1f %9.1f %8.2f\n", "total", tb, tn, tl, sn * 1e6, sl * 1e6,
         sn > 0 ? sl / sn : 0.0);
}

int main(int argc, char **argv) {
  int python = !(argc > 1 && strcmp(argv[1], "--no-python") == 0);
  setvbuf(stdout, NULL, _IOLBF, 0);
  table_sizes(python);
  table_corpus(python);
  return 0;
}
