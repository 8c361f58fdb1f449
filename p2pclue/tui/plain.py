"""``--plain``: the game line by line, for screen readers, dumb terminals and pipes.

The story is printed as text; when a decision is owed, the choices are numbered
and the answer is typed. While the table waits for another, silent player, it says
for whom and for how long, and a typed ``w`` or ``x`` is that person's vote (wait
more, or end the game as abandoned), as the full-screen UI's keys are. It drives the
same session and keeps the same model as the full-screen UI (story, notepad), without
drawing anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TextIO

from p2pclue.engine import events as ev
from p2pclue.engine.errors import LocalProtocolError
from p2pclue.i18n import (
    _,
    capital,
    card_name,
    card_word,
    is_yes,
    no_key,
    parse_card,
    percent,
    pgettext,
    refusal_text,
    yes_key,
)
from p2pclue.net.api import Ended, Progress, Session, SessionEvent, Waiting, YourChoice
from p2pclue.rules import game as rg
from p2pclue.rules.board import classic_board
from p2pclue.rules.cards import ROOMS, SUSPECTS, WEAPONS, Card, CardNameError
from p2pclue.rules.state import Phase
from p2pclue.tui import knowledge as kn
from p2pclue.tui.evening import Evening
from p2pclue.tui.keys import small_number
from p2pclue.tui.model import UIModel
from p2pclue.tui.story import square_words
from p2pclue.tui.view import quit_question, rules_summary

ReadLine = Callable[[], str]


class _Leave(Exception):
    pass


class _LeaveAsked(Exception):
    """The graceful leave was submitted: stop asking, read the table until the end."""


class _Lines:
    """The player's typed lines, one read at a time in a daemon thread.

    A read in progress cannot be cancelled. While a vote is offered the loop races the
    next line against the next session event; a read that loses stays pending and
    answers the next question instead. A daemon thread, not ``asyncio.to_thread``: a
    read still pending when the game ends must not hold the process at exit.
    """

    def __init__(self, read: ReadLine) -> None:
        self._read = read
        self._pending: asyncio.Future[str] | None = None

    def next(self) -> asyncio.Future[str]:
        """The line being read (a read is started if none is pending)."""
        if self._pending is None:
            loop = asyncio.get_running_loop()
            future: asyncio.Future[str] = loop.create_future()
            threading.Thread(target=self._work, args=(loop, future), daemon=True).start()
            self._pending = future
        return self._pending

    def _work(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[str]) -> None:
        try:
            line = self._read()
        except Exception:  # a reader that gives up counts as the end of input
            line = ""
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            loop.call_soon_threadsafe(_settle, future, line)

    async def get(self) -> str:
        line = await asyncio.shield(self.next())
        self._pending = None
        return line


def _settle(future: asyncio.Future[str], line: str) -> None:
    if not future.done():
        future.set_result(line)


class PlainUI:
    def __init__(self, session: Session, out: TextIO, read: ReadLine) -> None:
        self.session = session
        self.model = UIModel(session.config, session.seat, color=False)
        self.model.can_vote = callable(getattr(session, "vote", None))
        self.out = out
        self.lines = _Lines(read)
        self._told = 0
        self._last_stage = ""
        self._silent_since: float | None = None
        """When the table began to wait for the silent seat (each ``Waiting`` restarts
        its own clock; the person is told the whole time)."""
        self._my_vote: str | None = None
        """This person's vote about the seat the table waits for now."""
        self._offer_due = False

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = await self.lines.get()
        if line == "":
            raise _Leave()
        return line.strip()

    async def choose(self, title: str, options: list[str], *, extra: str = "",
                     cards: list[int] | None = None) -> int:
        """A numbered list; returns the index picked (q leaves, ? helps, n notepad).

        When the options are ``cards``, a card's name or alias may be typed instead of
        its number, in the player's language or in English.
        """
        while True:
            self.say(title)
            for i, o in enumerate(options, 1):
                self.say(f"  {i}. {o}")
            # Translators: the keys after a numbered question; each key's meaning is in the
            # same grammatical form as the turn menu's items (here: imperatives).
            prompt = (pgettext("keys of a numbered question",
                               "number or name (n see the notepad, h get a hint, ? get help, "
                               "q quit): ") if cards
                      else pgettext("keys of a numbered question",
                                    "number (n see the notepad, h get a hint, ? get help, "
                                    "q quit): "))
            answer = (await self.ask(prompt))
            number = small_number(answer)
            if number is not None and 1 <= number <= len(options):
                return number - 1
            if cards and len(answer) > 1:
                try:
                    index = parse_card(answer)
                except CardNameError as exc:
                    self.say(str(exc))
                    continue
                if index in cards:
                    return cards.index(index)
                self.say(_("{card} is not one of these.").format(card=card_word(index)))
                continue
            if answer in ("q", "leave"):
                await self.quit_or_leave()
            elif answer == "?":
                self.help()
            elif answer == "n":
                await self.show_notepad()
            elif answer == "h":
                await self.hint()
            else:
                self.say(_("Please type a number from 1 to {last}.").format(last=len(options)))

    async def quit_or_leave(self) -> None:
        """Ask how to go: the graceful leave where the session has it, or quit now."""
        graceful = bool(getattr(self.session, "can_leave", False)) \
            and self.session.seat is not None
        keys, meanings = quit_question(graceful)
        self.say(_("Leave the table?"))
        for meaning in meanings:
            self.say("  " + meaning)
        answer = await self.ask(keys + " ")
        if is_yes(answer):
            raise _Leave()
        if graceful and answer in ("l", "leave"):
            try:
                await self.session.submit(ev.Leave())
            except LocalProtocolError as exc:
                self.say(_("Not allowed now: {reason}").format(reason=self.refused(exc)))
                return
            self.say(_("You will leave as soon as the table waits for you."))
            raise _LeaveAsked()

    def refused(self, error: LocalProtocolError) -> str:
        """Why the engine refused, in the player's language, naming players by name."""
        return refusal_text(error, [p.name for p in self.session.config.players])

    def help(self) -> None:
        for para in rules_summary(self.session.config.rules):
            self.say(para)
        if self.model.can_vote:
            self.say(_("While the table waits for a silent player, type w to vote to wait "
                       "more or x to vote to end the game as abandoned (a majority of the "
                       "players present decides; until then the game goes on as soon as "
                       "that player is back)."))

    def offer_vote(self) -> None:
        """Say whom the table waits for, since when, and how to vote."""
        w = self.model.waiting
        if w is None:
            return
        waited = max(0, int(time.monotonic() - (self._silent_since or w.since)))
        if self._my_vote is None:
            text = _("The table is waiting for {player}, silent for {secs} s. Type w to vote "
                     "to wait more or x to vote to end the game as abandoned.")
        else:
            text = _("The table is still waiting for {player}, silent for {secs} s (w or x "
                     "changes your vote).")
        self.say(text.format(player=self.model.name(w.seat), secs=waited))

    async def vote_line(self, line: str) -> None:
        """A line typed while the table waits for a silent seat: a vote, or a key."""
        if line == "":
            raise _Leave()
        answer = line.strip()
        if answer in ("w", "x") and self.model.vote_offered():
            vote = getattr(self.session, "vote", None)
            choice = "wait" if answer == "w" else "abandon"
            if callable(vote) and vote(choice):
                self.model.voted = self._my_vote = choice
            else:
                self.say(_("There is nothing to vote on now."))
        elif answer in ("w", "x"):
            self.say(_("There is nothing to vote on now."))
        elif answer in ("q", "leave"):
            await self.quit_or_leave()
        elif answer == "?":
            self.help()
        elif answer == "n":
            await self.show_notepad()
        elif self.model.vote_offered():
            self.offer_vote()

    async def next_event(self) -> SessionEvent | None:
        """The next session event; while a vote is offered, a typed line may come first
        (then None: the line was handled)."""
        if not self.model.vote_offered():
            return await self.session.events.get()
        getter: asyncio.Future[SessionEvent] = asyncio.ensure_future(
            self.session.events.get())
        racing: list[asyncio.Future[Any]] = [getter, self.lines.next()]
        await asyncio.wait(racing, return_when=asyncio.FIRST_COMPLETED)
        if getter.done():
            return getter.result()  # the line, if typed, waits for the next round
        getter.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await getter
        if not getter.cancelled():  # taken in the same instant: it first, the line next
            return getter.result()
        await self.vote_line(await self.lines.get())
        return None

    async def play_again(self) -> bool:
        """An evening's game is over: its score, then whether to play the next one."""
        if not self.model.again_offered():
            return False
        assert self.model.evening is not None
        self.say(self.model.evening.line())
        self.say(_("Type p to play again at this table, or Enter to leave:"))
        line = await self.lines.get()
        self.model.again = line.strip().lower() == "p"
        return self.model.again

    async def refresh_notepad(self) -> None:
        self.model.view = await asyncio.to_thread(kn.build_snapshot,
                                                  self.model.knowledge.frozen())

    async def show_notepad(self) -> None:
        await self.refresh_notepad()
        env = self.model.view.envelope
        if not env:
            self.say(_("The notepad starts when the cards are dealt."))
            return
        for group, cards in ((_("Suspects (odds in the envelope): {odds}"), SUSPECTS),
                             (_("Weapons (odds in the envelope): {odds}"), WEAPONS),
                             (_("Rooms (odds in the envelope): {odds}"), ROOMS)):
            # Translators: a card and its odds in the envelope, in the plain notepad.
            parts = [_("{card} {odds}").format(card=card_word(c.index),
                                               odds=percent(env.get(c.index, 0)))
                     for c in cards]
            self.say(group.format(odds=", ".join(parts)))

    async def hint(self) -> None:
        room = self.model.my_room()
        if room is None:
            self.say(_("Hints name the best suggestion in the room you are in."))
            return
        await self.refresh_notepad()
        best = await asyncio.to_thread(kn.best_suggestion, self.model.view.notepad, room)
        if best is not None:
            self.say(_("Hint: suggest {suspect} with {weapon:the}.").format(
                suspect=card_word(best[0]), weapon=card_word(best[1])))

    def tell_story(self) -> None:
        for line in self.model.story_since(self._told):
            self.say(line)
        self._told = self.model.story_told

    async def run(self) -> int:
        runner = asyncio.ensure_future(self.session.run())
        try:
            while True:
                try:
                    event = await self.next_event()
                except _LeaveAsked:
                    self.model.leaving = True
                    continue
                if event is None:
                    self.tell_story()
                    continue
                before = self.model.waiting
                self.model.on_event(event, self.session.state, self.session.hand)
                if isinstance(event, Progress) and event.stage != self._last_stage:
                    self._last_stage = event.stage
                    self.say(_("Dealing: {progress}").format(progress=self.model.progress_text))
                self.tell_story()
                if isinstance(event, Waiting):
                    same = before is not None and before.seat == event.seat
                    if not same:
                        self._silent_since, self._my_vote = event.since, None
                    self._offer_due = True  # after the story's "X has gone silent"
                if self._offer_due and self.session.events.empty():
                    self._offer_due = False
                    if self.model.vote_offered():
                        self.offer_vote()
                if isinstance(event, YourChoice) and not self.model.leaving:
                    try:
                        await self.answer(event)
                    except _LeaveAsked:
                        self.model.leaving = True
                if isinstance(event, Ended):
                    if await self.play_again():
                        from p2pclue.tui import PLAY_AGAIN

                        return PLAY_AGAIN
                    return 0 if event.audit_ok else 1
        except _Leave:
            self.say(_("Leaving the table."))
            if not (self.model.leaving or self.model.left_table):  # a quit can come back
                self.say(_("The table waits for you; come back with p2pclue join --resume."))
            await self.session.close()
            await runner
            while not self.session.events.empty():
                event = self.session.events.get_nowait()
                if isinstance(event, Ended):
                    self.say(event.message)
                    if event.transcript is not None:
                        self.say(_("Transcript: {path}").format(path=event.transcript))
            return 0
        finally:
            await self.session.close()
            if not runner.done():
                await runner

    async def answer(self, event: YourChoice) -> None:
        """Ask until the engine takes an answer (a declined accusation asks again)."""
        while True:
            intent = await self.decide(event)
            if intent is None:
                continue
            try:
                await self.session.submit(intent)
                return
            except LocalProtocolError as exc:
                self.say(_("Not allowed: {reason}").format(reason=self.refused(exc)))

    async def decide(self, event: YourChoice) -> ev.Intent | None:
        choice = event.choice
        st = self.session.state
        if st is None:
            return None
        await self.refresh_notepad()
        if choice.kind == "show":
            s = st.pending_suggestion
            assert s is not None
            quiet = await asyncio.to_thread(kn.quietest_card, self.model.view.notepad,
                                            choice.options, s.suggester)
            who = self.model.name(s.suggester)
            labels = [_("{card}  (tells {player} least)").format(card=card_word(c), player=who)
                      if c == quiet else card_name(c) for c in choice.options]
            k = await self.choose(capital(_("{player} asks you to refute. Show which card?")
                                          .format(player=who)), labels,
                                  cards=list(choice.options))
            self.model.i_show(choice.options[k])
            return ev.ShowCard(choice.options[k])
        return await self.turn(st)

    async def turn(self, st: object) -> ev.Intent | None:
        """The turn menu: its items all imperatives, in their own context ("turn menu"),
        apart from the action bar's nouns and labels elsewhere that share their words."""
        from p2pclue.rules.state import GameState

        assert isinstance(st, GameState)
        options: list[tuple[str, Callable[[], object]]] = []
        if st.phase is Phase.AWAIT_TURN_START:
            options.append((pgettext("turn menu", "roll the dice") if st.rules.two_dice
                            else pgettext("turn menu", "roll the die"), lambda: ev.RollDice()))
            if rg.can_take_passage(st):
                there = classic_board().passages[st.token_of(st.current_seat)]  # type: ignore[index]
                label = pgettext("turn menu", "take the secret passage into {room:the}")
                options.append((label.format(room=card_word(there)), lambda: ev.TakePassage()))
        if st.phase is Phase.AWAIT_MOVE:
            board = classic_board()
            dests = rg.legal_destinations(st)
            rooms = sorted(sq for sq in dests if board.room_at(sq) is not None)
            seen: set[int] = set()
            for sq in rooms:
                room = board.room_at(sq)
                assert room is not None
                if room in seen:
                    continue
                seen.add(room)
                label = pgettext("turn menu", "go into {room:the}")
                options.append((label.format(room=card_word(room)),
                                partial(ev.MoveAlong, dests[sq])))
            for sq in sorted(sq for sq in dests if board.room_at(sq) is None):
                label = pgettext("turn menu", "go to {place} (row {row}, column {column})")
                options.append((label.format(place=square_words(sq), row=sq[0], column=sq[1]),
                                partial(ev.MoveAlong, dests[sq])))
            if rg.may_stay(st):
                options.append((pgettext("turn menu", "stay where you are"), lambda: ev.EndTurn()))
        if rg.can_suggest(st):
            options.append((pgettext("turn menu", "suggest"), lambda: "suggest"))
        if rg.can_accuse(st):
            options.append((pgettext("turn menu", "accuse"), lambda: "accuse"))
        if st.phase is Phase.AWAIT_SUGGESTION_OR_END:
            options.append((pgettext("turn menu", "end your turn"), lambda: ev.EndTurn()))
        k = await self.choose(_("Your turn:"), [o[0] for o in options])
        picked = options[k][1]()
        if picked == "suggest":
            s = await self._pick(_("Suggest which suspect?"), SUSPECTS)
            w = await self._pick(_("With which weapon?"), WEAPONS)
            return ev.MakeSuggestion(SUSPECTS[s].index, WEAPONS[w].index)
        if picked == "accuse":
            return await self.accuse()
        assert not isinstance(picked, str)
        return picked  # type: ignore[return-value]

    async def accuse(self) -> ev.Intent | None:
        s = await self._pick(_("Accuse which suspect?"), SUSPECTS)
        w = await self._pick(_("With which weapon?"), WEAPONS)
        r = await self._pick(_("In which room?"), ROOMS)
        self.model.accusation = (SUSPECTS[s].index, WEAPONS[w].index, ROOMS[r].index)
        warning = self.model.accusation_warning()
        self.model.accusation = None
        if warning:
            self.say(warning)
        if not is_yes(await self.ask(_("Accuse? {yes}/{no}: ").format(yes=yes_key(),
                                                                       no=no_key()))):
            self.say(_("Not accused."))
            return None
        return ev.MakeAccusation(SUSPECTS[s].index, WEAPONS[w].index, ROOMS[r].index)

    async def _pick(self, title: str, pool: tuple[Card, ...]) -> int:
        """One card of ``pool``, by number or by name (in the player's language or English)."""
        return await self.choose(title, [card_name(c.index) for c in pool],
                                 cards=[c.index for c in pool])


async def run_plain(session: Session, out: TextIO | None = None,
                    read: ReadLine | None = None, notice: str | None = None,
                    evening: Evening | None = None) -> int:
    ui = PlainUI(session, out or sys.stdout, read or sys.stdin.readline)
    ui.model.evening = evening
    if notice:
        ui.model.tell(notice)
    return await ui.run()

