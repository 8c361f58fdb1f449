"""One seeded game, recorded once, replayed into the screens the pseudo-locale tests read.

A whole game of bots runs through the real protocol (``p2pclue.bots.protocol.play``);
what seat ``ME`` saw is kept as the session events the terminal UI takes, each with the
rules state and hand read just after it, and with the decisions the seat owed
(``YourChoice``) where the engine asked for them. The tests replay these into a
``UIModel`` and stop at the moments whose screens they read: one game for every screen,
not a game per screen.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.layout import Layout
from prompt_toolkit.layout.containers import Container
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pclue.bots.protocol import play
from p2pclue.bots.registry import BOTS
from p2pclue.engine import events as ev
from p2pclue.engine.audit import audit
from p2pclue.engine.config import GameConfig, table_check
from p2pclue.engine.errors import Blame
from p2pclue.engine.peer import Peer
from p2pclue.i18n import _
from p2pclue.net.api import (
    Ended,
    Engine,
    Presence,
    Progress,
    SessionEvent,
    Waiting,
    YourChoice,
)
from p2pclue.rules.state import GameState
from p2pclue.rules.variants import preset
from p2pclue.tui import knowledge as kn
from p2pclue.tui import view
from p2pclue.tui.app import STYLE
from p2pclue.tui.model import Mode, UIModel
from tests.tui.terminal import PyteStdout

SEED = 11
PLAYERS = 4
ME = 0


@dataclass(frozen=True)
class Step:
    event: SessionEvent
    state: GameState | None
    hand: tuple[int, ...]


@dataclass
class Recording:
    config: GameConfig
    steps: list[Step] = field(default_factory=list)
    transcript: bytes = b""
    hands: dict[int, tuple[int, ...]] | None = None

    def replay(self) -> Iterator[Step]:
        yield from self.steps


@cache
def recorded() -> Recording:
    """The game (played once per test process)."""
    peers: list[Peer] = []
    steps: list[Step] = []
    asked: list[object] = [None]

    def sink(seat: int, event: ev.Event) -> None:
        if seat != ME:
            return
        me = peers[ME]
        steps.append(Step(Engine(event), me.rules_state, me.hand))
        choice = me.choice()
        if choice is not None and (choice, me.rules_state) != asked[0]:
            asked[0] = (choice, me.rules_state)
            steps.append(Step(YourChoice(choice), me.rules_state, me.hand))

    game = play(preset("classic"), PLAYERS, SEED, BOTS["medium"], watch=ME,
                on_event=sink, on_peers=peers.extend)
    raw = game.peers[ME].transcript().to_bytes()
    from p2pclue.engine.transcript import parse

    verdict = audit(parse(raw), raw)
    return Recording(game.config, steps, raw, verdict.hands)


# ---- screens --------------------------------------------------------------------------


def draw(container_of: Callable[[int, int], Container], columns: int = 80,
         rows: int = 24) -> list[str]:
    """The lines a ``columns`` x ``rows`` terminal shows for the layout ``container_of``
    builds: prompt_toolkit's real output, read by pyte."""
    term = PyteStdout(columns, rows)
    size = Size(rows=rows, columns=columns)
    output = Vt100_Output(term, lambda: size, term="xterm-256color",  # type: ignore[arg-type]
                          enable_cpr=False)
    shown: list[str] = []

    async def run() -> None:
        with create_pipe_input() as keys:
            app: Application[None] = Application(
                layout=Layout(container_of(columns, rows)), style=STYLE, full_screen=True,
                input=keys, output=output)
            task = asyncio.ensure_future(app.run_async())
            seen: list[str] = []
            for _tick in range(200):  # drawn, and the same twice in a row: the whole frame
                await asyncio.sleep(0.01)
                now = list(term.screen.display)
                if now == seen and any(line.strip() for line in now):
                    break
                seen = now
            shown.extend(term.screen.display)
            if app.is_running:
                app.exit()
            await task

    asyncio.run(run())
    return shown


def game_screen(model: UIModel, columns: int = 80, rows: int = 24) -> list[str]:
    """The game's own screen for ``model`` (whatever it shows now)."""
    return draw(lambda w, h: view.root(model, w, h, lambda _sq: None), columns, rows)


HALT = Blame(2, "R23", "a suggestion outside a room", 40)
ANONYMOUS_HALT = Blame(None, "chain", "bad hash", 40)
EVIDENCE = tuple(word for blame in (HALT, ANONYMOUS_HALT)
                 for word in f"{blame.check} {blame.reason}".split())
"""A halted game's evidence, told in the engine's English on purpose (data, not text)."""
TRANSCRIPT = "/home/ada/.local/share/p2pclue/games/2026-01-01-tavolo/transcript.p2pclue"
"""Where the replayed game says its transcript is (data, not text: the checks allow it)."""


class Tour:
    """The replayed game's screens, by name, in the installed language (see ``tour``)."""

    def __init__(self) -> None:
        self.game = recorded()
        self.model = UIModel(self.game.config, ME)
        self.model.can_leave = self.model.can_vote = True
        self.screens: dict[str, list[str]] = {}

    def take(self, name: str, columns: int = 80, rows: int = 24) -> None:
        self.screens[name] = game_screen(self.model, columns, rows)

    def feed(self, event: SessionEvent, state: GameState | None = None) -> None:
        m = self.model
        m.on_event(event, state if state is not None else m.state, m.hand)

    def notepad(self) -> None:
        m = self.model
        m.view = kn.build_snapshot(m.knowledge.frozen())

    def help_pages(self, prefix: str) -> None:
        m = self.model
        m.press("?")
        self.take(f"{prefix} help 1")
        for page in range(2, 8):
            before = self.screens[f"{prefix} help {page - 1}"]
            m.press("down")
            self.take(f"{prefix} help {page}")
            if self.screens[f"{prefix} help {page}"] == before:
                del self.screens[f"{prefix} help {page}"]
                break
        m.press("x")


def tour() -> dict[str, list[str]]:
    """Every screen of the game at 80 x 24, from one replayed game: the deal, a turn and
    its keys, the help's pages, the quit question, a move, the lists of a suggestion and an
    accusation, its confirmation, the notepad and its explanations, a card to show, the
    story read back, a silent player and the votes, a leave, and the end screens."""
    t = Tour()
    m = t.model
    m.tell(_("Table check: {check} (compare it aloud: every screen here shows the "
             "same).").format(check=table_check(t.game.config)))
    t.feed(Progress("envelope", 1, 2, 4))
    t.take("dealing")
    m.press("q")
    t.take("dealing, quit question")
    m.press("n")
    moments: set[str] = set()
    for step in t.game.replay():
        t.feed(step.event, step.state)
        m.hand = step.hand
        event = step.event.event if isinstance(step.event, Engine) else None
        if isinstance(event, ev.WeaponsPlaced | ev.CardShownToMe | ev.Refuted | ev.Passed):
            t.notepad()
        if not isinstance(step.event, YourChoice):
            continue
        if m.mode is Mode.TURN and "turn" not in moments:
            moments.add("turn")
            t.take("first turn")
            t.help_pages("game")
            m.press("q")
            t.take("quit question")
            m.press("n")
        elif m.mode is Mode.MOVE and m.destinations and "move" not in moments:
            moments.add("move")
            t.take("move")
            for key in ("9", "1", "k"):  # a room out of reach, by number and by initial
                m.press(key)
                t.take(f"move, room key {key}")
        elif m.mode is Mode.SHOW and "show" not in moments:
            moments.add("show")
            t.take("show")
            m.press("h")
            assert m.state is not None and m.state.pending_suggestion is not None
            m.set_quiet_card(kn.quietest_card(m.view.notepad, m.show_options,
                                              m.state.pending_suggestion.suggester))
            t.take("show, hint")
        elif m.mode is Mode.TURN and m.my_room() is not None and "pick" not in moments \
                and any(a.key == "s" for a in m.actions()):
            moments.add("pick")
            room = m.my_room()
            assert room is not None
            m.press("h")
            t.take("hint, thinking")
            m.hint_found(kn.best_suggestion(m.view.notepad, room), room)
            t.take("hint")
            m.press("s")
            t.take("suggest, suspect")
            m.press("enter")
            t.take("suggest, weapon")
            m.press("escape")
            m.press("escape")
            m.press("a")
            t.take("accuse, suspect")
            m.press("enter")
            m.press("enter")
            t.take("accuse, room")
            m.press("enter")
            t.take("accuse, confirm")
            m.press("n")
            m.press("n")
            for row, col in ((0, 0), (1, 0), (2, 1), (6, 2), (12, 4)):
                m.note_cursor = (row, col)
                card, owner = m.selected_cell()
                m.explanation = kn.explain(m.view.notepad, card, owner)
                t.take(f"notepad, row {row} column {col}")
            m.press("n")
    t.take("the last turn")
    m.press("pageup")
    t.take("story read back")
    m.press("home")
    t.take("story from the start")
    m.press("end")
    _silence_and_votes(t)
    _ends(t)
    return t.screens


def _silence_and_votes(t: Tour) -> None:
    """A player falls silent: whom the table waits for, the vote's keys, the votes."""
    m = t.model
    now = time.monotonic()
    m.expect(1, now)
    m.on_event(Presence(t.game.config.players[1].name, 1, False), m.state, m.hand)
    t.take("waiting, away")
    t.feed(Engine(ev.PeerSilent(1, now)))
    t.feed(Waiting(1, now - 75, now + 45))
    t.take("waiting, vote offered")
    m.press("w")
    t.take("waiting, voted")
    t.feed(Engine(ev.VoteCounted(0, "wait", 1, (), (0,), 2)))
    t.feed(Engine(ev.VoteCounted(2, "abandon", 1, (2,), (0,), 2)))
    t.feed(Engine(ev.VoteCounted(3, "abandon", 0, (3,), (), 2)))
    t.take("votes told")
    m.on_event(Presence(t.game.config.players[1].name, 1, True), m.state, m.hand)
    t.feed(Engine(ev.PlayerLeft(2, (0, 7, 14))))
    t.take("a player left")


def _ends(t: Tour) -> None:
    """The end screens: the game won with every hand, read back, abandoned, left, halted."""
    g = t.game
    m = t.model
    t.feed(Ended("complete", Path(TRANSCRIPT), True,
                 _("audit: valid, every signature, proof and rule checked")))
    t.take("end, reading the hands")
    m.end.hands = g.hands
    t.take("end")
    m.press("pageup")
    t.take("end, story")
    m.press("pagedown")
    for name, events in (
        ("end, abandoned", [ev.Abandoned(1, (0, 2, 3))]),
        ("end, abandoned with a forfeit", [ev.Abandoned(1, (0, 2, 3), True, "won", 3)]),
        ("end, halted", [ev.Halted(HALT)]),
        ("end, halted, nobody to blame", [ev.Halted(ANONYMOUS_HALT)]),
    ):
        t.model = m = UIModel(g.config, ME)
        for step in g.steps[:200]:
            t.feed(step.event, step.state)
            m.hand = step.hand
        for event in events:
            t.feed(Engine(event))
        status = "halted" if "halted" in name else "abandoned"
        t.feed(Ended(status, None, None, _("the transcript could not be read back")))
        t.take(name)
    t.model = m = UIModel(g.config, ME)
    m.can_leave = True
    for step in g.steps[:200]:
        t.feed(step.event, step.state)
        m.hand = step.hand
    t.screens["leave, asked"] = []
    m.press("q")
    m.press("l")
    t.take("leave, asked")
    t.feed(Engine(ev.LeaveQueued()))
    t.feed(Engine(ev.PlayerLeft(ME, m.hand)))
    t.take("leave, left")
    t.take("terminal too small", 60, 20)
