"""The GURPS battle of benchmarks/scenarios/gurps-12v12.yaml, written by hand.

    python benchmarks/reference_gurps.py            # 10,000 battles: the time per battle
    python benchmarks/reference_gurps.py -n 1000 --seed 5 --show 3

One day of GURPS Mass Combat (3rd edition) as a GM who codes would write it for this one
battle: two Yrth armies of Average human troops with no heroes, no magic and no
defensive position, in the open field at TL 3. It imports nothing of Stratagem: the armies
are read from the scenario file, the rules are the few lines below, and the dice are its
own `random.Random(seed)`. It follows the readings the shipped ruleset
(rulesets/gurps-mass-combat/) chose where the book is unclear, so the two must agree on
the distribution of outcomes (benchmarks/compare_reference.py, tests/gurps/
test_reference_oracle.py), though not battle for battle: their dice differ.

The day, in the book's order («Последовательность ходов в массовом бою»):
  1. each side rolls 3d on the Catastrophe table;
  2. each side's Strategy is modified (catastrophes, the TS comparison, cavalry
     superiority; a killed commander halves the base skill, rounded up);
  3. a Quick Contest of Strategy: 3d against each side's Strategy; the larger margin wins
     by the difference; Table A (open field) sets the Morale rolls: units hold, retreat
     or rout;
  4. casualties: the Casualty Table row of the side's difference (+ the winner's,
     - the loser's), moved down for armour and 1d up for a rout.
A victory by 3 or less is no clear win: the battle counts as a draw.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

SCENARIO = Path(__file__).resolve().parent / "scenarios" / "gurps-12v12.yaml"

# -- the troops («Армии Yrth`а — Типы войск»): TS per man; rows down the Casualty Table for
# armour (heavy 4, medium 2, light 1); mounted (counts for cavalry superiority)
TROOPS = {
    "heavy_cavalry": (8, 4, True),
    "medium_cavalry": (6, 2, True),
    "light_cavalry": (4, 1, True),
    "heavy_infantry": (6, 4, False),
    "medium_infantry": (4, 2, False),
    "light_infantry": (3, 1, False),
}
AVERAGE_MORALE = 13           # Average troops; TS ×1
MORALE_TS_PERCENT = 10        # each point of Morale from the base: ±10 % TS, rounded down
IMPORTANT_PERCENT = 20        # an important unit: at least 20 % of the side's TS

# -- the Catastrophe table: (lowest roll, strategy, Morale of all units, Morale of the
# struck unit, % TS to the enemy, every unit rolls Morale, which unit is struck, it leaves
# the field, its effect lasts, the commander's Strategy is halved)
CATASTROPHES = [
    (18, 0, -5, -5, 0, False, None, False, True, True),         # commander killed
    (17, -2, 0, -3, 0, False, "important", False, True, False),  # a leader killed
    (16, -2, -3, -3, 0, False, None, False, False, False),      # commander wounded
    (15, 0, -1, -2, 0, False, "important", False, False, False),  # a leader wounded
    (14, -2, 0, 0, 0, True, "any", True, False, False),         # a unit defects
    (13, 0, 0, 0, 0, True, None, False, False, False),          # atrocity: anger or fear
    (12, -2, -1, -1, 0, False, None, False, False, False),      # friction
    (11, -2, 0, 0, 0, False, None, False, False, False),        # plans known
    (10, 0, 0, 0, 10, False, None, False, False, False),        # enemy reinforcements
    (8, -1, 0, 0, 0, False, None, False, False, False),         # surprise
    (3, 0, 0, 0, 0, False, None, False, False, False),          # nothing
]

# -- the TS comparison (a ratio of at least a/b → Strategy bonus) and Special Unit
# Superiority (the ratio rounded down at least → bonus; an enemy without any counts as 5:1)
TS_COMPARISON = [(10, 1, 8), (7, 1, 7), (5, 1, 6), (4, 1, 5), (3, 1, 4), (2, 1, 3), (3, 2, 2),
                 (11, 10, 1)]
SUPERIORITY = [(5, 3), (3, 2), (2, 1)]

# -- Table A, the open field: (least difference, Morale modifier, a success, a failure,
# failing by this much routs (0: never), both sides roll); 17+ the loser routs outright
TABLE_A = [
    (13, -4, "retreat", "rout", 0, False),   # great victory
    (8, -2, "retreat", "rout", 0, False),    # significant
    (4, 0, "retreat", "rout", 0, False),     # minor
    (0, 0, "hold", "retreat", 5, True),      # no clear winner: both sides roll
]

# -- the Casualty Table, from the worst row to the best: (least difference, dice, added %,
# least %); the row past the last ("19 or more") loses nobody
CASUALTIES = [
    (None, 12, 60, 0), (-18, 11, 55, 0), (-16, 10, 50, 0), (-14, 9, 45, 0), (-12, 8, 40, 0),
    (-10, 7, 35, 0), (-8, 6, 30, 0), (-6, 5, 25, 0), (-4, 4, 20, 0), (-2, 4, 15, 0),
    (0, 4, 10, 0), (1, 4, 5, 0), (3, 4, 0, 0), (5, 3, 0, 0), (7, 2, 2, 0), (9, 2, 0, 0),
    (11, 1, 2, 0), (13, 1, 0, 0), (15, 1, -2, 1), (17, 1, -4, 1), (19, 0, 0, 0),
]
ON_FIELD = ("ready", "hold")


class Unit:
    __slots__ = ("name", "count", "per_man", "armour", "mounted", "morale", "status",
                 "dead", "wounded")

    def __init__(self, name: str, troop: str, count: int) -> None:
        self.name, self.count = name, count
        self.per_man, self.armour, self.mounted = TROOPS[troop]
        self.morale = AVERAGE_MORALE
        self.status = "ready"
        self.dead = self.wounded = 0

    def ts(self) -> int:
        factor = 100 + MORALE_TS_PERCENT * (self.morale - AVERAGE_MORALE)
        return max(0, self.count * self.per_man * factor // 100)


class Side:
    def __init__(self, name: str, strategy: int, units: list[Unit]) -> None:
        self.name, self.strategy, self.units = name, strategy, units
        self.ts_bonus = self.strategy_mod = self.margin = 0
        self.commander_killed = False

    def fighting(self) -> list[Unit]:
        return [u for u in self.units if u.count > 0 and u.status in ON_FIELD]

    def ts(self) -> int:
        return sum(u.ts() for u in self.fighting()) * (100 + self.ts_bonus) // 100

    def cavalry_ts(self) -> int:
        return sum(u.ts() for u in self.fighting() if u.mounted)


def read_armies(path: Path = SCENARIO) -> list[tuple[str, int, list[tuple[str, str, int]]]]:
    """(name, Strategy, [(unit, troop, men)]) of each side, the defender first as the file
    lists them."""
    from ruamel.yaml import YAML

    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    return [(s["name"], s["strategy"], [(u["name"], u["troop"], u["count"]) for u in s["units"]])
            for s in data["sides"]]


ARMIES = read_armies()


def fight(seed: int) -> dict[str, object]:
    """One battle: the winner (None: no clear winner), the margin (the first side's margin
    in the Strategy contest less the second's) and each side's dead and wounded."""
    uniform = random.Random(seed).random

    def die(sides: int = 6) -> int:
        return int(uniform() * sides) + 1

    def dice(n: int) -> int:  # n six-sided dice
        total = n
        for _ in range(n):
            total += int(uniform() * 6)
        return total

    sides = [Side(name, strategy, [Unit(*u) for u in units]) for name, strategy, units in ARMIES]

    # 1. Catastrophes
    for side, foe in ((sides[0], sides[1]), (sides[1], sides[0])):
        roll = dice(3)
        (_, strategy, all_units, struck_unit, enemy_ts, everyone_rolls, pick, leaves, _,
         halve) = next(row for row in CATASTROPHES if roll >= row[0])
        side.strategy_mod += strategy
        side.commander_killed = side.commander_killed or halve
        foe.ts_bonus += enemy_ts
        struck = None
        if pick:
            units = side.fighting()
            pool = units
            if pick == "important":
                total = side.ts()
                pool = [u for u in units if u.ts() * 100 >= IMPORTANT_PERCENT * total] or units
            struck = pool[die(len(pool)) - 1]
            if leaves:
                struck.status = "defected"
        for u in side.fighting():
            u.morale += struck_unit if u is struck else all_units
        if everyone_rolls:  # anger (+1) on a success, fear (-1) on a failure
            for u in side.fighting():
                u.morale += 1 if dice(3) <= u.morale else -1

    # 2. Strategy, and 3. the contest
    for side, foe in ((sides[0], sides[1]), (sides[1], sides[0])):
        mine, theirs = side.ts(), foe.ts()
        bonus = next((bonus for a, b, bonus in TS_COMPARISON if mine * b >= a * theirs),
                     0) if mine else 0
        cavalry, foe_cavalry = side.cavalry_ts(), foe.cavalry_ts()
        if cavalry > 0:
            times = cavalry // foe_cavalry if foe_cavalry > 0 else 5
            bonus += next((b for at_least, b in SUPERIORITY if times >= at_least), 0)
        skill = -(-side.strategy // 2) if side.commander_killed else side.strategy
        side.margin = skill + side.strategy_mod + bonus - dice(3)
    first, second = sides
    difference = abs(first.margin - second.margin)
    winner = None if difference == 0 else first if first.margin > second.margin else second

    for side in sides:
        if winner is None or side is winner:
            if difference > 3:
                for u in side.fighting():
                    u.status = "hold"
                continue
            mod, success, failure, rout_at = 0, "hold", "retreat", 5   # both sides roll
        elif difference >= 17:
            for u in side.fighting():
                u.status = "rout"
            continue
        else:
            _, mod, success, failure, rout_at, _ = next(r for r in TABLE_A if difference >= r[0])
        for u in side.fighting():
            margin = u.morale + mod - dice(3)
            u.status = (success if margin >= 0 else
                        "rout" if rout_at and -margin >= rout_at else failure)

    # 4. Casualties
    for side in sides:
        key = 0 if winner is None else difference if side is winner else -difference
        base = max(i for i, row in enumerate(CASUALTIES) if row[0] is None or key >= row[0])
        for u in side.units:
            if u.count == 0 or u.status == "defected":
                continue
            row = base + u.armour - (die() if u.status == "rout" else 0)
            _, n, plus, least = CASUALTIES[max(0, min(len(CASUALTIES) - 1, row))]
            percent = max(dice(n) + plus, least) if n else 0
            lost = min(u.count, -(-u.count * percent // 100))
            u.count -= lost
            u.dead += lost // 2
            u.wounded += lost - lost // 2

    decisive = winner is not None and difference > 3
    return {
        "winner": winner.name if decisive else None,
        "margin": first.margin - second.margin,
        "casualties": {s.name: {"dead": sum(u.dead for u in s.units),
                                "wounded": sum(u.wounded for u in s.units)} for s in sides},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=10_000, help="battles (default 10,000)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--show", type=int, default=0, metavar="K",
                        help="print the first K battles' outcomes")
    args = parser.parse_args(argv)
    for seed in range(args.seed, args.seed + args.show):
        print(seed, fight(seed))
    started, cpu = time.perf_counter(), time.process_time()
    for seed in range(args.seed, args.seed + args.n):
        fight(seed)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    # the CPU time is the figure to compare on a shared machine (the wall time counts the
    # time other processes had the core)
    print(f"{args.n:,} battles in {seconds:.3f} s ({cpu:.3f} s of CPU): "
          f"{seconds / args.n * 1e6:.1f} µs a battle ({cpu / args.n * 1e6:.1f} µs of CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
