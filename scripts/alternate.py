#!/usr/bin/env python3
"""Times commands in turn (A, B, C, A, B, C, ...) so that all of them share the same minutes
of the machine's load; prints each one's median and fastest wall time.

    python3 scripts/alternate.py ROUNDS 'COMMAND A' 'COMMAND B' ...
"""
import statistics
import subprocess
import sys
import time


def main() -> None:
    rounds, commands = int(sys.argv[1]), sys.argv[2:]
    run = lambda c: subprocess.run(c, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(3):  # warm-up: the page cache, the CPU's frequency
        for c in commands:
            run(c)
    times = {c: [] for c in commands}
    for _ in range(rounds):
        for c in commands:
            start = time.perf_counter()
            run(c)
            times[c].append(time.perf_counter() - start)
    for c in commands:
        t = times[c]
        print(f"{statistics.median(t) * 1e3:8.1f} ms median {min(t) * 1e3:8.1f} ms fastest  {c}")


if __name__ == "__main__":
    main()
