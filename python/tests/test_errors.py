"""Row errors as CPython's exception classes with .row; errors='null'; compile errors as
CompileSyntaxError / CompileTypeError located in the user's own file."""
import inspect

import pytest

import nrt


@pytest.mark.parametrize("src,rows,cls", [
    ("lambda s: int(s)", ["1", "2", "x"], ValueError),
    ("lambda s: s[10]", ["abcdefghijkl", "ab"], IndexError),
    ("lambda s: len(s) // (len(s) - 2)", ["abc", "ab"], ZeroDivisionError),
    ("lambda s: int(float(s))", ["1.5", "inf"], OverflowError),
])
def test_row_errors_raise_cpython_classes(src, rows, cls):
    f = nrt.udf(src)
    with pytest.raises(Exception) as info:
        f(rows)
    try:
        py = eval(src)
        for r in rows:
            py(r)
    except Exception as e:
        expected = type(e)
    assert isinstance(info.value, expected)
    assert info.value.row == len(rows) - 1
    assert f"row {len(rows) - 1}" in str(info.value)


def test_lowest_failing_row_is_reported_with_threads():
    f = nrt.udf(lambda s: int(s), threads=2)
    rows = [str(i) for i in range(50000)]
    rows[31000] = "bad"
    rows[40000] = "worse"
    with pytest.raises(ValueError) as info:
        f(rows)
    assert info.value.row == 31000
    assert "'bad'" in str(info.value)


def test_errors_null():
    f = nrt.udf(lambda s: int(s), errors="null")
    assert f(["1", "x", "3"]) == [1, None, 3]
    g = nrt.udf(lambda s: int(s))
    assert g.apply(["1", "x"], errors="null") == [1, None]
    with pytest.raises(ValueError):
        g(["x"])


def test_compile_syntax_error_located_in_file():
    src = "def f(s):\n    return s +\n"
    with pytest.raises(nrt.CompileSyntaxError) as info:
        nrt.udf(src)(["a"])
    e = info.value
    assert isinstance(e, SyntaxError) and isinstance(e, nrt.CompileError)
    assert e.lineno == 2 and e.offset is not None


def test_compile_type_error_in_function_object_points_into_this_file():
    @nrt.udf
    def f(s):
        n = len(s)
        return s + n                     # str + int: a type error on this line
    line = inspect.getsourcelines(f.__wrapped__)[1] + 3
    with pytest.raises(nrt.CompileTypeError) as info:
        f(["a"])
    e = info.value
    assert isinstance(e, TypeError) and isinstance(e, nrt.CompileError)
    assert e.filename == __file__
    assert e.lineno == line
    assert e.offset > 8                  # the column inside the indented line
    assert "return s + n" in e.text


def test_lambda_compile_error_column_in_line():
    f = nrt.udf(lambda s: s.upper() + 1)
    with pytest.raises(nrt.CompileTypeError) as info:
        f(["a"])
    e = info.value
    assert e.filename == __file__
    assert e.text is not None and "lambda s: s.upper() + 1" in e.text
    assert e.offset > e.text.index("lambda")


def test_unsupported_feature_names_it():
    f = nrt.udf("def f(s):\n    return s.encode()\n")
    with pytest.raises(nrt.CompileTypeError, match="encode"):
        f(["a"])


def test_wrong_number_of_columns():
    f = nrt.udf(lambda a, b: a + b)
    with pytest.raises(TypeError):
        f(["a"])
