"""The board as styled text: 25 x 24 squares, every one visible even at 80 x 24.

Each square is two characters wide. In the compact form one line of text holds
two board rows, drawn with the upper half block (foreground: the upper square,
background: the lower one), so the whole board takes 13 lines; the tall form
gives each row its own line. Rooms carry their name, the tokens and the weapons
inside them; corridor tokens are two-letter codes on their suspect's colour.
Without colours the same picture is drawn with block shapes and reverse video.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.utils import get_cwidth

from p2pclue.i18n import board_label, card_name, current_language
from p2pclue.i18n.initials import token_codes, weapon_codes
from p2pclue.rules.board import Board, Square, classic_board
from p2pclue.rules.cards import WEAPONS
from p2pclue.rules.state import GameState

CELL = 2
TOKEN_CODES = ("Sc", "Mu", "Wh", "Gr", "Pe", "Pl")
"""The English codes (``token_code`` gives the reader's language's)."""
TOKEN_COLOURS = ("#d70000", "#d7af00", "#eeeeee", "#00af00", "#0087ff", "#af5fd7")
TOKEN_TEXT = ("#ffffff", "#000000", "#000000", "#000000", "#000000", "#000000")
WEAPON_TINY = {6: "Cs", 7: "Dg", 8: "Pi", 9: "Rv", 10: "Ro", 11: "Wr"}
"""English weapon codes (``weapon_tiny`` gives the reader's language's)."""


def token_code(suspect: int) -> str:
    """A token's two-column code in the reader's language ("Sc"; "Le" for Madame Leblanc in
    French; 스 in Korean), unambiguous on the board."""
    return token_codes(current_language())[suspect]


def weapon_tiny(weapon: int) -> str:
    """A weapon's code in a crowded room, in the reader's language (English keeps its own):
    two letters, which the help's legend explains. Where a code would be one wide syllable
    (Korean: 밧, 파) it would say nothing, so the weapon's short label stands instead."""
    code = WEAPON_TINY[weapon] if current_language() == "en" else weapon_codes(
        current_language())[weapon]
    return code if get_cwidth(code) == CELL and get_cwidth(code[0]) == 1 else weapon_short(weapon)


def weapon_legend() -> list[tuple[str, int]]:
    """(code, weapon) for the weapon codes the board may draw that are not a word of the
    weapon's name: what the help's legend has to explain."""
    return [(weapon_tiny(w.index), w.index) for w in WEAPONS
            if weapon_tiny(w.index) not in card_name(w.index).split()]


def _pair_code(upper: int, lower: int) -> str:
    """Two tokens stacked in one compact cell: their first letters, or where a code is one
    wide syllable (Korean), the upper token's, since two would not fit two columns."""
    a, b = token_code(upper), token_code(lower)
    return a[0] + b[0] if get_cwidth(a[0] + b[0]) == CELL else a


def weapon_short(weapon: int) -> str:
    """A weapon's label on the board, in the reader's language (``board_label``)."""
    return board_label(weapon)


def room_label(room: int, widest: int) -> str:
    """A room's label: its name where one of its runs of cells holds it (``widest``
    columns), else its short board label ("Biliardo", never the ambiguous "Sala")."""
    name = card_name(room)
    return name if get_cwidth(name) <= widest else board_label(room)

OFF = ""
CORRIDOR = "#d7c58f"
ROOM = "#3f5f7f"
DOOR = "#d78700"
REACH = "#5fff5f"
CURSOR = "#ff5fff"
PASSAGE = "#ff87ff"

ClickHandler = Callable[[Square], None]


@dataclass(frozen=True)
class BoardPicture:
    """What to draw on top of the bare board."""

    tokens: dict[Square, int]
    """Corridor square -> suspect."""
    in_rooms: dict[int, tuple[int, ...]]
    """Room -> suspects in it."""
    weapons: dict[int, tuple[int, ...]]
    """Room -> weapons in it."""
    reach: frozenset[Square]
    cursor: Square | None
    me: int | None
    """My suspect, drawn underlined."""


def picture(state: GameState | None, reach: frozenset[Square], cursor: Square | None,
            me: int | None) -> BoardPicture:
    tokens: dict[Square, int] = {}
    in_rooms: dict[int, list[int]] = {}
    weapons: dict[int, list[int]] = {}
    if state is not None:
        for suspect, where in enumerate(state.tokens):
            if isinstance(where, int):
                in_rooms.setdefault(where, []).append(suspect)
            elif where is not None:
                tokens[where] = suspect
        for i, room in enumerate(state.weapons):
            weapons.setdefault(room, []).append(6 + i)
    return BoardPicture(tokens, {k: tuple(v) for k, v in in_rooms.items()},
                        {k: tuple(v) for k, v in weapons.items()}, reach, cursor, me)


def _room_or_off(board: Board, sq: Square, room: int) -> bool:
    return board.room_at(sq) == room or (sq not in board.corridor and board.room_at(sq) is None)


@cache
def label_slots(tall: bool) -> dict[int, tuple[tuple[int, int, int], ...]]:
    """Room -> (line, first column, length) runs where text can sit inside the room."""
    board = classic_board()
    rows_per_line = 1 if tall else 2
    lines = (board.rows + rows_per_line - 1) // rows_per_line
    slots: dict[int, list[tuple[int, int, int]]] = {}
    for room in board.rooms():
        for line in range(lines):
            rows = [line * rows_per_line + k for k in range(rows_per_line)]
            best = (0, 0)
            start = None
            for col in range(board.cols + 1):
                ok = col < board.cols and any(board.room_at((r, col)) == room for r in rows) \
                    and all(_room_or_off(board, (r, col), room) for r in rows) \
                    and board.door_at((rows[0], col)) is None \
                    and (len(rows) == 1 or board.door_at((rows[1], col)) is None)
                if ok and start is None:
                    start = col
                elif not ok and start is not None:
                    if col - start > best[1] - best[0]:
                        best = (start, col)
                    start = None
            if best[1] > best[0]:
                slots.setdefault(room, []).append((line, best[0], best[1] - best[0]))
    return {room: tuple(v) for room, v in slots.items()}


def _fit(text: str, width: int) -> str:
    out = ""
    for ch in text:
        if get_cwidth(out + ch) > width:
            break
        out += ch
    return out


@dataclass(frozen=True)
class _Label:
    text: str
    style: str


Parts = list[tuple[str, str]]


def _room_labels(pic: BoardPicture, tall: bool, color: bool) -> dict[tuple[int, int], _Label]:
    """(line, column) -> the label text (2 characters) drawn in that cell."""
    return _lay_rooms(pic, tall, color)[0]


def crowded(pic: BoardPicture, tall: bool) -> dict[int, str]:
    """Room -> everything in it, for the rooms whose tokens and weapons do not all fit
    inside them on the board (the screen lists those beside it: nothing is ever hidden)."""
    return _lay_rooms(pic, tall, False)[1]


def stacked(pic: BoardPicture, tall: bool) -> list[tuple[int, int]]:
    """Corridor tokens one above the other in one compact cell whose codes cannot both be
    drawn there (a Korean code is one syllable, the whole cell): (upper, lower) suspects,
    which the screen lists beside the board, so no token is ever hidden."""
    if tall:
        return []
    return [(s, pic.tokens[(r + 1, c)]) for (r, c), s in sorted(pic.tokens.items())
            if r % 2 == 0 and (r + 1, c) in pic.tokens
            and _pair_code(s, pic.tokens[(r + 1, c)]) == token_code(s)]


def _lay_rooms(pic: BoardPicture, tall: bool, color: bool
               ) -> tuple[dict[tuple[int, int], _Label], dict[int, str]]:
    out: dict[tuple[int, int], _Label] = {}
    full: dict[int, str] = {}
    board = classic_board()
    for room, all_slots in label_slots(tall).items():
        slots = [sl for sl in all_slots if sl[2] >= 3] or list(all_slots)
        name = room_label(room, max(sl[2] for sl in slots) * CELL)
        first = next((sl for sl in slots if sl[2] * CELL >= get_cwidth(name)),
                     max(slots, key=lambda sl: sl[2]))
        rest = [sl for sl in slots if sl != first]
        label = "fg:#ffffff bold" if color else "reverse bold"
        people: Parts = []
        for s in pic.in_rooms.get(room, ()):
            people += [(token_code(s), _token_style(s, pic.me, color)), (" ", "")]
        arms = pic.weapons.get(room, ())
        arm_style = "fg:#ffd787" if color else "reverse"
        wide = _join([(weapon_short(w), arm_style) for w in arms])
        tiny = _join([(weapon_tiny(w), arm_style) for w in arms])
        name_part: Parts = [(name, label)]
        placed = _place(first, rest, name_part, people, wide, tiny)
        if placed is None:
            # Too crowded for the room's free cells: the name and what fits, and the
            # whole list beside the board.
            placed = _flow([first, *rest], [name_part, *_units(people), *_units(tiny)])[0]
            full[room] = " ".join([*(token_code(s) for s in pic.in_rooms.get(room, ())),
                                   *(weapon_short(w) for w in arms)])
        for (line, col, length), parts in sorted(placed):
            _spread(out, line, col, length, parts, label)
        if room in board.passages:
            cell = _passage_cell(board, room, tall, out)
            if cell is not None:
                out[cell] = _Label("**", f"fg:{PASSAGE} bold" if color else "reverse bold")
    return out, full


Slot = tuple[int, int, int]


def _columns_of(parts: Parts) -> int:
    """Terminal columns ``_spread`` takes for ``parts`` (a wide character starts on a cell)."""
    used = 0
    for text, _style in parts:
        for ch in text:
            w = get_cwidth(ch)
            used += 1 if w == 2 and used % 2 else 0
            used += w
    return used


def _units(parts: Parts) -> list[Parts]:
    """Styled items (a token, a weapon) without their separating spaces."""
    return [[p] for p in parts if p[0].strip()]


def _place(first: Slot, rest: list[Slot], name: Parts, people: Parts, wide: Parts,
           tiny: Parts) -> list[tuple[Slot, Parts]] | None:
    """Where the name, the tokens and the weapons go, or None if they cannot all fit."""
    def fits(slot: Slot, parts: Parts) -> bool:
        return _columns_of(parts) <= slot[2] * CELL

    if len(rest) >= 2:
        arms = wide if fits(rest[1], wide) else tiny
        if fits(rest[0], people) and fits(rest[1], arms):
            return [(first, name), (rest[0], people), (rest[1], arms)]
    elif len(rest) == 1:
        if fits(rest[0], people + tiny):
            return [(first, name), (rest[0], people + tiny)]
    elif fits(first, [*name, (" ", ""), *people, *tiny]):
        return [(first, [*name, (" ", ""), *people, *tiny])]
    for arms in (wide, tiny):
        placed, left = _flow([first, *rest], [name, *_units(people), *_units(arms)])
        if not left:
            return placed
    return None


def _flow(slots: list[Slot], units: list[Parts]) -> tuple[list[tuple[Slot, Parts]], int]:
    """Fill the slots in order with the units, space-separated; how many did not fit."""
    placed: list[tuple[Slot, Parts]] = []
    k = 0
    for slot in slots:
        line: Parts = []
        while k < len(units):
            candidate = [*line, (" ", ""), *units[k]] if line else list(units[k])
            if _columns_of(candidate) > slot[2] * CELL:
                break
            line, k = candidate, k + 1
        if line:
            placed.append((slot, line))
    return placed, len(units) - k


def _join(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for text, style in items:
        if out:
            out.append((" ", ""))
        out.append((text, style))
    return out


def _spread(out: dict[tuple[int, int], _Label], line: int, col: int, length: int,
            parts: list[tuple[str, str]], base: str) -> None:
    """Lay styled text over ``length`` cells (two columns each), centred, clipped.

    Widths are measured per character (a wide character takes both columns of a
    cell and never straddles two cells).
    """
    width = length * CELL
    columns: list[tuple[str, str]] = []  # one entry per terminal column; "" continues a wide one
    for text, style in parts:
        for ch in text:
            w = get_cwidth(ch)
            if w == 2 and len(columns) % 2 == 1:
                columns.append((" ", style or base))
            columns.append((ch, style or base))
            if w == 2:
                columns.append(("", style or base))
    while columns and columns[-1][0] == " ":
        columns.pop()
    columns = columns[:width]
    if columns and columns[-1][0] != "" and get_cwidth(columns[-1][0]) == 2:
        columns[-1] = (" ", base)
    pad = (width - len(columns)) // 2
    if any(ch == "" for ch, _ in columns):
        pad -= pad % 2  # keep wide characters on cell boundaries
    columns = [(" ", base)] * pad + columns + [(" ", base)] * (width - pad - len(columns))
    for i in range(length):
        a, b = columns[2 * i], columns[2 * i + 1]
        style = a[1] if a[0] not in (" ", "") or a[1] == b[1] else b[1]
        out[(line, col + i)] = _Label(a[0] + b[0], style)


def _passage_cell(board: Board, room: int, tall: bool,
                  taken: dict[tuple[int, int], _Label]) -> tuple[int, int] | None:
    """The room's outermost cell not carrying its label: where the passage starts."""
    squares = [sq for sq, r in board.room_squares.items() if r == room]
    centre = (board.rows / 2, board.cols / 2)
    for sq in sorted(squares, key=lambda sq: (-(abs(sq[0] - centre[0])
                                               + abs(sq[1] - centre[1])), sq)):
        cell = ((sq[0] if tall else sq[0] // 2), sq[1])
        label = taken.get(cell)
        if label is None or not label.text.strip():
            return cell
    return None


def _token_style(suspect: int, me: int | None, color: bool) -> str:
    mine = " underline" if suspect == me else ""
    if not color:
        return "reverse bold" + mine
    return f"bg:{TOKEN_COLOURS[suspect]} fg:{TOKEN_TEXT[suspect]} bold" + mine


def _square_colour(board: Board, sq: Square, pic: BoardPicture) -> str:
    if sq == pic.cursor:
        return CURSOR
    if sq in pic.reach:
        return REACH
    if board.door_at(sq) is not None:
        return DOOR
    if board.room_at(sq) is not None:
        return ROOM
    if sq in board.corridor:
        return CORRIDOR
    return OFF


def render(pic: BoardPicture, *, tall: bool, color: bool,
           on_click: ClickHandler | None = None) -> StyleAndTextTuples:
    """The board as fragments, lines separated by newlines."""
    board = classic_board()
    labels = _room_labels(pic, tall, color)
    rows_per_line = 1 if tall else 2
    lines = (board.rows + rows_per_line - 1) // rows_per_line
    out: StyleAndTextTuples = []
    for line in range(lines):
        rows = [line * rows_per_line + k for k in range(rows_per_line)]
        for col in range(board.cols):
            squares = [(r, col) for r in rows]
            handler = _handler(on_click, squares, pic) if on_click is not None else None
            text, style = _cell(board, squares, pic, labels.get((line, col)), color, tall)
            if handler is not None:
                out.append((style, text, handler))
            else:
                out.append((style, text))
        out.append(("", "\n"))
    return out[:-1]


def _handler(on_click: ClickHandler, squares: list[Square], pic: BoardPicture
             ) -> Callable[[MouseEvent], object]:
    def handle(event: MouseEvent) -> object:
        if event.event_type is not MouseEventType.MOUSE_UP:
            return NotImplemented
        inside = [sq for sq in squares if sq in pic.reach] or squares
        on_click(inside[0])
        return None
    return handle


def _cell(board: Board, squares: list[Square], pic: BoardPicture, label: _Label | None,
          color: bool, tall: bool) -> tuple[str, str]:
    for sq in squares:
        suspect = pic.tokens.get(sq)
        if suspect is not None:
            others = [pic.tokens[s] for s in squares if s != sq and s in pic.tokens]
            text = token_code(suspect) if not others else _pair_code(suspect, others[0])
            style = _token_style(suspect, pic.me, color)
            if sq == pic.cursor or any(s == pic.cursor for s in squares):
                style += " reverse" if color else " underline"
            return text, style
    if label is not None:
        if color:
            bg = ROOM
            if any(sq == pic.cursor for sq in squares):
                bg = CURSOR
            return label.text, f"bg:{bg} {label.style}"
        return label.text, label.style
    if color:
        colours = [_square_colour(board, sq, pic) for sq in squares]
        if tall:
            c = colours[0]
            return " " * CELL, f"bg:{c}" if c else ""
        top = colours[0]
        bottom = colours[1] if len(colours) > 1 else OFF
        if top == bottom:
            return " " * CELL, f"bg:{top}" if top else ""
        return "▀" * CELL, f"fg:{top or 'default'} bg:{bottom or 'default'}"
    return _mono_cell(board, squares, pic)


def _mono_cell(board: Board, squares: list[Square], pic: BoardPicture) -> tuple[str, str]:
    if any(sq == pic.cursor for sq in squares):
        return "[]", "reverse bold"
    if any(sq in pic.reach for sq in squares):
        return "::", "bold"
    filled = [board.room_at(sq) is not None for sq in squares]
    doors = [board.door_at(sq) is not None for sq in squares]
    if any(doors):
        return "##", ""
    if len(filled) == 1:
        return ("██" if filled[0] else ("··" if squares[0] in board.corridor else "  ")), ""
    glyph = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
    g = glyph[(filled[0], filled[1])]
    if g == " " and any(sq in board.corridor for sq in squares):
        g = "·" if squares[0] in board.corridor else " "
    return g * CELL, ""


def board_width() -> int:
    return classic_board().cols * CELL


def board_height(tall: bool) -> int:
    rows = classic_board().rows
    return rows if tall else (rows + 1) // 2
