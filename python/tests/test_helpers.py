"""Module-level helper functions a UDF calls, as users write them: defs and lambdas of this
module and of another one, with the constants, patterns and helpers they read in turn, their
default values, recursion; errors inside a helper point into the helper's file."""
import inspect
import pickle

import pytest

import nrt
from helper_module import shout, squash

LIMIT = 3
FIRST = lambda s: s[:LIMIT]  # noqa: E731
SUFFIX = "?"  # helper_module binds SUFFIX too, to another value


def initials(s, sep="."):
    return sep.join(w[:1] for w in squash(s).split()) + sep


def depth(s):
    return 0 if not s else 1 + depth(s[1:])


def broken(s):
    return s.no_such_method()


def upper(rows):  # not a helper: the UDFs below only call the method s.upper()
    return [r.upper() for r in rows.no_such_thing]


def test_defs_lambdas_and_other_modules():
    def f(s):
        return initials(s) + "|" + FIRST(s) + "|" + shout(s)
    rows = ["  ada  lovelace ", "ß", "", "Émile\tzola"]
    assert nrt.udf(f)(rows) == [f(r) for r in rows]
    g = lambda s: shout(FIRST(s), "#").upper() + str(depth(s))  # noqa: E731
    assert nrt.udf(g)(rows) == [g(r) for r in rows]
    src = nrt.udf(f).source
    assert "def squash(s):" in src and "FIRST = lambda s: s[:LIMIT]" in src
    assert src.index("def squash") < src.index("def shout")  # what a helper reads comes first
    assert "def upper" not in nrt.udf(g).source


def test_helpers_survive_pickling():
    u = nrt.udf(lambda s: initials(s, "-"))
    v = pickle.loads(pickle.dumps(u))
    assert v(["a b c"]) == ["a-b-c-"]


def test_an_error_in_a_helper_points_into_its_file():
    def f(s):
        return broken(s) + s
    with pytest.raises(nrt.CompileTypeError) as info:
        nrt.udf(f)(["a"])
    e = info.value
    assert e.filename == __file__
    assert e.lineno == inspect.getsourcelines(broken)[1] + 1
    assert "s.no_such_method()" in e.text and "no_such_method" in str(e)


def test_a_name_bound_differently_in_two_modules_is_refused():
    def f(s):
        return shout(s) + SUFFIX  # this module's SUFFIX is not helper_module's
    with pytest.raises(TypeError, match="SUFFIX"):
        nrt.udf(f)
