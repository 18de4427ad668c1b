/* Managed strings: one allocation each, the shared empty string, retain/release. */
#include "nrt/str.h"
#include "support/check.h"

static int trial_new(void *ctx) {
  (void)ctx;
  nrt_str s;
  struct nrt_error err = {0};
  int rc = nrt_str_new("hello", 5, &s, &err);
  if (rc != NRT_OK) {
    CHECK_EQ_INT(err.code, NRT_ENOMEM);
    CHECK(s.mi == NULL && s.len == 0);
    return rc;
  }
  nrt_str_release(&s);
  return NRT_OK;
}

int main(void) {
  struct check_live before = check_live_now();
  struct nrt_stats st0, st1;

  nrt_stats_get(&st0);
  nrt_str s;
  CHECK_EQ_INT(nrt_str_new("h\xc3\xa9llo", 6, &s, NULL), NRT_OK);
  nrt_stats_get(&st1);
  CHECK_EQ_INT(st1.alloc - st0.alloc, 1); /* one allocation per managed string */
  CHECK_EQ_INT(st1.mi_alloc - st0.mi_alloc, 1);
  CHECK(s.mi != NULL);
  CHECK_EQ_INT(s.len, 6);
  CHECK_EQ_STR(s.data, "h\xc3\xa9llo"); /* NUL-terminated */
  CHECK(s.data == (const char *)s.mi->data + 8);
  CHECK_EQ_INT(*(const int64_t *)s.mi->data, 6);
  CHECK_EQ_INT(nrt_mi_refcount(s.mi), 1);

  nrt_str t = s;
  nrt_str_retain(&t);
  CHECK_EQ_INT(nrt_mi_refcount(s.mi), 2);
  nrt_str u = nrt_str_from_meminfo(s.mi);
  CHECK(u.data == s.data && u.len == s.len);
  nrt_str_release(&t);
  CHECK(t.mi == NULL && t.len == 0);
  CHECK_EQ_INT(nrt_mi_refcount(s.mi), 1);
  nrt_str_release(&s);

  /* The empty string allocates nothing and needs no release. */
  nrt_stats_get(&st0);
  nrt_str e;
  CHECK_EQ_INT(nrt_str_new("", 0, &e, NULL), NRT_OK);
  CHECK(e.mi == NULL && e.len == 0 && e.data[0] == '\0');
  char *bytes;
  CHECK_EQ_INT(nrt_str_alloc(0, &e, &bytes, NULL), NRT_OK);
  CHECK(e.mi == NULL && e.len == 0 && bytes != NULL);
  nrt_stats_get(&st1);
  CHECK_EQ_INT(st1.alloc - st0.alloc, 0);
  nrt_str_retain(&e);
  nrt_str_release(&e);

  /* nrt_str_alloc: the caller fills the bytes; NUL already there. */
  CHECK_EQ_INT(nrt_str_alloc(3, &s, &bytes, NULL), NRT_OK);
  memcpy(bytes, "abc", 3);
  CHECK_EQ_STR(s.data, "abc");
  nrt_str_release(&s);

  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_str_alloc(-1, &s, &bytes, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_str_alloc(INT64_MAX, &s, &bytes, &err), NRT_EOVERFLOW);
  CHECK(s.mi == NULL && s.len == 0);

  /* A borrowed view: retain/release do nothing. */
  nrt_str v = nrt_str_view("xyz", 3);
  nrt_str_retain(&v);
  nrt_str_release(&v);

  /* Validating constructors. */
  int64_t bad = 0;
  CHECK_EQ_INT(nrt_str_view_utf8("ab\xc3\xa9", 4, &v, &bad, NULL), NRT_OK);
  CHECK(v.mi == NULL && v.len == 4 && bad == -1);
  CHECK_EQ_INT(nrt_str_view_utf8("ab\xc3(", 4, &v, &bad, &err), NRT_EILSEQ);
  CHECK_EQ_INT(bad, 2);
  CHECK(v.len == 0);
  CHECK_EQ_INT(nrt_str_new_utf8("a\xed\xa0\x80", 4, &s, &bad, &err), NRT_EILSEQ); /* surrogate */
  CHECK_EQ_INT(bad, 1);
  CHECK_EQ_INT(nrt_str_new_utf8("\xf0\x9f\x98\x80", 4, &s, &bad, NULL), NRT_OK);
  CHECK(s.mi != NULL && s.len == 4);
  nrt_str_release(&s);
  CHECK_EQ_INT(nrt_str_new_utf8("", 0, &s, &bad, NULL), NRT_OK);
  CHECK(s.len == 0 && s.mi == NULL);

  check_every_allocation_failure("str_new", trial_new, NULL);
  CHECK_NO_LEAK(before);
  return check_finish("test_str_core");
}
