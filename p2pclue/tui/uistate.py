"""The terminal UI's state for one seat: what the screens draw and what the keys change.

``UIState`` holds it and answers the questions both the keys (``keys``) and the screens
(``view`` and the modules it names) ask of it: which actions the bar offers, whether a
hint or a vote is on offer, where the story is read back to. ``UIModel`` (``model``)
adds how session events change it; the keys change it through ``keys.press``. Keeping
the state here lets ``keys`` and ``model`` each import it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.engine.peer import Choice
from p2pclue.i18n import (
    PlayerWord,
    _,
    key_name,
    listing,
    no_key,
    percent,
    triple_word,
    yes_key,
)
from p2pclue.net.api import Ended, Progress, Waiting
from p2pclue.rules import game as rg
from p2pclue.rules.board import Square
from p2pclue.rules.cards import CARDS
from p2pclue.rules.state import GameState, Phase
from p2pclue.tui import moves
from p2pclue.tui.commands import Action
from p2pclue.tui.evening import Evening
from p2pclue.tui.knowledge import ENVELOPE, Knowledge, NotepadView
from p2pclue.tui.modes import Mode, Overlay, Screen
from p2pclue.tui.picker import Picker
from p2pclue.tui.story import Story

STORY_KEEP = 400
DEAL_ORDER = ("join", "keys", "envelope", "deal", "unlayer", "random")


@dataclass
class EndInfo:
    result: str | None = None
    winner: int | None = None
    envelope: tuple[int, int, int] | None = None
    hands: dict[int, tuple[int, ...]] | None = None
    ended: Ended | None = None
    why: list[str] = field(default_factory=list)
    """How the game came to end when nobody won it: who was silent, who voted; and the
    winning accusation, which stays on the end screen."""


class UIState:
    """The state of the whole terminal UI for one seat of one game."""

    def __init__(self, config: GameConfig, seat: int | None, *, color: bool = True) -> None:
        self.config = config
        self.seat = seat
        self.color = color
        self.n = config.n_players
        self.story_teller = Story(config, seat)
        names = tuple("you" if s == seat else p.name for s, p in enumerate(config.players))
        self.knowledge = Knowledge(seat if seat is not None else 0, self.n, names)
        self.screen = Screen.DEALING
        self.overlay: Overlay | None = None
        self.help_page = 0
        """The help's page (the view clamps it to the pages there are)."""
        self.mode = Mode.WATCH
        self.mode_before_notepad = Mode.WATCH
        self.story: list[str] = []
        self.story_told = 0
        """Entries ever told (``story`` keeps the newest ``STORY_KEEP``): a reader that
        prints the story as it grows counts from it, past the trimming."""
        self.progress: Progress | None = None
        self.progress_text = _("Waiting for the table...")
        self.waiting: Waiting | None = None
        self.choice: Choice | None = None
        self.state: GameState | None = None
        self.hand: tuple[int, ...] = ()
        self.view = NotepadView({}, {}, None)
        self.destinations: dict[Square, tuple[Square, ...]] = {}
        self.cursor: Square | None = None
        self.picker: Picker | None = None
        self.accusation: tuple[int, int, int] | None = None
        self.show_options: tuple[int, ...] = ()
        self.show_cursor = 0
        self.quiet_card: int | None = None
        self.note_cursor = (0, 0)
        self.explanation = ""
        self.hint = ""
        self.hint_pick: tuple[int, int] | None = None
        """The hint's (suspect, weapon): the picker's cursor follows it."""
        self.show_hint = False
        """h was pressed while a card is to be shown: the show panel names the card that
        tells the suggester least (``quiet_card``)."""
        self.message = ""
        self.end = EndInfo()
        self.left = False
        self.can_leave = False
        """The session sends a graceful ``leave`` (hand face up); set by the application."""
        self.can_vote = False
        """The session takes votes about a silent seat; set by the application."""
        self.evening: Evening | None = None
        """An evening of games at this table (``join``): its score is shown at the end, and
        p plays again; the game is recorded into it when it ends (``on_event``)."""
        self.again = False
        """The person asked to play again (p on the end screen)."""
        self.leaving = False
        """A graceful leave was asked for: it goes out when the table next awaits us."""
        self.left_table = False
        """This seat's ``leave`` is in the transcript: the game goes on without it."""
        self.voted: str | None = None
        self.awaited: tuple[int, float] | None = None
        """Whom the table waits for (the seat owing the next message) and since when:
        the screen names them from the first second, not only once they are silent."""
        self._votes: list[str] = []
        """The votes about the silent seat, told again on an abandoned end screen."""
        self._accusing: list[str] = []
        self.story_back = 0
        """How many story entries the reader has scrolled back (PgUp); 0: the newest.
        The view clamps it so that the oldest page stays full (Home)."""
        self.story_rows = 3
        """Story entries the panel showed at the last redraw: one PgUp turns that many."""
        self.reading_story = False
        """The end screen shows the story instead of the summary (PgUp)."""
        self.last_suggestion: list[str] = []
        """The latest suggestion and its answers: kept in view while a list is picked."""
        self.last_suggested: ev.Suggested | None = None
        """That suggestion itself: told in short when the picker has one line for it."""
        self._away: set[tuple[int | None, str]] = set()
        """Who was told away: only their next arrival reads "is back" (a first link, or
        the links a resumed seat re-dials, are no news)."""

    # ---- reading -----------------------------------------------------------------------

    @property
    def owners(self) -> tuple[int, ...]:
        """The notepad's columns: every seat, then the envelope."""
        return (*range(self.n), ENVELOPE)

    def name(self, seat: int) -> PlayerWord:
        """A player as the screens name them: "you", or a name with a bot's level."""
        return self.story_teller.who(seat)

    def my_room(self) -> int | None:
        if self.state is None or self.seat is None:
            return None
        where = self.state.token_of(self.seat)
        return where if isinstance(where, int) else None

    def actions(self) -> list[Action]:
        """What the action bar offers now: only what the rules allow."""
        out: list[Action] = []
        st, mode = self.state, self.mode
        if self.screen is Screen.END:
            again = [Action("p", _("play again"))] if self.again_offered() else []
            return [*again, Action("q", _("leave"))]
        if mode is Mode.TURN and st is not None:
            if st.phase is Phase.AWAIT_TURN_START:
                out.append(Action("r", _("roll")))
                if rg.can_take_passage(st):
                    out.append(Action("p", _("passage")))
            if rg.can_suggest(st):
                out.append(Action("s", _("suggest")))
            if rg.can_accuse(st):
                out.append(Action("a", _("accuse")))
            if st.phase is Phase.AWAIT_SUGGESTION_OR_END:
                out.append(Action("e", _("end turn")))
            if st.phase is Phase.AWAIT_MOVE:
                out.append(Action("m", _("move")))
        elif mode is Mode.MOVE and st is not None:
            if self.destinations:  # blocked in: offer only what works (stay)
                out.append(Action(_("arrows"), _("pick")))
            if self.cursor is not None:  # Enter goes where the player looked, never elsewhere
                out.append(Action(key_name("Enter"), _("go")))
            if rg.may_stay(st):
                out.append(Action("e", _("stay")))
            if rg.can_accuse(st):
                out.append(Action("a", _("accuse")))
            out.append(Action(key_name("Esc"), _("back")))
        elif mode is Mode.PICK:
            out += [Action(_("arrows"), _("pick")), Action(key_name("Enter"), _("choose")),
                    Action(key_name("Esc"), _("back"))]
        elif mode is Mode.CONFIRM:
            out += [Action(yes_key(), _("accuse")), Action(no_key(), _("back"))]
        elif mode is Mode.SHOW:
            out += [Action(_("arrows"), _("pick")), Action(key_name("Enter"), _("show"))]
        elif mode is Mode.NOTEPAD:
            out += [Action(_("arrows"), _("cell")), Action("n", _("back"))]
        # n and h only where they work: a list pick or a confirmation keeps its keys
        # (in a confirmation n means "back"); h where there is a hint to give.
        if mode in (Mode.WATCH, Mode.TURN, Mode.MOVE, Mode.SHOW) and self.screen is Screen.GAME:
            out.append(Action("n", _("notepad")))
        if self.hint_offered():
            out.append(Action("h", _("hint")))
        if self.vote_offered():
            out += [Action("w", _("wait more")), Action("x", _("end as abandoned"))]
        return out

    def again_offered(self) -> bool:
        """p plays again: an evening's game is over and this seat played it to the end."""
        return (self.evening is not None and self.screen is Screen.END
                and self.end.ended is not None and self.seat is not None
                and not self.left_table)

    def hint_offered(self) -> bool:
        """h gives a hint now: the suggestion to make (the turn's suggestion may be made,
        or its list is being picked), or the card to show."""
        if self.screen is not Screen.GAME or self.state is None:
            return False
        if self.mode is Mode.SHOW:
            return True
        if self.mode is Mode.PICK:
            return self.picker is not None and self.picker.purpose == "suggest"
        return self.mode is Mode.TURN and rg.can_suggest(self.state)

    def leave_offered(self) -> bool:
        """The graceful leave is there: a seated player still at the table, in play. Also
        one that is out after a wrong accusation: the table still needs its refutations,
        so its way out is the leave (sent at its next refutation), never a quit that leaves
        the table waiting for it."""
        return (self.can_leave and self.seat is not None and self.screen is Screen.GAME
                and not self.leaving and not self.left_table)

    def expect(self, seat: int | None, now: float) -> None:
        """The session's seat that owes the next message, read after each event."""
        if seat is None or self.screen is Screen.END:
            self.awaited = None
        elif self.awaited is None or self.awaited[0] != seat:
            self.awaited = (seat, now)

    def is_away(self, seat: int) -> bool:
        """This seat's link is down (told "is away" and not back yet)."""
        return any(s == seat for s, _name in self._away)

    def vote_offered(self) -> bool:
        """The table waits for another, silent seat and this session can vote on it."""
        w = self.waiting
        return (self.can_vote and w is not None and self.seat is not None
                and w.seat != self.seat and not self.left_table)

    def deal_fraction(self) -> float:
        p = self.progress
        if p is None:
            return 0.0
        stages = len(DEAL_ORDER) if self.config.rules.weapons_random else len(DEAL_ORDER) - 1
        k = DEAL_ORDER.index(p.stage) if p.stage in DEAL_ORDER else 0
        return min(1.0, (k * p.steps + p.step - 1) / (stages * p.steps))

    # ---- the story -------------------------------------------------------------------

    def tell(self, line: str) -> None:
        """A line of the story from outside the game (the table check, say)."""
        self._tell(line)

    def _tell(self, line: str) -> None:
        self.story.append(line)
        self.story_told += 1
        del self.story[:-STORY_KEEP]
        if self.story_back:  # reading back: the page stays where it is
            self.story_back = min(self.story_back + 1, len(self.story) - 1)

    def scroll_story(self, pages: int) -> None:
        """PgUp / PgDn: read back through the story a page (what the panel shows) at a time.
        On the end screen the first PgUp shows the story from its end, and PgDn past it
        goes back to the summary."""
        if self.screen is Screen.END and (pages > 0) != self.reading_story \
                and self.story_back == 0:
            self.reading_story = pages > 0
            return
        self.story_back = max(0, min(len(self.story) - 1,
                                     self.story_back + pages * max(1, self.story_rows)))

    def story_edge(self, oldest: bool) -> None:
        """Home: the story's beginning; End: its newest entries (as before reading back)."""
        if self.screen is Screen.END:
            self.reading_story = oldest or self.reading_story
        self.story_back = len(self.story) if oldest else 0

    def story_since(self, told: int) -> list[str]:
        """The entries told after the first ``told`` (those still kept)."""
        return self.story[len(self.story) - min(len(self.story), self.story_told - told):]

    def i_show(self, card: int) -> None:
        """The local player chose to show ``card``: its notepad and its story learn which
        when the proof is accepted."""
        self.knowledge.i_showed(card)
        self.story_teller.i_show(card)

    # ---- reading for the keys and the view --------------------------------------------

    def rooms_in_reach(self) -> dict[int, Square]:
        """Room -> the destination square that enters it, for the rooms this roll reaches."""
        return moves.rooms_in_reach(self.destinations)

    def hint_found(self, best: tuple[int, int] | None, room: int) -> None:
        """The hint's answer (worked out off the UI thread): the suggestion to make in
        ``room``, which the picker's cursor then follows."""
        if best is None:
            self.hint = _("no hint yet: the notepad is still starting")
            return
        s, w = best
        self.hint_pick = best
        self.hint = _("suggest {triple} (teaches you most)").format(
            triple=triple_word((s, w, room)))
        p = self.picker
        if p is not None and p.purpose == "suggest":
            p.cursor = p.options.index(best[len(p.chosen)])

    def set_quiet_card(self, c: int) -> None:
        self.quiet_card = c
        if self.mode is Mode.SHOW and c in self.show_options:
            self.show_cursor = self.show_options.index(c)

    def accusation_warning(self) -> str:
        """Empty when the notepad is certain of this triple; else what it thinks."""
        parts = self.warning_parts()
        return "" if parts is None else f"{parts[0]} {parts[2]}"

    def warning_parts(self) -> tuple[str, str, str] | None:
        """What the notepad thinks of the accusation about to be made, when it is not
        certain: (in full, in short, what a wrong accusation costs), so that a short panel
        can keep the cost and the gist whatever the language's length."""
        if self.accusation is None or self.view.solution == self.accusation:
            return None
        cost = _("A wrong accusation puts you out of the game.")
        odds = [self.view.envelope.get(c) for c in self.accusation]
        if any(o is None for o in odds):
            unsure = _("Your notepad is not certain of the envelope.")
            return unsure, unsure, cost
        joint = 1.0
        for o in odds:
            joint *= o or 0.0
        full = _("Your notepad is NOT certain: these three are in the envelope with about "
                 "{joint} odds (each: {each}).").format(
            joint=percent(joint), each=listing([percent(o) for o in odds if o is not None]))
        short = _("Your notepad is NOT certain of these three ({joint}).").format(
            joint=percent(joint))
        return full, short, cost

    def selected_cell(self) -> tuple[int, int]:
        row, col = self.note_cursor
        return CARDS[row].index, self.owners[col]


