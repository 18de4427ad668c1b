"""hypothesis: random strings from all Unicode planes through UDFs calling each str method,
compared with CPython."""
import pyarrow as pa
from hypothesis import given, settings, strategies as st

import nrt

# Surrogates cannot be UTF-8. Code points unassigned in this CPython's Unicode database are
# left out too: nrt's tables are Unicode 15.0, and CPython 3.11's 14.0 does not know the
# characters 15.0 added (U+31350 is alphabetic for one and not the other). Every other code
# point of every plane is fair game.
text = st.text(st.characters(blacklist_categories=("Cs", "Cn")), max_size=24)
column = st.lists(st.one_of(st.none(), text), max_size=30)

METHODS = [
    "lambda s: s.upper()", "lambda s: s.lower()", "lambda s: s.casefold()",
    "lambda s: s.title()", "lambda s: s.capitalize()", "lambda s: s.swapcase()",
    "lambda s: s.strip()", "lambda s: s.lstrip()", "lambda s: s.rstrip()",
    "lambda s: s.isalpha()", "lambda s: s.isdigit()", "lambda s: s.isspace()",
    "lambda s: s.isupper()", "lambda s: s.islower()", "lambda s: s.isalnum()",
    "lambda s: s.isnumeric()", "lambda s: s.isdecimal()", "lambda s: s.istitle()",
    "lambda s: s.isidentifier()", "lambda s: s.isprintable()",
    "lambda s: len(s)", "lambda s: s[::-1]", "lambda s: s[1:4]", "lambda s: s.center(9, '*')",
    "lambda s: s.zfill(6)", "lambda s: s.find('a')", "lambda s: s.count('a')",
    "lambda s: s.replace('a', 'ß')", "lambda s: s.startswith('a')", "lambda s: s.expandtabs(4)",
    "lambda s: ' '.join(s.split())", "lambda s: '|'.join(s.splitlines())",
    "lambda s: s.partition(' ')[2]", "lambda s: s.ljust(8) + s.rjust(8)",
    "lambda s: s.rsplit(None, 1)[0] if s.split() else s",
]


def _compiled():
    out = []
    for src in METHODS:
        f = nrt.udf(src)
        f.compiled((1,))  # raises CompileError for a method nrt does not compile
        out.append((src, f, eval(src)))
    return out


COMPILED = _compiled()


@settings(max_examples=60, deadline=None)
@given(column)
def test_str_methods_match_cpython(rows):
    arr = pa.array(rows, type=pa.string())
    for src, f, py in COMPILED:
        got = f(arr).to_pylist()
        want = [None if r is None else py(r) for r in rows]
        assert got == want, src


@settings(max_examples=40, deadline=None)
@given(st.lists(text, max_size=20), st.integers(-30, 30))
def test_slices_and_multiplication(rows, k):
    f = nrt.udf(lambda s, k: s[k:] + s[:k] * 2)
    assert f(rows, k) == [s[k:] + s[:k] * 2 for s in rows]
