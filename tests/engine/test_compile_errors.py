"""A ruleset mistake is a load error with its position, never a mid-battle crash."""

from typing import Any

import pytest

from stratagem.compile.ruleset import compile_ruleset
from stratagem.errors import StratagemError, ValidationFailed
from stratagem.i18n.catalog import translator
from stratagem.interp.context import Decisions, Run
from stratagem.interp.dicesource import SeededDice
from stratagem.interp.steps import call
from stratagem.loader.yamlio import load_yaml

BASE = """kind: ruleset
id: tiny
entities:
  battle:
    fields: {winner: {type: str, optional: true}}
    children: {sides: side}
  side:
    fields: {skill: {type: int, default: 10}}
tables:
  odds:
    provenance: house-rule
    match: range
    rows:
      - {range: [null, 0], bonus: -1}
      - {range: [1, null], bonus: 1}
entry: {battle: fight}
procedures:
  fight:
"""


def errors_of(steps: str) -> list[str]:
    doc = load_yaml("tiny.yaml", text=BASE + steps)
    with pytest.raises(ValidationFailed) as failed:
        compile_ruleset(doc)
    return [e.render() for e in failed.value.errors]


def failed_fight(text: str) -> tuple[StratagemError, Any]:
    """Compile a ruleset, fight its procedure: the error it raises, and the battle state."""
    rs = compile_ruleset(load_yaml("tiny.yaml", text=text))
    root = rs.new_entity(rs.kinds["battle"], {}, None)
    with pytest.raises(StratagemError) as failed:
        call(Run(rs, root, SeededDice(0), Decisions()), "fight", {})
    return failed.value, root


def test_a_valid_ruleset_compiles():
    doc = load_yaml("tiny.yaml", text=BASE + "    - set: {x: \"lookup('odds', 3).bonus\"}\n")
    rs = compile_ruleset(doc)
    assert rs.lookup("odds", 3).bonus == 1
    assert rs.lookup("odds", 3, shift=-1).bonus == -1


def test_a_ruleset_compiled_from_a_document_translates():
    # Only load_ruleset finds locale files; a ruleset compiled alone has none, and reads
    # the engine's own messages (it used to hold a list here, which has no .get).
    rs = compile_ruleset(load_yaml("tiny.yaml", text=BASE + "    - set: {x: 1}\n"))
    assert rs.locale_files == {}
    assert translator(rs, "en").t("report.ruleset", ruleset="tiny") == "Rules: tiny"
    assert translator(rs, "ru").t("report.ruleset", ruleset="tiny").startswith("Правила")


def test_unknown_step_names_its_position_and_the_closest_step():
    (err,) = errors_of("    - rol: 3d\n")
    assert err.startswith("tiny.yaml:19:7")
    assert "unknown step 'rol'" in err and "did you mean 'roll'" in err


def test_undefined_name():
    (err,) = errors_of("    - set: {x: 'skil + 1'}\n")
    assert "tiny.yaml:19:16" in err and "the name 'skil' is not defined here" in err


def test_names_are_known_after_the_step_that_sets_them():
    doc = load_yaml("tiny.yaml", text=BASE + "    - set: {a: 1}\n    - set: {b: 'a + 1'}\n")
    compile_ruleset(doc)


def test_missing_table():
    (err,) = errors_of("    - lookup: oddz\n      key: 1\n      as: r\n")
    assert "there is no table 'oddz'" in err and "did you mean 'odds'" in err


def test_missing_table_inside_an_expression():
    (err,) = errors_of("    - set: {x: \"lookup('od', 1)\"}\n")
    assert "there is no table 'od'" in err


def test_bad_expression_shows_a_caret():
    (err,) = errors_of("    - set: {x: '1 +* 2'}\n")
    assert "cannot read expression" in err and "^" in err


def test_bad_dice():
    (err,) = errors_of("    - roll: 1d0\n      as: r\n")
    assert "tiny.yaml:19:13" in err and "at least 1 side" in err


def test_unknown_function():
    (err,) = errors_of("    - set: {x: 'maxx(1, 2)'}\n")
    assert "unknown function 'maxx'" in err and "did you mean 'max'" in err


def test_unknown_option_of_a_step():
    (err,) = errors_of("    - roll: 3d\n      ass: r\n")
    assert "`roll` step has no option 'ass'" in err and "did you mean 'as'" in err


def test_forbidden_constructs_are_rejected():
    (err,) = errors_of("    - set: {x: 'lambda: 1'}\n")
    assert "Lambda" in err
    (err,) = errors_of("    - set: {x: 'battle.__class__'}\n")
    assert "'_' are not allowed" in err


def test_repeat_without_an_end_is_a_load_error():
    (err,) = errors_of("    - repeat: {do: [{set: {x: 1}}]}\n")
    assert "never end" in err


def test_all_errors_are_collected():
    errs = errors_of("    - rol: 3d\n    - set: {x: 'nope'}\n    - call: nowhere\n")
    assert len(errs) == 3


def test_table_without_provenance():
    text = BASE.replace("    provenance: house-rule\n", "") + "    - set: {x: 1}\n"
    with pytest.raises(ValidationFailed) as failed:
        compile_ruleset(load_yaml("tiny.yaml", text=text))
    assert "does not say where it comes from" in failed.value.errors[0].message


@pytest.mark.parametrize("text", [
    "max([], default=battle.sides.append)",    # a method handed to a function
    "battle.sides.append",                     # a method as a value
    "sorted(battle.sides, key='__class__')",   # a hidden attribute by name
])
def test_expressions_cannot_reach_methods(text):
    _, root = failed_fight(BASE + f"    - set: {{x: \"{text}\"}}\n")
    assert root.sides == []  # nothing was appended


def test_a_changed_rule_file_is_read_again(tmp_path):
    import os
    import shutil

    from stratagem.compile.pipeline import load_ruleset

    from .conftest import SKIRMISH

    folder = tmp_path / "skirmish"
    shutil.copytree(SKIRMISH, folder)
    first = load_ruleset(str(folder / "ruleset.yaml"))
    assert load_ruleset(str(folder / "ruleset.yaml")) is first  # unchanged: reused
    path = folder / "ruleset.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("percent: 40", "percent: 45"),
                    encoding="utf-8")
    stat = path.stat()
    os.utime(path, (stat.st_atime, stat.st_mtime + 10))
    again = load_ruleset(str(path))
    assert again is not first
    assert again.lookup("losses", -10).percent == 45


@pytest.mark.parametrize("name, hint", [
    ("winer", "did you mean 'winner'?"),
    ("skill", "the fields of a battle: winner, name, id, plural"),  # a side's field, not a battle's
])
def test_updating_a_field_the_entity_lacks_is_an_error_at_its_name(name, hint):
    # `battle` is known to be the battle: its fields are checked at load, before a battle
    line = f"      set: {{winner: \"'Red'\", {name}: 12}}"
    (err,) = errors_of("    - update: battle\n" + line + "\n")
    assert err.startswith(f"tiny.yaml:20:{line.index('12') + 1}: ")  # at the value
    assert f"a battle has no field '{name}' to update" in err
    assert err.endswith(f"hint: {hint}")


def test_updating_an_entity_of_a_kind_known_only_when_it_runs_is_checked_then():
    # `first(...)` of a mixed list: the kind is known only when the step runs; its fields
    # are checked then, before anything is changed.
    line = "      set: {winner: \"'Red'\", winer: 12}"
    failure, root = failed_fight(BASE + "    - update: \"first([battle, 1])\"\n" + line + "\n")
    err = failure.render()
    assert err.startswith(f"tiny.yaml:20:{line.index('12') + 1}: ")
    assert "a battle has no field 'winer' to update" in err
    assert root.winner is None  # nothing was changed


def test_a_range_table_remembers_a_bounded_number_of_keys():
    # Odds over many battles look up ratios that are rarely the same twice: the rows found
    # are remembered up to a bound, and every lookup still finds its row.
    from stratagem.model.tables import MAX_REMEMBERED

    rs = compile_ruleset(load_yaml("tiny.yaml", text=BASE + "    - set: {x: 1}\n"))
    for n in range(1, 2 * MAX_REMEMBERED):
        assert rs.lookup("odds", n).bonus == 1
        assert rs.lookup("odds", -n).bonus == -1
    assert len(rs.tables["odds"]._index) == MAX_REMEMBERED


@pytest.mark.parametrize("call, message", [
    ("bonus(1)", "formula 'bonus' needs theirs"),
    ("bonus(1, 2, 3)", "formula 'bonus' takes 2 values, got 3"),
    ("bonus(1, mine=2)", "formula 'bonus' needs theirs"),
    ("bonus()", "formula 'bonus' needs mine, theirs"),
    ("bonus(theirs=2)", "formula 'bonus' needs mine"),
    # a formula of one value (its values are taken by a function of their own)
    ("gain()", "formula 'gain' needs v"),
    ("gain(1, 2)", "formula 'gain' takes 1 value"),
    ("gain(w=1)", "formula 'gain' needs v"),
])
def test_a_formula_called_with_the_wrong_arguments_says_which(call, message):
    text = BASE.replace("entry: {battle: fight}\n", "entry: {battle: fight}\nformulas:\n"
                        "  bonus: {params: [mine, theirs], expr: 'mine - theirs'}\n"
                        "  gain: {params: [v], expr: 'v + 1'}\n")
    rs = compile_ruleset(load_yaml("tiny.yaml", text=text + "    - set: {x: 1}\n"))
    assert rs.evaluate("bonus(5, 2)") == 3
    assert rs.evaluate("[bonus(theirs=2, mine=5), gain(v=1), gain(1)]") == [3, 2, 2]
    # found at load, at the call (not at the formula's definition), with its parameters
    with pytest.raises(ValidationFailed) as failed:
        compile_ruleset(load_yaml("tiny.yaml", text=text + f"    - set: {{x: \"{call}\"}}\n"))
    (err,) = [e.render() for e in failed.value.errors]
    assert err.startswith("tiny.yaml:22:16: ") and "($.procedures.fight[0].set.x)" in err
    assert message in err and err.endswith(
        "hint: bonus(mine, theirs)" if call.startswith("bonus") else "hint: gain(v)")
    # an expression the API evaluates unchecked says the same when it runs
    with pytest.raises(StratagemError) as ran:
        rs.evaluate(call)
    assert message in ran.value.render()


def test_a_key_between_two_ranges_names_the_key_as_written():
    # The ranges of `odds` are [.., 0] and [1, ..]: a ratio of 1/2 falls between them.
    failure, _ = failed_fight(BASE + "    - lookup: odds\n      key: '1 / 2'\n      as: row\n")
    err = failure.render()
    assert err.startswith("tiny.yaml:19:15: no row of table 'odds' matches 1/2 (0.5)")
    assert "hint: it falls between the ranges [null, 0] and [1, null]" in err


@pytest.mark.parametrize(("text", "says"), [
    ("group_by(battle.sides, 'skil')", "a side has no field or value 'skil'"),
    ("unique(battle.sides, key='skil')", "a side has no field or value 'skil'"),
    ("sorted(battle.sides, key='skil')", "a side has no field or value 'skil'"),
    ("group_by(battle.sides)", "group_by() takes 2 values, got 1"),
    ("group_by(battle.sides, 'skill', 'id')", "group_by() takes 2 values, got 3"),
    ("unique(battle.sides, 'skill', key='id')", "unique() takes 1 to 2 values, got 3"),
    ("group_by(battle.sides, 'skill', reverse=true)", "group_by() takes no value 'reverse'"),
    ("group_by(battle.sides, 'skill')['x'][0].skil", "a side has no field or value 'skil'"),
    ("unique(battle.sides)[0].skil", "a side has no field or value 'skil'"),
])
def test_grouping_is_checked_at_load(text, says):
    # the field a key names is one the items have; what a group holds is known
    errors = errors_of(f"    - set: {{x: \"{text}\"}}\n")
    assert len(errors) == 1 and says in errors[0], errors
    assert "did you mean 'skill'" in errors[0] or "skil'" not in says


@pytest.mark.parametrize("text", [
    "group_by(battle.sides, 'skill')", "group_by(battle.sides, key='skill')",
    "unique(battle.sides)", "unique(battle.sides, 'skill')", "unique([1, 1], key=none)",
    "group_by(battle.sides, 'parent')", "sorted(battle.sides, key='name')",
])
def test_grouping_that_is_right_loads(text):
    compile_ruleset(load_yaml("tiny.yaml", text=BASE + f"    - set: {{x: \"{text}\"}}\n"))
