"""What issue 20 left in English or ungrammatical: table names, refusals, board initials,
French "de"/"à" before a card. Each is rendered in every language and read back."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from p2pclue.engine.errors import LocalProtocolError
from p2pclue.i18n import (
    LANGUAGES,
    _,
    default_table_name,
    install,
    local_names,
    outcome_word,
    refusal_text,
)
from p2pclue.rules.actions import EndTurn, Move, Roll, Suggest
from p2pclue.rules.errors import N_, RuleError
from p2pclue.rules.game import apply
from p2pclue.rules.state import GameState
from tests.rules.helpers import put, start

SCARLETT, MUSTARD, DAGGER, HALL = 0, 1, 7, 19

LANGS = sorted(LANGUAGES)
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Anne's table"), ("it", "tavolo di Anne"), ("fr", "chez Anne"),
    ("ko", "Anne 님의 테이블"), ("sq", "tavolina e Anne"), ("cs", "stůl hráče Anne"),
])
def test_a_table_without_a_name_is_named_in_the_openers_language(lang: str, expected: str) -> None:
    install(lang)
    assert default_table_name("Anne") == expected


def test_no_table_name_is_built_as_an_english_possessive() -> None:
    english = re.compile("f\"[^\"]*'s table\"")
    for path in (ROOT / "p2pclue").rglob("*.py"):
        assert not english.search(path.read_text("utf-8")), path


# ---- refusals: "Not allowed now: R23: ..." in the player's language ---------------------

NAMES = ["Ada", "Bruno", "Chloé"]


def _refused(state: GameState, action: object) -> RuleError:
    with pytest.raises(RuleError) as info:
        apply(state, action)  # type: ignore[arg-type]
    return info.value


def _refusals() -> list[RuleError | LocalProtocolError]:
    """Real refusals of the rules and the engine: a seat, a card, a number, a variant."""
    hall_door = put(start(), SCARLETT, (17, 10))
    return [
        _refused(put(start(), SCARLETT, HALL), Suggest(0, MUSTARD, DAGGER)),  # R23
        _refused(start(), Roll(1, (3,))),  # R10: it is Ada's turn, not Bruno's
        _refused(apply(hall_door, Roll(0, (1,))), Move(0, ((18, 11),))),  # R16: the Hall's door
        _refused(apply(start(), Roll(0, (3,))), Move(0, ((23, 7), (22, 7)))),  # R12: a number
        LocalProtocolError.refusing(_refused(start(), EndTurn(0))),  # said by the engine
        LocalProtocolError(N_("a card must be shown now"), rule="R21"),
        LocalProtocolError(N_("the game is over ({status})"), status="abandoned"),
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_refusals_are_said_in_the_players_language(lang: str) -> None:
    errors = _refusals()
    english = [refusal_text(e, NAMES) for e in errors]
    install(lang)
    said = [refusal_text(e, NAMES) for e in errors]
    for error, text, eng in zip(errors, said, english, strict=True):
        if error.rule:  # the rule id stays first, as the rules name it
            assert text.startswith(f"{error.rule}: "), text
        assert "{" not in text and "seat " not in text, text
        assert _(error.template) != error.template or lang == "en", (lang, error.template)
        if lang != "en":
            assert text != eng, text
    assert "Ada" in said[1] and "Bruno" in said[1]  # seats are named by their players
    hall = local_names(lang)[HALL].name.split()[-1].lower()[:3]
    assert hall in said[2].lower(), said[2]  # the card in the language's own name
    assert "3" in said[3] and "2" in said[3]
    assert outcome_word("abandoned") in said[6]
    if lang == "en":
        assert said[0] == str(errors[0]) and said[1] == "R10: it is Ada's turn, not Bruno's"


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "R10: it is seat 0's turn, not seat 1's"),
    ("it", "R10: è il turno di posto 0, non di posto 1"),
    ("cs", "R10: na tahu je hráč č. 0, ne hráč č. 1"),
])
def test_refusals_without_names_say_the_seat(lang: str, expected: str) -> None:
    install(lang)
    assert refusal_text(_refused(start(), Roll(1, (3,)))) == expected


def _message_argument(call: ast.Call) -> ast.expr | None:
    name = call.func.id if isinstance(call.func, ast.Name) else ""
    if name == "RuleError":
        return call.args[1] if len(call.args) > 1 else None
    if name == "LocalProtocolError":
        return call.args[0] if call.args else None
    return None


@pytest.mark.parametrize("module", ["rules/game.py", "rules/movement.py", "engine/peer.py",
                                    "net/local.py"])
def test_every_refusal_is_a_marked_template(module: str) -> None:
    """An f-string refusal could never be translated: each is N_("...") with its values."""
    tree = ast.parse((ROOT / "p2pclue" / module).read_text("utf-8"))
    found = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (arg := _message_argument(node)) is not None:
            found += 1
            marked = (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name)
                      and arg.func.id == "N_")
            assert marked or isinstance(arg, ast.Starred), f"{module}:{node.lineno}"
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) \
                and len(node.value.elts) == 2 and isinstance(node.value.elts[0], ast.Constant) \
                and str(node.value.elts[0].value).startswith("R"):
            second = node.value.elts[1]
            assert isinstance(second, ast.Call), f"{module}:{node.lineno}"
    assert found
