"""Decisions as a GM plans them: answers, preferences, policies, and the fallbacks that
`battle` refuses, `odds` counts, and replays repeat."""

import json
from pathlib import Path

import pytest

from stratagem.api import load_scenario, replay_inputs, run_battle
from stratagem.cli import main
from stratagem.errors import StratagemError

# A small invented system: each round side A picks an enemy unit still standing (no
# default: the scenario must say) and an effort (1 to `most`, 3; default 1), and strikes it
# for effort × 1d6 men. (With a bound the schema cannot read, an effort of 7 is found out
# only when it is asked.)
RULESET = """\
kind: ruleset
id: strike
dice: {default_sides: 6}
constants: {most: 3}
entities:
  battle:
    fields:
      rounds: {type: int, default: 3}
      round: {type: int, default: 0, owner: battle}
    children: {sides: side}
  side:
    children: {units: unit}
    derived:
      troops: "sum(u.count for u in units)"
  unit:
    fields:
      count: {type: int, min: 0, required: true}
procedures:
  fight:
    - set: {a: "battle.sides[0]", b: "battle.sides[1]"}
    - repeat:
        as: round
        max: battle.rounds
        do:
          - update: battle
            set: {round: round}
          - decide: target
            for: a
            options: "[u.name for u in b.units if u.count > 0]"
            as: target
          - decide: effort
            for: a
            range: [1, most]
            default: "1"
          - roll: "1d6"
            as: hit
          - for_each:
              in: b.units
              as: u
              do:
                - update: u
                  when: "u.name == target"
                  set: {count: "max(0, count - hit * effort)"}
entry: {battle: fight}
outcome: "'B routed' if battle.sides[1].troops < 60 else 'B holds'"
report: {side: [troops]}
"""

SCENARIO = """\
kind: scenario
ruleset: strike.yaml
name: The ford
battle: {rounds: ROUNDS}
sides:
  - {name: A, units: [{name: Spears, count: 10}]}
  - name: B
    units: [{name: Ogre, count: OGRE}, {name: Goblin, count: 3}, {name: Rat, count: 100}]
decisions:
DECISIONS
"""


@pytest.fixture
def scenario(tmp_path):
    (tmp_path / "strike.yaml").write_text(RULESET, encoding="utf-8")

    def write(decisions: str, rounds: int = 3, ogre: int = 2) -> Path:
        path = tmp_path / "ford.yaml"
        path.write_text(SCENARIO.replace("ROUNDS", str(rounds)).replace("OGRE", str(ogre))
                        .replace("DECISIONS", decisions), encoding="utf-8")
        return path

    return write


def decided(result, decision):
    return [(e.values["value"], e.values["source"], e.values.get("reason"))
            for e in result.trace if e.step == "decide" and e.values["decision"] == decision]


def test_preferences_take_the_first_that_applies_then_else(scenario):
    # effort 3 kills at least 3 a round: the ogre (2) falls in round 1, the goblin (3) in 2
    path = scenario("  target: {A: {prefer: [Ogre, Goblin], else: Rat}}\n  effort: {A: 3}")
    for seed in range(5):
        assert decided(run_battle(path, seed=seed), "target") == [
            ("Ogre", "preference", None), ("Goblin", "preference", None),
            ("Rat", "else", "decision.reason.none_applies")]


def test_a_policy_reads_the_battle_the_side_the_enemy_and_the_options(scenario):
    # A (10 men) is always outnumbered by B (105, losing at most 54 over 3 rounds)
    path = scenario("  target: {A: Rat}\n  effort: {A: {policy: \"options[-1] if enemy.troops "
                    "> side.troops and battle.round > 1 else options[0]\"}}")
    result = run_battle(path, seed=1)
    assert decided(result, "effort") == [(1, "policy", None), (3, "policy", None),
                                         (3, "policy", None)]
    assert decided(run_battle(path, seed=2), "effort") == decided(result, "effort")


def test_a_policy_that_gives_no_answer_falls_back_on_else(scenario):
    path = scenario("  target: {A: Rat}\n  effort: {A: {policy: \"2 if battle.round == 1 else "
                    "none\", else: 3}}")
    assert decided(run_battle(path, seed=0), "effort") == [
        (2, "policy", None), (3, "else", "decision.reason.policy_none"),
        (3, "else", "decision.reason.policy_none")]


@pytest.mark.parametrize("policy, message, hint, column", [
    ("3 if enmy.troops > 1 else 1", "the name 'enmy' is not defined here", "did you mean "
     "'enemy'?", 24),
    ("3 if enemy.trops > 1 else 1", "a side has no field or derived value 'trops'",
     "did you mean 'troops'?", 24),
    ("3 if batle.round > 1 else 1", "the name 'batle' is not defined here", "'battle'", 24),
])
def test_a_misspelt_name_in_a_policy_is_refused_at_load(scenario, capsys, policy, message,
                                                         hint, column):
    path = scenario(f"  target: {{A: Rat}}\n  effort: {{A: {{policy: \"{policy}\"}}}}")
    with pytest.raises(StratagemError) as caught:
        load_scenario(path)
    text = caught.value.render()
    assert f"ford.yaml:11:{column}: `{policy}`: {message}" in text
    assert hint in text
    assert main(["odds", str(path), "-n", "5"]) == 1
    assert f"ford.yaml:11:{column}:" in capsys.readouterr().err
    assert main(["validate", str(path)]) == 1
    assert f"ford.yaml:11:{column}: `{policy}`: {message}" in capsys.readouterr().out


@pytest.mark.parametrize("plan, message", [
    # (the scenario's schema finds most of them, before the plans are compiled)
    ("{prefr: [Rat]}", "ford.yaml:10:16: unknown field 'prefr'"),
    ("{prefer: [Rat], policy: '1'}", "a plan is either `prefer:` or `policy:`, not both"),
    ("{prefer: []}", "ford.yaml:10:24: needs at least 1 item"),
    ("[[Rat]]", "ford.yaml:10:16: expected text, a number, true/false or a map"),
])
def test_a_malformed_plan_is_refused_at_load(scenario, plan, message):
    with pytest.raises(StratagemError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_scenario(scenario(f"  target: {{A: {plan}}}"))


def test_an_answer_the_rules_never_accept_is_refused_at_load(scenario):
    path = scenario("  target: {A: Rat}\n  effort: {A: {prefer: [2, 7]}}")
    (path.parent / "strike.yaml").write_text(
        RULESET.replace("range: [1, most]", "options: [1, 2, 3]"), encoding="utf-8")
    with pytest.raises(StratagemError, match=r"ford.yaml:11:28: 7 is not a valid decision "
                                             "'effort'; must be one of: 1, 2, 3"):
        load_scenario(path)


def test_battle_names_the_decision_seed_moment_and_options_when_an_answer_cannot_apply(
        scenario, capsys):
    path = scenario("  target: {A: Ogre}\n  effort: {A: 3}")
    assert main(["battle", str(path), "--seed", "5"]) == 1
    err = capsys.readouterr().err
    assert ("ford.yaml:10:15: Decision target (A, seed 5, round 2): Ogre is not among the "
            "options; the options then: Goblin, Rat.") in err
    assert "e.g. target: {A: {prefer: [Ogre], else: Rat}}" in err
    assert main(["battle", str(path), "--seed", "5", "--lang", "ru"]) == 1
    assert ("Решение target (A, зерно 5, round 2): Ogre нет среди вариантов"
            in capsys.readouterr().err)


def test_battle_refuses_an_answer_the_step_has_a_default_for(scenario, capsys):
    # `battle` fights the battle the scenario describes: a default is no plan of the GM's
    path = scenario("  target: {A: Rat}\n  effort: {A: 7}")
    assert main(["battle", str(path), "--seed", "3"]) == 1
    assert "Decision effort (A, seed 3, round 1): 7 is not from 1 to 3" in \
        capsys.readouterr().err


def odds_json(capsys, path, *args):
    code = main(["odds", str(path), "--json", *args])
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert "seconds" not in data  # timings only with --timings: the JSON is deterministic
    return code, data, captured.err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_odds_count_the_fallbacks_the_same_for_any_number_of_processes(scenario, capsys, jobs):
    path = scenario("  target: {A: {prefer: [Ogre], else: Rat}}\n  effort: {A: 7}", ogre=6)
    code, data, _ = odds_json(capsys, path, "-n", "250", "-j", jobs)
    assert code == 0 and data["battles"] == 250
    by = {(f["decision"], f["subject"]): f for f in data["fallbacks"]}
    effort = by["effort", "A"]  # 7 never applies: the rule's default in every battle
    assert effort["battles"] == 250
    assert effort["reasons"] == [{"key": "decision.reason.out_of_range",
                                  "params": {"value": 7, "lo": 1, "hi": 3}, "battles": 250}]
    # the ogre (6) falls to 1d6 × 1 only on a 6 in rounds 1 or 2: then Rat, by `else:`
    target = by["target", "A"]
    fell = sum(1 for seed in range(250)
               if "else" in [s for _, s, _ in decided(run_battle(path, seed=seed,
                                                                rule_defaults=True),
                                                     "target")])
    assert target["battles"] == fell and 0 < fell < 250
    _, again, _ = odds_json(capsys, path, "-n", "250", "-j", "1" if jobs == "2" else "2")
    assert again == data


def test_odds_report_their_fallbacks_in_the_reports_language(scenario, capsys):
    path = scenario("  target: {A: {prefer: [Ogre], else: Rat}}\n  effort: {A: 7}", ogre=6)
    assert main(["odds", str(path), "-n", "40", "-j", "1"]) == 0
    out = capsys.readouterr().out
    assert "Fallbacks (where the scenario's answer could not apply):" in out
    assert "  effort (A): fallback in 40 of 40 battles: 7 is not from 1 to 3" in out
    assert main(["odds", str(path), "-n", "40", "-j", "1", "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "  effort (A): запасной вариант в 40 из 40 битв: 7 — не от 1 до 3" in out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_odds_stop_at_a_battle_with_no_fallback_and_keep_the_figures_before_it(
        scenario, capsys, jobs):
    # the ogre (6) survives round 1 unless the die shows 6; then round 2 has no answer
    path = scenario("  target: {A: Ogre}\n  effort: {A: 1}", rounds=2, ogre=6)
    first_stuck = next(seed for seed in range(300) if _fails(path, seed))
    assert first_stuck > 0
    code, data, err = odds_json(capsys, path, "-n", "300", "-j", jobs)
    assert code == 1
    assert data["battles"] == first_stuck
    assert data["partial"]["stopped_at_seed"] == first_stuck and data["partial"]["asked"] == 300
    assert sum(o["count"] for o in data["outcomes"].values()) == first_stuck
    assert f"Decision target (A, seed {first_stuck}, round 2): Ogre is not among" in err
    assert main(["odds", str(path), "-n", "300", "-j", jobs]) == 1
    out = capsys.readouterr().out
    assert out.startswith("Rules: strike\nPARTIAL: stopped at the battle with seed "
                          f"{first_stuck}; the figures are those of the {first_stuck} battles")


def _fails(path, seed):
    try:
        run_battle(path, seed=seed, tracing=False)
    except StratagemError:
        return True
    return False


def test_a_battle_decided_by_policies_replays_without_them(scenario, tmp_path, capsys):
    path = scenario("  target: {A: {prefer: [Ogre, Goblin], else: Rat}}")
    policy = "effort:A={policy: \"options[-1] if battle.round > 1 else options[0]\"}"
    assert main(["battle", str(path), "--seed", "8", "--json", "--decide", policy]) == 0
    recorded = tmp_path / "trace.json"
    recorded.write_text(capsys.readouterr().out, encoding="utf-8")
    first = json.loads(recorded.read_text(encoding="utf-8"))
    assert first["decisions"]["effort"] == {"A": [1, 3, 3]}
    dice, decisions = replay_inputs(recorded)
    again = json.loads(run_battle(path, dice=dice, decisions=decisions).to_json())
    assert again["end"] == first["end"]
    assert [e.get("message") for e in again["trace"]] == [e.get("message")
                                                           for e in first["trace"]]
    # and from the command line, with the same seed and the policy: the same battle
    assert main(["battle", str(path), "--replay", str(recorded)]) == 0
    replayed = capsys.readouterr().out.splitlines()
    assert main(["battle", str(path), "--seed", "8", "--decide", policy]) == 0
    fought = capsys.readouterr().out.splitlines()
    assert replayed[2] == "Scripted dice: 3 rolls" and fought[2] == "Seed: 8"
    assert replayed[3:] == fought[3:]


def test_a_plan_given_with_decide_is_checked_like_the_scenarios(scenario, capsys):
    path = scenario("  target: {A: Rat}")
    assert main(["battle", str(path), "--decide",
                 "effort:A={policy: \"3 if enemy.troop > 1 else 1\"}"]) == 1
    err = capsys.readouterr().err
    assert "--decide effort:A:1:10: `3 if enemy.troop > 1 else 1`: a side has no field" in err
    assert "did you mean 'troops'?" in err


@pytest.mark.parametrize("tracing", [False, True])
def test_a_rules_default_out_of_its_range_is_an_error_at_the_step(scenario, tmp_path, tracing):
    # the default is checked as an answer is (here without an `Asking` made for a default
    # that has nothing to check): 5 is outside effort's 1..3
    rules = tmp_path / "strike.yaml"
    rules.write_text(RULESET.replace('default: "1"', 'default: "5"'), encoding="utf-8")
    path = scenario("  target: {A: Rat}")
    with pytest.raises(StratagemError) as caught:
        run_battle(path, seed=0, tracing=tracing)
    err = caught.value
    assert "decision 'effort' for A" in err.message and "(the rule's default)" in err.message
    assert err.location is not None and err.location.line == RULESET[
        :RULESET.index("- decide: effort")].count("\n") + 1


def test_a_plain_default_is_taken_and_traced_as_the_default(scenario):
    path = scenario("  target: {A: Rat}")
    assert decided(run_battle(path, seed=1), "effort") == [(1, "default", None)] * 3
