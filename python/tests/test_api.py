"""nrt.udf's forms, compilation caching, info and IR, pickling."""
import inspect
import math
import pickle
import re
import string
import unicodedata as ud

import pytest

import nrt

# Module-level names the UDFs below read, as users write them.
TABLE = {"a": "A", "é": "E"}
LIMIT = 3
SEPARATORS = (",", ";")
WORD = re.compile(r"[a-zé]+", re.I)
DIGIT = re.compile(r"\d")
NOT_A_LITERAL = object()


def test_lambda_object():
    f = nrt.udf(lambda s: s.upper() + "abc")
    assert isinstance(f, nrt.UDF)
    assert f(["a", "ß", None]) == ["Aabc", "SSabc", None]


def test_lambda_cut_from_a_larger_line():
    pair = (nrt.udf(lambda s: s.lower()), nrt.udf(lambda s: s.title()))  # two on one line
    assert pair[0](["AbC"]) == ["abc"]
    assert pair[1](["ab cd"]) == ["Ab Cd"]
    assert "lambda s: s.title()" == pair[1].source


def test_multiline_lambda_in_call():
    f = nrt.udf(
        lambda s: (s.strip()
                   + "!"),
        threads=1)
    assert f(["  x "]) == ["x!"]


def test_source_string_and_defs():
    f = nrt.udf("def helper(s):\n    return s * 2\n\ndef f(s):\n    return helper(s) + '.'\n")
    assert f(["ab"]) == ["abab."]
    assert nrt.udf("lambda s: len(s)")(["héllo"]) == [5]


def test_decorator_forms():
    @nrt.udf
    def one(s):
        return s[::-1]

    @nrt.udf(threads=2, errors="null")
    def two(s):
        return int(s) * 2

    assert one(["abc"]) == ["cba"]
    assert one.__name__ == "one"
    assert two(["4", "x"]) == [8, None]
    assert two.threads == 2 and two.errors == "null"


def test_decorated_method_style_indentation():
    class Holder:
        @staticmethod
        @nrt.udf
        def f(s):
            if s.startswith("a"):
                return s.upper()
            return s
    assert Holder.f(["ab", "b"]) == ["AB", "b"]


def test_parameter_types_from_inputs_and_cache():
    f = nrt.udf(lambda s, n: s * n)
    assert f(["ab", "c"], [2, 3]) == ["abab", "ccc"]
    c1 = f.compiled((1, 2))
    assert f(["x"], [1]) == ["x"]
    assert f.compiled((1, 2)) is c1               # compiled once per (source, types)
    g = nrt.udf(lambda s, n: s * n)
    assert g.compiled((1, 2)) is c1               # shared by UDFs of the same source


def test_int_float_bool_params():
    f = nrt.udf(lambda a, b, c: str(a) + "/" + str(b) + "/" + str(c))
    assert f([1, -2], [0.5, 1e20], [True, False]) == ["1/0.5/True", "-2/1e+20/False"]


def test_numpy_scalars_broadcast():
    import numpy as np
    f = nrt.udf("lambda s, n: s * n")
    assert f(["ab", "c"], np.int64(2)) == ["abab", "cc"]
    assert f(["ab"], np.array(3)) == ["ababab"]   # a 0-d array is a scalar too


def test_scalars_broadcast():
    f = nrt.udf(lambda s, sep, n: (s + sep) * n)
    assert f(["a", "b"], "-", 2) == ["a-a-", "b-b-"]
    assert f("a", "-", 3) == "a-a-a-"                # scalars only: a scalar result
    assert f(["a", None], None, 2) == [None, None]   # None broadcast: null rows


def test_null_rows_skip_the_call():
    f = nrt.udf(lambda s: s.upper() if s is not None else "was None")
    assert f(["a", None]) == ["A", None]


def test_result_families():
    import numpy as np
    f = nrt.udf(lambda n: n + 1)
    assert isinstance(f(np.array([1, 2])), nrt.Column)
    assert f(np.array([1, 2])).to_pylist() == [2, 3]
    assert f((1, 2)) == [2, 3]


def test_info_and_llvm_ir():
    f = nrt.udf(lambda s: s.upper() + s.lower())
    info = f.info
    assert info["compile_ms"] > 0
    assert info["refops_before"] >= info["refops_after"]
    assert 0 < info["instructions"] < 10000 and info["quick"] is False
    ir = f.llvm_ir()
    assert "before" in ir and "after" in ir and "define" in ir
    assert f.llvm_ir("before").count("; =====") == 1
    assert "define" in f.llvm_ir("after")


def test_large_udf_compiles_quick():
    body = "".join("    x = x + 'a'\n" for _ in range(600))
    f = nrt.udf("def f(s):\n    x = s\n" + body + "    return x\n")
    assert f(["ab", "", "ß"]) == ["ab" + "a" * 600, "a" * 600, "ß" + "a" * 600]
    assert f.info["quick"] is True and f.info["huge"] is False
    body = "".join("    x = x + 'a'\n" for _ in range(3000))
    g = nrt.udf("def g(s):\n    x = s\n" + body + "    return x\n")
    assert g(["b"]) == ["b" + "a" * 3000]
    assert g.info["quick"] is True and g.info["huge"] is True


def test_pickle_round_trip():
    f = nrt.udf(lambda s: s.casefold(), threads=1, errors="null")
    g = pickle.loads(pickle.dumps(f))
    assert g.source == f.source and g.threads == 1 and g.errors == "null"
    assert g(["Straße"]) == ["strasse"]


def test_bad_arguments():
    with pytest.raises(ValueError):
        nrt.udf(lambda s: s, errors="ignore")
    with pytest.raises(ValueError):
        nrt.udf(lambda s: s, threads=-1)
    with pytest.raises(TypeError):
        nrt.udf(42)
    f = nrt.udf(lambda s: s)
    with pytest.raises(ValueError, match="different lengths"):
        nrt.udf(lambda a, b: a + b)(["a"], ["b", "c"])
    with pytest.raises(TypeError):
        f([object()])
    with pytest.raises(TypeError):
        f(["a", 1])
    with pytest.raises(TypeError):
        f(b"abc")


def test_version_and_stats():
    assert nrt.__version__.count(".") == 2
    s = nrt.stats()
    for k in ("alloc", "free", "mi_alloc", "mi_free", "live_bytes"):
        assert isinstance(s[k], int)


def test_module_level_imports_constants_and_patterns():
    def clean(s):
        t = "".join(TABLE.get(c, c) for c in s)
        for sep in SEPARATORS:
            t = t.replace(sep, " ")
        return (ud.normalize("NFC", WORD.sub("w", t)) + str(math.floor(2.5))
                + string.digits[:LIMIT])
    rows = ["ab,c;1", "é-Z", "", "x1 y2"]
    assert nrt.udf(clean)(rows) == [clean(r) for r in rows]
    swap = lambda s: re.sub(r"\d", "#", s) * LIMIT + DIGIT.sub("", s)  # noqa: E731
    assert nrt.udf(swap)(rows) == [swap(r) for r in rows]
    assert "TABLE = {'a': 'A', 'é': 'E'}" in nrt.udf(clean).source


def test_module_level_name_errors_still_point_into_this_file():
    def f(s):
        return s + LIMIT                 # str + int, with a prelude binding LIMIT
    line = inspect.getsourcelines(f)[1] + 1
    with pytest.raises(nrt.CompileTypeError) as info:
        nrt.udf(f)(["a"])
    assert info.value.lineno == line and "return s + LIMIT" in info.value.text

    def g(s):
        return s if NOT_A_LITERAL else s  # a value nrt cannot compile stays unbound
    with pytest.raises(nrt.CompileError, match="NOT_A_LITERAL"):
        nrt.udf(g)(["a"])
