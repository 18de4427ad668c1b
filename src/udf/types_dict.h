/* dict and set values in the checker and the code generator (issue 14, item 2). */
#ifndef NRT_UDF_TYPES_DICT_H
#define NRT_UDF_TYPES_DICT_H

/* The operation of a UDF_CALL_DICT call (ast.h call.dict_op). */
typedef enum udf_dict_op {
  UDF_DOP_GET,        /* d.get(k[, default]): cargs k, default (NULL: None) */
  UDF_DOP_KEYS,       /* d.keys() / d.values() / d.items(): only as the iterable of a for */
  UDF_DOP_VALUES,
  UDF_DOP_ITEMS,
  UDF_DOP_SETDEFAULT, /* d.setdefault(k, v) */
  UDF_DOP_POP,        /* d.pop(k[, default]): cargs k, default (NULL: KeyError) */
  UDF_DOP_ADD,        /* s.add(x) */
  UDF_DOP_DISCARD,    /* s.discard(x) */
  UDF_DOP_REMOVE,     /* s.remove(x): KeyError */
  UDF_DOP_LEN,        /* len(d): cargs[0] */
  UDF_DOP_NEW,        /* dict() / set(): empty */
  UDF_DOP_SET_OF,     /* set(iterable of str): cargs[0] */
  UDF_DOP_COPY,       /* d.copy() / s.copy() */
  UDF_DOP_CLEAR,      /* d.clear() / s.clear() */
  UDF_DOP_UPDATE,     /* d.update(other dict of the same type) */
  UDF_DOP_KEYS_LIST,  /* d.keys() / list(d) / d.values() outside a for loop's iterable: a list of
                       * str (the keys or values must be str) */
  UDF_DOP_VALUES_LIST
} udf_dict_op;

#endif
