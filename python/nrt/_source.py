"""Source text of a UDF given as a Python function: the def without its decorators, or the
lambda cut out of the line that holds it, with the map from the compiled text's lines and
columns back to the user's file."""

import ast
import inspect
import io
import linecache
import textwrap
import tokenize


class Origin:
    """Where compiled source came from: ``filename`` (the user's), the name shown to the
    compiler, and the offsets that turn a compiled line:column into the file's."""

    def __init__(self, filename, compiled_name=None, first_line=1, first_col=0, indent=0):
        self.filename = filename
        self.compiled_name = compiled_name or filename
        self.first_line = first_line  # the file's line of the compiled text's line 1
        self.first_col = first_col    # columns cut before the compiled text's line 1
        self.indent = indent          # columns removed from every line by dedenting

    def locate(self, line, col):
        """(lineno, offset, text) in the user's file for a compiled 1-based line:column."""
        lineno = self.first_line + line - 1
        offset = col + self.indent + (self.first_col if line == 1 else 0)
        text = linecache.getline(self.filename, lineno) if self.filename else ""
        return lineno, offset, (text or None)

    def __reduce__(self):
        return (Origin, (self.filename, self.compiled_name, self.first_line, self.first_col,
                         self.indent))


def _indent_of(lines):
    widths = [len(l) - len(l.lstrip()) for l in lines if l.strip()]
    return min(widths) if widths else 0


def _same_code(a, b):
    if a.co_code != b.co_code or a.co_names != b.co_names or a.co_varnames != b.co_varnames:
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
    """(start, end) of the lambda whose code is fn.__code__ in ``text``."""
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
        pos = text.find("lambda", pos + 1)
    return None


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
        return text[start:end], None, Origin(filename, "<lambda>", line, col, 0)
    indent = _indent_of(lines)
    text = textwrap.dedent("".join(lines))
    tree = ast.parse(text)
    node = next((n for n in tree.body
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == fn.__name__), None)
    if node is None:
        raise TypeError(f"nrt.udf: cannot find the def of {fn.__name__} in {filename}")
    body = text.splitlines(keepends=True)[node.lineno - 1:node.end_lineno]
    return ("".join(body), fn.__name__,
            Origin(filename, "<udf>", first + node.lineno - 1, 0, indent))


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
