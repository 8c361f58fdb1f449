"""Write docs/screen-80x24.txt: the game screen at 80 x 24, as text, mid-game after a roll.

Run from the repository root: ``PYTHONPATH=. python -m tests.tui.capture_screen [SEED]``
(``--help`` for the options; a bad argument is one line on stderr and exit status 2).
The capture is the monochrome form (what ``NO_COLOR`` shows), since a text file
has no colours: reachable squares are ``::``, the chosen destination ``[]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import NoReturn

from p2pclue.tui.model import Mode
from tests.tui.terminal import Table

OUT = Path(__file__).resolve().parents[2] / "docs" / "screen-80x24.txt"


async def capture(seed: int, min_turn: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        t = Table(80, 24, tmp=Path(tmp), color=False, seed=seed, players=4)
        await t.start()
        try:
            while True:
                await asyncio.sleep(0.05)
                m = t.model
                st = m.state
                if m.mode is Mode.MOVE and st is not None and st.turn_number >= min_turn \
                        and len(m.destinations) > 3:
                    await t.settle()
                    return t.term.text()
                keys = {Mode.TURN: "r", Mode.MOVE: "\r", Mode.SHOW: "\r"}
                if m.mode is Mode.TURN and any(a.key == "s" for a in m.actions()):
                    t.press("s", "\r", "\r")
                elif m.mode is Mode.TURN and any(a.key == "e" for a in m.actions()):
                    t.press("e")
                elif m.mode is Mode.MOVE and m.cursor is None:
                    t.press("\x1b[B", "\r")  # no room in reach: a square, then Enter
                elif m.mode in keys:
                    t.press(keys[m.mode])
                await asyncio.sleep(0.2)
        finally:
            await t.close()


class _OneLineParser(argparse.ArgumentParser):
    """A bad argument is one line (the usage is in ``--help``), not the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _OneLineParser(prog="python -m tests.tui.capture_screen",
                       description="Play a seeded 4-player game on an 80x24 terminal until "
                                   "a roll offers more than three squares, then print the "
                                   "screen as text and write it to a file.")
    p.add_argument("seed", nargs="?", type=int, default=4,
                   help="the game's seed (default: 4, the one docs/screen-80x24.txt shows)")
    p.add_argument("--min-turn", type=int, default=9, metavar="N",
                   help="capture no earlier than turn N (default: 9)")
    p.add_argument("--out", type=Path, default=OUT, metavar="FILE",
                   help="where to write the screen (default: docs/screen-80x24.txt)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.min_turn < 0:
        _parser().error("--min-turn must be 0 or more")
    if not args.out.parent.is_dir():
        _parser().error(f"--out: no folder {str(args.out.parent)!r}")
    text = asyncio.run(capture(args.seed, args.min_turn))
    try:
        args.out.write_text("\n".join(line.rstrip() for line in text.splitlines()) + "\n",
                            encoding="utf-8")
    except OSError as exc:
        _parser().error(f"--out: cannot write {str(args.out)!r}: {exc.strerror}")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
