"""The seeded fault campaign: four-player games of real bot processes under faults.

Each game is four ``p2pclue join --bot random`` processes (own keys, listener, links and
game directory) reached by ``--peer``, so no multicast is needed. A schedule drawn from
the game's seed picks one fault, a victim and when it strikes (during the deal, or some
fraction of a second after turn *k* began on the victim's screen):

- **crash**: the victim's process gets SIGKILL (no clean-up of any kind) and, after a
  random delay, ``p2pclue join --resume`` starts it again from its game directory;
- **cut**: both ends of the victim's TCP connection to another player are closed from
  outside (``ss -K``), as when a router resets it; the smaller key re-dials;
- **drop**: every packet of that connection is lost for a random time (``tc``: its
  ports classified into a leaf that loses everything), as in a Wi-Fi dead spot; TCP
  retransmits once it heals.

Cuts and drops need root, and get a network namespace of the campaign's own: every
process then runs on that namespace's loopback, so ``ss`` and ``tc`` never touch the
machine's network. Without root every fault is a crash, and the summary says why.

A game counts as finished only if every process exits cleanly, all four transcripts are
byte-identical and the audit finds them valid, no process charged any frame to its junk
budget (re-links and catch-up are honest), and (after a crash) the others saw the victim
away and back. Figures: games finished / run; "back in play", from a restart
to the resumed process holding an entry that nobody had when it restarted (it has
replayed its file, re-linked, caught up, and the game moved on with it; Python's
start-up included); frames re-sent by resync per fault.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from p2pclue.bench import Emit
from p2pclue.engine.audit import audit
from p2pclue.engine.errors import EngineError
from p2pclue.engine.transcript import parse
from p2pclue.net.store import StoreError, is_finished, read_unfinished

PLAYERS = 4
LOOPBACK = "127.0.0.1"
GAME_TIMEOUT = 240.0
KINDS = ("crash", "cut", "crash", "drop")
"""The fault of seed ``s`` is ``KINDS[s % 4]``: any ten seeds in a row hold every kind."""


@dataclass(frozen=True)
class Schedule:
    """One game's fault, all drawn from its seed."""

    seed: int
    kind: str
    victim: int
    other: int
    """The victim's link partner (cut, drop)."""
    at_turn: int
    """Strike once this turn began on the victim's screen (0: once the deal began)."""
    after: float
    """...and this many seconds later, so that faults land inside steps."""
    pause: float
    """Seconds until the restart (crash) or until the packets flow again (drop)."""

    @classmethod
    def draw(cls, seed: int) -> Schedule:
        rng = random.Random(seed)
        victim = rng.randrange(PLAYERS)
        other = rng.choice([s for s in range(PLAYERS) if s != victim])
        kind = KINDS[seed % len(KINDS)]
        pause = rng.uniform(0.5, 3.0) if kind == "drop" else rng.uniform(0.05, 1.5)
        return cls(seed, kind, victim, other, rng.choice([0, *range(1, 25)]),
                   rng.uniform(0.0, 0.4), pause)


@dataclass
class FaultGame:
    schedule: Schedule
    kind: str
    """What was injected: the schedule's kind, or "crash" where cuts need root."""
    finished: bool = False
    struck: bool = False
    """False if the game ended before the fault was due."""
    reason: str = ""
    back_in_play: float | None = None
    resent: int = 0
    evidence: str = ""
    """What shows the fault was real: sockets closed, packets lost."""


@dataclass
class Campaign:
    games: list[FaultGame] = field(default_factory=list)
    limited: str | None = None
    """Why cuts and drops were played as crashes (no root, no ``ip netns``)."""

    def summary(self) -> dict[str, Any]:
        back = [g.back_in_play for g in self.games if g.back_in_play is not None]
        struck = [g for g in self.games if g.struck]
        return {
            "games_run": len(self.games),
            "games_finished": sum(g.finished for g in self.games),
            "crashes": sum(g.kind == "crash" for g in struck),
            "cuts": sum(g.kind == "cut" for g in struck),
            "drops": sum(g.kind == "drop" for g in struck),
            "ended_before_the_fault": len(self.games) - len(struck),
            "back_in_play_mean_s": statistics.fmean(back) if back else None,
            "back_in_play_worst_s": max(back) if back else None,
            "resent_per_fault": sum(g.resent for g in struck) / len(struck) if struck else None,
            "links_limited": self.limited,
            "failures": [f"seed {g.schedule.seed} ({g.kind}): {g.reason}"
                         for g in self.games if not g.finished],
        }


# ---- where the processes run -------------------------------------------------------


class Sandbox:
    """The processes' network: a namespace of the campaign's own (root), else loopback."""

    def __init__(self, namespace: str | None, limited: str | None) -> None:
        self.namespace = namespace
        self.limited = limited

    def command(self, *argv: str) -> list[str]:
        if self.namespace is None:
            return list(argv)
        return ["ip", "netns", "exec", self.namespace, *argv]

    def run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self.command(*argv), capture_output=True, text=True, timeout=20)


@contextmanager
def sandbox() -> Iterator[Sandbox]:
    why = namespaces_unavailable("ss", "tc")
    if why is not None:
        yield Sandbox(None, f"cut and dropped links need a network namespace: {why}")
        return
    name = f"p2pfaults{uuid.uuid4().hex[:6]}"
    try:
        _ip("netns", "add", name)
        _ip("-n", name, "link", "set", "lo", "up")
        yield Sandbox(name, None)
    finally:
        _ip("netns", "del", name, check=False)


def namespaces_unavailable(*tools: str) -> str | None:
    """Why no network namespace of our own can be made here, with ``tools`` in it (None:
    it can). Tests skip with this reason; the campaign plays crashes only."""
    for tool in ("ip", *tools):
        if shutil.which(tool) is None:
            return f"the '{tool}' tool is not installed"
    if os.geteuid() != 0:
        return "network namespaces need root (CAP_SYS_ADMIN and CAP_NET_ADMIN)"
    probe = f"p2pq{uuid.uuid4().hex[:6]}"
    made = _ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"cannot create a network namespace: {made.stderr.strip()}"
    _ip("netns", "del", probe, check=False)
    return None


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20,
                          check=check)


# ---- one game -----------------------------------------------------------------------


class Player:
    """One player's process, its output files, and where its game lives."""

    def __init__(self, box: Sandbox, home: Path, seat: int) -> None:
        self.box, self.home, self.seat = box, home, seat
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def err(self) -> Path:
        return self.home / f"p{self.seat}.{self.starts}.err"

    @property
    def out(self) -> Path:
        return self.home / f"p{self.seat}.{self.starts}.out"

    @property
    def timing(self) -> Path:
        return self.home / f"p{self.seat}.timing.json"

    def start(self, *args: str) -> None:
        self.starts += 1
        env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]),
                   P2PCLUE_HOME=str(self.home), P2PCLUE_INTERFACES=LOOPBACK)
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.proc = subprocess.Popen(
                self.box.command(sys.executable, "-m", "p2pclue", "join", *args,
                                 "--bot", "random", "--profile", f"p{self.seat}", "--json",
                                 "--lang", "en", "--timing", str(self.timing)),
                env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)

    def said(self) -> str:
        return self.err.read_text("utf-8", "replace")

    def wait_for(self, pattern: str, timeout: float) -> re.Match[str] | None:
        """The first match in what the process said, once it is there (None if it
        ended, or the time ran out, before saying it)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = re.search(pattern, self.said(), re.MULTILINE)
            if found:
                return found
            if self.proc is None or self.proc.poll() is not None:
                return None
            time.sleep(0.02)
        return None

    def transcript(self) -> Path | None:
        files = list((self.home / "profiles" / f"p{self.seat}" / "games").glob(
            "*/transcript.p2pclue"))
        return files[0] if files else None

    def finished(self) -> bool:
        """Whether this player's transcript is closed: its game is over."""
        path = self.transcript()
        return path is not None and is_finished(path)

    def entries(self) -> int:
        """Entries in this player's transcript file now (a torn last record not counted)."""
        path = self.transcript()
        if path is None:
            return 0
        try:
            return len(read_unfinished(path)[1])
        except StoreError:
            return 0

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid


def fault_game(box: Sandbox, home: Path, schedule: Schedule) -> FaultGame:
    """One game under its schedule; never raises for a game that goes wrong."""
    kind = schedule.kind if box.namespace is not None else "crash"
    result = FaultGame(schedule, kind)
    home.mkdir(parents=True)
    players = [Player(box, home, s) for s in range(PLAYERS)]
    table = f"faults-{schedule.seed}"
    try:
        players[0].start("--create", "--table", table, "--no-code", "--players",
                         str(PLAYERS))
        opened = players[0].wait_for(r"open at [\d.]+:(\d+)", 60)
        if opened is None:
            raise RuntimeError("the opener did not say where it listens")
        for p in players[1:]:
            p.start("--peer", f"{LOOPBACK}:{opened.group(1)}", "--table", table)
        _strike(players, schedule, result)
        _check_end(players, result)
    except Exception as exc:  # a campaign reports a broken game, it does not stop
        result.reason = f"{type(exc).__name__}: {exc}"
    finally:
        for p in players:
            p.kill()
    return result


def _strike(players: list[Player], schedule: Schedule, result: FaultGame) -> None:
    victim = players[schedule.victim]
    mark = r"^the game starts" if schedule.at_turn == 0 else rf"^Turn {schedule.at_turn}:"
    if victim.wait_for(mark, GAME_TIMEOUT) is None:
        return  # the game ended before the fault was due
    time.sleep(schedule.after)
    if victim.proc is None or victim.proc.poll() is not None:
        return
    result.struck = True
    if result.kind == "crash":
        _crash(players, schedule, result)
    else:
        _cut(players, schedule, result)


def _crash(players: list[Player], schedule: Schedule, result: FaultGame) -> None:
    victim = players[schedule.victim]
    victim.kill()
    if victim.finished():  # it was only confirming the end (linger): nothing to resume
        result.struck = False
        return
    time.sleep(schedule.pause)
    restarted = time.monotonic()
    table = max(p.entries() for p in players if p is not victim)
    victim.start("--resume")
    while victim.entries() <= table:  # back in play: linked, caught up, and the game moved
        if victim.proc is None or victim.proc.poll() is not None:
            if victim.proc is not None and victim.proc.returncode == 0:
                break  # the game ended as it came back
            raise RuntimeError(f"the resumed process ended early: {victim.said()[-800:]}")
        if time.monotonic() - restarted > 60:
            raise RuntimeError("the resumed process did not catch up within 60 s")
        time.sleep(0.01)
    result.back_in_play = time.monotonic() - restarted


def _cut(players: list[Player], schedule: Schedule, result: FaultGame) -> None:
    a, b = players[schedule.victim], players[schedule.other]
    links = _connections(a.box, a.pid(), b.pid())
    end = time.monotonic() + 3.0
    while not links and time.monotonic() < end:  # still being dialled, or the game is over
        if re.search(r"^game over: ", a.said(), re.MULTILINE):
            result.struck = False
            return
        time.sleep(0.05)
        links = _connections(a.box, a.pid(), b.pid())
    if not links:
        raise RuntimeError(f"no connection between seats {a.seat} and {b.seat} to cut")
    if result.kind == "cut":
        closed = 0
        for local, remote in links:
            out = a.box.run("ss", "-K", "-tnH", "(", "sport", "=", f":{local}", "and",
                            "dport", "=", f":{remote}", ")")
            closed += len(out.stdout.strip().splitlines())
        result.evidence = f"{closed} socket(s) closed"
        if closed == 0:
            raise RuntimeError("ss -K closed no socket")
        return
    lost = _drop(a.box, links, schedule.pause)
    result.evidence = f"{lost} packet(s) lost in {schedule.pause:.1f} s"


def _connections(box: Sandbox, a: int, b: int) -> list[tuple[int, int]]:
    """(local port, remote port) of each TCP connection from process ``a`` to ``b``."""
    sockets = []
    for line in box.run("ss", "-tanpH").stdout.splitlines():  # a TIME-WAIT line has no pid
        found = re.match(r"(\S+) +\d+ +\d+ +[\d.]+:(\d+) +\S+:(\S+) +.*pid=(\d+),", line)
        if found:
            sockets.append(found.groups())
    of_b = {int(port) for _state, port, _peer, pid in sockets if int(pid) == b}
    return [(int(port), int(peer)) for state, port, peer, pid in sockets
            if state == "ESTAB" and int(pid) == a and peer.isdigit() and int(peer) in of_b]


def _drop(box: Sandbox, links: list[tuple[int, int]], seconds: float) -> int:
    """Lose every packet of ``links`` (both ways) for ``seconds``; how many were lost.

    An htb class takes the links' packets (u32 on their ports) into a leaf that loses
    them all: netem ``loss 100%`` where the kernel has it, else a pfifo that holds no
    packet (kernels built without sch_netem, such as this project's CI machines)."""
    assert box.namespace is not None
    tc = ("tc", "-n", box.namespace)

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*tc, *args], capture_output=True, text=True, timeout=20,
                              check=check)

    run("qdisc", "add", "dev", "lo", "root", "handle", "1:", "htb", "default", "1")
    try:
        run("class", "add", "dev", "lo", "parent", "1:", "classid", "1:1", "htb", "rate",
            "10gbit")
        run("class", "add", "dev", "lo", "parent", "1:", "classid", "1:2", "htb", "rate",
            "8bit")
        leaf = ("qdisc", "add", "dev", "lo", "parent", "1:2", "handle", "20:")
        if run(*leaf, "netem", "loss", "100%", check=False).returncode != 0:
            run(*leaf, "pfifo", "limit", "0")
        for local, remote in links:
            for sport, dport in ((local, remote), (remote, local)):
                run("filter", "add", "dev", "lo", "parent", "1:", "protocol", "ip", "prio",
                    "1", "u32", "match", "ip", "sport", str(sport), "0xffff", "match", "ip",
                    "dport", str(dport), "0xffff", "flowid", "1:2")
        time.sleep(seconds)
        stats = run("-s", "qdisc", "show", "dev", "lo").stdout
    finally:
        run("qdisc", "del", "dev", "lo", "root", check=False)
    leaf_stats = stats[stats.find("parent 1:2"):]
    found = re.search(r"dropped (\d+)", leaf_stats)
    return int(found.group(1)) if found else 0


def _check_end(players: list[Player], result: FaultGame) -> None:
    found: list[dict[str, Any]] = []
    junk = 0
    for p in players:
        assert p.proc is not None
        try:
            p.proc.wait(timeout=GAME_TIMEOUT)
        except subprocess.TimeoutExpired:
            result.reason = f"seat {p.seat} did not finish within {GAME_TIMEOUT:.0f} s"
            return
        lines = p.out.read_text("utf-8", "replace").strip().splitlines()
        path = p.transcript()
        if p.proc.returncode == -signal.SIGKILL and not result.struck and path is not None \
                and p.finished():
            found.append({"transcript": str(path)})  # killed as it confirmed the end
            continue
        if p.proc.returncode != 0 or not lines:
            result.reason = f"seat {p.seat} exited {p.proc.returncode}: {p.said()[-800:]}"
            return
        found.append(json.loads(lines[-1]))
        if p.timing.exists():
            marks = json.loads(p.timing.read_text())
            result.resent += int(marks.get("resent", 0))
            junk += int(marks.get("junk", 0))
    files = {Path(r["transcript"]).read_bytes() for r in found}
    if len(files) != 1:
        result.reason = "the transcripts differ"
        return
    try:
        valid = audit(parse(next(iter(files)))).valid
    except EngineError as exc:
        result.reason = f"the transcript does not parse: {exc}"
        return
    if not valid:
        result.reason = "the audit found the transcript invalid"
    elif junk:  # re-links and catch-up must never look like junk (net.junk)
        result.reason = f"honest processes were charged {junk} junk frames"
    elif result.kind == "crash" and result.struck and not _away_and_back(players, result):
        result.reason = "nobody saw the crashed player away and back"
    else:
        result.finished = True


def _away_and_back(players: list[Player], result: FaultGame) -> bool:
    others = [p for p in players if p.seat != result.schedule.victim]
    said = [p.said() for p in others]
    return any(re.search(r" is away$", s, re.MULTILINE) and
               re.search(r" is back$", s, re.MULTILINE) for s in said)


# ---- the campaign -------------------------------------------------------------------


def run_campaign(games: int, first_seed: int = 1, emit: Emit | None = None) -> Campaign:
    campaign = Campaign()
    with tempfile.TemporaryDirectory(prefix="p2pclue-faults-") as tmp, sandbox() as box:
        campaign.limited = box.limited
        for seed in range(first_seed, first_seed + games):
            game = fault_game(box, Path(tmp) / f"g{seed}", Schedule.draw(seed))
            campaign.games.append(game)
            if emit is not None:
                emit("  " + _line(game))
    return campaign


def _line(game: FaultGame) -> str:
    s = game.schedule
    where = "the deal" if s.at_turn == 0 else f"turn {s.at_turn}"
    what = {"crash": f"kill -9 seat {s.victim}, restart after {s.pause:.2f} s",
            "cut": f"cut seats {s.victim}-{s.other}",
            "drop": f"drop seats {s.victim}-{s.other} for {s.pause:.1f} s"}[game.kind]
    if not game.struck:
        what += " (the game ended first)"
    back = "" if game.back_in_play is None else f", back in play {game.back_in_play:.2f} s"
    evidence = f", {game.evidence}" if game.evidence else ""
    why = "" if game.finished else ": " + game.reason
    return (f"seed {s.seed}: {what} at {where}: {'finished' if game.finished else 'FAILED'}"
            f"{back}{evidence}, {game.resent} frames re-sent{why}")


def section(emit: Emit, quick: bool) -> dict[str, Any]:
    n = 10 if quick else 50
    emit(f"fault campaign: {n} games of four bot processes (kill -9 and restart, a cut "
         "link, or a link losing every packet, on a seeded schedule)")
    campaign = run_campaign(n, emit=emit)
    summary = campaign.summary()
    mean, worst = summary["back_in_play_mean_s"], summary["back_in_play_worst_s"]
    emit(f"  games finished / run: {summary['games_finished']}/{summary['games_run']} "
         f"({summary['crashes']} crashes, {summary['cuts']} cut links, {summary['drops']} "
         f"dropped links, {summary['ended_before_the_fault']} ended before the fault)")
    if campaign.limited:
        emit(f"  cuts and drops played as crashes: {campaign.limited}")
    if mean is not None:
        emit(f"  restart to back in play: mean {mean:.2f} s, worst {worst:.2f} s "
             "(Python's start-up included; goal < 2 s)")
    if summary["resent_per_fault"] is not None:
        emit(f"  frames re-sent by resync per fault: {summary['resent_per_fault']:.1f}")
    return summary
