"""`stratagem odds -j N` when a worker process dies (docs/security.md, "When something goes
wrong anyway"): the run fails with exit 1 and a message naming the seed of the battle the
dead worker was fighting, with no traceback, and never waits for the dead worker.

The workers are forked from the test process, so a battle patched here to kill its process
kills a real worker: by SIGKILL (what the kernel does to a process out of memory), by
``os._exit`` and by a segmentation fault.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import time

import pytest

from stratagem.cli import main

from .conftest import SKIRMISH

BATTLE = str(SKIRMISH / "battle.yaml")
#: the run's seeds are 1000 .. 1299: three tasks of 100 battles, two in flight at once
FIRST, N = 1000, 300


def _sigkill() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _exit() -> None:
    os._exit(3)


def _segfault() -> None:
    faulthandler.disable()  # pytest's would print the worker's stack: a crash prints nothing
    os.kill(os.getpid(), signal.SIGSEGV)


def _deadly(monkeypatch: pytest.MonkeyPatch, seed: int, die) -> None:
    """The battle of ``seed`` kills the process that fights it."""
    import stratagem.odds

    real = stratagem.odds.run_battle

    def run_battle(scenario, *, seed: int, **kwargs):
        if seed == deadly_seed:
            die()
        return real(scenario, seed=seed, **kwargs)

    deadly_seed = seed
    monkeypatch.setattr(stratagem.odds, "run_battle", run_battle)


@pytest.mark.parametrize("die", [_sigkill, _exit, _segfault], ids=["sigkill", "exit", "segfault"])
@pytest.mark.parametrize("seed", [FIRST + 150, FIRST + 3, FIRST + N - 1],
                         ids=["while-another-fights", "first-task", "last-battle"])
def test_a_worker_that_dies_fails_the_run_and_names_its_seed(monkeypatch, capsys, seed, die):
    _deadly(monkeypatch, seed, die)
    signal.alarm(120)  # a run that waits for the dead worker fails here, not never
    start = time.monotonic()
    try:
        code = main(["odds", BATTLE, "-n", str(N), "-j", "2", "--seed", str(FIRST)])
    finally:
        signal.alarm(0)
    captured = capsys.readouterr()
    assert code == 1, captured.err
    assert captured.out == ""  # no figures: the odds are not complete
    assert "Traceback" not in captured.err
    assert f"a worker process died while fighting the battle of seed {seed} " in captured.err
    assert f"stratagem battle {BATTLE} --seed {seed};" in captured.err
    assert time.monotonic() - start < 120


def test_the_dead_workers_message_is_in_the_users_language(monkeypatch, capsys):
    _deadly(monkeypatch, FIRST + 150, _sigkill)
    assert main(["odds", BATTLE, "-n", str(N), "-j", "2", "--seed", str(FIRST),
                 "--lang", "ru"]) == 1
    err = capsys.readouterr().err
    assert f"рабочий процесс умер во время битвы с зерном {FIRST + 150} " in err, err
    assert f"--seed {FIRST + 150};" in err


def test_a_battle_that_kills_only_a_worker_is_named_even_if_it_runs_alone(monkeypatch, capsys):
    # the seed fights fine in this process (-j 1): only the worker's death is the error
    import stratagem.odds

    parent = os.getpid()
    real = stratagem.odds.run_battle

    def run_battle(scenario, *, seed: int, **kwargs):
        if seed == FIRST + 150 and os.getpid() != parent:
            _sigkill()
        return real(scenario, seed=seed, **kwargs)

    monkeypatch.setattr(stratagem.odds, "run_battle", run_battle)
    assert main(["odds", BATTLE, "-n", str(N), "-j", "1", "--seed", str(FIRST)]) == 0
    capsys.readouterr()
    assert main(["odds", BATTLE, "-n", str(N), "-j", "2", "--seed", str(FIRST)]) == 1
    assert f"the battle of seed {FIRST + 150} " in capsys.readouterr().err
