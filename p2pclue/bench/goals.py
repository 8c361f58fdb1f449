"""The goals the bench's figures are held to, and the verdict on a run.

Each goal reads one figure from the sections' JSON figures and compares it with a limit
(the README's "goal" column). ``p2pclue bench`` exits with status 1 when a goal it judged
was missed; ``--goal NAME=VALUE`` replaces a limit, to demand more than the project does
(or to see a goal fail).

A goal on a latency that other work on the cores stretches has the condition ``idle``: it
is judged only when the machine was idle as the run began (a 1-minute load average below a
quarter per core; the README's idle runs had under 0.5 on two cores). On a busy machine its
figure is still printed and compared, but it neither passes nor fails the run. A figure a
run could not measure (no multicast on loopback, say) is not judged either.

Multiplication counts and byte sizes are exact; CPU seconds vary a little with the machine.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Figures = Mapping[str, Any]

COMPARISONS: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}
IDLE = "idle"
IDLE_LOAD_PER_CORE = 0.25


@dataclass(frozen=True)
class Goal:
    name: str
    section: str
    what: str
    comparison: str
    limit: float
    unit: str
    read: Callable[[Figures], float | None]
    """The figure, from the run's figures (None: not measured in this run)."""
    condition: str | None = None

    def met_by(self, figure: float, limit: float | None = None) -> bool:
        return COMPARISONS[self.comparison](figure, self.limit if limit is None else limit)


def _percent(wins: int, games: int) -> float:
    return round(100 * wins / games, 1) if games else 0.0


def _destinations(f: Figures) -> float:
    return float(max(v for k, v in f.items() if k.startswith("rules.roll12_")
                     and k.endswith("_worst_ms")))


def _ratio(f: Figures) -> float:
    return round(float(f["lan_deal_s"]) / float(f["lan_inprocess_deal_s"]), 3)


def _floods_blamed(f: Figures) -> float:
    return sum(1 for row in f["floods"] for seat in row["blamed"] if seat is not None)


def _faults_unfinished(f: Figures) -> float:
    return float(f["games_run"] - f["games_finished"])


def _show_tell(f: Figures) -> float | None:
    diff = f["bots_show_median_diff_ms"]
    return None if diff is None else abs(float(diff))


def _over_lan(figure: str, lan: str, unit_s: float) -> Callable[[Figures], float | None]:
    """An internet table's figure minus the LAN figure of the same run, in round trips of
    ``internet_rtt_ms`` (None: not measured here)."""
    def read(f: Figures) -> float | None:
        if f.get(figure) is None or f.get(lan) is None:
            return None
        return round(float(f[figure] - f[lan]) * unit_s / float(f["internet_rtt_ms"]), 2)
    return read


def _crypto(proof: str, side: str) -> Callable[[Figures], float]:
    return lambda f: f["crypto_proofs"][proof][side]


GOALS: tuple[Goal, ...] = (
    Goal("shuffle_prove_mults_per_card", "crypto", "shuffle proof of 21 cards, multiplications "
         "per card to prove", "<=", 25, "mults/card",
         lambda f: f["shuffle_mults_per_card"]["prove"]),
    Goal("shuffle_verify_mults_per_card", "crypto", "shuffle proof of 21 cards, multiplications "
         "per card to verify", "<=", 25, "mults/card",
         lambda f: f["shuffle_mults_per_card"]["verify"]),
    Goal("deal_6p_cpu_s", "crypto", "whole 6-player deal in one process (every proof checked "
         "by every other player), CPU seconds", "<=", 3.0, "s",
         lambda f: f["deal_cpu_seconds"]["6"]),
    Goal("deal_6p_mults", "crypto", "whole 6-player deal, multiplications (every peer "
         "re-checking its own proofs took 12,486)", "<", 12_486, "mults",
         lambda f: f["deal_mults"]["6"]),
    Goal("commit_show_prove_mults", "crypto", "deniable show, hand of 6, multiplications to "
         "prove (the ElGamal show's 109)", "<=", 109, "mults",
         _crypto("commit-show[hand 6]", "prove_mults")),
    Goal("commit_show_verify_mults", "crypto", "deniable show, hand of 6, multiplications to "
         "verify (the ElGamal show's 144)", "<=", 144, "mults",
         _crypto("commit-show[hand 6]", "verify_mults")),
    Goal("audit_6p_s", "audit", "audit of the 6-player game's transcript, best time", "<=", 2.0,
         "s", lambda f: f["audit_seconds"]),
    Goal("destinations_worst_ms", "rules", "every destination of a roll of 12, worst start "
         "and variant", "<", 10.0, "ms", _destinations, IDLE),
    Goal("notepad_update_worst_ms", "deduce", "notepad update after an event, 6-player games, "
         "worst", "<", 50.0, "ms", lambda f: f["deduce_update_ms_max"], IDLE),
    Goal("detective_win_rate", "deduce", "detective against two random bots, 3-player games "
         "won", ">=", 90.0, "%", lambda f: round(100 * f["detective_win_rate_3p"], 1)),
    Goal("cheats_not_happened", "cheats", "cheat games in which the cheat never happened",
         "<=", 0, "games", lambda f: f["cheats_missed"]),
    Goal("cheats_not_blamed", "cheats", "cheats that happened and were not blamed on the "
         "cheater by every honest peer and by the audit", "<=", 0, "games",
         lambda f: f["cheats_uncaught"]),
    Goal("hard_vs_random_win_rate", "bots", "hard bot against two random bots, 3-player games "
         "won", ">=", 90.0, "%", lambda f: _percent(f["hard_vs_random_3p"]["wins"],
                                                    f["hard_vs_random_3p"]["games"])),
    Goal("hard_wrong_accusations", "bots", "wrong accusations by hard bots over every game of "
         "the section", "<=", 0, "accusations", lambda f: f["detective_wrong_accusations"]),
    Goal("bot_decision_worst_ms", "bots", "one bot decision, worst", "<", 100.0, "ms",
         lambda f: f["bots_decision_ms_max"], IDLE),
    Goal("bot_show_time_tell_ms", "bots", "a detective's show, 1 named card held against 2 "
         "or 3, difference of the medians (its choice worked out ahead)", "<", 1.0, "ms",
         _show_tell),
    Goal("bot_show_cards_changed", "bots", "shows whose card differs between the choice "
         "worked out ahead and the one made when asked", "<=", 0, "shows",
         lambda f: f["bots_show_cards_differing"]),
    Goal("lan_deal_6p_s", "lan", "signed start to first turn, 6 player processes (median)",
         "<", 1.0, "s", lambda f: f["lan_deal_s"], IDLE),
    Goal("lan_deal_vs_in_process", "lan", "that deal against the same deal in one process "
         "(ratio)", "<=", 1.0, "x", _ratio, IDLE),
    Goal("lan_refute_median_ms", "lan", "suggestion to refutation known by all, 6 processes, "
         "median", "<", 50.0, "ms", lambda f: f["lan_refute_median_ms"], IDLE),
    Goal("lan_rss_mb", "lan", "peak resident memory of one player process", "<", 80.0, "MB",
         lambda f: f["lan_rss_mb"]),
    Goal("lan_table_seen_s", "lan", "table opened to seen by another process's browser "
         "(from starting the opener's process)", "<", 2.0, "s",
         lambda f: f["lan_table_seen_s"], IDLE),
    Goal("internet_deal_80ms_rtts", "internet", "6 processes over iroh at 80 ms round trip: "
         "the deal beyond the LAN deal of the same run", "<=", 10, "round trips",
         _over_lan("internet_80ms_deal_s", "internet_lan_deal_s", 1000.0), IDLE),
    Goal("internet_refute_80ms_rtts", "internet", "6 processes over iroh at 80 ms round "
         "trip: the refutation median beyond the LAN median of the same run", "<=", 3,
         "round trips", _over_lan("internet_80ms_refute_median_ms",
                                  "internet_lan_refute_median_ms", 1.0), IDLE),
    Goal("faults_unfinished_games", "faults", "fault games that did not finish with one valid "
         "transcript", "<=", 0, "games", _faults_unfinished),
    Goal("faults_back_in_play_worst_s", "faults", "restart after a crash to back in play, "
         "worst", "<", 2.0, "s", lambda f: f["back_in_play_worst_s"], IDLE),
    Goal("floods_worst_rss_mb", "floods", "peak resident memory of a player process under any "
         "flood", "<", 80.0, "MB", lambda f: f["floods_worst_rss_mb"]),
    Goal("floods_blamed", "floods", "players blamed in the flood games (a flooder is cut, "
         "never blamed)", "<=", 0, "players", _floods_blamed),
    Goal("model_failures", "model", "properties of the table the fault model broke (it stops at "
         "the first, shrunk to a minimal example)", "<=", 0, "failures",
         lambda f: f["model_failures"]),
    Goal("startup_audit_help_cpu_s", "startup", "`p2pclue audit --help` in a new process, "
         "CPU seconds (median)", "<", 0.3, "s", lambda f: f["startup_cpu_s"]["audit --help"]),
)
BY_NAME = {g.name: g for g in GOALS}


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages, rounded."""
    return [round(x, 2) for x in os.getloadavg()]


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def is_idle(load: Sequence[float], n_cores: int) -> bool:
    return load[0] < IDLE_LOAD_PER_CORE * n_cores


def verdicts(sections: Iterable[str], figures: Figures, overrides: Mapping[str, float],
             idle: bool) -> list[dict[str, Any]]:
    """One record per goal of the sections that ran: its figure, its limit, whether the
    figure meets it (``met``) and whether that counts (``judged``)."""
    ran = set(sections)
    out: list[dict[str, Any]] = []
    for goal in GOALS:
        if goal.section not in ran:
            continue
        limit = overrides.get(goal.name, goal.limit)
        figure = goal.read(figures)  # a KeyError here is a goal naming a figure wrongly
        met = figure is not None and goal.met_by(figure, limit)
        judged = figure is not None and (goal.condition != IDLE or idle)
        out.append({"name": goal.name, "section": goal.section, "what": goal.what,
                    "figure": figure, "goal": limit, "comparison": goal.comparison,
                    "unit": goal.unit, "condition": goal.condition, "met": met,
                    "judged": judged})
    return out


def describe(record: Mapping[str, Any], load: Sequence[float]) -> str:
    """One line for a person: the goal, its figure, and what came of it."""
    figure = record["figure"]
    shown = "not measured" if figure is None else f"{figure:g} {record['unit']}"
    bar = f"{record['comparison']} {record['goal']:g} {record['unit']}"
    if record["judged"]:
        verdict = "met" if record["met"] else "MISSED"
    elif figure is None:
        verdict = "not judged (not measured in this run)"
    else:
        verdict = (f"not judged: needs an idle machine (load average {load[0]:g} at the "
                   f"start); {'within' if record['met'] else 'outside'} the goal")
    return f"goal {record['name']}: {shown} (goal {bar}): {verdict}"
