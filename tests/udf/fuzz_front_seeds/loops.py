def f(s):
    total = 0
    for i in range(len(s)):
        total += i
    for j in range(1, 10, 2):
        total -= j
    xs = [s[i] for i in range(len(s)) if i % 2 == 0]
    ys = [w.upper() for w in s.split() for c in w]
    best = None
    prev = ''
    for c in s:
        if c == prev:
            best = c
        prev = c
    while True:
        if total > 3:
            break
        total += 1
    if best is not None:
        return best.upper()
    return str(total) + ''.join(xs) + ''.join(ys) + str(len(ys))
