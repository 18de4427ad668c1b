def f(s):
    n = 0
    for c in s:
        if c in "aeiou":
            n += 1
    return f"{s!r:>12}|{n:05d}"
