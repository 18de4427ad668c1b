"""The UDF language of issue 14 through the Python package: dicts and sets, mutable lists with
key functions, helper functions with defaults, closures and recursion, and `re`; each result
compared with CPython's, and the new exception classes (KeyError, RecursionError) raised as
CPython's with the failing row."""
import pyarrow as pa
import pytest

import nrt

ROWS = ["straße Straße", "Ἀθῆναι ΣΊΣΥΦΟΣ", "a1 b22 c333", "", "yes", "İstanbul ıi",
        "日本語 テキスト", "x-y-z", "emoji 😀 here", "  padded  "]

SOURCES = {
    "lookup table": """
MAP = {'yes': 'Y', 'no': 'N', 'a1': 'A'}
def f(s):
    return MAP.get(s, s.upper())
""",
    "set membership and a counting dict": """
def f(s):
    counts = {}
    for c in s:
        counts[c] = counts.get(c, 0) + 1
    vowels = sum([n for c, n in counts.items() if c in {'a', 'e', 'i', 'o', 'u'}])
    return str(vowels) + ':' + ','.join([k for k in counts if counts[k] > 1])
""",
    "mutable list with a key lambda": """
def f(s):
    out = []
    for w in s.split():
        out.append(w.title())
    out.sort(key=lambda w: (-len(w), w))
    return ' '.join(out)
""",
    "defaults, keywords and a closure": """
SEP = '|'
def pad(w, n=6, fill='.'):
    return w + fill * (n - len(w))
def f(s):
    tail = s[-1:]
    g = lambda w: pad(w, fill=tail or '_')
    return SEP.join([g(w) for w in s.split()])
""",
    "recursion": """
def rev(s):
    return s if len(s) <= 1 else rev(s[1:]) + s[0]
def f(s):
    return rev(s)
""",
    "re": r"""
import re
def f(s):
    m = re.search(r'(\w)(\d+)', s)
    head = m.group(2) if m else '-'
    return head + ':' + re.sub(r'\s+', '_', s.strip(), flags=re.I)
""",
}


def run_cpython(src, rows):
    scope = {}
    exec(src, scope)
    return [scope["f"](r) for r in rows]


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_results_equal_cpython(name, balanced):
    src = SOURCES[name]
    f = nrt.udf(src, threads=2)
    want = run_cpython(src, ROWS)
    f(ROWS)
    balanced()
    assert f(pa.array(ROWS)).to_pylist() == want
    assert f(ROWS) == want


def test_key_error_is_cpythons():
    f = nrt.udf("lambda s: {'a': 'x', 'b': 'y'}[s]")
    with pytest.raises(KeyError) as info:
        f(["a", "b", "zz"])
    assert info.value.row == 2
    assert "'zz'" in str(info.value)
    g = nrt.udf("lambda s: {'a': 'x'}[s]", errors="null")
    assert g(["a", "q"]) == ["x", None]


def test_recursion_error_is_cpythons():
    f = nrt.udf("""
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
def f(s):
    return str(depth(len(s) * 400))
""")
    assert f(["ab"]) == ["800"]
    with pytest.raises(RecursionError) as info:
        f(["ab", "abc"])
    assert info.value.row == 1
    assert "maximum recursion depth exceeded" in str(info.value)
