import re

WORD = re.compile(r'(?P<w>\w+)', re.U)
SEP = re.compile('[ ,]+')

def f(s):
    digits = re.compile(r'\d+')
    n = len(s)
    out = digits.sub(lambda m: str(int(m.group()) + n), s)
    m = WORD.search(s)
    if m:
        d = m.groupdict()
        out += d['w'] + d.get('x', '-') + str(len(d))
    def tag(m):
        return '<' + m.group().lower() + str(n) + '>'
    out += WORD.sub(tag, s, count=2) + '|'.join(SEP.split(s)) + SEP.pattern + str(WORD.groups)
    return out + str(digits.fullmatch(s) is None) + str(len(re.findall(SEP, s)))
