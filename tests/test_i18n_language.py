"""Choosing the language: --lang, then LC_ALL, LC_MESSAGES, LANG, then English."""

from __future__ import annotations

import argparse

import pytest

from p2pclue.i18n import (
    add_lang_option,
    apply_language,
    choose_language,
    current_language,
    install,
    language_code,
    listing,
    resolve_language,
)


@pytest.mark.parametrize(("value", "code"), [
    ("cs", "cs"), ("cs_CZ.UTF-8", "cs"), ("CS-cz", "cs"), ("cz", "cs"), ("čeština", "cs"),
    ("ko_KR.UTF-8", "ko"), ("ko-KR", "ko"), ("fr_FR@euro", "fr"), ("fr_CA", "fr"),
    ("it_IT", "it"), ("Italiano", "it"), ("sq_AL.UTF-8", "sq"), ("en_GB.UTF-8", "en"),
    ("de_DE.UTF-8", None), ("pt", None), ("", None),
])
def test_language_code(value: str, code: str | None) -> None:
    assert language_code(value) == code


def test_flag_wins_over_the_environment() -> None:
    env = {"LC_ALL": "fr_FR.UTF-8", "LANG": "it_IT.UTF-8"}
    assert choose_language("ko", env).code == "ko"
    assert choose_language(None, env).code == "fr"


def test_variables_in_posix_order() -> None:
    assert choose_language(None, {"LC_MESSAGES": "cs_CZ", "LANG": "it_IT"}).code == "cs"
    assert choose_language(None, {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "sq_AL"}).code == "sq"
    choice = choose_language(None, {"LANG": "it_IT.UTF-8"})
    assert (choice.code, choice.origin, choice.notice) == ("it", "LANG", None)


def test_nothing_set_means_english() -> None:
    assert choose_language(None, {}) .code == "en"
    c = choose_language(None, {"LC_ALL": "C", "LANG": "fr_FR"})
    assert (c.code, c.notice) == ("en", None)
    assert choose_language(None, {"LANG": "C.UTF-8"}).notice is None


def test_unknown_language_falls_back_with_a_notice(capsys: pytest.CaptureFixture[str]) -> None:
    notices: list[str] = []
    assert resolve_language("klingon", {"LANG": "cs_CZ"}, notices.append) == "en"
    assert len(notices) == 1 and "'klingon'" in notices[0] and "cs, en, fr, it, ko, sq" \
        in notices[0]
    assert resolve_language(None, {"LANG": "de_DE.UTF-8"}) == "en"
    err = capsys.readouterr().err
    assert "LANG='de_DE.UTF-8'" in err and "--lang" in err
    assert resolve_language("cs", {}) == "cs"
    assert capsys.readouterr().err == ""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="p2pclue")
    add_lang_option(parser, top_level=True)
    sub = parser.add_subparsers(dest="command")
    simulate = sub.add_parser("simulate")
    add_lang_option(simulate)
    add_lang_option(simulate)  # twice is harmless
    return parser


@pytest.mark.parametrize(("argv", "lang"), [
    (["simulate"], None),
    (["--lang", "cs", "simulate"], "cs"),
    (["simulate", "--lang", "ko"], "ko"),
    (["--lang", "cs", "simulate", "--lang", "fr"], "fr"),
])
def test_lang_before_or_after_the_subcommand(argv: list[str], lang: str | None) -> None:
    assert _parser().parse_args(argv).lang == lang


def test_apply_language_installs_it() -> None:
    try:
        assert apply_language(None, {"LANG": "it_IT.UTF-8"}) == "it"
        assert current_language() == "it"
        assert listing(["a", "b", "c"]) == "a, b e c"
        assert apply_language("ko", {}) == "ko"
        assert listing(["a", "b"]) == "a 및 b"
    finally:
        install("en")
    assert listing([]) == "" and listing(["a"]) == "a"
    assert listing(["a", "b", "c"]) == "a, b and c"
