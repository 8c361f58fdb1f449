"""``--plain``: the game line by line, for screen readers, dumb terminals and pipes.

The story is printed as text; when a decision is owed, the choices are numbered
and the answer is typed. It drives the same session and keeps the same model as
the full-screen UI (story, notepad), without drawing anything.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from functools import partial
from typing import TextIO

from p2pclue.engine import events as ev
from p2pclue.engine.errors import LocalProtocolError
from p2pclue.i18n import _, card_into, card_name, card_with, parse_card
from p2pclue.net.api import Ended, Progress, Session, YourChoice
from p2pclue.rules import game as rg
from p2pclue.rules.board import classic_board
from p2pclue.rules.cards import ROOMS, SUSPECTS, WEAPONS, Card, CardNameError
from p2pclue.rules.state import Phase
from p2pclue.tui import knowledge as kn
from p2pclue.tui.model import UIModel
from p2pclue.tui.story import square_words
from p2pclue.tui.view import quit_question, rules_summary

ReadLine = Callable[[], str]


class _Leave(Exception):
    pass


class _LeaveAsked(Exception):
    """The graceful leave was submitted: stop asking, read the table until the end."""


class PlainUI:
    def __init__(self, session: Session, out: TextIO, read: ReadLine) -> None:
        self.session = session
        self.model = UIModel(session.config, session.seat, color=False)
        self.out = out
        self.read = read
        self._told = 0
        self._last_stage = ""

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = await asyncio.to_thread(self.read)
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
            prompt = (_("number or name (n notepad, h hint, ? help, q quit): ") if cards
                      else _("number (n notepad, h hint, ? help, q quit): "))
            answer = (await self.ask(prompt))
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return int(answer) - 1
            if cards and len(answer) > 1:
                try:
                    index = parse_card(answer)
                except CardNameError as exc:
                    self.say(str(exc))
                    continue
                if index in cards:
                    return cards.index(index)
                self.say(_("{card} is not one of these.").format(card=card_name(index)))
                continue
            if answer in ("q", "leave"):
                await self.quit_or_leave()
            elif answer == "?":
                for para in rules_summary(self.session.config.rules):
                    self.say(para)
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
        if answer == "y":
            raise _Leave()
        if graceful and answer in ("l", "leave"):
            try:
                await self.session.submit(ev.Leave())
            except LocalProtocolError as exc:
                self.say(_("Not allowed now: {reason}").format(reason=exc))
                return
            self.say(_("You will leave as soon as the table waits for you."))
            raise _LeaveAsked()

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
            parts = [f"{card_name(c.index)} {env.get(c.index, 0):.0%}" for c in cards]
            self.say(group.format(odds=", ".join(parts)))

    async def hint(self) -> None:
        room = self.model.my_room()
        if room is None:
            self.say(_("Hints name the best suggestion in the room you are in."))
            return
        await self.refresh_notepad()
        best = await asyncio.to_thread(kn.best_suggestion, self.model.view.notepad, room)
        if best is not None:
            self.say(_("Hint: suggest {suspect} {with_weapon}.").format(
                suspect=card_name(best[0]), with_weapon=card_with(best[1])))

    def tell_story(self) -> None:
        for line in self.model.story[self._told:]:
            self.say(line)
        self._told = len(self.model.story)

    async def run(self) -> int:
        runner = asyncio.ensure_future(self.session.run())
        try:
            while True:
                event = await self.session.events.get()
                self.model.on_event(event, self.session.state, self.session.hand)
                if isinstance(event, Progress) and event.stage != self._last_stage:
                    self._last_stage = event.stage
                    self.say(_("Dealing: {progress}").format(progress=self.model.progress_text))
                self.tell_story()
                if isinstance(event, YourChoice) and not self.model.leaving:
                    try:
                        await self.answer(event)
                    except _LeaveAsked:
                        self.model.leaving = True
                if isinstance(event, Ended):
                    return 0 if event.audit_ok else 1
        except _Leave:
            self.say(_("Leaving the table."))
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
                self.say(_("Not allowed: {reason}").format(reason=exc))

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
            labels = [_("{card}  (tells {player} least)").format(card=card_name(c), player=who)
                      if c == quiet else card_name(c) for c in choice.options]
            k = await self.choose(_("{player} asks you to refute. Show which card?").format(
                player=who.capitalize()), labels, cards=list(choice.options))
            self.model.knowledge.i_showed(choice.options[k])
            return ev.ShowCard(choice.options[k])
        return await self.turn(st)

    async def turn(self, st: object) -> ev.Intent | None:
        from p2pclue.rules.state import GameState

        assert isinstance(st, GameState)
        options: list[tuple[str, Callable[[], object]]] = []
        if st.phase is Phase.AWAIT_TURN_START:
            options.append((_("roll the dice"), lambda: ev.RollDice()))
            if rg.can_take_passage(st):
                there = classic_board().passages[st.token_of(st.current_seat)]  # type: ignore[index]
                options.append((_("take the secret passage {into_room}").format(
                    into_room=card_into(there)), lambda: ev.TakePassage()))
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
                options.append((_("go {into_room}").format(into_room=card_into(room)),
                                partial(ev.MoveAlong, dests[sq])))
            for sq in sorted(sq for sq in dests if board.room_at(sq) is None):
                options.append((_("go to {place} (row {row}, column {column})").format(
                    place=square_words(sq), row=sq[0], column=sq[1]),
                    partial(ev.MoveAlong, dests[sq])))
            if rg.may_stay(st):
                options.append((_("stay where you are"), lambda: ev.EndTurn()))
        if rg.can_suggest(st):
            options.append((_("suggest"), lambda: "suggest"))
        if rg.can_accuse(st):
            options.append((_("accuse"), lambda: "accuse"))
        if st.phase is Phase.AWAIT_SUGGESTION_OR_END:
            options.append((_("end your turn"), lambda: ev.EndTurn()))
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
        if (await self.ask(_("Accuse? y/n: "))) != "y":
            self.say(_("Not accused."))
            return None
        return ev.MakeAccusation(SUSPECTS[s].index, WEAPONS[w].index, ROOMS[r].index)

    async def _pick(self, title: str, pool: tuple[Card, ...]) -> int:
        """One card of ``pool``, by number or by name (in the player's language or English)."""
        return await self.choose(title, [card_name(c.index) for c in pool],
                                 cards=[c.index for c in pool])


async def run_plain(session: Session, out: TextIO | None = None,
                    read: ReadLine | None = None, notice: str | None = None) -> int:
    ui = PlainUI(session, out or sys.stdout, read or sys.stdin.readline)
    if notice:
        ui.model.tell(notice)
    return await ui.run()

