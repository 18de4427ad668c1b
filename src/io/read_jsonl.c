/* The JSON Lines reader: each line parsed by jansson (Debian's libjansson-dev).
 *
 * jansson allocates through its own process-wide hooks; nrt does not replace them (that would
 * change the allocator of every other jansson user in the process), so the short-lived values
 * of one line are the one allocation of the readers not seen by nrt's statistics. They are
 * freed before the next line. */
#include "io/read.h"

#include <jansson.h>
#include <string.h>

static const char *json_type_text(const json_t *v) {
  switch (json_typeof(v)) {
  case JSON_OBJECT: return "an object";
  case JSON_ARRAY: return "an array";
  case JSON_STRING: return "a string";
  case JSON_INTEGER: return "an integer";
  case JSON_REAL: return "a real number";
  case JSON_TRUE:
  case JSON_FALSE: return "a boolean";
  default: return "null";
  }
}

/* Puts one JSON value into a sink; `what` names the column for messages. */
static int put_value(struct io_lines *l, struct io_sink *s, const json_t *v, const char *what,
                     struct nrt_error *err) {
  int rc;
  switch (json_typeof(v)) {
  case JSON_STRING: rc = io_sink_str(s, json_string_value(v), json_string_length(v), err); break;
  case JSON_INTEGER: rc = io_sink_int(s, (int64_t)json_integer_value(v), err); break;
  case JSON_REAL: rc = io_sink_real(s, json_real_value(v), err); break;
  case JSON_TRUE: rc = io_sink_bool(s, true, err); break;
  case JSON_FALSE: rc = io_sink_bool(s, false, err); break;
  case JSON_NULL: rc = io_sink_null(s, err); break;
  default:
    return io_error_at(err, NRT_EPARSE, l->line, l->offset,
                       "%s: found %s; only strings, numbers, booleans and null are supported%s",
                       what, json_type_text(v),
                       json_is_object(v) && !strcmp(what, "value")
                           ? " (name a column to read objects)" : "");
  }
  if (rc == NRT_ETYPE)
    return io_error_at(err, NRT_EPARSE, l->line, l->offset,
                       "%s: found %s in a column of %s%s", what, json_type_text(v),
                       io_kind_name(s->kind),
                       s->fixed ? " (the stream's first batch fixed the column's type)" : "");
  return rc;
}

static int blank(const char *s, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
      return 0;
  return 1;
}

static int read_line(struct io_lines *l, const char *line, size_t len, const char *const *names,
                     size_t n_names, struct io_sink *sinks, struct nrt_error *err) {
  json_error_t jerr;
  json_t *v = json_loadb(line, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
  if (!v) {
    if (json_error_code(&jerr) == json_error_out_of_memory)
      return nrt_error_set(err, NRT_ENOMEM, "out of memory parsing JSON");
    return io_error_at(err, NRT_EPARSE, l->line, l->offset + (uint64_t)jerr.position,
                       "invalid JSON: %s", jerr.text);
  }
  int rc = NRT_OK;
  if (n_names == 0) {
    rc = put_value(l, &sinks[0], v, "value", err);
  } else if (!json_is_object(v)) {
    rc = io_error_at(err, NRT_EPARSE, l->line, l->offset,
                     "expected an object with member \"%s\", found %s", names[0],
                     json_type_text(v));
  } else {
    for (size_t i = 0; i < n_names && rc == NRT_OK; i++) {
      const json_t *m = json_object_get(v, names[i]);
      if (!m) {
        rc = io_error_at(err, NRT_EPARSE, l->line, l->offset, "missing column \"%s\"",
                         names[i]);
      } else {
        char what[96];
        snprintf(what, sizeof what, "column \"%.80s\"", names[i]);
        rc = put_value(l, &sinks[i], m, what, err);
      }
    }
  }
  json_decref(v);
  return rc;
}

int io_read_jsonl(struct io_lines *l, const char *const *names, size_t n_names,
                  struct io_sink *sinks, struct io_batch *b, struct nrt_error *err) {
  while (!io_batch_full(b, l)) {
    const char *line;
    size_t len;
    int terminated;
    int rc = io_lines_next(l, &line, &len, &terminated, err);
    if (rc)
      return rc;
    if (!line) {
      b->at_end = 1;
      return NRT_OK;
    }
    if (blank(line, len))
      continue;
    rc = read_line(l, line, len, names, n_names, sinks, err);
    if (rc)
      return rc;
    b->rows++;
  }
  return NRT_OK;
}
