"""The one object that owns the UI state (as in pyvim): layout and keys are functions of it.

``UIModel`` takes session events (``on_event``) and key presses (``press``) and
answers with commands for the application to carry out (submit an intent, compute
a hint or an explanation off the UI thread, leave). It never touches the terminal,
the session or a thread, so tests can drive it directly or through a real
prompt_toolkit application and assert on it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from p2pclue.engine import events as ev
from p2pclue.engine.config import GameConfig
from p2pclue.engine.peer import Choice
from p2pclue.i18n import _, card_name, card_phrase, fold, listing
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
from p2pclue.rules.board import Square, classic_board
from p2pclue.rules.cards import CARDS, ROOMS, SUSPECTS, WEAPONS, card
from p2pclue.rules.state import GameState, Phase
from p2pclue.tui.knowledge import ENVELOPE, Knowledge, NotepadView
from p2pclue.tui.story import Story

STORY_KEEP = 400
DEAL_ORDER = ("join", "keys", "envelope", "deal", "unlayer", "random")


class Screen(enum.Enum):
    """Which screen fills the terminal.

    A ``LOBBY`` screen slots in before ``DEALING`` when the LAN runner's lobby events
    exist: ``on_event`` gains their cases, ``view.root`` a body, ``press`` a handler;
    nothing else depends on the game having started.
    """

    DEALING = "dealing"
    GAME = "game"
    END = "end"


class Mode(enum.Enum):
    """What the keys do on the game screen."""

    WATCH = "watch"
    """Nothing is asked of you: the story runs."""
    TURN = "turn"
    """Your turn: the action bar lists what the rules allow."""
    MOVE = "move"
    """After a roll: pick a highlighted destination."""
    PICK = "pick"
    """Picking a suspect, a weapon (and for an accusation a room) from a list."""
    CONFIRM = "confirm"
    """Confirming an accusation."""
    SHOW = "show"
    """Pick which of your cards to show the suggester."""
    NOTEPAD = "notepad"
    """Moving over the notepad's cells, reading why each is marked."""


class Overlay(enum.Enum):
    HELP = "help"
    QUIT = "quit"


# ---- commands for the application ------------------------------------------------------


@dataclass(frozen=True)
class Submit:
    intent: ev.Intent


@dataclass(frozen=True)
class Leave:
    pass


@dataclass(frozen=True)
class Vote:
    """The person's vote about the silent seat: ``"wait"`` or ``"abandon"``."""

    choice: str


@dataclass(frozen=True)
class NeedHint:
    room: int


@dataclass(frozen=True)
class NeedExplain:
    card: int
    owner: int


@dataclass(frozen=True)
class NeedNotepad:
    """New facts: rebuild the notepad (off the UI thread)."""


@dataclass(frozen=True)
class NeedQuietCard:
    options: tuple[int, ...]
    suggester: int


Command = Submit | Leave | Vote | NeedHint | NeedExplain | NeedNotepad | NeedQuietCard


@dataclass(frozen=True)
class Action:
    """One entry of the action bar."""

    key: str
    label: str


@dataclass
class Picker:
    """A list pick for a suggestion or an accusation."""

    purpose: str
    """"suggest" or "accuse"."""
    room: int | None
    """The room a suggestion is made in (implied by the rules)."""
    chosen: list[int] = field(default_factory=list)
    cursor: int = 0

    @property
    def options(self) -> tuple[int, ...]:
        step = len(self.chosen)
        pools = (SUSPECTS, WEAPONS, ROOMS)
        return tuple(c.index for c in pools[step])

    @property
    def title(self) -> str:
        titles = ((_("Suggest: pick the suspect"), _("Suggest: pick the weapon"),
                   _("Suggest: pick the room")) if self.purpose == "suggest"
                  else (_("Accuse: pick the suspect"), _("Accuse: pick the weapon"),
                        _("Accuse: pick the room")))
        return titles[len(self.chosen)]

    @property
    def steps(self) -> int:
        return 2 if self.purpose == "suggest" else 3


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
        self._mode_before_notepad = Mode.WATCH
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
                out += [Action(_("arrows"), _("pick")), Action("Enter", _("go"))]
            if rg.may_stay(st):
                out.append(Action("e", _("stay")))
            if rg.can_accuse(st):
                out.append(Action("a", _("accuse")))
            out.append(Action("Esc", _("back")))
        elif mode is Mode.PICK:
            out += [Action(_("arrows"), _("pick")), Action("Enter", _("choose")),
                    Action("Esc", _("back"))]
        elif mode is Mode.CONFIRM:
            out += [Action("y", _("accuse")), Action("n", _("back"))]
        elif mode is Mode.SHOW:
            out += [Action(_("arrows"), _("pick")), Action("Enter", _("show"))]
        elif mode is Mode.NOTEPAD:
            out += [Action(_("arrows"), _("cell")), Action("n", _("back"))]
        # n and h only where they work: a list pick or a confirmation keeps its keys
        # (in a confirmation n means "back"), a suggestion's pick keeps its hint.
        if mode in (Mode.WATCH, Mode.TURN, Mode.MOVE, Mode.SHOW) and self.screen is Screen.GAME:
            out.append(Action("n", _("notepad")))
        hall_in_reach = mode is Mode.MOVE and self._room_by_initial("h") is not None
        if self.screen is Screen.GAME and not hall_in_reach and (  # then h picks the Hall
                mode in (Mode.WATCH, Mode.TURN, Mode.MOVE, Mode.SHOW)
                or (mode is Mode.PICK and self.picker is not None
                    and self.picker.purpose == "suggest")):
            out.append(Action("h", _("hint")))
        if self.vote_offered():
            out += [Action("w", _("wait more")), Action("x", _("end as abandoned"))]
        return out

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
            if self.state is not None:
                self.knowledge.hand_sizes = self.state.hand_sizes
                out.append(NeedNotepad())
        elif isinstance(e, ev.Accepted) and e.sender == self.seat:
            self.choice = None
            self._mode_before_notepad = Mode.WATCH
            if self.mode is not Mode.NOTEPAD:
                self.mode = Mode.WATCH
        elif isinstance(e, ev.DiceRolled) and e.seat == self.seat and self.state is not None:
            self.destinations = dict(rg.legal_destinations(self.state))
            self.cursor = self._first_destination()
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

    def _your_choice(self, choice: Choice) -> list[Command]:
        self.choice = choice
        self.screen = Screen.GAME
        self.message = ""
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
                self.cursor = self._first_destination()
        self.mode = target  # a decision takes the keys back from the notepad
        return out

    def set_quiet_card(self, c: int) -> None:
        self.quiet_card = c
        if self.mode is Mode.SHOW and c in self.show_options:
            self.show_cursor = self.show_options.index(c)

    # ---- keys ---------------------------------------------------------------------------

    def press(self, key: str) -> list[Command]:
        """One key (``"r"``, ``"up"``, ``"enter"``, ``"escape"``, ``"f1"``...)."""
        self.message = "" if key not in ("h",) else self.message
        if self.overlay is Overlay.HELP:
            if key in ("down", "pagedown", " "):  # the help is longer than 80 x 24 in
                self.help_page += 1  # every language: it turns pages (the view clamps)
            elif key in ("up", "pageup"):
                self.help_page = max(0, self.help_page - 1)
            else:
                self.overlay, self.help_page = None, 0
            return []
        if self.overlay is Overlay.QUIT:
            self.overlay = None
            if key in ("y", "q"):
                self.left = True
                return [Leave()]
            if key == "l" and self.leave_offered():
                self.leaving = True
                self.message = _("You will leave as soon as the table waits for you.")
                return [Submit(ev.Leave())]
            return []
        if key in ("?", "f1"):
            self.overlay = Overlay.HELP
            return []
        if key == "q" or key == "c-c":
            if self.screen is Screen.END:
                self.left = True
                return [Leave()]
            self.overlay = Overlay.QUIT
            return []
        if key in ("pageup", "pagedown") and self.screen is not Screen.DEALING:
            self.scroll_story(1 if key == "pageup" else -1)
            return []
        if key in ("home", "end") and self.screen is not Screen.DEALING:
            self.story_edge(key == "home")
            return []
        if self.screen is not Screen.GAME:
            return []
        if key in ("w", "x") and self.vote_offered():
            self.voted = "wait" if key == "w" else "abandon"
            return [Vote(self.voted)]
        handler = {
            Mode.WATCH: self._key_watch, Mode.TURN: self._key_turn, Mode.MOVE: self._key_move,
            Mode.PICK: self._key_pick, Mode.CONFIRM: self._key_confirm,
            Mode.SHOW: self._key_show, Mode.NOTEPAD: self._key_notepad,
        }[self.mode]
        return handler(key)

    def _common(self, key: str) -> list[Command]:
        if key in ("n", "tab"):
            self._mode_before_notepad = self.mode
            self.mode = Mode.NOTEPAD
            return [NeedExplain(*self.selected_cell())]
        if key == "h":
            room = self.my_room()
            if room is None:
                self.hint = _("Hints name the best suggestion in the room you are in.")
                return []
            self.hint = _("Thinking...")
            return [NeedHint(room)]
        return []

    def _key_watch(self, key: str) -> list[Command]:
        return self._common(key)

    def _key_turn(self, key: str) -> list[Command]:
        st = self.state
        if st is None:
            return []
        offered = {a.key for a in self.actions()}
        if key == "r" and "r" in offered:
            return [Submit(ev.RollDice())]
        if key == "p" and "p" in offered:
            return [Submit(ev.TakePassage())]
        if key == "e" and "e" in offered:
            return [Submit(ev.EndTurn())]
        if key == "m" and "m" in offered:
            self.mode = Mode.MOVE
            return []
        if key == "s" and "s" in offered:
            self.picker = Picker("suggest", self.my_room())
            if self.hint_pick is not None:  # asked for a hint before: start on it
                self.picker.cursor = self.picker.options.index(self.hint_pick[0])
            self.mode = Mode.PICK
            return []
        if key == "a" and "a" in offered:
            return self._start_accusation()
        return self._common(key)

    def _start_accusation(self) -> list[Command]:
        self.picker = Picker("accuse", None)
        self.picker.cursor = self._likeliest(self.picker)
        self.mode = Mode.PICK
        return []

    def _likeliest(self, p: Picker) -> int:
        """Where an accusation's cursor starts: the notepad's answer, else the likeliest card.

        Never a card in your own hand by default: Enter, Enter, Enter must not accuse
        with cards you hold.
        """
        options = p.options
        sol = self.view.solution
        if sol is not None:
            return options.index(sol[len(p.chosen)])
        odds = [self.view.envelope.get(c, 0.0 if c in self.hand else 0.5) for c in options]
        return odds.index(max(odds))

    def _first_destination(self) -> Square | None:
        if not self.destinations:
            return None
        board = classic_board()
        rooms = sorted(sq for sq in self.destinations if board.room_at(sq) is not None)
        return rooms[0] if rooms else sorted(self.destinations)[0]

    def _key_move(self, key: str) -> list[Command]:
        st = self.state
        if st is None:
            return []
        if key in ("up", "down", "left", "right"):
            self.cursor = self._step_cursor(key)
            return []
        if key == "enter" and self.cursor in self.destinations:
            return [Submit(ev.MoveAlong(self.destinations[self.cursor]))]
        if key == "e" and rg.may_stay(st):
            return [Submit(ev.EndTurn())]
        if key == "a" and rg.can_accuse(st):
            return self._start_accusation()
        if key == "escape":
            self.mode = Mode.TURN
            return []
        if len(key) == 1 and key.isdigit() and key != "0":
            return self._room_by_number(int(key))
        if len(key) == 1 and key.isalpha():
            picked = self._room_by_initial(key)
            if picked is not None:
                self.cursor = picked
                return []
            named = [card_phrase(r.index) for r in ROOMS
                     if fold(card_name(r.index)).startswith(fold(key))
                     or r.name.lower().startswith(key.lower())]
            if named and key not in ("h", "n"):  # h and n keep their own meaning
                rooms = listing(named)
                self.message = _("{rooms}: out of reach with this roll.").format(
                    rooms=rooms[:1].upper() + rooms[1:])
                return []
        return self._common(key)

    def pick_square(self, square: Square) -> list[Command]:
        """A mouse click on the board: select a destination there; a second click goes."""
        if self.mode is not Mode.MOVE:
            return []
        board = classic_board()
        target: Square | None = square if square in self.destinations else None
        room = board.room_at(square)
        if target is None and room is not None:
            target = next((sq for sq in sorted(self.destinations)
                           if board.room_at(sq) == room), None)
        if target is None:
            return []
        if target == self.cursor:
            return [Submit(ev.MoveAlong(self.destinations[target]))]
        self.cursor = target
        return []

    def rooms_in_reach(self) -> dict[int, Square]:
        """Room -> the destination square that enters it, for the rooms this roll reaches."""
        board = classic_board()
        out: dict[int, Square] = {}
        for sq in sorted(self.destinations):
            room = board.room_at(sq)
            if room is not None:
                out.setdefault(room, sq)
        return out

    def _room_by_number(self, number: int) -> list[Command]:
        """Keys 1-9 pick the rooms in the cards' order: one key, one room, in every language."""
        if number > len(ROOMS):
            return []
        room = ROOMS[number - 1].index
        square = self.rooms_in_reach().get(room)
        if square is None:
            name = card_phrase(room)
            self.message = _("{rooms}: out of reach with this roll.").format(
                rooms=name[:1].upper() + name[1:])
        else:
            self.cursor = square
        return []

    def _room_by_initial(self, key: str) -> Square | None:
        board = classic_board()
        rooms: list[Square] = []
        for sq in sorted(self.destinations):
            room = board.room_at(sq)
            if room is not None and (fold(card_name(room)).startswith(fold(key)) or
                                     card(room).name.lower().startswith(key.lower())) \
                    and all(board.room_at(r) != room for r in rooms):
                rooms.append(sq)
        if not rooms:
            return None
        here = board.room_at(self.cursor) if self.cursor is not None else None
        same = [i for i, sq in enumerate(rooms) if board.room_at(sq) == here]
        if here is not None and same:  # the cursor in one of them (any of its squares)
            return rooms[(same[0] + 1) % len(rooms)]
        return rooms[0]

    def _step_cursor(self, key: str) -> Square | None:
        if not self.destinations:
            return None
        if self.cursor is None:
            return self._first_destination()
        dr, dc = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}[key]
        r0, c0 = self.cursor
        best: tuple[float, Square] | None = None
        for sq in self.destinations:
            r, c = sq[0] - r0, sq[1] - c0
            along = r * dr + c * dc
            if along <= 0:
                continue
            across = abs(r * dc) + abs(c * dr)
            score = along + 2 * across
            if best is None or (score, sq) < best:
                best = (score, sq)
        return best[1] if best is not None else self.cursor

    def _key_pick(self, key: str) -> list[Command]:
        p = self.picker
        if p is None:
            self.mode = Mode.TURN
            return []
        options = p.options
        if key in ("up", "k"):
            p.cursor = (p.cursor - 1) % len(options)
        elif key in ("down", "j"):
            p.cursor = (p.cursor + 1) % len(options)
        elif key == "escape":
            if p.chosen:
                p.chosen.pop()
                p.cursor = 0
            else:
                self.picker = None
                self.mode = Mode.MOVE if self._move_pending() else Mode.TURN
        elif key == "enter":
            p.chosen.append(options[p.cursor])
            p.cursor = 0
            if len(p.chosen) == p.steps:
                return self._picked(p)
            if p.purpose == "accuse":
                p.cursor = self._likeliest(p)
            elif self.hint_pick is not None:  # the hinted weapon after the hinted suspect
                p.cursor = p.options.index(self.hint_pick[len(p.chosen)])
        elif key == "h" and p.purpose == "suggest" and p.room is not None:
            self.hint = _("Thinking...")
            return [NeedHint(p.room)]
        elif key.isdigit() and 1 <= int(key) <= len(options):
            p.cursor = int(key) - 1
        return []

    def _move_pending(self) -> bool:
        return self.state is not None and self.state.phase is Phase.AWAIT_MOVE

    def _picked(self, p: Picker) -> list[Command]:
        self.picker = None
        if p.purpose == "suggest":
            self.mode = Mode.WATCH
            self.hint, self.hint_pick = "", None
            return [Submit(ev.MakeSuggestion(p.chosen[0], p.chosen[1]))]
        self.accusation = (p.chosen[0], p.chosen[1], p.chosen[2])
        self.mode = Mode.CONFIRM
        return []

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

    def _key_confirm(self, key: str) -> list[Command]:
        if key == "y" and self.accusation is not None:
            s, w, r = self.accusation
            self.accusation = None
            self.mode = Mode.WATCH
            return [Submit(ev.MakeAccusation(s, w, r))]
        if key in ("n", "escape"):
            self.accusation = None
            self.mode = Mode.MOVE if self._move_pending() else Mode.TURN
        return []

    def _key_show(self, key: str) -> list[Command]:
        n = len(self.show_options)
        if not n:
            return []
        if key in ("up", "left", "k"):
            self.show_cursor = (self.show_cursor - 1) % n
        elif key in ("down", "right", "j"):
            self.show_cursor = (self.show_cursor + 1) % n
        elif key.isdigit() and 1 <= int(key) <= n:
            self.show_cursor = int(key) - 1
        elif key == "enter":
            c = self.show_options[self.show_cursor]
            self.knowledge.i_showed(c)
            self.story_teller.shown = c
            self.mode = Mode.WATCH
            return [Submit(ev.ShowCard(c))]
        else:
            return self._common(key)
        return []

    def selected_cell(self) -> tuple[int, int]:
        row, col = self.note_cursor
        return CARDS[row].index, self.owners[col]

    def _key_notepad(self, key: str) -> list[Command]:
        row, col = self.note_cursor
        if key in ("n", "tab", "escape"):
            self.mode = self._mode_before_notepad
            if self.mode is Mode.NOTEPAD:
                self.mode = Mode.WATCH
            return []
        moves = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
        if key in moves:
            dr, dc = moves[key]
            self.note_cursor = ((row + dr) % len(CARDS), (col + dc) % len(self.owners))
            self.explanation = "..."
            return [NeedExplain(*self.selected_cell())]
        return []
