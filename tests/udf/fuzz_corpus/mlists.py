def f(s):
    words = s.split()
    out = []
    for w in words:
        out.append(w.upper())
    out.sort(key=len, reverse=True)
    out.insert(0, s[:2])
    if out:
        last = out.pop()
    else:
        last = ''
    out.extend(sorted(words, key=lambda w: (len(w))))
    out.reverse()
    best = max(words, key=len, default='')
    return '-'.join(out) + last + best + str(out.count('a')) + str(len(out[1:]))
