def f(s):
    a = 'x' "y" '''z''' """w""" r'\n' R"\t" u'v' rf'{s}\d' F"{s!s}"
    b = '\n\t\\\'\"\a\b\f\v\r\0\7\101\x41\u00e9\U0001F600\d'
    c = 'é漢字😀' + '\
continued'
    return a + b + c if s else chr(0x1F600) + min(s, 'b')
