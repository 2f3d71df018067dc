"""Running one hostile case: its files written into a fresh folder, the command run in a
child process under a time and a memory bound, what it printed collected.

The child is forked from the test process, which has already imported the command line, so
a case costs a fork, not an interpreter start; a case with ``via: subprocess`` runs a real
``python -m stratagem`` instead. The format of a case is in README.md.
"""

from __future__ import annotations

import io
import os
import re
import resource
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any


#: A case's time bound, in seconds of CPU time (a case that computes for longer is killed).
TIME_LIMIT = 5
#: A case's bound in seconds of wall-clock time: one that waits (on a FIFO, a lock, a
#: worker that never answers) is killed then. Larger than the CPU bound, because the test
#: machine may be shared: a case's wall-clock time there is not its own.
WALL_LIMIT = 20.0
#: A case's memory bound: its address space may grow this much past the forking process's.
MEMORY_LIMIT = 500 * 1024 * 1024
#: How many characters of a case's output are kept (a runaway case is cut, then fails).
OUTPUT_LIMIT = 4 * 1024 * 1024


#: The first line of the usage argparse prints with any mistake on the command line (in
#: English, German, Russian); the lines after it that start with a space continue it.
USAGE = re.compile(r"(usage|Aufruf|использование): ")


def without_usage(output: str) -> str:
    """``output`` without argparse's usage lines: what the command itself said."""
    kept: list[str] = []
    in_usage = False
    for line in output.splitlines():
        in_usage = bool(USAGE.match(line)) or (in_usage and line.startswith(" "))
        if not in_usage:
            kept.append(line)
    return "\n".join(kept)


@dataclass
class Outcome:
    exit: int | None  #: the exit code (None when killed by a signal or the time bound)
    signal: int | None  #: the signal that ended it
    timed_out: bool
    stdout: str
    stderr: str
    max_rss: int  #: the largest resident size, in bytes

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def _address_space() -> int:
    """The forking process's virtual size, in bytes (Linux), else 0."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[0]) * resource.getpagesize()
    except OSError:
        return 0


def write_files(case: dict[str, Any], folder: Path) -> None:
    """The case's files, in ``folder``: text, bytes, repeated parts, symbolic links, FIFOs."""
    for rel, spec in (case.get("files") or {}).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(spec, str):
            path.write_bytes(spec.encode("utf-8"))
        elif "symlink" in spec:
            os.symlink(spec["symlink"], path)
        elif "fifo" in spec:
            os.mkfifo(path)
        elif "hex" in spec:
            path.write_bytes(bytes.fromhex(spec["hex"]))
        elif "parts" in spec:
            with path.open("wb") as handle:
                for text, times, *numbered in spec["parts"]:
                    if numbered == ["numbered"]:  # each copy's {n} is its number, from 0
                        handle.write("".join(
                            str(text).replace("{n}", str(n)).replace("{next}", str(n + 1))
                            for n in range(int(times))).encode("utf-8"))
                    else:
                        handle.write(str(text).encode("utf-8") * int(times))
        else:
            raise ValueError(f"{case['id']}: unknown file spec for {rel}: {spec!r}")


def run(case: dict[str, Any], folder: Path) -> Outcome:
    if case.get("via") == "subprocess":
        return _run_subprocess(case, folder)
    return _run_forked(case, folder)


def _limit_subprocess() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CPU, (TIME_LIMIT, TIME_LIMIT + 1))


def _run_forked(case: dict[str, Any], folder: Path) -> Outcome:
    out_path, err_path = folder.parent / f"{folder.name}.out", folder.parent / f"{folder.name}.err"
    budget = _address_space() + MEMORY_LIMIT
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 98
        try:
            os.setpgid(0, 0)
            code = _child(case, folder, out_path, err_path, budget)
        finally:
            os._exit(code)
    start = time.monotonic()
    timed_out = False
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() - start > WALL_LIMIT:
            timed_out = True
            _kill_group(pid)
            done, status, usage = os.wait4(pid, 0)
            break
        time.sleep(0.005)
    _kill_group(pid)  # whatever it left behind (pool workers)
    return Outcome(
        exit=os.WEXITSTATUS(status) if os.WIFEXITED(status) and not timed_out else None,
        signal=os.WTERMSIG(status) if os.WIFSIGNALED(status) and not timed_out else None,
        timed_out=timed_out,
        stdout=_read(out_path), stderr=_read(err_path),
        max_rss=usage.ru_maxrss * 1024,
    )


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _read(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            data = handle.read(OUTPUT_LIMIT)
    except FileNotFoundError:
        return ""
    path.unlink()
    return data.decode("utf-8", "replace")


def _child(case: dict[str, Any], folder: Path, out_path: Path, err_path: Path,
           budget: int) -> int:
    """In the forked child: run the command line's main() as ``python -m stratagem`` would."""
    resource.setrlimit(resource.RLIMIT_AS, (budget, budget))
    resource.setrlimit(resource.RLIMIT_CPU, (TIME_LIMIT, TIME_LIMIT + 1))
    os.chdir(folder)
    out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    err = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(err, 2)
    stdout_mode = case.get("stdout", "file")
    if stdout_mode == "closed":  # a reader that went away: EPIPE
        read_end, write_end = os.pipe()
        os.close(read_end)
        os.dup2(write_end, 1)
    elif stdout_mode == "full":  # a full disk: ENOSPC
        os.dup2(os.open("/dev/full", os.O_WRONLY), 1)
    else:
        os.dup2(out, 1)
    stdin = os.open(folder / case["stdin"] if case.get("stdin") else os.devnull, os.O_RDONLY)
    os.dup2(stdin, 0)
    sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8")
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                  errors="backslashreplace", line_buffering=True)
    os.environ.pop("STRATAGEM_ALLOW_PATH", None)  # the test suite's own (tests/conftest.py)
    for name, value in (case.get("env") or {}).items():
        os.environ[name] = str(value)
    from stratagem.cli import main

    try:
        code = main([str(a) for a in case["argv"]])
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
    except BaseException:  # what the interpreter would print: the test fails on it
        traceback.print_exc()
        code = 1
    try:
        sys.stdout.flush()
    except BaseException:  # as the interpreter does at exit
        print("Exception ignored while flushing sys.stdout", file=sys.stderr)
        traceback.print_exc()
        code = 120
    sys.stderr.flush()
    return int(code or 0)


def _run_subprocess(case: dict[str, Any], folder: Path) -> Outcome:
    env = dict(os.environ, **{k: str(v) for k, v in (case.get("env") or {}).items()})
    env.pop("PYTHONWARNINGS", None)
    env.pop("STRATAGEM_ALLOW_PATH", None)
    stdout: Any = subprocess.PIPE
    if case.get("stdout") == "full":
        stdout = open("/dev/full", "wb")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(
        [sys.executable, "-m", "stratagem", *[str(a) for a in case["argv"]]],
        cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE,
        preexec_fn=_limit_subprocess, start_new_session=True)
    timed_out = False
    try:
        # an interpreter's start costs more than a fork: the bound counts from its first import
        raw_out, raw_err = proc.communicate(timeout=WALL_LIMIT)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc.pid)
        raw_out, raw_err = proc.communicate()
    finally:
        if stdout is not subprocess.PIPE:
            stdout.close()
    code = proc.returncode
    return Outcome(
        exit=code if code is not None and code >= 0 and not timed_out else None,
        signal=-code if code is not None and code < 0 and not timed_out else None,
        timed_out=timed_out,
        stdout=(raw_out or b"").decode("utf-8", "replace"),
        stderr=(raw_err or b"").decode("utf-8", "replace"),
        max_rss=resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024,
    )
