"""The lobby on screen: the tables found, then the table you sit at, until the signed start.

``LobbyModel`` owns the lobby's UI state (as ``UIModel`` does the game's): it takes the
runner's facts (tables found, ``Opened``, each ``LobbyView``, the table check) and key
presses, and answers with the lobby actions for the runner (``net.table.Pick`` and
``Ready``). The lobby's rules (who may sit, when the game starts, the signed roster)
stay in ``net.lobby``; this module only draws and asks. ``LobbyScreen`` is the
full-screen front (prompt_toolkit), ``PlainLobby`` the numbered-lines one for
``--plain``; both offer the same three steps to the caller.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import queue
import sys
import threading
from collections.abc import Awaitable, Callable, Mapping
from typing import TextIO, TypeVar

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import ColorDepth

from p2pclue.engine.config import MIN_PLAYERS
from p2pclue.i18n import (
    N_,
    _,
    card_name,
    card_word,
    display_name,
    ngettext,
    number,
    pad,
    player_word,
    rules_label,
    seats,
    text_width,
)
from p2pclue.net import guesses
from p2pclue.net.api import LinkPath
from p2pclue.net.discovery import TableAd, fingerprint
from p2pclue.net.lobby import LobbyView, Member
from p2pclue.net.play import Opened
from p2pclue.net.table import LobbyAction, Pick, Ready
from p2pclue.rules.cards import SUSPECTS, card
from p2pclue.tui.app import MONO_STYLE, STYLE, wants_color
from p2pclue.tui.evening import Evening
from p2pclue.tui.keys import small_number
from p2pclue.tui.text import centre, wrap

_T = TypeVar("_T")
MAX_CODE_TYPED = 32
NOTABLE_RTT_MS = 20
"""A round trip said again in ``--plain`` only once it moved this much (and by half)."""
KEYS_HELP = {
    "tables": N_("Up/Down: choose a table   Enter: join it   q: leave"),
    "code": N_("Type the code   Enter: join   Backspace: erase   Esc: back"),
    "lobby": N_("Up/Down: choose a suspect   Enter: sit as it   r: ready / not ready   q: leave"),
    "started": N_("The game starts..."),
    "wish": N_("Up/Down: choose a suspect   Enter: take the last seat as it   q: leave"),
}


class LobbyModel:
    """What the lobby screen shows and what its keys mean."""

    def __init__(self, me: bytes, name: str) -> None:
        self.me = me
        self.name = name
        self.phase = "lobby"
        """"tables" (choosing one), "lobby" (seated, waiting for the start), "started"."""
        self.tables: list[TableAd] = []
        self.table_cursor = 0
        self.chosen: TableAd | None = None
        self.wish: int | None = None
        """The suspect asked for before taking a table's last seat (the game starts as soon
        as it is taken: there is no time to pick once seated)."""
        self._last_seat: TableAd | None = None
        self.wish_asked = False
        """The person was asked for the last seat's suspect before sitting (even if they
        left it to the table with Enter): not again once seated."""
        self.late_wish = False
        """The last seat was taken unasked (the record was stale): the suspect is asked
        once seated, and answered with a ``Pick`` (the start waits for it)."""
        self.opened: Opened | None = None
        self.view: LobbyView | None = None
        self.cursor = 0
        self.check: str | None = None
        self.message = ""
        self.quit = False
        self.code_for: tuple[str, str | None] | None = None
        """The table (name, opener's key) whose code is asked for."""
        self.code_typed = ""
        self.code_answer: str | None = None
        """What the person typed once Enter was pressed ("" after Esc: back to the list)."""
        self.evening: Evening | None = None
        """The games played at this table tonight ("play again"): the score is shown."""
        self.code_tries = 0
        """Wrong codes this person typed for the table asked about: the table's own count
        reaches a joiner only once seated (a refusal carries no count), so the code
        question tells this one."""
        self.links: dict[bytes, LinkPath] = {}
        """How this member's links run, by the key at their other end: an internet
        table's (direct or relayed, round trip); a LAN table's measure nothing."""

    # ---- facts from the runner ---------------------------------------------------------

    def on_tables(self, tables: list[TableAd]) -> None:
        self.tables = sorted(tables, key=lambda t: (t.playing, t.name))
        self.table_cursor = min(self.table_cursor, max(len(self.tables) - 1, 0))

    def on_view(self, view: LobbyView) -> None:
        first = self.view is None
        self.view = view
        mine = self.mine()
        if first and mine is not None and mine.suspect is not None:
            self.cursor = SUSPECTS.index(card(mine.suspect))
        if first and not self.wish_asked and mine is not None and mine.role == "player" \
                and len(view.players) == view.table.wanted:
            # This seat filled the table though its record showed more free seats (it
            # was stale): the start waits while the person chooses (``GuestLobby``).
            self.late_wish, self.phase = True, "wish"

    def on_links(self, paths: Mapping[bytes, LinkPath], *, notable_only: bool = False) -> None:
        """A fresh look at the links. ``notable_only``: a link keeps the round trip shown
        until it moves by half and at least ``NOTABLE_RTT_MS`` (or turns direct or
        relayed): ``--plain`` says a changed line anew, and a jitter is no news."""
        if not notable_only:
            self.links = dict(paths)
            return
        self.links = {ident: (old if (old := self.links.get(ident)) is not None
                              and not notable(old, new) else new)
                      for ident, new in paths.items()}

    def mine(self) -> Member | None:
        if self.view is None:
            return None
        return next((m for m in self.view.members if m.identity == self.me), None)

    def my_ready(self) -> bool:
        if self.view is None:
            return False
        return any(m.ready for m in self.view.players if m.identity == self.me)

    # ---- keys ------------------------------------------------------------------------

    def press(self, key: str) -> list[LobbyAction]:
        if self.phase == "code":
            self._key_code(key)
            return []
        self.message = ""
        if key in ("q", "c-c"):
            self.quit = True
            return []
        if self.phase == "tables":
            return self._key_tables(key)
        if self.phase == "lobby":
            return self._key_lobby(key)
        if self.phase == "wish":
            return self._key_wish(key)
        return []

    def last_seat(self, ad: TableAd) -> bool:
        """Taking a seat at ``ad`` fills it (and starts the game): ask for a suspect first."""
        return not ad.playing and ad.seats_taken == ad.seats_wanted - 1

    def ask_wish(self, ad: TableAd) -> None:
        taken = ad.taken or ()
        first_free = next((i for i, s in enumerate(SUSPECTS) if s.index not in taken), 0)
        self._last_seat, self.phase, self.cursor = ad, "wish", first_free
        self.wish_asked = True

    def _suspect_cursor(self, key: str) -> bool:
        """Up/Down/a number move over the suspects (shared by the lobby and the last-seat
        question); whether the key did."""
        if key in ("up", "k"):
            self.cursor = (self.cursor - 1) % len(SUSPECTS)
        elif key in ("down", "j"):
            self.cursor = (self.cursor + 1) % len(SUSPECTS)
        elif (number := small_number(key)) is not None and 1 <= number <= len(SUSPECTS):
            self.cursor = number - 1
        else:
            return False
        return True

    def _key_wish(self, key: str) -> list[LobbyAction]:
        if self._suspect_cursor(key) or key != "enter":
            return []
        if not self.late_wish:
            ad = self._last_seat
            if ad is not None and ad.taken is not None \
                    and SUSPECTS[self.cursor].index in ad.taken:
                self.message = _("that suspect is taken")
                return []
            self.wish, self.chosen = SUSPECTS[self.cursor].index, ad
            return []
        mine = self.mine()
        suspect = SUSPECTS[self.cursor].index
        if self.view is not None and mine is not None and suspect != mine.suspect \
                and suspect not in self.view.free_suspects():
            self.message = _("that suspect is taken")
            return []
        self.late_wish, self.phase, self.wish = False, "lobby", suspect
        return [Pick(suspect)]

    def _key_code(self, key: str) -> None:
        if key == "c-c":
            self.quit = True
        elif key in ("escape", "q"):
            self.code_answer = ""
        elif key == "backspace":
            self.code_typed = self.code_typed[:-1]
        elif key == "enter":
            if self.code_typed.strip():
                self.code_answer = self.code_typed
        elif len(key) == 1 and key.isprintable() and len(self.code_typed) < MAX_CODE_TYPED:
            self.message = ""
            self.code_typed += key

    def ask_code(self, name: str, key: str | None) -> None:
        """Start asking for a table's code (the wrong-code message, if any, stays)."""
        self.phase, self.code_for, self.code_typed, self.code_answer = "code", (name, key), \
            "", None

    def _key_tables(self, key: str) -> list[LobbyAction]:
        if not self.tables:
            return []
        if key in ("up", "k"):
            self.table_cursor = (self.table_cursor - 1) % len(self.tables)
        elif key in ("down", "j"):
            self.table_cursor = (self.table_cursor + 1) % len(self.tables)
        elif key == "enter":
            ad = self.tables[self.table_cursor]
            if ad.playing:
                self.message = _("that table is playing already (watch it with p2pclue "
                                 "watch)")
            elif self.last_seat(ad):
                self.ask_wish(ad)
            else:
                self.chosen = ad
        elif (number := small_number(key)) is not None and 1 <= number <= len(self.tables):
            self.table_cursor = number - 1
        return []

    def _key_lobby(self, key: str) -> list[LobbyAction]:
        if self._suspect_cursor(key):
            return self._pick() if small_number(key) is not None else []
        if key == "enter":
            return self._pick()
        if key == "r":
            return [Ready(not self.my_ready())]
        return []

    def _pick(self) -> list[LobbyAction]:
        suspect = SUSPECTS[self.cursor].index
        if self.view is not None and suspect not in self.view.free_suspects():
            taken = any(m.identity == self.me and m.suspect == suspect for m in self.view.players)
            self.message = (_("you are already this suspect") if taken
                            else _("that suspect is taken"))
            return []
        return [Pick(suspect)]

    # ---- drawing ---------------------------------------------------------------------

    def lines(self, width: int, height: int | None = None) -> list[tuple[str, str]]:
        """The screen's rows at ``width``; with ``height``, only whole messages that fit."""
        out: list[tuple[str, str]] = [("class:title", centre(_("p2pclue: the lobby"), width)),
                                      ("", "")]
        if self.phase == "tables":
            out += self._table_lines()
        elif self.phase == "code":
            out += self._code_lines()
        elif self.phase == "wish":
            out += self._wish_lines()
        else:
            out += self._seat_lines()
        if self.message:
            out += [("", ""), ("class:warn", self.message)]
        # Wrapped, never cut (the join command, a long sentence in some languages);
        # a line that fits keeps its spaces, which align the columns.
        messages = [[(style, line) for line in
                     ([text] if text_width(text) <= width else wrap(text, width, "    "))]
                    for style, text in out]
        if height is not None:
            messages = fit(messages, height)
        return [row for message in messages for row in message]

    def _code_lines(self) -> list[tuple[str, str]]:
        name, key = self.code_for or ("", None)
        ask = (_("The table {name} (opener's key {key}) needs its table code.") if key
               else _("The table {name} needs its table code.")).format(name=repr(name),
                                                                        key=key)
        tries = [("class:warn", code_tries(self.code_tries))] if self.code_tries else []
        return [("", ask),
                ("class:dim", _("It is on the opener's screen: ask them to read it out.")),
                *tries, ("", ""), ("class:cursor", _("Table code: {typed}").format(
                    typed=self.code_typed) + "_")]

    def _wish_lines(self) -> list[tuple[str, str]]:
        if self.late_wish:
            out = [("class:title", _("You took the last seat: the game starts as soon as you "
                                     "choose your suspect."))]
        else:
            out = [("class:title", _("You take the last seat: the game starts as soon as you "
                                     "sit down. Pick your suspect first (if it is taken, "
                                     "you get a free one)."))]
        mine = self.mine()
        free: tuple[int, ...] | None = None
        if self.late_wish and self.view is not None:
            free = self.view.free_suspects()
        elif not self.late_wish and self._last_seat is not None \
                and self._last_seat.taken is not None:
            # not seated yet: the table's record says who sits as whom (a hint)
            free = tuple(s.index for s in SUSPECTS if s.index not in self._last_seat.taken)
        names = [_("{card} (yours)").format(card=card_word(s.index))
                 if self.late_wish and mine is not None and s.index == mine.suspect
                 else card_name(s.index) for s in SUSPECTS]
        name_w = max(text_width(n) for n in names) + 1
        for i, (s, name) in enumerate(zip(SUSPECTS, names, strict=True)):
            mark = ">" if i == self.cursor else " "
            state = ""
            if free is not None and not (self.late_wish and mine is not None
                                         and s.index == mine.suspect):
                state = pad(name, name_w)[len(name):] + (_("free") if s.index in free
                                                         else _("taken"))
            out.append(("class:cursor" if i == self.cursor else "",
                        f"{mark} {i + 1}. {name}{state}".rstrip()))
        return out

    def _table_lines(self) -> list[tuple[str, str]]:
        if not self.tables:
            return [("", _("Looking for tables on this network...")),
                    ("class:dim", _("(nothing yet: if a table is open, multicast may be "
                                    "blocked here; join it with --peer HOST:PORT --table "
                                    "NAME)"))]
        out = [("", _("Tables found:"))]
        for i, ad in enumerate(self.tables):
            line = (_("{name}  {rules}, {seats}, playing, opener's key {key}")
                    if ad.playing else
                    _("{name}  {rules}, {seats}, lobby, opener's key {key}"))
            mark = ">" if i == self.table_cursor else " "
            text = f"{mark} {i + 1}. " + line.format(
                name=ad.name, rules=rules_label(ad.preset),
                seats=seats(ad.seats_taken, ad.seats_wanted), key=ad.fingerprint)
            if ad.failed:
                text += "  " + _("(the code failed here)")
            out.append(("class:cursor" if i == self.table_cursor else "", text))
        if len({ad.name for ad in self.tables}) < len(self.tables):
            out.append(("class:warn", _("Several tables share a name: pick the one whose "
                                        "opener's key the opener's screen shows.")))
        return out

    def _seat_lines(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        o = self.opened
        if o is not None and o.entry_closed:
            out.append(("class:warn", guesses.code_news(None)))
        elif o is not None:
            if o.code_turns:
                out.append(("class:warn", guesses.code_news(o.code)))
            if o.code:
                out.append(("class:good", _("Table code: {code}   (read it out to the "
                                            "players)").format(code=o.code)))
            else:
                out.append(("", _("This table has no code (trusted network).")))
            if o.ticket is not None:  # an internet table: the ticket is the address
                command = f"p2pclue join --ticket {o.ticket}" + (f" --code {o.code}" if o.code
                                                                  else "")
                out.append(("class:dim", _("Others join with: {command}").format(
                    command=command)))
            else:
                command = f"p2pclue join --table {o.name!r}" + (f" --code {o.code}" if o.code
                                                                 else "")
                out.append(("class:dim", _("Others join with: {command}   (or --peer "
                                           "{address})").format(command=command,
                                                                address=o.address)))
        v = self.view
        if v is None:
            out.append(("", _("Reaching the table...")))
            return out
        t = v.table
        out.append(("class:title", _("Table {name}: {rules} rules, {seats}")
                    .format(name=repr(t.name), rules=rules_label(t.rules.name()),
                            seats=seats(len(v.players), t.wanted))))
        score = self.evening.line() if self.evening is not None else ""
        if score:
            out.append(("class:good", score))
        out.append(("", _("Players:")))
        names = {m.identity: (_("{player} (you)").format(player=player_word(m.name))
                              if m.identity == self.me else display_name(m.name))
                 for m in v.players}
        who_w = max([18, *(text_width(n) for n in names.values())])  # "Chiara (medium bot)"
        for m in v.players:
            sus = card_name(m.suspect) if m.suspect is not None else _("no suspect yet")
            key = _("key {key}").format(key=fingerprint(m.identity))
            ready = "  " + _("ready") if m.ready else ""
            out.append(("class:mine" if m.identity == self.me else "",
                        f"  {pad(names[m.identity], who_w)} {pad(sus, 18)} {key}{ready}"))
        waiting = self._waiting_line(v)
        if waiting and self.phase != "started":
            out.append(("class:warn", waiting))
        if v.spectators:
            out.append(("", _("Watching: {players}").format(
                players=", ".join(display_name(m.name) for m in v.spectators))))
        shown = [link_text(m.name, self.links[m.identity]) for m in v.members
                 if m.identity != self.me and m.identity in self.links]
        if shown:
            # Translators: this screen's links to the others at an internet table, each
            # "Bruno · direct · 3 ms", separated by commas.
            out.append(("", _("Your links: {links}").format(links=", ".join(shown))))
        if v.failed_attempts:
            out.append(("class:warn", guesses.describe(v.failed_attempts)))
        if self.phase == "started":
            out += [("", ""), ("class:good", _("The roster is signed. Table check: {check}")
                               .format(check=self.check)),
                    ("", _("Compare it aloud: every screen at this table shows the same."))]
            return out
        out += [("", ""), ("", _("Your suspect:"))]
        free = v.free_suspects()
        for i, s in enumerate(SUSPECTS):
            state = _("free") if s.index in free else _("taken")
            mark = ">" if i == self.cursor else " "
            out.append(("class:cursor" if i == self.cursor else "",
                        f"{mark} {i + 1}. {pad(card_name(s.index), 18)} {state}"))
        out.append(("class:dim", _("The game starts when every seat is taken, or when at "
                                   "least three players are all ready.")))
        return out


    def _waiting_line(self, v: LobbyView) -> str:
        """What the start waits for: more players (fewer than three sit), else the first
        player not ready (you first): the start comes when every seat is taken or when at
        least three players are all ready."""
        if len(v.players) >= v.table.wanted:
            return ""
        if len(v.players) < MIN_PLAYERS:
            more = MIN_PLAYERS - len(v.players)
            return ngettext("Waiting for {count} more player to sit down.",
                            "Waiting for {count} more players to sit down.", more).format(
                count=more)
        waiting = sorted((m for m in v.players if not m.ready), key=lambda m: m.identity != self.me)
        if not waiting:
            return ""
        if waiting[0].identity == self.me:
            return _("You are not ready yet: press r when you are.")
        return _("{player} is not ready yet.").format(player=player_word(waiting[0].name))


def notable(old: LinkPath, new: LinkPath) -> bool:
    """Whether a link changed enough to say it again: direct became relayed (or back), or
    the round trip moved by half and at least ``NOTABLE_RTT_MS``."""
    moved = abs(new.rtt_ms - old.rtt_ms)
    return new.relayed != old.relayed or moved >= max(NOTABLE_RTT_MS, old.rtt_ms // 2)


def link_text(name: str, path: LinkPath) -> str:
    """One member's link as the lobby shows it: "Bruno · direct · 3 ms", its spaces
    no-break ones, so that a wrapped list of links never splits one of them."""
    ms = number(path.rtt_ms) if path.rtt_ms >= 1 else "<1"
    # Translators: a member of an internet table and this screen's link to it, which a
    # relay server carries; {ms}: its round trip in milliseconds (a number, or "<1").
    relayed = _("{player} · relayed · {ms} ms")
    # Translators: the same, for a link straight between the two machines.
    direct = _("{player} · direct · {ms} ms")
    text = (relayed if path.relayed else direct).format(player=player_word(name), ms=ms)
    return text.replace(" ", "\u00a0")


def code_tries(count: int) -> str:
    """The wrong codes typed so far for one table, said where the code is asked again."""
    return ngettext("So far you tried {count} wrong code at this table.",
                    "So far you tried {count} wrong codes at this table.",
                    count).format(count=count)


def fit(messages: list[list[tuple[str, str]]], height: int) -> list[list[tuple[str, str]]]:
    """Whole messages in ``height`` rows: a short screen loses its blank rows first, then
    its hints (dim), the last first, then what is at the bottom; never the end of a
    sentence whose start it shows (a window would cut its last rows, mid-sentence)."""
    kept = list(messages)
    total = sum(len(m) for m in kept)
    spare: list[Callable[[list[tuple[str, str]]], bool]] = [
        lambda m: all(not text.strip() for _style, text in m),
        lambda m: m[0][0] == "class:dim"]
    for droppable in spare:
        for i in range(len(kept) - 1, 0, -1):  # the title stays
            if total <= height:
                return [m for m in kept if m]
            if kept[i] and droppable(kept[i]):
                total -= len(kept[i])
                kept[i] = []
        kept = [m for m in kept if m]
    shown: list[list[tuple[str, str]]] = []
    used = 0
    for m in kept:
        if used + len(m) > height:
            break
        shown.append(m)
        used += len(m)
    return shown


def lobby_layout(model: LobbyModel, width: Callable[[], int]) -> HSplit:
    """The lobby's screen: its lines, and the keys of the step on the bottom line."""

    def body() -> StyleAndTextTuples:
        out: StyleAndTextTuples = []
        rows = get_app().output.get_size().rows - len(keys())
        for style, text in model.lines(width(), max(rows, 1)):
            out += [(style, text), ("", "\n")]
        return out

    def keys() -> list[str]:  # wrapped, never cut: a long language takes two lines
        return wrap(_(KEYS_HELP[model.phase]), width()) or [""]

    def bar() -> StyleAndTextTuples:
        return [("class:bar", "\n".join(pad(ln, width()) for ln in keys()))]

    return HSplit([Window(FormattedTextControl(body)),
                   Window(FormattedTextControl(bar), height=lambda: len(keys()),
                          style="class:bar")])


class LobbyScreen:
    """The lobby, full screen, until the game starts (then the table's own UI opens)."""

    def __init__(self, model: LobbyModel, actions: asyncio.Queue[LobbyAction]) -> None:
        self.model = model
        self.actions = actions
        color = wants_color()
        kb = KeyBindings()
        for key in ("up", "down", "enter", "c-c", "q", "r", "j", "k", *"123456789"):
            kb.add(key, eager=True)(self._key)
        for key in ("backspace", "escape"):
            kb.add(key, eager=True)(self._key)
        kb.add("<any>")(self._any)
        self.app: Application[None] = Application(
            layout=Layout(lobby_layout(model, self._width)),
            key_bindings=kb, style=STYLE if color else MONO_STYLE, full_screen=True,
            refresh_interval=0.5, color_depth=None if color else ColorDepth.DEPTH_1_BIT)
        self._running: asyncio.Task[None] | None = None

    def _width(self) -> int:
        return self.app.output.get_size().columns

    def _key(self, event: KeyPressEvent) -> None:
        key = event.key_sequence[0].key
        value = key.value if isinstance(key, Keys) else key
        name = {"c-m": "enter", "c-j": "enter", "c-h": "backspace"}.get(value, value)
        for action in self.model.press(name):
            self.actions.put_nowait(action)
        self.app.invalidate()

    def _any(self, event: KeyPressEvent) -> None:
        """Other keys matter only while a code is typed (0, letters, dashes)."""
        if self.model.phase == "code" and len(event.data) == 1:
            self.model.press(event.data)
            self.app.invalidate()

    # ---- the three steps ---------------------------------------------------------------

    def start(self) -> None:
        self._running = asyncio.ensure_future(self.app.run_async())

    def refresh(self) -> None:
        self.app.invalidate()

    def on_links(self, paths: Mapping[bytes, LinkPath]) -> None:
        """The links' latest look (every few seconds), drawn as it is."""
        self.model.on_links(paths)
        self.refresh()

    async def choose_table(self, found: Callable[[], list[TableAd]]) -> TableAd | None:
        self.model.phase, self.model.chosen = "tables", None
        while self.model.chosen is None and not self.model.quit:
            if self.model.phase == "tables":
                self.model.on_tables(found())
            self.refresh()
            await asyncio.sleep(0.3)
        self.model.phase = "lobby"
        return None if self.model.quit else self.model.chosen

    async def ask_code(self, name: str, key: str | None) -> str | None:
        """The table code, typed on the lobby screen; None: back to the list (or quit)."""
        self.model.ask_code(name, key)
        self.refresh()
        while self.model.code_answer is None and not self.model.quit:
            await asyncio.sleep(0.1)
        self.model.phase = "lobby"
        return None if self.model.quit else (self.model.code_answer or None)

    async def wish(self, ad: TableAd) -> bool:
        """The suspect for the last seat of ``ad`` (``model.wish``); False: the person left."""
        self.model.ask_wish(ad)
        while self.model.chosen is None and not self.model.quit:
            self.refresh()
            await asyncio.sleep(0.1)
        self.model.phase = "lobby"
        return not self.model.quit

    async def seated(self, lobby: Awaitable[_T]) -> _T | None:
        return await _until_quit(self.model, lobby, self.refresh)

    async def started(self, check: str) -> None:
        self.model.phase, self.model.check = "started", check
        self.refresh()
        await asyncio.sleep(1.5)

    async def close(self) -> None:
        if self._running is None:
            return
        if self.app.is_running:
            self.app.exit()
        with contextlib.suppress(Exception):
            await self._running


async def _until_quit(model: LobbyModel, lobby: Awaitable[_T],
                      refresh: Callable[[], None]) -> _T | None:
    """Await the lobby's end, or give up on it (cancel it) when the person leaves."""
    task = asyncio.ensure_future(lobby)
    while not task.done():
        await asyncio.wait({task}, timeout=0.2)
        refresh()
        if model.quit and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return None
    return task.result()


class LineFeed:
    """Lines of standard input from one reader thread, shared by the lobby and the game.

    A read in progress cannot be cancelled, so one thread reads every line; the lobby
    polls (and so never keeps a line meant for the game) and the game reads ``readline``.
    """

    def __init__(self, stream: TextIO | None = None) -> None:
        self._lines: queue.Queue[str] = queue.Queue()
        self._stream = stream or sys.stdin
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            line = self._stream.readline()
            self._lines.put(line)
            if line == "":
                return

    def readline(self) -> str:
        return self._lines.get()

    async def poll(self, seconds: float) -> str | None:
        try:
            return await asyncio.to_thread(self._lines.get, True, seconds)
        except queue.Empty:
            return None


class PlainLobby:
    """The lobby as lines: the same facts, numbered choices, typed answers."""

    def __init__(self, model: LobbyModel, actions: asyncio.Queue[LobbyAction], feed: LineFeed,
                 out: TextIO | None = None) -> None:
        self.model = model
        self.actions = actions
        self.feed = feed
        self.out = out or sys.stdout
        self._shown: list[str] = []
        self._phase = ""
        """The step ``_shown`` belongs to (a new step is said whole)."""
        self._asked = False
        """The lobby's question (a suspect's number, r, q) was asked: once is enough."""
        self.input_ended = False
        """The lobby was left because the input ended (not a typed q): the caller says so
        and exits non-zero, as a pipe that ran dry is no choice to leave."""

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def start(self) -> None:
        pass

    def on_links(self, paths: Mapping[bytes, LinkPath]) -> None:
        """The links' latest look: said again only when it changed notably."""
        self.model.on_links(paths, notable_only=True)
        self.refresh()

    def refresh(self) -> None:
        """Say what changed since the last time: the whole screen's lines once (and again
        whenever a step begins), then only the lines that are new (a player who came, a
        seat now taken, the ready marks), never the whole lobby again for one change."""
        lines = [text.rstrip() for _style, text in self.model.lines(200)][2:]
        if lines == self._shown:
            return
        whole = not self._shown or self.model.phase != self._phase
        if whole and self.model.phase != "lobby":
            self._asked = False  # back to the list: the next table's lobby asks again
        fresh = lines if whole else changed_lines(self._shown, lines)
        self._shown, self._phase = lines, self.model.phase
        for line in fresh:
            self.say(line)
        if whole and self.model.phase == "wish":
            self.say(_("Type the suspect's number (Enter: keep {suspect}, q to leave):").format(
                suspect=card_word(SUSPECTS[self.model.cursor].index)))
        if self.model.phase == "lobby" and self.model.view is not None and not self._asked:
            self._asked = True
            self.say(_("Type a suspect's number to sit as it, r to say ready (or not), "
                       "q to leave."))

    async def choose_table(self, found: Callable[[], list[TableAd]]) -> TableAd | None:
        self.model.phase = "tables"
        self.say(_("Looking for tables on this network..."))
        for _look in range(10):
            await asyncio.sleep(0.3)
            self.model.on_tables(found())
        while True:
            self.model.on_tables(found())
            self._shown = []
            self.refresh()
            if not self.model.tables:
                self.say(_("No table yet (Enter to look again, q to leave):"))
            else:
                self.say(_("Type a table's number to join it (Enter to look again, q to "
                           "leave):"))
            line = await asyncio.to_thread(self.feed.readline)
            answer = line.strip()
            if line == "" or answer == "q":
                self.input_ended = line == ""
                return None
            number = small_number(answer)
            if number is not None and 1 <= number <= len(self.model.tables):
                ad = self.model.tables[number - 1]
                if not ad.playing:
                    if self.model.last_seat(ad) and not await self.wish(ad):
                        return None
                    self.model.phase = "lobby"
                    return ad
                self.say(_("That table is playing already (watch it with p2pclue watch)."))

    async def ask_code(self, name: str, key: str | None) -> str | None:
        """The table code, typed as a line; None: back to the list (or end of input)."""
        if self.model.message:
            if self.model.message not in self._shown:  # refresh() may have said it just now
                self.say(self.model.message)
            self.model.message = ""
        self.say((_("The table {name} (opener's key {key}) needs its table code.") if key
                  else _("The table {name} needs its table code.")).format(name=repr(name),
                                                                           key=key))
        if self.model.code_tries:
            self.say(code_tries(self.model.code_tries))
        self.say(_("Type the table code (Enter alone: back):"))
        line = await asyncio.to_thread(self.feed.readline)
        if line == "":
            self.model.quit = self.input_ended = True
            return None
        self._shown = []
        return line.strip() or None

    async def wish(self, ad: TableAd) -> bool:
        """The suspect for the last seat, typed as its number (Enter: any free one)."""
        self.model.ask_wish(ad)
        for _style, text in self.model.lines(200)[2:]:
            self.say(text.rstrip())
        while True:
            self.say(_("Type the suspect's number (Enter: any free one, q to leave):"))
            line = await asyncio.to_thread(self.feed.readline)
            answer = line.strip()
            if line == "" or answer == "q":
                self.input_ended = line == ""
                return False
            number = small_number(answer)
            if answer == "" or (number is not None and 1 <= number <= len(SUSPECTS)):
                if number is not None:
                    self.model.wish = SUSPECTS[number - 1].index
                self.model.phase = "lobby"
                return True

    async def seated(self, lobby: Awaitable[_T]) -> _T | None:
        task = asyncio.ensure_future(lobby)
        while not task.done():
            self.refresh()
            line = await self.feed.poll(0.2)
            if line is None:
                continue
            key = "q" if line == "" else line.strip()
            self.input_ended = line == ""
            number = small_number(key) is not None
            keys = [key if key in ("q", "r") or number else "?"]
            if self.model.phase == "wish" and key != "q":  # the late last-seat question:
                keys = [key, "enter"] if number else ["enter"]  # Enter keeps it
            for typed in keys:
                for action in self.model.press(typed):
                    self.actions.put_nowait(action)
            if self.model.message:
                self.say(self.model.message)  # said now, and not again by refresh()
                self._shown = [*self._shown, "", self.model.message]
            if self.model.quit:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                return None
        return task.result()

    async def started(self, check: str) -> None:
        self.model.phase, self.model.check = "started", check
        self.say(_("The roster is signed. Table check: {check} (compare it aloud: every "
                   "screen at this table shows the same).").format(check=check))

    async def close(self) -> None:
        pass


def changed_lines(before: list[str], after: list[str]) -> list[str]:
    """The lines of ``after`` that are not where ``before`` had them (new or changed),
    in order; blank lines that only moved are left out."""
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    return [line for tag, _a0, _a1, b0, b1 in matcher.get_opcodes() if tag != "equal"
            for line in after[b0:b1] if line.strip()]


LobbyFront = LobbyScreen | PlainLobby

__all__ = ["LineFeed", "LobbyFront", "LobbyModel", "LobbyScreen", "PlainLobby"]
