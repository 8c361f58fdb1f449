"""The ``join --plain`` turn menu speaks in one grammatical form per language.

A real ``p2pclue join --create --plain`` process (the person's seat and two bots, on
127.0.0.1 only) in Czech and in Korean: the test answers over a pipe until the person's
turn, rolls, and reads both menus of that turn (before the roll, and where to go). Every
item is one of the turn menu's own messages ("turn menu" context), written as Czech
infinitives and Korean ``-기`` forms, never the action bar's nouns that share their
English words ("obvinění", "고발"); the line that asks for the answer names its keys in
the same form.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from p2pclue.i18n import install, pgettext
from tests.table_names import unique_table
from tests.tui.drive import ROOT
from tests.tui.test_join_e2e import _net_env

MENU_ITEMS = ("roll the dice", "roll the die", "take the secret passage into {room:the}",
              "go into {room:the}", "go to {place} (row {row}, column {column})",
              "stay where you are", "suggest", "accuse", "end your turn")
KEYS = "number (n see the notepad, h get a hint, ? get help, q quit): "
CARD_KEYS = "number or name (n see the notepad, h get a hint, ? get help, q quit): "
OPTION = re.compile(r"^  (\d+)\. (.*)$", re.M)

EXPECTED = {
    "cs": {"title": "Jste na tahu:", "roll": "hodit kostkou", "accuse": "vznést obvinění",
           "noun": "obvinění",
           "keys": "číslo (n otevřít zápisník, h zobrazit radu, ? zobrazit nápovědu, "
                   "q skončit): "},
    "ko": {"title": "내 차례:", "roll": "주사위 굴리기", "accuse": "고발하기", "noun": "고발",
           "keys": "번호 (n 수첩 보기, h 힌트 보기, ? 도움말 보기, q 끝내기): "},
}


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


def _pattern(lang: str, msgid: str) -> re.Pattern[str]:
    """A menu item's translation with any text where its fields go."""
    install(lang)
    text = pgettext("turn menu", msgid)
    install("en")
    return re.compile("^" + ".+".join(re.escape(p) for p in re.split(r"\{[^}]*\}", text))
                      + "$")


def _menus(lang: str, tmp_path: Path) -> tuple[list[list[str]], str]:
    """The two menus of the person's first turn (before and after the roll), and all
    that was printed."""
    install(lang)
    keys, card_keys = pgettext("keys of a numbered question", KEYS), pgettext(
        "keys of a numbered question", CARD_KEYS)
    install("en")
    title = EXPECTED[lang]["title"]
    out_path, err_path = tmp_path / "out.txt", tmp_path / "err.txt"
    argv = [sys.executable, "-m", "p2pclue", "join", "--create", "--no-code", "--bots", "2",
            "--players", "3", "--bot-think", "0", "--pass-delay", "0.05",
            "--table", unique_table(f"menu-{lang}"), "--name", "Pat",
            "--plain", "--lang", lang, "--transcript", str(tmp_path / "game.p2pclue")]
    with out_path.open("w") as out_w, err_path.open("w") as err_w:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=out_w, stderr=err_w,
                                text=True, env=_net_env(tmp_path), cwd=ROOT)
    assert proc.stdin is not None
    menus: list[list[str]] = []
    answered = 0
    try:
        deadline = time.monotonic() + 300  # a hang guard for a loaded machine
        while len(menus) < 2:
            text = out_path.read_text("utf-8", "replace")
            assert proc.poll() is None, text[-3000:] + err_path.read_text()
            assert time.monotonic() < deadline, text[-3000:]
            if len(text) > answered and text.endswith((keys, card_keys)):
                answered = len(text)
                asked = text[text.rfind("\n  1. "):]
                heading = text[:text.rfind("\n  1. ")].rsplit("\n", 1)[-1]
                if heading == title:
                    menus.append([label for _n, label in OPTION.findall(asked)])
                proc.stdin.write("1\n")  # roll first, then the first place; a card: the first
                proc.stdin.flush()
            time.sleep(0.05)
        proc.stdin.close()  # the end of input leaves the table
        proc.wait(120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    err = err_path.read_text()
    assert "Traceback" not in err, err
    return menus, out_path.read_text("utf-8", "replace")


@pytest.mark.parametrize("lang", ["cs", "ko"])
def test_the_turn_menu_items_share_one_form(lang: str, tmp_path: Path) -> None:
    menus, said = _menus(lang, tmp_path)
    expected = EXPECTED[lang]
    patterns = [_pattern(lang, msgid) for msgid in MENU_ITEMS]
    for menu in menus:
        assert menu, said[-3000:]
        for label in menu:
            assert any(p.match(label) for p in patterns), (lang, label, menu)
        assert expected["noun"] not in menu, (lang, menu)
    before_roll, where_to = menus
    assert before_roll[0] == expected["roll"], before_roll
    assert expected["accuse"] in before_roll, before_roll
    assert expected["accuse"] in where_to, where_to
    place_items = [_pattern(lang, m) for m in MENU_ITEMS[2:6]]
    assert any(p.match(label) for p in place_items for label in where_to), where_to
    assert expected["keys"] in said
    assert "see the notepad" not in said and "Your turn" not in said
