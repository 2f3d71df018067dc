"""The hostile corpus: files and arguments written as an attacker would, each run by the
command line in a child process under a time and a memory bound.

Every case must end with an allowed exit code (1 or 2 unless it says otherwise), say what
it says it says (the place and the problem), print no traceback, not be killed by a signal,
and never print the canary: a secret file outside the case's folder that a case may try to
read. The case format is in README.md.
"""

from __future__ import annotations

import os
import resource
import signal
import uuid
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from tests.hostile import runner

HERE = Path(__file__).parent
CASE_FILES = sorted((HERE / "cases").glob("*.yaml"))
#: The secret the canary files hold; no case may ever print it.
SECRET = f"canary-{uuid.uuid4().hex}"
CANARY_TEXT = f"root:$6${SECRET}:19000:0:99999:7:::\ndaemon:*:{SECRET}:0:99999:7:::\n"
CANARY_YAML = f"kind: army\nruleset: war-machine\nname: {SECRET}\n{SECRET}: {SECRET}\n"


#: Long values a case may name: ``{digits}`` (3,000 digits), ``{long}`` (10,000 letters),
#: ``{deep}`` (a YAML map nested 10,000 levels deep).
LONG_VALUES = {"digits": "9" * 3000, "long": "x" * 10_000,
               "deep": "{a: " * 10_000 + "1" + "}" * 10_000}


def load_cases() -> list[dict[str, Any]]:
    """Every case of every file, with its ``vary:`` variants expanded (README.md)."""
    cases: list[dict[str, Any]] = []
    for path in CASE_FILES:
        data = YAML(typ="safe").load(path.read_text(encoding="utf-8")) or {}
        for case in data.get("cases") or []:
            case.setdefault("source", path.name)
            variants = case.pop("vary", None)
            if not variants:
                cases.append(case)
                continue
            for n, values in enumerate(variants):
                values = dict(values)
                name = str(values.pop("_id", n))
                cases.append(_substitute(dict(case, id=f"{case['id']}-{name}"), values))
    return cases


def _substitute(value: Any, values: dict[str, Any]) -> Any:
    """``{name}`` replaced by ``values[name]`` in every text of ``value`` (keys too)."""
    if isinstance(value, str):
        for name, new in values.items():
            token = "{" + name + "}"
            if value == token and not isinstance(new, str):
                return new  # a whole value: keep its type (a list, a number)
            value = value.replace(token, str(new))
        return value
    if isinstance(value, list):
        return [_substitute(v, values) for v in value]
    if isinstance(value, dict):
        return {_substitute(k, values): _substitute(v, values) for k, v in value.items()}
    return value


CASES = load_cases()


def test_every_case_has_a_unique_id_and_what_it_says() -> None:
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    for case in CASES:
        assert case.get("argv") and case.get("says"), case["id"]


#: The keys of a case the runner reads (README.md); ``source`` is added by load_cases.
CASE_KEYS = {"id", "files", "argv", "exit", "says", "never_says", "env", "stdin", "stdout",
             "via", "source"}


def test_every_key_of_a_case_is_one_the_runner_reads() -> None:
    # a misspelt key (`never_say:`, `exits:`) would be left out silently, and its case pass
    for case in CASES:
        assert set(case) <= CASE_KEYS, f"{case['id']} ({case['source']}): {set(case) - CASE_KEYS}"


def test_the_corpus_is_large() -> None:
    assert len(CASES) >= 400


@pytest.fixture(scope="module")
def canary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder outside every case's folder, with the secret in a text and a YAML file."""
    folder = tmp_path_factory.mktemp("canary")
    (folder / "shadow").write_text(CANARY_TEXT, encoding="utf-8")
    (folder / "secret.yaml").write_text(CANARY_YAML, encoding="utf-8")
    (folder / "ruleset.yaml").write_text(CANARY_YAML.replace("army", "ruleset"),
                                         encoding="utf-8")
    return folder


@pytest.fixture(scope="module", autouse=True)
def warm() -> None:
    """The shipped rulesets compiled once, in the process every case is forked from."""
    from stratagem.compile import pipeline

    for ruleset in ("war-machine", "gurps-mass-combat", "mazes-minotaurs"):
        pipeline.load_ruleset(ruleset)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_hostile_case(case: dict[str, Any], tmp_path: Path, canary: Path) -> None:
    folder = tmp_path / "case"
    folder.mkdir()
    case = _substitute(case, {
        "tmp": folder, "canary": canary / "shadow", "canary_yaml": canary / "secret.yaml",
        "canary_dir": canary,
        "canary_rel": os.path.relpath(canary / "shadow", folder),
        "canary_yaml_rel": os.path.relpath(canary / "secret.yaml", folder),
        **LONG_VALUES})
    runner.write_files(case, folder)
    outcome = runner.run(case, folder)
    shown = f"{case['id']} ({case['source']}): argv {case['argv']}\n{outcome.output[-3000:]}"
    assert not outcome.timed_out, f"waited over {runner.WALL_LIMIT} s: {shown}"
    assert outcome.signal != signal.SIGXCPU, f"over {runner.TIME_LIMIT} s of CPU: {shown}"
    assert outcome.signal is None, f"killed by signal {outcome.signal}: {shown}"
    assert outcome.exit in case.get("exit", [1, 2]), f"exit {outcome.exit}: {shown}"
    assert "Traceback" not in outcome.output, shown
    assert SECRET not in outcome.output, f"the canary was read: {shown}"
    says = case["says"] if isinstance(case["says"], list) else [case["says"]]
    said = runner.without_usage(outcome.output)
    for text in says:
        assert str(text) in outcome.output, f"does not say {text!r}: {shown}"
        # said by the command, not only by the usage argparse prints for any mistake in argv
        # (`[--seed SEED]` is there whatever went wrong); unless the usage is what is asked
        assert str(text) in said or runner.USAGE.match(str(text)), \
            f"says {text!r} only in the usage: {shown}"
    for text in case.get("never_says") or []:
        assert str(text) not in outcome.output, f"says {text!r}: {shown}"
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    assert outcome.max_rss < own + runner.MEMORY_LIMIT, f"{outcome.max_rss} bytes: {shown}"
