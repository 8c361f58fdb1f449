"""argparse's detailed errors in the reader's language (issue 20: a person who mistypes an
option reads why in their language, not "invalid choice").

``p2pclue`` with a wrong value, an unknown option and a bad number, in each language (in
this process, and once as a real process: what a shell sees); the exit code stays
argparse's 2, and the values themselves are untouched.
"""

from __future__ import annotations

import pytest

from p2pclue.i18n.languages import LANGUAGES
from p2pclue.i18n.options import ARGPARSE_ERRORS
from p2pclue.i18n.translate import _, install
from tests.cli.helpers import p2pclue, run_main

CHOICE = {
    "en": "argument --players: invalid choice: 9 (choose from 3, 4, 5, 6)",
    "it": "argomento --players: scelta non valida: 9 (scegli tra 3, 4, 5, 6)",
    "fr": "option --players\u202f: choix invalide\u202f: 9 (choisissez parmi 3, 4, 5, 6)",
    "ko": "인수 --players: 잘못된 선택: 9 (3, 4, 5, 6 중에서 고르세요)",
    "sq": "argumenti --players: zgjedhje e pavlefshme: 9 (zgjidh nga 3, 4, 5, 6)",
    "cs": "parametr --players: neplatná volba: 9 (vyberte z 3, 4, 5, 6)",
}


@pytest.mark.parametrize("lang", sorted(CHOICE))
def test_a_wrong_choice_is_explained_in_the_readers_language(lang: str) -> None:
    run = run_main("--lang", lang, "simulate", "--players", "9")
    assert run.returncode == 2
    assert run.stderr.rstrip().endswith(CHOICE[lang]), run.stderr
    assert "Traceback" not in run.stderr


def test_an_unknown_option_and_a_bad_number_too() -> None:
    real = p2pclue("--lang", "cs", "simulate", "--bogus")  # a real process, its exit status
    assert real.returncode == 2 and "nerozpoznané parametry: --bogus" in real.stderr, real.stderr
    assert "Traceback" not in real.stderr
    run = run_main("--lang", "it", "simulate", "--seed", "x")
    assert run.returncode == 2
    assert "argomento --seed: valore int non valido: 'x'" in run.stderr, run.stderr


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
def test_every_argparse_error_is_translated_with_its_placeholders(lang: str) -> None:
    try:
        install(lang)
        for msgid in ARGPARSE_ERRORS:
            text = _(msgid)
            assert text != msgid, (lang, msgid)
            for field in ("%(argument_name)s", "%(message)s", "%(value)r", "%(choices)s",
                          "%(type)s", "%(option)s", "%(matches)s", "%s", "%r"):
                assert text.count(field) == msgid.count(field), (lang, msgid, text)
    finally:
        install("en")
