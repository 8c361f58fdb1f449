"""The prompt_toolkit application: keys in, session events in, commands out.

The model decides; this module only carries: keys and clicks go to
``UIModel.press``/``pick_square``, session events to ``UIModel.on_event``, and
the commands that come back are carried out here (intents to the session,
notepad work on a worker thread so that the screen never waits for it).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import DynamicContainer, HSplit, Layout, Window
from prompt_toolkit.layout.containers import Container
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.styles import Style

from p2pclue.engine.audit import audit
from p2pclue.engine.errors import LocalProtocolError, TranscriptError
from p2pclue.engine.transcript import parse
from p2pclue.i18n import _, outcome_word, refusal_text
from p2pclue.net.api import Ended, Session
from p2pclue.rules.board import Square
from p2pclue.tui import knowledge as kn
from p2pclue.tui import view
from p2pclue.tui.model import (
    Command,
    Leave,
    NeedExplain,
    NeedHint,
    NeedNotepad,
    NeedQuietCard,
    Submit,
    UIModel,
    Vote,
)

STYLE = Style.from_dict({
    "status": "reverse bold",
    "bar": "reverse",
    "key": "reverse bold",
    "warn": "bold fg:#ff5f5f",
    "hint": "fg:#5fd7ff",
    "good": "fg:#5fd75f bold",
    "dim": "fg:#808080",
    "title": "bold",
    "cursor": "reverse bold",
    "mine": "bold underline",
    "sep": "fg:#808080",
})
MONO_STYLE = Style.from_dict({
    "status": "reverse bold", "bar": "reverse", "key": "reverse bold", "warn": "bold",
    "hint": "underline", "good": "bold", "dim": "", "title": "bold", "cursor": "reverse bold",
    "mine": "bold underline", "sep": "",
})

KEYS = ["r", "p", "e", "m", "s", "a", "h", "n", "q", "y", "j", "k", "?", "up", "down", "left",
        "right", "enter", "escape", "tab", "f1", "c-c", "pageup", "pagedown",
        "home", "end",
        *"bcdfgilotuvwxz", *"123456789"]  # room initials in every language


def wants_color() -> bool:
    return not os.environ.get("NO_COLOR")


class TableApp:
    """One running terminal UI over one session."""

    def __init__(self, session: Session, *, input: Input | None = None,
                 output: Output | None = None, color: bool | None = None) -> None:
        self.session = session
        use_color = wants_color() if color is None else color
        self.model = UIModel(session.config, session.seat, color=use_color)
        self.model.can_leave = bool(getattr(session, "can_leave", False))
        self.model.can_vote = callable(getattr(session, "vote", None))
        self._tasks: set[asyncio.Task[None]] = set()
        self._rebuilding = False
        self._notepad_dirty = False
        self._shape: tuple[object, Container] | None = None
        self.app: Application[int] = Application(
            # The zero-height window holds the focus: prompt_toolkit looks for clickable
            # windows from the focused one's root, which must stay in the tree.
            layout=Layout(HSplit([Window(height=0), DynamicContainer(self._root)])),
            key_bindings=self._bindings(),
            style=STYLE if use_color else MONO_STYLE,
            full_screen=True,
            mouse_support=True,
            refresh_interval=0.25,
            input=input,
            output=output,
            color_depth=None if use_color else ColorDepth.DEPTH_1_BIT,
        )

    # ---- drawing ----------------------------------------------------------------------

    def _root(self) -> Container:
        if not hasattr(self, "app"):  # the layout is walked once while being built
            return Window()
        size = self.app.output.get_size()
        key = view.shape(self.model, size.columns, size.rows)
        if self._shape is None or self._shape[0] != key:
            # Built once per shape: the windows read the model live, and prompt_toolkit
            # finds a clicked window by identity, so they must outlive one frame.
            self._shape = (key, view.root(self.model, size.columns, size.rows, self._click))
        return self._shape[1]

    def _click(self, square: Square) -> None:
        self._carry(self.model.pick_square(square))
        self.app.invalidate()

    # ---- keys -------------------------------------------------------------------------

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        for key in KEYS:
            kb.add(key, eager=True)(partial(self._key, _name(key)))
        kb.add("<any>")(self._other_key)  # any other key still closes help, never types
        return kb

    def _other_key(self, event: KeyPressEvent) -> None:
        key = event.key_sequence[0].key
        self._carry(self.model.press(key if isinstance(key, str) else str(key.value)))

    def _key(self, name: str, event: KeyPressEvent) -> None:
        self._carry(self.model.press(name))

    # ---- commands ---------------------------------------------------------------------

    def _carry(self, commands: list[Command]) -> None:
        for cmd in commands:
            match cmd:
                case Submit(intent=intent):
                    self._spawn(self._submit(intent))
                case Leave():
                    self._spawn(self._leave())
                case Vote(choice=choice):
                    vote = getattr(self.session, "vote", None)
                    if callable(vote) and not vote(choice):
                        self.model.message = _("There is nothing to vote on now.")
                case NeedNotepad():
                    self._spawn(self._rebuild_notepad())
                case NeedExplain(card=c, owner=o):
                    self._spawn(self._explain(c, o))
                case NeedHint(room=room):
                    self._spawn(self._hint(room))
                case NeedQuietCard(options=options, suggester=suggester):
                    self._spawn(self._quiet(options, suggester))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        """A failed background step is told on the screen (its type only: an exception's
        text could hold anything); it never stops the table."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self._trouble(type(task.exception()).__name__)

    def _trouble(self, what: str) -> None:
        self.model.message = _("Something went wrong here ({error}); the game goes on.").format(
            error=what)
        self.app.invalidate()

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """Instead of prompt_toolkit's handler, which waits for Enter and so freezes the
        table: a stray error of some other task is told, and play goes on."""
        error = context.get("exception")
        self._trouble(type(error).__name__ if error is not None else "asyncio")

    async def _submit(self, intent: object) -> None:
        try:
            await self.session.submit(intent)  # type: ignore[arg-type]
        except LocalProtocolError as exc:
            self.model.message = _("Not allowed now: {reason}").format(reason=refusal_text(
                exc, [p.name for p in self.session.config.players]))
        self.app.invalidate()

    async def _leave(self) -> None:
        await self.session.close()
        if self.app.is_running and not self.app.future.done():  # type: ignore[union-attr]
            self.app.exit(result=0)

    async def _background(self, call: Callable[[], object]) -> object:
        return await asyncio.to_thread(call)

    async def _rebuild_notepad(self) -> None:
        """Rebuild on a worker thread, one at a time; news during a rebuild asks for another."""
        if self._rebuilding:
            self._notepad_dirty = True
            return
        self._rebuilding = True
        try:
            self._notepad_dirty = True
            while self._notepad_dirty:
                self._notepad_dirty = False
                build = self.model.knowledge.frozen()
                self.model.view = await asyncio.to_thread(kn.build_snapshot, build)
                self.app.invalidate()
        finally:
            self._rebuilding = False

    async def _explain(self, c: int, owner: int) -> None:
        notepad = self.model.view.notepad
        text = await asyncio.to_thread(kn.explain, notepad, c, owner)
        if self.model.selected_cell() == (c, owner):
            self.model.explanation = text
            self.app.invalidate()

    async def _hint(self, room: int) -> None:
        best = await asyncio.to_thread(kn.best_suggestion, self.model.view.notepad, room)
        if not self.model.hint_offered():  # the suggestion went by while it was thought
            return
        self.model.hint_found(best, room)
        self.app.invalidate()

    async def _quiet(self, options: tuple[int, ...], suggester: int) -> None:
        c = await asyncio.to_thread(kn.quietest_card, self.model.view.notepad, options,
                                    suggester)
        self.model.set_quiet_card(c)
        self.app.invalidate()

    async def _end_hands(self, ended: Ended) -> None:
        if ended.transcript is None:
            return
        path = ended.transcript

        def read() -> dict[int, tuple[int, ...]] | None:
            raw = path.read_bytes()
            return audit(parse(raw), raw).hands

        try:
            self.model.end.hands = await asyncio.to_thread(read)
        except (OSError, TranscriptError):
            self.model.message = _("the transcript could not be read back")
        self.app.invalidate()

    # ---- session events -----------------------------------------------------------------

    async def _pump(self) -> None:
        while True:
            event = await self.session.events.get()
            self._carry(self.model.on_event(event, self.session.state, self.session.hand))
            expected = getattr(self.session, "expected_seat", None)
            if callable(expected):
                self.model.expect(expected(), time.monotonic())
            if isinstance(event, Ended):
                self._spawn(self._end_hands(event))
            self.app.invalidate()
            if isinstance(event, Ended):
                return

    async def run(self) -> int:
        runner = asyncio.ensure_future(self.session.run())
        pump = asyncio.ensure_future(self._pump())
        loop = asyncio.get_running_loop()
        previous = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_error)
        try:
            result = await self.app.run_async(set_exception_handler=False)
        finally:
            loop.set_exception_handler(previous)
            await self.session.close()
            for task in (pump, *self._tasks):
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(runner, 10)
        self._say_where_the_transcript_is()
        if self.model.again:
            from p2pclue.tui import PLAY_AGAIN

            return PLAY_AGAIN
        return result if isinstance(result, int) else 0

    def _say_where_the_transcript_is(self) -> None:
        """Once the full screen is gone, the game's end leaves one line in the terminal:
        the transcript's path, whole on one line however long, so it can be pasted into
        ``p2pclue audit`` (the end screen wrapped it)."""
        ended = self.model.end.ended
        if ended is None or ended.transcript is None:
            return
        print(_("Transcript ({status}): {where}").format(
            status=outcome_word(ended.status), where=ended.transcript), flush=True)


def _name(key: str) -> str:
    return {"c-i": "tab", "c-m": "enter"}.get(key, key)
