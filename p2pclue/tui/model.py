"""The one object that owns the UI state (as in pyvim): layout and keys are functions of it.

``UIModel`` takes session events (``on_event``) and key presses (``press``) and
answers with commands for the application to carry out (submit an intent, compute
a hint or an explanation off the UI thread, leave). It never touches the terminal,
the session or a thread, so tests can drive it directly or through a real
prompt_toolkit application and assert on it.

The state itself and what it answers are in ``uistate``; what each key does is in
``keys`` (the presenter), where a roll can go in ``moves``; the screens, drawn from the
model, in ``view`` and the modules it names. The screen and mode names (``modes``), the
commands (``commands``) and the list pick (``picker``) are importable from here as before.
"""

from __future__ import annotations

from p2pclue.engine import events as ev
from p2pclue.engine.peer import Choice
from p2pclue.i18n import PlayerWord, _, player_word
from p2pclue.i18n.players import spectator_word
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
from p2pclue.tui.modes import Mode, Overlay, Screen
from p2pclue.tui.picker import Picker
from p2pclue.tui.uistate import DEAL_ORDER, STORY_KEEP, EndInfo, UIState


class UIModel(UIState):
    """The terminal UI for one seat of one game: its state, moved by events and keys."""

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
            case Presence(name=name, seat=seat, present=present, silent=silent):
                self._tell_presence((seat, name), present, silent)
            case Guesses(count=count):
                self._tell(guesses.describe(count))
            case Ended():
                self.end.ended = event
                if self.evening is not None and self.seat is not None and not self.left_table:
                    self.evening.record(self.config, state)
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

    def _tell_presence(self, who: tuple[int | None, str], present: bool,
                       silent: bool = False) -> None:
        if not present:
            if who not in self._away:
                self._away.add(who)
                self._tell(_("{player} is not answering (network?): reconnecting; the table "
                             "waits for them.").format(player=self._present(who)) if silent
                           else _("{player} is away.").format(player=self._present(who)))
                others = {s for s in range(self.n) if s != self.seat}
                if silent and self.seat is not None and len(others) > 1 \
                        and others <= {s for s, _name in self._away}:
                    self._tell(_("Nobody else is answering: this computer may be off the "
                                 "network. Reconnecting; the game waits."))
        elif who in self._away:
            self._away.discard(who)
            self._tell(_("{player} is back.").format(player=self._present(who)))

    @staticmethod
    def _present(who: tuple[int | None, str]) -> PlayerWord:
        seat, name = who
        return player_word(name) if seat is not None else spectator_word(name)

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
        elif isinstance(e, ev.Halted):
            self.end.why = [ln.strip() for ln in told]  # who broke the protocol, and how
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
                             "in which room. ?\u00a0shows the keys and rules."))
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


__all__ = ["DEAL_ORDER", "STORY_KEEP", "Action", "Command", "EndInfo", "Leave", "Mode",
           "NeedExplain", "NeedHint", "NeedNotepad", "NeedQuietCard", "Overlay", "Picker",
           "Screen", "Submit", "UIModel", "Vote"]
