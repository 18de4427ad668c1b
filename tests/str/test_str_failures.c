/* Failure injection over every allocating str operation: each refused allocation is reported
 * as NRT_ENOMEM, the output is left empty, and nothing leaks. */
#include "nrt/str.h"
#include "support/check.h"

#define V(lit) nrt_str_view(lit, (int64_t)sizeof(lit) - 1)

static const nrt_str *input; /* the string every trial works on (borrowed or managed) */

/* A string-producing operation: checks the failure contract, releases the result. */
static int finish_str(int rc, nrt_str *r, const struct nrt_error *err) {
  if (rc != NRT_OK) {
    CHECK_EQ_INT(rc, NRT_ENOMEM);
    CHECK_EQ_INT(err->code, NRT_ENOMEM);
    CHECK(r->mi == NULL && r->len == 0);
    return rc;
  }
  nrt_str_release(r);
  return NRT_OK;
}

static int finish_list(int rc, nrt_str_list *l, const struct nrt_error *err) {
  if (rc != NRT_OK) {
    CHECK_EQ_INT(rc, NRT_ENOMEM);
    CHECK_EQ_INT(err->code, NRT_ENOMEM);
    CHECK(l == NULL);
    return rc;
  }
  nrt_str_list_release(l);
  return NRT_OK;
}

#define STR_TRIAL(name, call)                                                               \
  static int trial_##name(void *ctx) {                                                      \
    (void)ctx;                                                                              \
    struct nrt_error err = {0};                                                             \
    nrt_str r = V("junk");                                                                  \
    const nrt_str *s = input;                                                               \
    int rc = call;                                                                          \
    return finish_str(rc, &r, &err);                                                        \
  }
#define LIST_TRIAL(name, call)                                                              \
  static int trial_##name(void *ctx) {                                                      \
    (void)ctx;                                                                              \
    struct nrt_error err = {0};                                                             \
    nrt_str_list *l = NULL;                                                                 \
    const nrt_str *s = input;                                                               \
    int rc = call;                                                                          \
    return finish_list(rc, l, &err);                                                        \
  }

static const nrt_str SEP = {NULL, " ", 1}, OLD = {NULL, "a", 1}, NEW = {NULL, "\xc3\xa9", 2},
                     EMPTY = {NULL, "", 0}, CHARS = {NULL, "x ", 2};

STR_TRIAL(new, nrt_str_new(s->data, s->len, &r, &err))
STR_TRIAL(concat, nrt_str_concat(s, &NEW, &r, &err))
STR_TRIAL(append, nrt_str_append(s, &NEW, &r, &err))
STR_TRIAL(repeat, nrt_str_repeat(s, 3, &r, &err))
STR_TRIAL(getitem, nrt_str_getitem(s, -2, &r, &err)) /* a 3-byte character */
STR_TRIAL(slice, nrt_str_slice(s, 1, -1, NRT_STR_NONE, &r, &err))
STR_TRIAL(slice_step, nrt_str_slice(s, NRT_STR_NONE, NRT_STR_NONE, -2, &r, &err))
STR_TRIAL(replace, nrt_str_replace(s, &OLD, &NEW, -1, &r, &err))
STR_TRIAL(replace_empty, nrt_str_replace(s, &EMPTY, &NEW, 3, &r, &err))
STR_TRIAL(strip, nrt_str_strip(s, &CHARS, &r, &err))
STR_TRIAL(lstrip, nrt_str_lstrip(s, NULL, &r, &err))
STR_TRIAL(rstrip, nrt_str_rstrip(s, NULL, &r, &err))
STR_TRIAL(upper, nrt_str_upper(s, &r, &err))
STR_TRIAL(lower, nrt_str_lower(s, &r, &err))
STR_TRIAL(casefold, nrt_str_casefold(s, &r, &err))
STR_TRIAL(capitalize, nrt_str_capitalize(s, &r, &err))
STR_TRIAL(title, nrt_str_title(s, &r, &err))
STR_TRIAL(swapcase, nrt_str_swapcase(s, &r, &err))
LIST_TRIAL(split, nrt_str_split(s, NULL, -1, &l, &err))
LIST_TRIAL(split_sep, nrt_str_split(s, &SEP, 2, &l, &err))
LIST_TRIAL(rsplit, nrt_str_rsplit(s, NULL, -1, &l, &err))
LIST_TRIAL(rsplit_sep, nrt_str_rsplit(s, &SEP, -1, &l, &err))
LIST_TRIAL(splitlines, nrt_str_splitlines(s, true, &l, &err))
LIST_TRIAL(partition, nrt_str_partition(s, &SEP, &l, &err))
LIST_TRIAL(rpartition, nrt_str_rpartition(s, &SEP, &l, &err))

/* split, then join with a separator: the list and the join both allocate. */
static int trial_split_join(void *ctx) {
  (void)ctx;
  struct nrt_error err = {0};
  nrt_str_list *l;
  int rc = nrt_str_split(input, NULL, -1, &l, &err);
  if (rc != NRT_OK)
    return finish_list(rc, l, &err);
  nrt_str r = V("junk");
  rc = nrt_str_join(&NEW, l, &r, &err);
  nrt_str_list_release(l);
  return finish_str(rc, &r, &err);
}

/* A list grown element by element past its inline capacity. */
static int trial_list_append(void *ctx) {
  (void)ctx;
  struct nrt_error err = {0};
  nrt_str_list *l;
  int rc = nrt_str_list_new(1, &l, &err);
  for (int i = 0; i < 40 && rc == NRT_OK; i++) {
    nrt_str piece;
    rc = nrt_str_slice(input, i % 5, i % 5 + 3, NRT_STR_NONE, &piece, &err);
    if (rc != NRT_OK)
      break;
    if (i % 2) {
      rc = nrt_str_list_append(l, piece, &err); /* takes piece, even on failure */
    } else {
      rc = nrt_str_list_append_copy(l, &piece, &err); /* piece stays ours */
      nrt_str_release(&piece);
    }
  }
  if (rc != NRT_OK)
    CHECK_EQ_INT(err.code, NRT_ENOMEM);
  nrt_str_list_release(l);
  return rc;
}

static const struct {
  const char *name;
  check_trial_fn fn;
} TRIALS[] = {
    {"new", trial_new},         {"concat", trial_concat},   {"append", trial_append},
    {"repeat", trial_repeat},   {"getitem", trial_getitem},
    {"slice", trial_slice},     {"slice_step", trial_slice_step},
    {"replace", trial_replace}, {"replace_empty", trial_replace_empty},
    {"strip", trial_strip},     {"lstrip", trial_lstrip},
    {"rstrip", trial_rstrip},   {"upper", trial_upper},
    {"lower", trial_lower},     {"casefold", trial_casefold},
    {"capitalize", trial_capitalize}, {"title", trial_title},
    {"swapcase", trial_swapcase}, {"split", trial_split},
    {"split_sep", trial_split_sep}, {"rsplit", trial_rsplit},
    {"rsplit_sep", trial_rsplit_sep}, {"splitlines", trial_splitlines},
    {"partition", trial_partition}, {"rpartition", trial_rpartition},
    {"split_join", trial_split_join}, {"list_append", trial_list_append},
};

int main(void) {
  struct check_live before = check_live_now();
  nrt_str borrowed = V("  x\xc3\xa9 abc a\xce\xa3 def\nline two\r\nthree \xe6\xbc\xa2 ");
  nrt_str managed;
  CHECK_EQ_INT(nrt_str_new(borrowed.data, borrowed.len, &managed, NULL), NRT_OK);
  const nrt_str *inputs[2] = {&borrowed, &managed};
  for (int k = 0; k < 2; k++) {
    input = inputs[k];
    for (size_t i = 0; i < sizeof TRIALS / sizeof TRIALS[0]; i++) {
      uint64_t n = check_every_allocation_failure(TRIALS[i].name, TRIALS[i].fn, NULL);
      if (n < 1) /* every trial allocates at least once */
        check_failf(__FILE__, __LINE__, "%s made no allocation", TRIALS[i].name);
    }
  }
  nrt_str_release(&managed);
  CHECK_NO_LEAK(before);
  return check_finish("test_str_failures");
}
