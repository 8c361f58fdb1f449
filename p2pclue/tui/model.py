"""The one object that owns the UI state (as in pyvim): layout and keys are functions of it.

``UIModel`` takes session events (``on_event``) and key presses (``press``) and
answers with commands for the application to carry out (submit an intent, compute
a hint or an explanation off the UI thread, leave). It never touches the terminal,
the session or a thread, so tests can drive it directly or through a real
prompt_toolkit application and assert on it.

The model holds the state and takes the events; what each key does is in ``keys`` (the
presenter), where a roll can go in ``moves``; the screens, drawn from the model, in
``view`` and the modules it names. The screen and mode names (``modes``), the commands
(``commands``) and the list pick (``picker``) are importable from here as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.engine.peer import Choice
from p2pclue.i18n import _, key_name
from p2pclue.net import guesses
from p2pclue.net.api import (
    Ended,
    Engine,
    Guesses,
    Presence,
    Progress,
    SessionEvent,
    Waiting,
    YourChoice,
)
from p2pclue.rules import game as rg
from p2pclue.rules.board import Square
from p2pclue.rules.cards import CARDS
from p2pclue.rules.state import GameState, Phase
from p2pclue.tui import keys, moves
from p2pclue.tui.commands import (
    Action,
    Command,
    Leave,
    NeedExplain,
    NeedHint,
    NeedNotepad,
    NeedQuietCard,
    Submit,
    Vote,
)
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


class UIModel:
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

    def name(self, seat: int) -> str:
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
            return [Action("q", _("leave"))]
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
                out += [Action(_("arrows"), _("pick")), Action(key_name("Enter"), _("go"))]
            if rg.may_stay(st):
                out.append(Action("e", _("stay")))
            if rg.can_accuse(st):
                out.append(Action("a", _("accuse")))
            out.append(Action(key_name("Esc"), _("back")))
        elif mode is Mode.PICK:
            out += [Action(_("arrows"), _("pick")), Action(key_name("Enter"), _("choose")),
                    Action(key_name("Esc"), _("back"))]
        elif mode is Mode.CONFIRM:
            out += [Action("y", _("accuse")), Action("n", _("back"))]
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

    # ---- session events -----------------------------------------------------------------

    def on_event(self, event: SessionEvent, state: GameState | None,
                 hand: tuple[int, ...]) -> list[Command]:
        """Take one session event, with the session's state and hand read just after it."""
        self.state = state
        self.hand = hand
        out: list[Command] = []
        match event:
            case Progress():
                self.progress = event
                self.progress_text = self.story_teller.progress(
                    event.stage, event.seat, event.step, event.steps)
            case Waiting():
                self.waiting = event
                self.voted = None
            case YourChoice(choice=choice):
                out += self._your_choice(choice)
            case Engine(event=e):
                out += self._engine_event(e)
            case Presence(name=name, seat=seat, present=present):
                self._tell_presence((seat, name), present)
            case Guesses(count=count):
                self._tell(guesses.describe(count))
            case Ended():
                self.end.ended = event
                if event.status == "abandoned" and not self.end.why:
                    self._why_stopped()
                self.screen = Screen.END
                self.mode = Mode.WATCH
                self.waiting, self.awaited = None, None
                self._tell(event.message)
        return out

    def _why_stopped(self) -> None:
        """An abandoned game without the table's decision (this seat gave up alone, or
        its disk failed): whom it waited for, and the votes there were."""
        seat = self.waiting.seat if self.waiting is not None else (
            self.awaited[0] if self.awaited is not None else None)
        if seat is not None and seat != self.seat:
            self.end.why.append(_("The game stopped while waiting for {player}.").format(
                player=self.name(seat)))
        self.end.why += self._votes

    def _tell_presence(self, who: tuple[int | None, str], present: bool) -> None:
        if not present:
            if who not in self._away:
                self._away.add(who)
                self._tell(_("{player} is away.").format(player=who[1]))
        elif who in self._away:
            self._away.discard(who)
            self._tell(_("{player} is back.").format(player=who[1]))

    def tell(self, line: str) -> None:
        """A line of the story from outside the game (the table check, say)."""
        self._tell(line)

    def _tell(self, line: str) -> None:
        self.story.append(line)
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

    def _engine_event(self, e: ev.Event) -> list[Command]:
        out: list[Command] = []
        told = list(self.story_teller.lines(e))
        for line in told:
            self._tell(line)
        if isinstance(e, ev.VoteCounted):
            self._votes = [*self._votes, *(ln.strip() for ln in told)][-6:]
        elif isinstance(e, ev.Abandoned):
            self.end.why = [*told, *self._votes]
        elif isinstance(e, ev.Suggested):
            self.last_suggestion = told
            self.last_suggested = e
        elif isinstance(e, ev.Refuted | ev.Passed | ev.CardShownToMe):
            self.last_suggestion = [*self.last_suggestion, *told]
        elif isinstance(e, ev.Accused):
            self._accusing = told
        elif isinstance(e, ev.AccusationDecided) and e.correct:
            self.end.why = [*self._accusing, *(ln.strip() for ln in told)]
        if self.state is not None:
            self.knowledge.game_turn = self.state.turn_number
        if isinstance(e, ev.Accepted) or (isinstance(e, ev.PlayerLeft)
                                          and self.waiting is not None
                                          and e.seat == self.waiting.seat):
            self.waiting, self.voted = None, None  # the table moved on
        if self.knowledge.feed(e):
            out.append(NeedNotepad())
        if isinstance(e, ev.WeaponsPlaced):
            self.screen = Screen.GAME
            if self.seat is not None:  # the first screen says what the game is about
                self._tell(_("Find the three cards in the envelope: who, with which weapon, "
                             "in which room. ? shows the keys and rules."))
            if self.state is not None:
                self.knowledge.hand_sizes = self.state.hand_sizes
                out.append(NeedNotepad())
        elif isinstance(e, ev.Accepted) and e.sender == self.seat:
            self.choice = None
            self.hint, self.hint_pick = "", None  # the turn moved on: its hint is spent
            self.mode_before_notepad = Mode.WATCH
            if self.mode is not Mode.NOTEPAD:
                self.mode = Mode.WATCH
        elif isinstance(e, ev.DiceRolled) and e.seat == self.seat and self._moving_now():
            # Only a roll this seat moves with now: the events of a resumed game are
            # replayed with the state as it is at the end of the replay, not after them.
            assert self.state is not None
            self.destinations = dict(rg.legal_destinations(self.state))
            self.cursor = moves.first_destination(self.destinations)
            if not self.destinations:
                self.message = _("You are blocked in: press e to stay.")
        elif isinstance(e, ev.PlayerLeft) and e.seat == self.seat:
            self.left_table, self.leaving = True, False
            self.screen, self.mode, self.choice = Screen.END, Mode.WATCH, None
        elif isinstance(e, ev.LeaveQueued):
            self.message = _("You will leave as soon as the table waits for you.")
        elif isinstance(e, ev.GameOver):
            self.end.result, self.end.winner, self.end.envelope = e.result, e.winner, e.envelope
        elif isinstance(e, ev.Moved | ev.PassageTaken) and e.seat == self.seat:
            self.destinations, self.cursor = {}, None
            self.hint, self.hint_pick = "", None  # a hint was for the room left behind
        return out

    def _moving_now(self) -> bool:
        st = self.state
        return st is not None and st.current_seat == self.seat and st.phase is Phase.AWAIT_MOVE

    def _your_choice(self, choice: Choice) -> list[Command]:
        self.choice = choice
        self.screen = Screen.GAME
        self.message = ""
        self.show_hint = False
        if choice.kind == "show" or self.state is None or not rg.can_suggest(self.state):
            self.hint, self.hint_pick = "", None  # a hint is for the suggestion of this turn
        target = Mode.TURN
        out: list[Command] = []
        st = self.state
        if choice.kind == "show":
            target = Mode.SHOW
            self.show_options = choice.options
            self.show_cursor = 0
            self.quiet_card = None
            if st is not None and st.pending_suggestion is not None:
                out.append(NeedQuietCard(choice.options, st.pending_suggestion.suggester))
        elif st is not None and st.phase is Phase.AWAIT_MOVE:
            target = Mode.MOVE
            if not self.destinations:
                self.destinations = dict(rg.legal_destinations(st))
                self.cursor = moves.first_destination(self.destinations)
        self.mode = target  # a decision takes the keys back from the notepad
        return out

    # ---- keys and the mouse (``keys``: what each key does, mode by mode) ---------------

    def press(self, key: str) -> list[Command]:
        """One key (``"r"``, ``"up"``, ``"enter"``, ``"escape"``, ``"f1"``...)."""
        return keys.press(self, key)

    def pick_square(self, square: Square) -> list[Command]:
        """A mouse click on the board: select a destination there; a second click goes."""
        return keys.pick_square(self, square)

    def rooms_in_reach(self) -> dict[int, Square]:
        """Room -> the destination square that enters it, for the rooms this roll reaches."""
        return moves.rooms_in_reach(self.destinations)

    def set_quiet_card(self, c: int) -> None:
        self.quiet_card = c
        if self.mode is Mode.SHOW and c in self.show_options:
            self.show_cursor = self.show_options.index(c)

    # ---- reading for the keys and the view --------------------------------------------

    def accusation_warning(self) -> str:
        """Empty when the notepad is certain of this triple; else what it thinks."""
        if self.accusation is None:
            return ""
        if self.view.solution == self.accusation:
            return ""
        odds = [self.view.envelope.get(c) for c in self.accusation]
        if any(o is None for o in odds):
            return _("Your notepad is not certain of the envelope.")
        joint = 1.0
        for o in odds:
            joint *= o or 0.0
        return _("Your notepad is NOT certain: these three are in the envelope with about "
                 "{joint} odds (each: {each}). A wrong accusation puts you out of the "
                 "game.").format(joint=f"{joint:.0%}",
                                 each=", ".join(f"{o:.0%}" for o in odds if o is not None))

    def selected_cell(self) -> tuple[int, int]:
        row, col = self.note_cursor
        return CARDS[row].index, self.owners[col]


__all__ = ["DEAL_ORDER", "STORY_KEEP", "Action", "Command", "EndInfo", "Leave", "Mode",
           "NeedExplain", "NeedHint", "NeedNotepad", "NeedQuietCard", "Overlay", "Picker",
           "Screen", "Submit", "UIModel", "Vote"]
