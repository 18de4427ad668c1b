def f(s):
    a, b, c = s.partition("=")
    return "-".join([w.title() for w in a.split(",") if w]) + c if b else s[::-1]
