"""The story keeps its newest entries only, yet a reader that prints it as it grows (the
``--plain`` mode) gets every new entry: once more than ``STORY_KEEP`` had been told, the
plain mode printed nothing more, not even the audit at the end (a long game with a leave,
tests/net/test_leave_processes.py, stopped there)."""

from __future__ import annotations

from p2pclue.bots.protocol import make_config
from p2pclue.rules.variants import CLASSIC
from p2pclue.tui.model import STORY_KEEP, UIModel


def test_entries_told_since_a_count_survive_the_trimming() -> None:
    model = UIModel(make_config(CLASSIC, 3, 11)[0], 0, color=False)
    printed: list[str] = []
    told = 0
    for k in range(STORY_KEEP + 150):
        model.tell(f"line {k}")
        if k % 7 == 0:  # a reader that catches up now and then
            printed += model.story_since(told)
            told = model.story_told
    printed += model.story_since(told)
    assert printed == [f"line {k}" for k in range(STORY_KEEP + 150)]
    assert len(model.story) == STORY_KEEP and model.story_since(model.story_told) == []
