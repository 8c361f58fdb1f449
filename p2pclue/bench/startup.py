"""Bench section "startup": the CPU a new ``p2pclue`` process spends before it does anything.

Every command is a new Python process, and so is every player of a LAN table; a command
that loaded the whole program (the terminal UI, the network, every proof) before reading
its arguments spent most of a second on it. Each command here runs as a child of this
process, from this source tree, in English, through a pipe; its CPU (user + system, from
the children's resource usage) is the median of several runs, after one untimed run that
leaves the compiled modules on disk.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from p2pclue.bench import Emit

COMMANDS: tuple[tuple[str, ...], ...] = (
    ("--help",), ("audit", "--help"), ("simulate", "--help"), ("join", "--help"),
    ("watch", "--help"), ("bench", "--help"), ("--version",),
)
TIMEOUT = 60.0


def _env() -> dict[str, str]:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    env["P2PCLUE_INTERFACES"] = "127.0.0.1"
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        env.pop(variable, None)
    return env


def child_cpu(argv: list[str], env: dict[str, str]) -> float:
    """CPU seconds of one child process running ``argv`` (it must exit 0)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=TIMEOUT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def section(emit: Emit, quick: bool) -> dict[str, Any]:
    runs = 3 if quick else 7
    env = _env()
    bare = statistics.median(child_cpu([sys.executable, "-c", "pass"], env)
                             for _ in range(runs))
    cpu: dict[str, float] = {}
    for args in COMMANDS:
        argv = [sys.executable, "-m", "p2pclue", *args]
        child_cpu(argv, env)  # untimed: writes the compiled modules if they are missing
        cpu[" ".join(args)] = round(statistics.median(child_cpu(argv, env)
                                                      for _ in range(runs)), 3)
    emit(f"startup: CPU of a new process (median of {runs}), Python alone "
         f"{bare:.3f} s")
    for command, seconds in cpu.items():
        emit(f"  p2pclue {command}: {seconds:.3f} s")
    return {"startup_cpu_s": cpu, "startup_python_cpu_s": round(bare, 3)}

