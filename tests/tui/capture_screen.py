"""Write docs/screen-80x24.txt: the game screen at 80 x 24, as text, mid-game after a roll.

Run from the repository root: ``PYTHONPATH=. python -m tests.tui.capture_screen``.
The capture is the monochrome form (what ``NO_COLOR`` shows), since a text file
has no colours: reachable squares are ``::``, the chosen destination ``[]``.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

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


def main() -> int:
    text = asyncio.run(capture(int(sys.argv[1]) if len(sys.argv) > 1 else 4, 9))
    OUT.write_text("\n".join(line.rstrip() for line in text.splitlines()) + "\n",
                   encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
