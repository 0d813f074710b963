#!/usr/bin/env python3
"""Times commands in turn (A, B, C, A, B, C, ...) so that all of them share the same minutes
of the machine's load; prints each one's median and fastest wall time.

    python3 scripts/alternate.py ROUNDS 'COMMAND A' 'COMMAND B' ...

A command is started directly, as its words, so that the time is the program's own: a shell
in between added 1 to 5 ms to every run here, a tenth of a fast program's time. Only a command
that needs a shell (a pipe, a redirection, a variable) is run through one.
"""
import shlex
import statistics
import subprocess
import sys
import time

SHELL_SYNTAX = set("|&;<>()$`*?[]{}~=\\'\"")


def argv(command: str):
    """The words to start `command` with, or the command itself for a shell."""
    if SHELL_SYNTAX & set(command):
        return None
    return shlex.split(command)


def main() -> None:
    rounds, commands = int(sys.argv[1]), sys.argv[2:]
    def run(c):
        words = argv(c)
        subprocess.run(
            words if words is not None else c,
            shell=words is None,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

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
