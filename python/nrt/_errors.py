"""The exceptions of nrt: compile errors located in the user's own file, and row errors
raised as the exception class CPython itself would raise."""

import builtins
import re

# nrt's status codes (include/nrt/core.h) that the Python layer tells apart.
EPARSE = 1001

_LOCATION = re.compile(r"^(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)$", re.S)
_ROW = re.compile(r"^row \d+: (?P<name>[A-Za-z_][A-Za-z0-9_]*): (?P<msg>.*)$", re.S)


class CompileError(Exception):
    """A UDF that nrt cannot compile. ``filename``, ``lineno``, ``offset`` and ``text``
    locate the error in the user's source (for a function object: in its own file)."""

    def __init__(self, msg, filename=None, lineno=None, offset=None, text=None):
        super().__init__(msg)
        self.msg = msg
        self.filename = filename
        self.lineno = lineno
        self.offset = offset
        self.text = text

    def __str__(self):
        if self.lineno is None:
            return self.msg
        return f"{self.filename}:{self.lineno}:{self.offset}: {self.msg}"


class CompileSyntaxError(CompileError, SyntaxError):
    """A UDF whose source nrt cannot parse (also a ``SyntaxError``)."""

    def __init__(self, msg, filename=None, lineno=None, offset=None, text=None):
        SyntaxError.__init__(self, msg, (filename, lineno, offset, text))
        self.msg = msg

    def __str__(self):
        return CompileError.__str__(self)


class CompileTypeError(CompileError, TypeError):
    """A UDF that does not type-check, or uses a feature nrt does not support (the message
    names it); also a ``TypeError``."""


def compile_error(code, message, origin):
    """The CompileError for nrt's compile-error message ``file:line:column: message`` followed
    by the source line and a caret; ``origin`` maps locations back to the user's file."""
    first = message.split("\n", 1)[0]
    filename, lineno, offset, text = origin.filename, None, None, None
    msg = first
    prefix = origin.compiled_name + ":"
    if first.startswith(prefix):
        m = _LOCATION.match(first[len(prefix):])
        if m:
            filename, lineno, offset, text = origin.locate(int(m["line"]), int(m["col"]))
            msg = m["msg"]
    cls = CompileSyntaxError if code == EPARSE else CompileTypeError
    return cls(msg, filename, lineno, offset, text)


def _exception_class(name):
    cls = getattr(builtins, name, None)
    if isinstance(cls, type) and issubclass(cls, BaseException):
        if cls is UnicodeDecodeError or cls is UnicodeEncodeError:
            return UnicodeError  # their constructors need the failing object's bytes
        return cls
    return RuntimeError


def row_error(code, message, row):
    """The exception CPython would raise for a failing row (``message`` is nrt's
    ``row N: ExceptionName: text``), with ``.row``: the 0-based position of the row."""
    m = _ROW.match(message)
    if m:
        cls, text = _exception_class(m["name"]), m["msg"]
    else:
        cls, text = RuntimeError, message
    exc = cls(f"row {row}: {text}")
    exc.row = row
    return exc
