"""Source text of a UDF given as a Python function: the def without its decorators, or the
lambda cut out of the line that holds it, after a prelude that binds the module-level names it
reads (imports of the modules nrt compiles, constants, compiled patterns, the helper functions
it calls), with the map from the compiled text's lines and columns back to the user's files."""

import ast
import dis
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
    compiler, and the offsets that turn a compiled line:column into the file's. ``helpers``
    maps the prelude's module-level helper functions back to their files: tuples
    (compiled first line, line count, filename, file's first line, first column, indent)."""

    def __init__(self, filename, compiled_name=None, first_line=1, first_col=0, indent=0,
                 prelude=0, helpers=()):
        self.filename = filename
        self.compiled_name = compiled_name or filename
        self.first_line = first_line  # the file's line of the user's text's first line
        self.first_col = first_col    # columns cut before the user's text's first line
        self.indent = indent          # columns removed from every line by dedenting
        self.prelude = prelude        # lines of prelude (module-level names) before it
        self.helpers = tuple(helpers)

    def locate(self, line, col):
        """(filename, lineno, offset, text) in the user's files for a compiled 1-based
        line:column; filename alone for a prelude line that is no helper's (a constant or an
        import nrt wrote, which is in no file)."""
        if line <= self.prelude:
            for start, count, filename, first_line, first_col, indent in self.helpers:
                if start <= line < start + count:
                    return _file_location(filename, first_line + line - start,
                                          col + indent + (first_col if line == start else 0))
            return self.filename, None, None, None
        line -= self.prelude
        return _file_location(self.filename, self.first_line + line - 1,
                              col + self.indent + (self.first_col if line == 1 else 0))

    def __reduce__(self):
        return (Origin, (self.filename, self.compiled_name, self.first_line, self.first_col,
                         self.indent, self.prelude, self.helpers))


def _file_location(filename, lineno, offset):
    text = linecache.getline(filename, lineno) if filename else ""
    return filename, lineno, offset, (text or None)


# Modules a UDF may import (nrt's compiler knows them); flags of a compiled pattern it reads.
_MODULES = ("math", "re", "string", "unicodedata")
_RE_FLAGS = ("IGNORECASE", "MULTILINE", "DOTALL", "VERBOSE", "ASCII")


def _loaded_globals(code):
    """Names the code object (and the code inside it) loads as globals: a name that is only
    an attribute (`s.upper`) is not one, whatever the module binds to it."""
    names = {i.argval for i in dis.get_instructions(code) if i.opname == "LOAD_GLOBAL"}
    for c in code.co_consts:
        if inspect.iscode(c):
            names |= _loaded_globals(c)
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


def _default_names(node):
    """Names read by the default values of a def's or lambda's parameters: Python evaluates
    them in the enclosing module, so they are not among the function's own names."""
    args = node.args
    names = set()
    for d in list(args.defaults) + [d for d in args.kw_defaults if d is not None]:
        names |= {n.id for n in ast.walk(d) if isinstance(n, ast.Name)}
    return names


class _Prelude:
    """The module-level names a UDF reads, collected through the helper functions it calls:
    imports, constants and compiled patterns as lines, helpers as their source text."""

    def __init__(self, entry):
        self.entry = entry
        self.bound = {}     # name -> (the line or text binding it, module it came from)
        self.imports, self.consts, self.patterns = [], [], []
        self.helpers = []   # (name, text, filename, first_line, first_col, indent)
        self.visiting = set()

    def bind(self, name, line, module, into):
        old = self.bound.get(name)
        if old is not None:
            if old[0] != line:
                raise TypeError(f"nrt.udf: the name {name!r} means one thing in module "
                                f"{old[1]} and another in {module}; pass the source as a "
                                "string")
            return False
        self.bound[name] = (line, module)
        if into is not None:
            into.append(line)
        return True

    def collect(self, fn, extra_names=()):
        g = fn.__globals__
        module = g.get("__name__", "?")
        for name in sorted(_loaded_globals(fn.__code__) | set(extra_names)):
            if name not in g:
                continue
            v = g[name]
            if isinstance(v, types.ModuleType):
                if v.__name__ in _MODULES:
                    alias = "" if name == v.__name__ else f" as {name}"
                    self.bind(name, f"import {v.__name__}{alias}", module, self.imports)
            elif isinstance(v, re.Pattern) and isinstance(v.pattern, str):
                flags = [f"re.{f}" for f in _RE_FLAGS if v.flags & getattr(re, f)]
                args = repr(v.pattern) + (", " + " | ".join(flags) if flags else "")
                self.bind(name, f"{name} = re.compile({args})", module, self.patterns)
            elif isinstance(v, types.FunctionType):
                self.helper(name, v, module)
            elif not callable(v):
                lit = _literal(v)
                if lit is not None:
                    self.bind(name, f"{name} = {lit}", module, self.consts)

    def helper(self, name, v, module):
        """A module-level function the UDF calls: its def (or `name = lambda ...`), and what
        it reads in turn. Closures, functions bound under another name and functions whose
        source is not available are left unbound: the compiler then names them."""
        if v is self.entry or v in self.visiting or v.__code__.co_freevars:
            return
        is_lambda = v.__name__ == "<lambda>"
        if not is_lambda and v.__name__ != name:
            return
        try:
            found = _lambda_text(v) if is_lambda else _def_text(v)
        except TypeError:
            return
        text, filename, first_line, first_col, indent, node = found
        if is_lambda:
            head = f"{name} = "
            text, first_col = head + text, first_col - len(head)
        if not self.bind(name, text, module, None):
            return
        self.visiting.add(v)
        self.collect(v, _default_names(node))  # what it reads first: it is emitted after
        self.helpers.append((name, text, filename, first_line, first_col, indent))

    def lines(self):
        """The prelude's lines and the helpers' regions (see Origin)."""
        lines = list(self.imports)
        if self.patterns and "re" not in self.bound:  # the patterns need the module re
            lines.insert(0, "import re")
        lines += self.consts + self.patterns
        regions = []
        for name, text, filename, first_line, first_col, indent in self.helpers:
            body = text.rstrip("\n").split("\n")
            regions.append((len(lines) + 1, len(body), filename, first_line, first_col,
                            indent))
            lines += body
        return lines, regions


def prelude(fn, node=None):
    """Lines binding the module-level names fn reads, as its module binds them when nrt.udf is
    called: imports of math, re, string and unicodedata (under the module's own names for
    them), constants that are literals, patterns made by re.compile, and the module-level
    functions it calls (their source, and what they read in turn). Other names are left
    unbound: the compiler then names them. Returns the lines and the helpers' regions."""
    p = _Prelude(fn)
    p.collect(fn, _default_names(node) if node is not None else ())
    return p.lines()


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


def _source_lines(fn):
    filename = inspect.getsourcefile(fn) or inspect.getfile(fn)
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as e:
        raise TypeError(f"nrt.udf: the source of {fn!r} is not available ({e}); pass the "
                        "source as a string") from None
    return filename, lines, max(first, 1)


def _lambda_text(fn):
    """(text, filename, first line, first column, indent 0, ast node) of a lambda."""
    filename, lines, first = _source_lines(fn)
    text = "".join(lines)
    span = _cut_lambda(fn, text)
    if span is None:
        raise TypeError(f"nrt.udf: cannot find the source of {fn!r} on line {first} of "
                        f"{filename}; pass the source as a string")
    start, end = span
    before = text[:start]
    line = first + before.count("\n")
    col = start - (before.rfind("\n") + 1)
    node = ast.parse("(" + text[start:end] + "\n)", mode="eval").body
    return text[start:end], filename, line, col, 0, node


def _def_text(fn):
    """(text, filename, first line, first column 0, indent, ast node) of a def, without its
    decorators, dedented."""
    filename, lines, first = _source_lines(fn)
    indent = _indent_of(lines)
    text = textwrap.dedent("".join(lines))
    tree = ast.parse(text)
    node = next((n for n in tree.body
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == fn.__name__), None)
    if node is None:
        raise TypeError(f"nrt.udf: cannot find the def of {fn.__name__} in {filename}")
    body = text.splitlines(keepends=True)[node.lineno - 1:node.end_lineno]
    return "".join(body), filename, first + node.lineno - 1, 0, indent, node


def function_source(fn):
    """(source, entry name or None, Origin) for a Python function or lambda."""
    is_lambda = fn.__name__ == "<lambda>"
    text, filename, line, col, indent, node = _lambda_text(fn) if is_lambda else _def_text(fn)
    head, helpers = prelude(fn, node)
    entry = None if is_lambda else fn.__name__
    if is_lambda and helpers:  # a lambda among defs is bound to a name, the entry's
        entry = "_nrt_entry"
        text, col = f"{entry} = {text}", col - len(f"{entry} = ")
    source = "".join(l + "\n" for l in head) + text
    origin = Origin(filename, "<lambda>" if is_lambda else "<udf>", line, col, indent,
                    len(head), helpers)
    return source, entry, origin


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
        defs += [n.value for n in tree.body if isinstance(n, ast.Assign)
                 and isinstance(n.value, ast.Lambda)
                 and any(isinstance(t, ast.Name) and t.id == func for t in n.targets)]
    if defs:
        return len(defs[-1].args.args)
    for n in ast.walk(tree):
        if isinstance(n, ast.Lambda):
            return len(n.args.args)
    return None
