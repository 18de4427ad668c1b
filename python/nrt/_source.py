"""Source text of a UDF given as a Python function: the def without its decorators, or the
lambda cut out of the line that holds it, after a prelude that binds the module-level names it
reads (imports of the modules nrt compiles, constants, compiled patterns), with the map from
the compiled text's lines and columns back to the user's file."""

import ast
import inspect
import io
import linecache
import math
import re
import textwrap
import tokenize
import types


class Origin:
    """Where compiled source came from: ``filename`` (the user's), the name shown to the
    compiler, and the offsets that turn a compiled line:column into the file's."""

    def __init__(self, filename, compiled_name=None, first_line=1, first_col=0, indent=0,
                 prelude=0):
        self.filename = filename
        self.compiled_name = compiled_name or filename
        self.first_line = first_line  # the file's line of the user's text's first line
        self.first_col = first_col    # columns cut before the user's text's first line
        self.indent = indent          # columns removed from every line by dedenting
        self.prelude = prelude        # lines of prelude (module-level names) before it

    def locate(self, line, col):
        """(lineno, offset, text) in the user's file for a compiled 1-based line:column; all
        None for a line of the prelude, which is not in the file."""
        line -= self.prelude
        if line < 1:
            return None, None, None
        lineno = self.first_line + line - 1
        offset = col + self.indent + (self.first_col if line == 1 else 0)
        text = linecache.getline(self.filename, lineno) if self.filename else ""
        return lineno, offset, (text or None)

    def __reduce__(self):
        return (Origin, (self.filename, self.compiled_name, self.first_line, self.first_col,
                         self.indent, self.prelude))


# Modules a UDF may import (nrt's compiler knows them); flags of a compiled pattern it reads.
_MODULES = ("math", "re", "string", "unicodedata")
_RE_FLAGS = ("IGNORECASE", "MULTILINE", "DOTALL", "VERBOSE", "ASCII")


def _global_names(code):
    """Names the code object (and the lambdas, comprehensions and defs inside it) looks up
    globally or as attributes."""
    names = set(code.co_names)
    for c in code.co_consts:
        if inspect.iscode(c):
            names |= _global_names(c)
    return names


def _literal(v):
    """Python source that nrt's compiler reads back as the value v (None, bool, int, finite
    float, str, and tuples, lists and dicts of them), or None for any other value."""
    if v is None or isinstance(v, (bool, int, str)):
        return repr(v)
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else None
    if isinstance(v, (tuple, list)):
        items = [_literal(x) for x in v]
        if None in items:
            return None
        if isinstance(v, list):
            return "[" + ", ".join(items) + "]"
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(v, dict):
        pairs = [(_literal(k), _literal(x)) for k, x in v.items()]
        if any(k is None or x is None for k, x in pairs):
            return None
        return "{" + ", ".join(f"{k}: {x}" for k, x in pairs) + "}"
    return None


def prelude(fn):
    """Lines binding the module-level names fn reads, as its module binds them when nrt.udf is
    called: imports of math, re, string and unicodedata (under the module's own names for
    them), constants that are literals, and patterns made by re.compile. Other names are left
    unbound: the compiler then names them."""
    g = fn.__globals__
    lines, patterns = [], []
    for name in sorted(_global_names(fn.__code__)):
        if name not in g:
            continue
        v = g[name]
        if isinstance(v, types.ModuleType):
            if v.__name__ in _MODULES:
                alias = "" if name == v.__name__ else f" as {name}"
                lines.append(f"import {v.__name__}{alias}")
        elif isinstance(v, re.Pattern) and isinstance(v.pattern, str):
            flags = [f"re.{f}" for f in _RE_FLAGS if v.flags & getattr(re, f)]
            args = repr(v.pattern) + (", " + " | ".join(flags) if flags else "")
            patterns.append(f"{name} = re.compile({args})")
        elif not callable(v):
            lit = _literal(v)
            if lit is not None:
                lines.append(f"{name} = {lit}")
    if patterns and g.get("re", re) is re:  # the patterns need the name re for the module
        lines = ["import re"] + [l for l in lines if l != "import re"] + patterns
    return lines


def _indent_of(lines):
    widths = [len(l) - len(l.lstrip()) for l in lines if l.strip()]
    return min(widths) if widths else 0


def _same_code(a, b, exact=True):
    """a and b are the same code; without ``exact``, the bytecode may differ (CPython 3.11
    compiles a module's `re.sub(...)` with LOAD_ATTR where a lone lambda gets LOAD_METHOD)."""
    if (exact and a.co_code != b.co_code) or a.co_names != b.co_names or \
            a.co_varnames != b.co_varnames:
        return False
    ca = [c for c in a.co_consts if not inspect.iscode(c)]
    cb = [c for c in b.co_consts if not inspect.iscode(c)]
    return ca == cb


def _lambda_end_candidates(text, start):
    """Offsets in ``text`` where an expression starting at ``start`` may end: the end of
    every token at bracket depth 0 before the enclosing bracket closes or the line ends."""
    depth = 0
    ends = []
    lines = text[start:].splitlines(keepends=True)
    line_starts = [start]
    for l in lines:
        line_starts.append(line_starts[-1] + len(l))
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text[start:]).readline):
            if tok.type == tokenize.OP and tok.string in "([{":
                depth += 1
            elif tok.type == tokenize.OP and tok.string in ")]}":
                depth -= 1
                if depth < 0:
                    break
            elif tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER) and depth == 0:
                break
            if depth == 0 and tok.type not in (tokenize.NL, tokenize.COMMENT):
                row, col = tok.end
                ends.append(line_starts[row - 1] + col)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return ends


def _cut_lambda(fn, text):
    """(start, end) of the lambda whose code is fn.__code__ in ``text``: the one with the same
    bytecode, else the longest with the same names and constants."""
    loose = None
    pos = text.find("lambda")
    while pos >= 0:
        before = text[pos - 1] if pos else " "
        if not (before.isalnum() or before == "_"):
            for end in _lambda_end_candidates(text, pos):
                snippet = text[pos:end]
                try:
                    code = compile("(" + snippet + "\n)", "<lambda>", "eval")
                except SyntaxError:
                    continue
                inner = [c for c in code.co_consts if inspect.iscode(c)]
                if inner and _same_code(inner[0], fn.__code__):
                    return pos, end
                if inner and _same_code(inner[0], fn.__code__, exact=False):
                    loose = pos, end
        pos = text.find("lambda", pos + 1)
    return loose


def function_source(fn):
    """(source, entry name or None, Origin) for a Python function or lambda."""
    filename = inspect.getsourcefile(fn) or inspect.getfile(fn)
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as e:
        raise TypeError(f"nrt.udf: the source of {fn!r} is not available ({e}); pass the "
                        "source as a string") from None
    first = max(first, 1)
    if fn.__name__ == "<lambda>":
        text = "".join(lines)
        span = _cut_lambda(fn, text)
        if span is None:
            raise TypeError(f"nrt.udf: cannot find the source of {fn!r} on line {first} of "
                            f"{filename}; pass the source as a string")
        start, end = span
        before = text[:start]
        line = first + before.count("\n")
        col = start - (before.rfind("\n") + 1)
        head = prelude(fn)
        return ("".join(l + "\n" for l in head) + text[start:end], None,
                Origin(filename, "<lambda>", line, col, 0, len(head)))
    indent = _indent_of(lines)
    text = textwrap.dedent("".join(lines))
    tree = ast.parse(text)
    node = next((n for n in tree.body
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == fn.__name__), None)
    if node is None:
        raise TypeError(f"nrt.udf: cannot find the def of {fn.__name__} in {filename}")
    body = text.splitlines(keepends=True)[node.lineno - 1:node.end_lineno]
    head = prelude(fn)
    return ("".join(l + "\n" for l in head) + "".join(body), fn.__name__,
            Origin(filename, "<udf>", first + node.lineno - 1, 0, indent, len(head)))


def entry_arity(source, func):
    """Number of parameters of the UDF's entry (a lambda, the named def, or the last def),
    or None when Python cannot parse the source (nrt's compiler then reports why)."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except SyntaxError:
        return None
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    if func is not None:
        defs = [d for d in defs if d.name == func]
    if defs:
        return len(defs[-1].args.args)
    for n in ast.walk(tree):
        if isinstance(n, ast.Lambda):
            return len(n.args.args)
    return None
