"""What issue 20 left in English or ungrammatical: table names, refusals, board initials,
French "de"/"à" before a card. Each is rendered in every language and read back."""

from __future__ import annotations

import ast
import dataclasses
import re
import string
from pathlib import Path

import pytest

from p2pclue.engine.errors import LocalProtocolError
from p2pclue.i18n import (
    CARD_FIELDS,
    LANGUAGES,
    _,
    card_word,
    default_table_name,
    install,
    local_names,
    outcome_word,
    pgettext,
    player_word,
    refusal_text,
    triple_word,
)
from p2pclue.i18n.french import FrenchTemplate
from p2pclue.i18n.initials import token_codes, weapon_codes
from p2pclue.i18n.width import text_width
from p2pclue.rules.actions import EndTurn, Move, Roll, Suggest
from p2pclue.rules.cards import CARDS, ROOMS, SUSPECTS, WEAPONS
from p2pclue.rules.errors import N_, RuleError
from p2pclue.rules.game import apply
from p2pclue.rules.state import GameState
from p2pclue.tui import board as bd
from p2pclue.tui import view
from tests.rules.helpers import put, start
from tests.test_i18n_forms import Anything
from tests.tui.test_ux import _model
from tools.catalogs import po_path, read_catalog

SCARLETT, MUSTARD, DAGGER, HALL = 0, 1, 7, 19

LANGS = sorted(LANGUAGES)
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield
    install("en")


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Anne's table"), ("it", "tavolo di Anne"), ("fr", "chez Anne"),
    ("ko", "Anne 님의 테이블"), ("sq", "tavolina e lojtarit Anne"), ("cs", "stůl hráče Anne"),
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
            assert re.match(rf"{error.rule}[\u202f]?: ", text), text  # French: "R23 : ..."
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


REFUSING_LAYERS = ("rules", "engine", "net")
"""Where refusals (``RuleError``, ``LocalProtocolError``) are raised: every module is read,
so a refusal moved to another module is still checked."""


def _refusing_modules() -> list[str]:
    return [str(path.relative_to(ROOT / "p2pclue")) for layer in REFUSING_LAYERS
            for path in sorted((ROOT / "p2pclue" / layer).glob("*.py"))]


def test_the_refusals_are_found_where_they_are_raised() -> None:
    counts = {m: _refusals_marked(m) for m in _refusing_modules()}
    assert sum(counts.values()) >= 40, counts
    assert all(counts[m] for m in ("rules/game.py", "rules/movement.py", "engine/peer.py",
                                   "engine/turn.py", "net/local.py")), counts


@pytest.mark.parametrize("module", _refusing_modules())
def test_every_refusal_is_a_marked_template(module: str) -> None:
    """An f-string refusal could never be translated: each is N_("...") with its values."""
    _refusals_marked(module)


def _refusals_marked(module: str) -> int:
    """How many refusals ``module`` raises, each checked to be a marked template."""
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
    return found


# ---- French: "de"/"à" before a card or a name ---------------------------------------------

FRENCH_WRONG = re.compile(r"\b(?:de|à|De|À) (?:le|les|Le|Les)\b|\b[dD]e [AEIOUÉÈaeiouéè]"
                          r"|\bde du\b|\bde de\b")


def test_french_cards_after_de_and_a_are_contracted_in_every_message() -> None:
    """Every French message with every card: "du salon", "de la cuisine", never "de le"."""
    install("fr")
    for msgid, text in _french_texts():
        fields = {n for _, n, _, _ in string.Formatter().parse(text) if n}
        cards = sorted(f for f in fields if f in CARD_FIELDS)
        base: dict[str, object] = {f: Anything() for f in fields}
        base.update({f: _card_values(f)[0] for f in cards})
        for f in cards:
            for value in _card_values(f):
                out = _(msgid).format(**dict(base, **{f: value}))
                assert not FRENCH_WRONG.search(out), (msgid, out)


def _french_texts() -> list[tuple[str, str]]:
    out = []
    for m in read_catalog(po_path("fr"), "fr"):
        if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string:
            out.append((m.id, m.string))
    return out


def _card_values(field: str) -> list[object]:
    if field == "triple":
        return [triple_word((s.index, w.index, r.index))
                for s, w, r in zip(SUSPECTS, WEAPONS, ROOMS, strict=False)]
    kind = CARD_FIELDS[field]
    return [card_word(c.index) for c in CARDS if kind is None or c.category is kind]


@pytest.mark.parametrize(("lang", "ada", "bruno"), [
    ("fr", "la main d'Ada", "la main de Bruno"), ("it", "la mano di Ada", "la mano di Bruno"),
    ("en", "Ada's hand", "Bruno's hand"), ("cs", "hráče Ada", "hráče Bruno"),
    ("sq", "Ada", "Bruno"), ("ko", "Ada 님의", "Bruno 님의"),
])
def test_a_name_after_de_is_elided_in_french(lang: str, ada: str, bruno: str) -> None:
    install(lang)
    template = pgettext("a place in the notepad", "{player}'s hand")
    assert ada in template.format(player=player_word("Ada")) \
        and bruno in template.format(player=player_word("Bruno"))
    if lang == "fr":  # "de" before a vowel only, and only the word "de"
        assert FrenchTemplate("le tour de {a}, de {b} et de {c}").format(
            a="Émile", b="Hugo", c="Yann") == "le tour d'Émile, de Hugo et de Yann"
        assert FrenchTemplate("vide {a} ou {{de}} {b}").format(a="Ada", b="Ada") == \
            "vide Ada ou {de} Ada"


# ---- board codes from the language's own card names ---------------------------------------

ENGLISH_TOKENS = ("Sc", "Mu", "Wh", "Gr", "Pe", "Pl")


@pytest.mark.parametrize("lang", LANGS)
def test_board_codes_come_from_the_languages_card_names(lang: str) -> None:
    install(lang)
    tokens, weapons = token_codes(lang), weapon_codes(lang)
    for codes, cards in ((tokens, SUSPECTS), (tuple(weapons[w.index] for w in WEAPONS), WEAPONS)):
        assert len(set(codes)) == 6, codes  # unambiguous on one board
        for code, c in zip(codes, cards, strict=True):
            name = local_names(lang)[c.index].name
            assert text_width(code) == 2 and code[0] in name, (code, name)
    # Corridor tokens and a crowded room's weapons, drawn as the board draws them.
    corridor = {(24, 7): 0, (17, 0): 1, (0, 9): 2, (0, 14): 3, (6, 23): 4, (19, 23): 5}
    pic = bd.BoardPicture(corridor, {}, {15: (6, 7, 8)}, frozenset(), None, None)
    drawn = "".join(t for _s, t, *_ in bd.render(pic, tall=False, color=False))
    assert all(code in drawn for code in tokens), drawn
    if lang == "fr":
        assert tokens[2] == "Le" and tokens[5] == "Vi" and weapons[10] == "Co"
    if lang == "ko":
        assert tokens == ("스", "머", "화", "그", "피", "플")
    if lang != "en":
        assert tokens != ENGLISH_TOKENS or all(
            local_names(lang)[s.index].name.endswith(s.name.split()[-1][:4]) or
            s.name.split()[-1][:4] in local_names(lang)[s.index].name for s in SUSPECTS)


@pytest.mark.parametrize("lang", LANGS)
def test_tokens_stacked_in_one_cell_are_never_hidden(lang: str) -> None:
    """Two corridor tokens share a compact cell: two first letters fit, two Korean
    syllables do not, so the screen lists that pair beside the board."""
    install(lang)
    model, state = _model()
    tokens = list(state.tokens)
    tokens[0], tokens[1] = (16, 7), (17, 7)  # one compact cell, two board rows
    model.state = dataclasses.replace(state, tokens=tuple(tokens))
    pic = bd.picture(model.state, frozenset(), None, None)
    drawn = "".join(t for _s, t, *_ in bd.render(pic, tall=False, color=False))
    listed = " ".join(t for _s, t in view.crowded_lines(model, 48))
    codes = token_codes(lang)
    if lang == "ko":
        assert bd.stacked(pic, False) == [(0, 1)]
        assert codes[0] in listed and codes[1] in listed, listed
    else:  # "SM": both first letters in the cell itself
        assert bd.stacked(pic, False) == [] and codes[0][0] + codes[1][0] in drawn
