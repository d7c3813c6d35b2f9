"""How many threads a fit's parallel work may take: the cores that other processes leave
free.  FOLD's parallel kernels and LIBRE's binning both ask :func:`free_threads`."""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the OS tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def free_threads(threads: int) -> int:
    """How many of ``threads`` a fit's parallel kernels use: all of them, or, when other
    processes are running (:func:`others_running`), at most the cores they leave free
    (1: the serial kernels)."""
    # three looks: /proc/loadavg and this process's threads are read at two instants, and
    # a thread of ours that stops running between them hides a busy process (a test
    # beside a busy loop saw it once in many runs)
    looks = [others_running() for _ in range(3)]
    others = max((o for o in looks if o is not None), default=None)
    if not others:
        return threads
    return max(1, min(threads, usable_cores() - others))


def others_running() -> int | None:
    """How many threads of other processes are running or ready to run right now
    (Linux: the runnable count of ``/proc/loadavg`` less this process's running
    threads); None where that cannot be read.

    A fit's parallel kernels use only the cores the others leave free
    (:func:`free_threads`): measured on the project's 2-core machine with one busy
    process beside it, FoldSE on 2,000 to 200,000 rows took 1.2x to 2x as long with the
    parallel kernels on both cores as with the serial ones (each parallel step waits
    for the thread the other process holds), where alone the parallel ones were 1.1x
    to 1.55x faster (docs Large tables).
    """
    try:
        with open("/proc/loadavg") as fh:
            running = int(fh.read().split()[3].split("/")[0])
        own = 0
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/stat") as fh:
                # the state follows the thread's name, in parentheses that may hold anything
                if fh.read().rsplit(")", 1)[1].split()[0] == "R":
                    own += 1
    except (OSError, ValueError, IndexError):
        return None
    return max(running - own, 0)
