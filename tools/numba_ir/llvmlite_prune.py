#!/usr/bin/python3
"""Runs llvmlite's refcount pruner (Debian's llvmlite 0.39) on LLVM IR files, as the baseline
for nrt's refprune.

    /usr/bin/python3 tools/numba_ir/llvmlite_prune.py [--repeat N] FILE.ll...

For each file prints one line:
    <file> <refops_before> <refops_after> <bb> <diamond> <fanout> <fanout_raise> <seconds>
refops are calls to NRT_incref / NRT_decref; bb..fanout_raise are llvmlite's per-sub-pass
statistics (pairs removed); seconds is the thread CPU time of the pass manager run (best of N).
"""
import re
import sys
import time

import llvmlite.binding as llvm

llvm.initialize()
llvm.initialize_native_target()
llvm.initialize_native_asmprinter()

REFOP = re.compile(r"call void @NRT_(?:incref|decref)\(")


def count_refops(text):
    return len(REFOP.findall(text))


def prune(path, repeat):
    with open(path) as f:
        text = f.read()
    best = None
    for _ in range(repeat):
        module = llvm.parse_assembly(text)
        pm = llvm.create_module_pass_manager()
        pm.add_refprune_pass(llvm.RefPruneSubpasses.ALL, subgraph_limit=1000)
        before = llvm.dump_refprune_stats()
        t0 = time.thread_time()
        pm.run(module)
        elapsed = time.thread_time() - t0
        stats = llvm.dump_refprune_stats() - before
        best = elapsed if best is None else min(best, elapsed)
    after = str(module)
    print("%s %d %d %d %d %d %d %.6f" % (path, count_refops(text), count_refops(after),
                                          stats.basicblock, stats.diamond, stats.fanout,
                                          stats.fanout_raise, best))


def main(argv):
    repeat = 1
    if len(argv) > 1 and argv[0] == "--repeat":
        repeat = int(argv[1])
        argv = argv[2:]
    for path in argv:
        prune(path, repeat)


if __name__ == "__main__":
    main(sys.argv[1:])
