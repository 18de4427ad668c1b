#!/usr/bin/python3
"""CPython side of bench_str: times `for s in data: EXPR` for each operation over the strings
of a corpus file (one string per line, UTF-8) and prints "name seconds" lines. An EXPR that
names `u` runs over pairs (s, u) of each string and the next one; one that names `w` runs
over the lists s.split() of every string (made before timing).
Usage: bench_str.py CORPUS_FILE REPEAT NAME=EXPR..."""
import re
import sys
import time

def main():
    path, repeat = sys.argv[1], int(sys.argv[2])
    with open(path, encoding='utf-8', newline='') as f:
        data = f.read().split('\n')[:-1]
    pairs = list(zip(data, data[1:] + data[:1]))
    for spec in sys.argv[3:]:
        name, expr = spec.split('=', 1)
        two = re.search(r'\bu\b', expr) is not None
        lists = re.search(r'\bw\b', expr) is not None
        loop = ('    for w in rows: ' if lists else
                '    for s, u in rows: ' if two else '    for s in rows: ')
        src = ('def run(rows):\n    t = time.thread_time()\n' + loop + expr +
               '\n    return time.thread_time() - t\n')
        ns = {'time': time}
        exec(src, ns)
        rows = [s.split() for s in data] if lists else pairs if two else data
        best = min(ns['run'](rows) for _ in range(repeat))
        print(name, best, flush=True)

if __name__ == '__main__':
    main()
