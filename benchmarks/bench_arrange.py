"""The arrangement advisor: speed, and how good its choices are.  Prints figures; asserts nothing about speed.

    .venv/bin/python benchmarks/bench_arrange.py [--hands N] [--rounds R] [--rules fujian,taiwan,2-4]
        speed: best_arrangement per hand over N random hands (one call per hand, after one warm-up per
        preset), median / p95 / max, wall and CPU (time.process_time) milliseconds; hindsight per random
        four-player round (R rounds; criss-cross: two players with two sets each).  Any preset works,
        seed 004's variants included (low-middle, eleven-point, criss-cross).
    ... --reference H [--deals K]
        the Monte-Carlo reference (scoring.advisor_reference) on H random hands per preset, K deals each:
        per hand the reference's value of the advisor's split against the reference's best split, the
        paired per-deal difference and its standard error; prints how many choices are within 2 and 3
        standard errors and the mean shortfall
    ... --play D
        simulated four-player play, D deals per preset: each deal is played with all four hands set by the
        "strongest back, then middle, then front" setter, then once per seat with that seat set by the
        advisor instead; prints the advisor seat's points per opponent minus the plain setter's on the
        same cards (mean and standard error).  criss-cross: two players, each in turn setting both sets
        with the advisor against the plain setter's two; points per set comparison
    ... --brute R
        hindsight against the full brute force: every legal split of every player of R rounds settled
        by scoring.settle_many (which equals settle); prints the largest difference (0 expected)
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import scoring  # noqa: E402
from scoring.advisor_model import opponent_model  # noqa: E402
from scoring.advisor_reference import monte_carlo_values, strongest_rows  # noqa: E402
from scoring.cards import CODES  # noqa: E402
from scoring.hand_input import parse_hand_input  # noqa: E402
from scoring.hindsight import split_nets  # noqa: E402
from scoring.rules import resolve_rules  # noqa: E402
from scoring.splits import FIVE_SUBSETS, FRONT_SUBSETS  # noqa: E402

ROWS = ("front", "middle", "back")


def percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(share * len(sorted_values)))]


def line(label: str, millis: list[float], cpu: list[float], unit: str = "hands") -> str:
    """Wall-clock and CPU (this process's) milliseconds: on a shared machine the CPU figures are the steadier."""
    millis, cpu = sorted(millis), sorted(cpu)
    return (f"  {label:<30} {len(millis):>5} {unit}  wall median {statistics.median(millis):7.3f} ms  "
            f"p95 {percentile(millis, 0.95):7.3f} ms  max {millis[-1]:7.3f} ms | CPU median "
            f"{statistics.median(cpu):7.3f} ms  p95 {percentile(cpu, 0.95):7.3f} ms")


def timed(call) -> tuple[float, float]:
    """(wall ms, CPU ms) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return 1000 * (time.perf_counter() - wall), 1000 * (time.process_time() - cpu)


def text(rows: dict) -> str:
    return " / ".join(" ".join(rows[row]) for row in ROWS)


def four_hands(rng: random.Random) -> list[list[str]]:
    deck = list(CODES)
    rng.shuffle(deck)
    return [deck[13 * seat:13 * seat + 13] for seat in range(4)]


def advised(cards: list[str], rules: str):
    """The advisor's rows, declining a natural that pays less (the engine claims one by default)."""
    advice = scoring.best_arrangement(" ".join(cards), rules)
    if advice["natural"] is not None:
        return {"cards": cards}
    return {**{row: advice["best"][row] for row in ROWS}, "natural": False}


def plain(cards: list[str], rules: str):
    """The plain setter declines nothing: a natural the cards make is claimed as the engine does."""
    if scoring.detect_naturals(cards, rules):
        return {"cards": cards}
    return strongest_rows(cards, rules)


def speed(args: argparse.Namespace) -> None:
    for rules in args.rules.split(","):
        rng = random.Random(f"{args.seed}{rules}")
        model = opponent_model(resolve_rules(rules)).source
        scoring.best_arrangement(" ".join(four_hands(rng)[0]), rules)   # warm-up: tables built once a process
        hands = [" ".join(four_hands(rng)[0]) for _ in range(args.hands)]
        millis, cpu = zip(*(timed(lambda: scoring.best_arrangement(cards, rules)) for cards in hands))
        print(f"{rules} (opponent model: {model}):")
        print(line("best_arrangement", millis, cpu))
        rounds = []
        for _ in range(args.rounds):
            hands = [strongest_rows(hand, rules) for hand in four_hands(rng)]
            if resolve_rules(rules).criss_cross != "off":   # two players, two sets each
                players = {"p0": {"sets": hands[:2]}, "p1": {"sets": hands[2:]}}
            else:
                players = {f"p{seat}": hand for seat, hand in enumerate(hands)}
            rounds.append({"rules": rules, "players": players,
                           **({"banker": "p0"} if resolve_rules(rules).banker_mode else {})})
        scoring.hindsight(rounds[0])
        millis, cpu = zip(*(timed(lambda: scoring.hindsight(round_)) for round_ in rounds))
        label = ("hindsight, 2 players x 2 sets" if resolve_rules(rules).criss_cross != "off"
                 else "hindsight, 4-player round")
        print(line(label, millis, cpu, "rounds"))


def reference(args: argparse.Namespace) -> None:
    """The reference picks its best split on K deals; the advisor's split and that one are then compared on
    K fresh deals (so the reference's pick carries no selection bias into the comparison)."""
    for rules in args.rules.split(","):
        rng = random.Random(f"{args.seed}ref{rules}")
        same = within2 = within3 = 0
        shortfalls, fresh_shortfalls, ranks = [], [], []
        start = time.perf_counter()
        for number in range(args.reference):
            cards = four_hands(rng)[0]
            advice = scoring.best_arrangement(" ".join(cards), rules)["best"]
            ids, values, per_deal = monte_carlo_values(cards, rules, args.deals, seed=number)
            laid = parse_hand_input(" ".join(cards)).cards
            rows = [[sorted(CODES[laid[p]] for p in subsets[ids[row, i]]) for i in range(ids.shape[1])]
                    for row, subsets in ((0, FRONT_SUBSETS), (2, FIVE_SUBSETS))]
            chosen = next(i for i in range(ids.shape[1])
                          if rows[0][i] == sorted(advice["front"]) and rows[1][i] == sorted(advice["back"]))
            top = int(values.argmax())
            shortfalls.append(float(values[top] - values[chosen]))
            ranks.append(float((values > values[chosen]).mean()))
            if top == chosen:
                same += 1
                within2, within3 = within2 + 1, within3 + 1
                fresh_shortfalls.append(0.0)
                continue
            _, _, fresh = monte_carlo_values(cards, rules, args.deals, seed=10_000 + number)
            difference = fresh[:, top] - fresh[:, chosen]
            noise = difference.std(ddof=1) / np.sqrt(len(difference))
            within2 += difference.mean() <= 2 * noise + 1e-9
            within3 += difference.mean() <= 3 * noise + 1e-9
            fresh_shortfalls.append(float(difference.mean()))
        hands = args.reference
        print(f"{rules}: {hands} hands, {args.deals} deals to pick + {args.deals} fresh deals to compare "
              f"({time.perf_counter() - start:.0f} s): the advisor's split is the reference's pick on {same}; "
              f"within 2 SE of it on the fresh deals {within2}/{hands}, within 3 SE {within3}/{hands}; "
              f"mean shortfall {statistics.mean(fresh_shortfalls):+.3f} points per opponent on fresh deals "
              f"({statistics.mean(shortfalls):.3f} on the picking deals, biased upwards by the pick); splits the "
              f"reference rates higher than the advisor's: median {100 * statistics.median(ranks):.2f}%, "
              f"p90 {100 * percentile(sorted(ranks), 0.9):.2f}%")


def criss_cross_gains(hands: list[list[str]], rules: str) -> list[float]:
    """Two players with two sets each: per player, the advisor's two sets against the plain setter's, the
    opponent plain; points per set comparison."""
    plain_sets = [plain(hand, rules) for hand in hands]
    players = {"p0": {"sets": plain_sets[:2]}, "p1": {"sets": plain_sets[2:]}}
    base = scoring.settle({"rules": rules, "players": players}, audit=False)["net"]
    gains = []
    for name, own in (("p0", hands[:2]), ("p1", hands[2:])):
        advice = scoring.best_arrangement({"sets": [" ".join(cards) for cards in own]}, rules)["sets"]
        sets = [{row: entry["best"][row] for row in ROWS} | {"natural": False} for entry in advice]
        net = scoring.settle({"rules": rules, "players": {**players, name: {"sets": sets}}}, audit=False)["net"]
        comparisons = 4 if resolve_rules(rules).criss_cross == "each-vs-each" else 2
        gains.append(float(Fraction(net[name]) - Fraction(base[name])) / comparisons)
    return gains


def play(args: argparse.Namespace) -> None:
    for rules in args.rules.split(","):
        rng = random.Random(f"{args.seed}play{rules}")
        gains = []
        start = time.perf_counter()
        for _ in range(args.play):
            hands = four_hands(rng)
            if resolve_rules(rules).criss_cross != "off":
                gains.extend(criss_cross_gains(hands, rules))
                continue
            names = [f"p{seat}" for seat in range(4)]
            plain_hands = [plain(hand, rules) for hand in hands]
            base = scoring.settle({"rules": rules, "players": dict(zip(names, plain_hands))}, audit=False)
            for seat in range(4):
                players = dict(zip(names, plain_hands))
                players[names[seat]] = advised(hands[seat], rules)
                net = scoring.settle({"rules": rules, "players": players}, audit=False)["net"][names[seat]]
                gains.append(float(Fraction(net) - Fraction(base["net"][names[seat]])) / 3)
        mean, error = statistics.mean(gains), statistics.stdev(gains) / len(gains) ** 0.5
        seats = "2 players x 2 sets" if resolve_rules(rules).criss_cross != "off" else "4 seats"
        if resolve_rules(rules).criss_cross != "off":
            who, unit, against = "player", "points per set comparison", "a plain-set opponent"
        else:
            who, unit, against = "seat", "points per opponent per hand", "three plain setters"
        print(f"{rules}: {args.play} deals x {seats} ({time.perf_counter() - start:.0f} s): the advisor's {who} "
              f"scores {mean:+.3f} ± {error:.3f} {unit} more than the plain setter (strongest back, middle, "
              f"front) on the same cards against {against}; better on {sum(g > 0 for g in gains)}, worse on "
              f"{sum(g < 0 for g in gains)} of {len(gains)}")


def brute(args: argparse.Namespace) -> None:
    for rules in args.rules.split(","):
        rng = random.Random(f"{args.seed}brute{rules}")
        worst = 0.0
        checked = 0
        for _ in range(args.brute):
            hands = four_hands(rng)
            round_ = {"rules": rules, "players": {f"p{seat}": strongest_rows(hand, rules)
                                                 for seat, hand in enumerate(hands)}}
            if resolve_rules(rules).banker_mode:
                round_["banker"] = "p0"
            report = scoring.hindsight(round_)
            for player in round_["players"]:
                front, middle, back, _, nets = split_nets(round_, player)
                cards = parse_hand_input(round_["players"][player]).cards
                rounds = [dict(round_, players={**round_["players"], player: {
                    "front": [CODES[cards[p]] for p in FRONT_SUBSETS[f]],
                    "middle": [CODES[cards[p]] for p in FIVE_SUBSETS[m]],
                    "back": [CODES[cards[p]] for p in FIVE_SUBSETS[b]], "natural": False}})
                    for f, m, b in zip(front.tolist(), middle.tolist(), back.tolist())]
                engine = np.array([float(Fraction(s["net"][player])) for s in scoring.settle_many(rounds)])
                worst = max(worst, float(np.abs(engine - nets).max()),
                            abs(engine.max() - float(Fraction(report["players"][player]["best"]["net"]))))
                checked += len(rounds)
        print(f"{rules}: hindsight vs brute force over {checked:,} splits of {args.brute} rounds: "
              f"largest difference {worst:g} points")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--seed", type=int, default=68)
    parser.add_argument("--rules", default="fujian,taiwan,2-4", help="presets, comma-separated")
    parser.add_argument("--reference", type=int, default=0, metavar="H")
    parser.add_argument("--deals", type=int, default=100, metavar="K")
    parser.add_argument("--play", type=int, default=0, metavar="D")
    parser.add_argument("--brute", type=int, default=0, metavar="R")
    args = parser.parse_args()
    print(f"arrangement advisor, Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, "
          f"load average {' '.join(f'{load:.1f}' for load in os.getloadavg())}")
    if args.reference:
        reference(args)
    elif args.play:
        play(args)
    elif args.brute:
        brute(args)
    else:
        speed(args)


if __name__ == "__main__":
    main()
