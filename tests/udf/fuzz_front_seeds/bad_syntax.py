def f(s):
    if s
        return (s +
	x = 0777
