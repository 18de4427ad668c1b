/* Hand-written IR cases (the .ll files under cases/). Each file states in comments:
 *   ; PASSES: list          sub-passes to run (nrt_refprune_parse_passes syntax)
 *   ; LIMIT: n              subgraph limit (optional)
 *   ; STRICT: 1             strict_calls (optional)
 *   ; STATS: per_bb=.. diamond=.. fanout=.. fanout_raise=.. null=.. normalized=..
 *   ; EXPECT fn block inc dec   refops left in that block after pruning
 * Every block that holds a refop before pruning must have an EXPECT line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/refprune.h"
#include "refprune/rp_util.h"
#include "support/check.h"

struct expect {
  char fn[64], block[64];
  int inc, dec, seen;
};

#define MAX_EXPECT 128

static const char *line_value(const char *text, const char *key) {
  const char *p = strstr(text, key);
  return p ? p + strlen(key) : NULL;
}

static size_t stat_value(const char *stats, const char *key) {
  char pat[64];
  snprintf(pat, sizeof(pat), " %s=", key);
  const char *p = strstr(stats, pat);
  return p ? (size_t)strtoul(p + strlen(pat), NULL, 10) : (size_t)-1;
}

static void run_case(const char *dir, const char *name) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  size_t len = 0;
  char *text = rp_test_read_file(path, &len);
  CHECK(text != NULL);
  if (!text)
    return;
  struct nrt_refprune_config cfg;
  nrt_refprune_config_default(&cfg);
  const char *passes = line_value(text, "; PASSES: ");
  CHECK(passes != NULL);
  char list[256] = "";
  if (passes)
    sscanf(passes, "%255s", list);
  CHECK_EQ_INT(nrt_refprune_parse_passes(list, &cfg.passes, NULL), NRT_OK);
  const char *strict = line_value(text, "; STRICT: ");
  if (strict)
    cfg.strict_calls = atoi(strict);
  const char *limit = line_value(text, "; LIMIT: ");
  if (limit)
    cfg.subgraph_limit = (size_t)strtoul(limit, NULL, 10);
  char stats_line[512] = "";
  const char *sl = line_value(text, "; STATS:");
  if (sl) {
    size_t n = strcspn(sl, "\n");
    snprintf(stats_line, sizeof(stats_line), "%.*s", (int)n, sl);
  }
  static struct expect ex[MAX_EXPECT];
  int n_ex = 0;
  for (const char *p = strstr(text, "; EXPECT "); p && n_ex < MAX_EXPECT;
       p = strstr(p + 1, "; EXPECT ")) {
    struct expect *e = &ex[n_ex];
    if (sscanf(p, "; EXPECT %63s %63s %d %d", e->fn, e->block, &e->inc, &e->dec) == 4) {
      e->seen = 0;
      n_ex++;
    }
  }
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef mod = rp_test_parse(ctx, text, len);
  CHECK(mod != NULL);
  if (mod) {
    /* Blocks with refops before pruning, to require an EXPECT line for each. */
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        int inc, dec, listed = 0;
        rp_test_count_block(bb, &inc, &dec);
        if (inc + dec == 0)
          continue;
        for (int i = 0; i < n_ex; i++)
          listed |= strcmp(ex[i].fn, LLVMGetValueName(fn)) == 0 &&
                    strcmp(ex[i].block, LLVMGetBasicBlockName(bb)) == 0;
        if (!listed)
          check_failf(__FILE__, __LINE__, "%s: no EXPECT for %s %s", name, LLVMGetValueName(fn),
                      LLVMGetBasicBlockName(bb));
      }
    struct nrt_refprune_stats st;
    struct nrt_error err = {0};
    CHECK_EQ_INT(nrt_refprune_module(mod, &cfg, &st, &err), NRT_OK);
    CHECK(rp_test_verify(mod, name));
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (int i = 0; i < n_ex; i++) {
          if (strcmp(ex[i].fn, LLVMGetValueName(fn)) != 0 ||
              strcmp(ex[i].block, LLVMGetBasicBlockName(bb)) != 0)
            continue;
          int inc, dec;
          rp_test_count_block(bb, &inc, &dec);
          ex[i].seen = 1;
          if (inc != ex[i].inc || dec != ex[i].dec)
            check_failf(__FILE__, __LINE__, "%s: @%s %%%s: %d increfs %d decrefs, expected %d %d",
                        name, ex[i].fn, ex[i].block, inc, dec, ex[i].inc, ex[i].dec);
          else
            check_pass();
        }
    for (int i = 0; i < n_ex; i++)
      if (!ex[i].seen)
        check_failf(__FILE__, __LINE__, "%s: no block %s %s", name, ex[i].fn, ex[i].block);
    if (sl) {
      const struct {
        const char *key;
        size_t value;
      } got[] = {{"per_bb", st.per_bb},   {"diamond", st.diamond},
                 {"fanout", st.fanout},   {"fanout_raise", st.fanout_raise},
                 {"null", st.null_removed}, {"normalized", st.normalized}};
      for (size_t i = 0; i < sizeof(got) / sizeof(got[0]); i++) {
        size_t want = stat_value(stats_line, got[i].key);
        if (want != got[i].value)
          check_failf(__FILE__, __LINE__, "%s: stat %s = %zu, expected %zu", name, got[i].key,
                      got[i].value, want);
        else
          check_pass();
      }
    }
    printf("%-12s per-bb %zu diamond %zu fanout %zu fanout-raise %zu null %zu normalized %zu\n",
           name, st.per_bb, st.diamond, st.fanout, st.fanout_raise, st.null_removed,
           st.normalized);
    LLVMDisposeModule(mod);
  }
  LLVMContextDispose(ctx);
  rp_test_free_file(text, len);
}

int main(int argc, char **argv) {
  struct check_live before = check_live_now();
  const char *dir = argc > 1 ? argv[1] : "cases";
  const char *cases[] = {"per_bb.ll", "diamond.ll", "fanout.ll", "raise.ll", "strict.ll", "must_stay.ll"};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    run_case(dir, cases[i]);
  CHECK_NO_LEAK(before);
  return check_finish("test_refprune_cases");
}
