/* JIT smoke test: build a tiny module by hand, optimise it, JIT it, call it; a runtime symbol
 * bound by address and a libc symbol resolved from the process are both reached. */
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>

#include "nrt/column.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf/jit.h"

static int64_t twice(int64_t x) { return 2 * x; }

static LLVMModuleRef build(LLVMContextRef ctx) {
  LLVMModuleRef m = LLVMModuleCreateWithNameInContext("smoke", ctx);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef ptr = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMTypeRef fty = LLVMFunctionType(i64, &i64, 1, 0);
  LLVMValueRef ext = LLVMAddFunction(m, "smoke_twice", fty);
  LLVMTypeRef strlen_ty = LLVMFunctionType(i64, &ptr, 1, 0);
  LLVMValueRef strlen_fn = LLVMAddFunction(m, "strlen", strlen_ty);
  LLVMValueRef f = LLVMAddFunction(m, "smoke_main", fty);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
  LLVMValueRef arg = LLVMGetParam(f, 0);
  LLVMValueRef t = LLVMBuildCall2(b, fty, ext, &arg, 1, "t");
  LLVMValueRef s = LLVMBuildGlobalStringPtr(b, "abcde", "s");
  LLVMValueRef n = LLVMBuildCall2(b, strlen_ty, strlen_fn, &s, 1, "n");
  LLVMBuildRet(b, LLVMBuildAdd(b, t, n, "r"));
  LLVMDisposeBuilder(b);
  return m;
}

/* Compiles src, applies it on 2 threads over `rows` rows cycling through the 5 words, and
 * checks each result against want (NULL: only its byte length, want_len); then releases
 * everything. Under valgrind this covers the JIT-compiled code's memory traffic. */
static void apply_and_check(const char *src, const char *const words[5],
                            const char *const want[5], int64_t want_len, int rows) {
  struct check_live before = check_live_now();
  struct nrt_error err = {0};
  nrt_udf *u = NULL;
  CHECK_EQ_INT(nrt_udf_compile(src, strlen(src), NULL, &u, &err), NRT_OK);
  CHECK(u && nrt_udf_write_function(u) != NULL); /* str results: the write form is applied */
  nrt_col_builder *b = NULL;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, rows, &b, &err), NRT_OK);
  for (int i = 0; i < rows; i++)
    nrt_col_builder_append_view(b, words[i % 5], (int64_t)strlen(words[i % 5]));
  nrt_column *in = NULL, *out = NULL;
  CHECK_EQ_INT(nrt_col_builder_finish(b, &in, &err), NRT_OK);
  struct nrt_udf_apply_options ao;
  memset(&ao, 0, sizeof ao);
  ao.threads = 2;
  ao.chunk_rows = 7;
  if (u && in) {
    CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &ao, &out, NULL, &err), NRT_OK);
    for (int i = 0; out && i < rows; i++) {
      nrt_str r = nrt_col_str(out, i);
      const char *w = want[i % 5];
      if (w)
        CHECK(r.len == (int64_t)strlen(w) && memcmp(r.data, w, (size_t)r.len) == 0);
      else
        CHECK_EQ_INT(r.len, want_len);
    }
  }
  nrt_col_release(out);
  nrt_col_release(in);
  nrt_udf_free(u);
  nrt_exec_shutdown();
  CHECK_NO_LEAK(before);
}

/* The seed UDF (its return writes into the output: no string is made per row). */
static void test_seed_udf(void) {
  const char *src = "def udf(string):\n    if len(string) > 2:\n        result = string.upper()\n"
                    "    else:\n        result = string + string\n    return result + 'abc'\n";
  static const char *const words[5] = {"héllo", "ß", "", "straße", "字"};
  static const char *const want[5] = {"HÉLLOabc", "ßßabc", "abc", "STRASSEabc", "字字abc"};
  apply_and_check(src, words, want, 0, 50);
}

/* The write form's pieces: a stripped view, a character loop with `in`, an f-string with
 * specs parsed at compile time, split/join as a replacement, a case mapping, and a row (400 x
 * 'ß') whose pieces outgrow the writer's room. Expected results from CPython 3.11. */
static void test_write_form_udf(void) {
  const char *src = "def f(s):\n    t = s.strip()\n    n = 0\n    for c in t:\n"
                    "        if c in 'aeiou\\u00df':\n            n += 1\n"
                    "    return f'{t[1:]:>8}|{n:03d}|{len(s) / 2:.1f}|' + '-'.join(t.split('l'))"
                    " + t.replace('\\u00e9', 'E').upper()\n";
  char long_row[801];
  for (int i = 0; i < 400; i++)
    memcpy(long_row + 2 * i, "ß", 2);
  long_row[800] = '\0';
  const char *const words[5] = {" héllo ", long_row, "", "straße", "字l字"};
  static const char *const want[5] = {"    éllo|001|3.5|hé--oHELLO", NULL, "        |000|0.0|",
                                      "   traße|003|3.0|straßeSTRASSE",
                                      "      l字|000|1.5|字-字字L字"};
  apply_and_check(src, words, want, 2409, 20);
}

int main(void) {
  struct nrt_error err = {0};
  struct nrt_stats before;
  nrt_stats_get(&before);
  struct nrt_udf_symbol syms[] = {{"smoke_twice", (void *)twice}};
  struct nrt_udf_jit *jit = NULL;
  CHECK_EQ_INT(nrt_udf_jit_create(syms, 1, &jit, &err), NRT_OK);
  LLVMModuleRef m = build(nrt_udf_jit_context(jit));
  char *msg = NULL;
  CHECK(!LLVMVerifyModule(m, LLVMReturnStatusAction, &msg));
  LLVMDisposeMessage(msg);
  LLVMTargetMachineRef tm = nrt_udf_host_machine(LLVMCodeGenLevelDefault, &err);
  CHECK(tm != NULL);
  CHECK_EQ_INT(nrt_udf_optimize(m, tm, "default<O2>", &err), NRT_OK);
  /* A bad pipeline is an error, not a crash. */
  CHECK(nrt_udf_optimize(m, tm, "no-such-pass", &err) != NRT_OK);
  CHECK(strstr(err.message, "no-such-pass") != NULL);
  LLVMDisposeTargetMachine(tm);
  CHECK_EQ_INT(nrt_udf_jit_add_module(jit, m, LLVMCodeGenLevelDefault, &err), NRT_OK);
  int64_t (*fn)(int64_t) = (int64_t(*)(int64_t))nrt_udf_jit_lookup(jit, "smoke_main", &err);
  CHECK(fn != NULL);
  if (fn) {
    CHECK_EQ_INT(fn(20), 45);
    CHECK_EQ_INT(fn(-3), -1);
  }
  CHECK(nrt_udf_jit_lookup(jit, "no_such_function", &err) == NULL);
  CHECK(err.message[0] != 0);
  nrt_udf_jit_free(jit);
  /* The quick machine code of large UDFs computes the same; one module per JIT. */
  CHECK_EQ_INT(nrt_udf_jit_create(syms, 1, &jit, &err), NRT_OK);
  CHECK_EQ_INT(nrt_udf_jit_add_module(jit, build(nrt_udf_jit_context(jit)), LLVMCodeGenLevelNone,
                                      &err), NRT_OK);
  fn = (int64_t(*)(int64_t))nrt_udf_jit_lookup(jit, "smoke_main", &err);
  CHECK(fn != NULL);
  if (fn)
    CHECK_EQ_INT(fn(20), 45);
  CHECK(nrt_udf_jit_add_module(jit, build(nrt_udf_jit_context(jit)), LLVMCodeGenLevelNone, &err) ==
        NRT_EINVAL);
  nrt_udf_jit_free(jit);
  struct nrt_stats after;
  nrt_stats_get(&after);
  CHECK_EQ_INT(after.alloc - before.alloc, after.free - before.free);
  test_seed_udf();
  test_write_form_udf();
  return check_finish("test_udf_jit");
}
