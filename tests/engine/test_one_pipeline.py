"""One pipeline: what `validate` accepts is exactly what runs (docs/architecture.md).

A differential test over every file kind: shipped files, the broken-file corpus, and
mutations of shipped files (deleted lines, renamed keys, wrong types, misspelt names in
expressions). For each, `validate`'s verdict and its first error's place equal what
`battle` (a scenario, or a scenario of the ruleset), or `rate` (an army) does with it.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from stratagem.api import load_army, load_scenario, rate_army, run_battle, validate
from stratagem.compile import pipeline
from stratagem.compile.pipeline import kind_of
from stratagem.errors import StratagemError, ValidationFailed
from stratagem.loader.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SKIRMISH = ROOT / "tests" / "engine" / "skirmish"
BROKEN = ROOT / "tests" / "broken"


def place(err: StratagemError | None) -> tuple[object, ...] | None:
    if err is None:
        return None
    loc = err.location
    return (loc.file, loc.line, loc.column) if loc else ()


def first(err: StratagemError) -> StratagemError:
    return err.errors[0] if isinstance(err, ValidationFailed) and err.errors else err


def validated(path: Path) -> StratagemError | None:
    errors = validate(path)
    return errors[0] if errors else None


def ran(path: Path, scenario: Path | None = None) -> StratagemError | None:
    """What `battle` (a scenario; a ruleset through ``scenario``) or `rate` (an army) does."""
    try:
        raw = load_yaml(path)
        kind, errors = kind_of(raw, str(path))
        if kind is None:
            return errors[0]
        if kind == "army":
            rate_army(load_army(path))
        elif kind == "scenario":
            run_battle(load_scenario(path), seed=1, tracing=False)
        elif scenario is not None:
            run_battle(load_scenario(scenario), seed=1, tracing=False)
        else:
            return validated(path)  # a locale file: i18n check reads it the same way
    except StratagemError as err:
        return first(err)
    return None


def agree(path: Path, scenario: Path | None = None, what: str = "") -> None:
    """`validate` of the file (of the scenario that uses it, for a ruleset) and what
    running it does: the same verdict, the same first error's place."""
    pipeline._CACHE.clear()
    v = validated(scenario or path)
    pipeline._CACHE.clear()
    b = ran(path, scenario)
    case = f"{path.name}{f' ({what})' if what else ''}"
    assert (v is None) == (b is None), (
        f"{case}: validate says {v.render() if v else 'valid'}; "
        f"the battle says {b.render() if b else 'it ran'}")
    assert place(v) == place(b), f"{case}: {v.render()} / {b.render()}"


# -- shipped files and the broken corpus ----------------------------------------------------
SHIPPED = sorted(p for p in EXAMPLES.rglob("*.yaml")) + sorted(
    p for p in (ROOT / "benchmarks" / "scenarios").glob("*.yaml"))
CORPUS = sorted(p for p in BROKEN.glob("*.yaml"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_validate_and_battle_agree_on_every_shipped_file(path):
    agree(path)
    assert validated(path) is None  # and the shipped files are valid


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_validate_and_battle_agree_on_every_broken_file(path, tmp_path):
    scenario = None
    raw = path.read_text(encoding="utf-8", errors="replace")
    if re.search(r"^kind: (ruleset|setting)", raw, re.MULTILINE):
        scenario = tmp_path / "battle.yaml"
        scenario.write_text(f"kind: scenario\nruleset: {path}\nsides: [{{name: A}}, {{name: B}}]\n",
                            encoding="utf-8")
    agree(path, scenario)


# -- mutations of shipped files -------------------------------------------------------------
def mutation(text: str, rng: random.Random, how: int) -> tuple[str, str]:
    """One change to a file (what was changed, the changed text): a line deleted (0), a key
    renamed (1), a number made a list (2), or a name read in an expression misspelt (3);
    the next kind when the file has nothing of that kind."""
    lines = text.splitlines(keepends=True)
    keyed = [i for i, line in enumerate(lines) if re.match(r"^\s*(- )?[a-z_]+:", line)]
    numbers = [i for i, line in enumerate(lines) if re.search(r":\s*-?\d+\s*(#.*)?$", line)]
    dotted = [(i, m) for i, line in enumerate(lines) if not line.lstrip().startswith("#")
              for m in re.finditer(r"\b([a-z_]+)\.([a-z_]{3,})\b", line)]
    for kind in range(how, how + 4):
        changed = list(lines)
        if kind % 4 == 0 and keyed:
            i = rng.choice(keyed)
            del changed[i]
            return f"line {i + 1} deleted", "".join(changed)
        if kind % 4 == 1 and keyed:
            i = rng.choice(keyed)
            changed[i] = re.sub(r"([a-z_]+):", r"\1x:", changed[i], count=1)
            return f"the key on line {i + 1} renamed", "".join(changed)
        if kind % 4 == 2 and numbers:
            i = rng.choice(numbers)
            changed[i] = re.sub(r":\s*-?\d+", ": [1, 2]", changed[i], count=1)
            return f"the number on line {i + 1} made a list", "".join(changed)
        if kind % 4 == 3 and dotted:
            i, m = rng.choice(dotted)
            line = changed[i]
            changed[i] = line[:m.start(2)] + m.group(2)[:-1] + line[m.end(2):]
            return f"'{m.group(0)}' on line {i + 1} misspelt", "".join(changed)
    raise AssertionError("a file with no keys")


def _mutated_cases() -> list[tuple[str, str, int]]:
    """(the file to mutate, relative to the repository; how many)."""
    cases = [("tests/engine/skirmish/ruleset.yaml", "ruleset", 60),
             ("benchmarks/scenarios/skirmish-12v12.yaml", "scenario", 15)]
    cases += [(str(p.relative_to(ROOT)), "scenario", 4)
              for p in sorted(EXAMPLES.rglob("*.yaml")) if "kind: scenario" in p.read_text()]
    cases += [(str(p.relative_to(ROOT)), "army", 3)
              for p in sorted(EXAMPLES.rglob("*.yaml")) if "kind: army" in p.read_text()]
    return cases


MUTATIONS = [(rel, kind, i) for rel, kind, count in _mutated_cases() for i in range(count)]


@pytest.mark.parametrize("rel, kind, n", MUTATIONS, ids=lambda v: str(v))
def test_validate_and_battle_agree_on_mutated_files(rel, kind, n, tmp_path):
    source = ROOT / rel
    folder = tmp_path / source.parent.name
    shutil.copytree(source.parent, folder)
    target = folder / source.name
    text = source.read_text(encoding="utf-8")
    what, changed = mutation(text, random.Random(f"{rel}:{n}"), n % 4)
    target.write_text(changed, encoding="utf-8")
    scenario = None
    if kind == "ruleset":
        if folder.name != "skirmish":
            shutil.move(folder, tmp_path / "skirmish")
            folder, target = tmp_path / "skirmish", tmp_path / "skirmish" / source.name
        scenario = tmp_path / "battle.yaml"
        scenario.write_text(
            (ROOT / "benchmarks" / "scenarios" / "skirmish-12v12.yaml").read_text(
                encoding="utf-8").replace("../../tests/engine/skirmish/ruleset.yaml",
                                          str(target)), encoding="utf-8")
    elif "../" in changed or kind == "scenario":
        # the armies a scenario names sit beside it in the copied folder; the skirmish
        # scenario's ruleset is named by a path from its own folder
        target.write_text(changed.replace("../../tests/engine/skirmish/ruleset.yaml",
                                          str(SKIRMISH / "ruleset.yaml")), encoding="utf-8")
    agree(target, scenario, what)


def test_the_differential_covers_enough_files():
    assert len(SHIPPED) + len(CORPUS) + len(MUTATIONS) >= 150


# -- troop counts no army can hold (issue 13; tests/hostile/cases/counts.yaml) -------------
HOSTILE_COUNTS = ["1e308", "9223372036854775808", "-5", "null", ".nan", ".inf", '"12"', "true"]


@pytest.mark.parametrize("count", HOSTILE_COUNTS)
def test_validate_and_battle_agree_on_troop_counts_no_army_can_hold(count, tmp_path):
    army = tmp_path / "army.yaml"
    army.write_text("kind: army\nruleset: war-machine\nname: A\nforces:\n  - name: Orcs\n"
                    f"    count: {count}\n    br: 72\n", encoding="utf-8")
    (tmp_path / "other.yaml").write_text("kind: army\nruleset: war-machine\nname: B\n"
                                         "forces: [{name: Men, count: 100, br: 70}]\n",
                                         encoding="utf-8")
    named = tmp_path / "battle.yaml"
    named.write_text("kind: scenario\nruleset: war-machine\nsides:\n  - army: army.yaml\n"
                     "  - army: other.yaml\n", encoding="utf-8")
    inline = tmp_path / "inline.yaml"
    inline.write_text("kind: scenario\nruleset: war-machine\nsides:\n  - forces:\n"
                      f"      - {{name: Orcs, count: {count}, br: 72}}\n  - army: other.yaml\n",
                      encoding="utf-8")
    for path, where in ((army, (str(army), 6, 12)), (named, (str(army), 6, 12)),
                        (inline, (str(inline), 5, 29))):
        agree(path)
        assert place(validated(path)) == where, validated(path)
