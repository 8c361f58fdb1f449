"""Display width: columns as the terminal UI counts them, text never cut inside a character."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit.utils import get_cwidth

from p2pclue.i18n import LANGUAGES, fit, local_names, pad, text_width, truncate, wrap
from p2pclue.i18n.width import clusters
from tools import catalogs

COMBINING_ACUTE, COMBINING_CARON = "\u0301", "\u030c"


def _shipped_text() -> str:
    parts: list[str] = []
    for lang in LANGUAGES:
        parts.extend(n.name for n in local_names(lang))
        catalog = catalogs.read_catalog(catalogs.po_path(lang), lang)
        for m in catalog:
            if m.id:
                parts.extend([m.string] if isinstance(m.string, str) else m.string or ())
    return "".join(parts)


def test_widths_agree_with_prompt_toolkit_on_every_shipped_character() -> None:
    for ch in set(_shipped_text()) | set("e" + COMBINING_ACUTE + COMBINING_CARON + "\u1161한…"):
        assert text_width(ch) == get_cwidth(ch), repr(ch)


def test_known_widths() -> None:
    assert text_width("미스 스칼렛") == 11
    assert text_width("Dýka") == 4
    assert text_width("Dy" + COMBINING_ACUTE + "ka") == 4
    assert text_width("Çelës anglez") == 12
    assert text_width("Kame" + COMBINING_CARON) == 4


def test_truncate_korean_never_splits_a_syllable() -> None:
    assert truncate("미스 스칼렛", 6) == "미스 …"
    assert truncate("미스 스칼렛", 5) == "미스…"
    assert truncate("미스 스칼렛", 4) == "미…"
    assert truncate("한국어", 2) == "…"
    assert truncate("한국어", 6) == "한국어"


def test_truncate_keeps_combining_marks_with_their_letter() -> None:
    decomposed = "Sve" + COMBINING_CARON + "tlo"
    assert truncate(decomposed, 4) == "Sve" + COMBINING_CARON + "…"
    assert list(clusters(decomposed))[2] == "e" + COMBINING_CARON


def test_pad_and_fit_count_columns() -> None:
    assert pad("부엌", 6) == "부엌  "
    assert pad("부엌", 6, "right") == "  부엌"
    assert pad("부엌", 7, "center") == " 부엌  "
    assert fit("Taneční sál", 8) == "Taneční…"
    assert text_width(fit("무도회장에서", 7)) == 7


ALPHABET = [*"aZ ěščřžýáíéůŮë", COMBINING_ACUTE, COMBINING_CARON, *"한국어스칼렛…", "\u200d"]
TEXT = st.text(alphabet=st.sampled_from(ALPHABET), max_size=30)


@given(TEXT, st.integers(min_value=0, max_value=40))
def test_truncate_properties(text: str, width: int) -> None:
    cut = truncate(text, width)
    assert text_width(cut) <= width
    if text_width(text) <= width:
        assert cut == text
    else:
        head = cut[:-1] if cut.endswith("…") else cut
        assert text.startswith(head)
        assert head == "" or head in {"".join(list(clusters(text))[:k])
                                      for k in range(len(list(clusters(text))) + 1)}


@given(TEXT, st.integers(min_value=1, max_value=40))
def test_fit_is_exactly_the_width(text: str, width: int) -> None:
    assert text_width(fit(text, width)) == width


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_card_name_fits_a_notepad_column(lang: str) -> None:
    for n in local_names(lang):
        cell = fit(n.name, 12)
        assert text_width(cell) == 12
        assert cell.rstrip(" …") and n.name.startswith(cell.rstrip().removesuffix("…"))


@given(st.lists(st.text(alphabet=st.sampled_from(ALPHABET[1:]).filter(lambda c: c != " "),
                        min_size=1, max_size=12), max_size=12),
       st.integers(min_value=2, max_value=30))
def test_wrap_keeps_every_word_within_the_width(words: list[str], width: int) -> None:
    lines = wrap(" ".join(words), width)
    assert all(text_width(line) <= max(width, 2) for line in lines)
    assert "".join("".join(lines).split()) == "".join("".join(words).split())


def test_wrap_korean_by_columns() -> None:
    text = "사람에게 보여주는 모든 것의 언어 기본값 없으면 출력은 절대 바뀌지 않습니다"
    lines = wrap(text, 20)
    assert all(text_width(line) <= 20 for line in lines) and len(lines) >= 3
    assert " ".join(lines) == text
