import re

def f(s):
    m = re.search(r'(\w+)\s?=\s?(\d+)?', s)
    out = ''
    if m:
        out += m.group(1) + str(m.start()) + str(m.group(2) is None)
    for w in re.finditer(r'[^\W\d_]+', s, re.I):
        out += w.group()[:1]
    parts = re.split(r'[,;]\s?', s, maxsplit=2)
    new, n = re.subn(r'(a|é)', r'<\1>', s)
    return out + '|' + '/'.join(parts) + '|' + new + str(n) + ''.join(re.findall(r'\d', s)) + re.escape(s[:3])
