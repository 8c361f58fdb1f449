"""The same game told in every language: same events, same order; machine output unchanged.

The commands run through their entry point in this process (``tests.commands``); two of
them run as real processes (``python -m p2pclue``), where the language comes from a
process's own command line and the interpreter's exit status carries the error. Each story
line is reduced to a language-free skeleton: its indentation, the cards it names (found
through that language's card names and story forms), its numbers and the players it names.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pclue.i18n import LANGUAGES, local_names, text_width
from tests.commands import as_process, in_process

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "protocol" / "samples" / "classic-3p.p2pclue"
LANGS = sorted(LANGUAGES)


@pytest.fixture(autouse=True)
def _no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stories are compared as plain text (a captured stream is not a terminal either)."""
    monkeypatch.setenv("NO_COLOR", "1")


def _env() -> dict[str, str]:
    """A real process's environment: the language only from its command line."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    env["NO_COLOR"] = "1"
    return env


def _run_all(argvs: dict[str, list[str]]) -> dict[str, subprocess.CompletedProcess[str]]:
    """Each command in this process, one after the other."""
    return {key: in_process(*argv) for key, argv in argvs.items()}


def _card_pattern(lang: str) -> tuple[re.Pattern[str], dict[str, int]]:
    phrases: dict[str, int] = {}
    for n in local_names(lang):
        for text in (n.name, *n.forms.values()):
            assert phrases.setdefault(text, n.index) == n.index, text
    alternatives = sorted(phrases, key=len, reverse=True)
    # whole words only: a form such as Czech "hala" must not match inside "spáchala"
    words = "|".join(re.escape(a) for a in alternatives)
    return re.compile(rf"(?<!\w)(?:{words})(?!\w)"), phrases


Skeleton = list[tuple[int, tuple[int, ...], tuple[int, ...], tuple[str, ...]]]
"""Per story line: indentation, cards, numbers, players."""


def skeleton(lang: str, text: str, players: list[str]) -> Skeleton:
    pattern, phrases = _card_pattern(lang)
    names = re.compile("|".join(re.escape(p) for p in sorted(players, key=len, reverse=True)))
    out = []
    for line in text.splitlines():
        cards = sorted(phrases[m.group(0)] for m in pattern.finditer(line))
        rest = pattern.sub(" ", line)
        who = sorted(m.group(0) for m in names.finditer(rest))
        numbers = sorted(int(n) for n in re.findall(r"\d+", names.sub(" ", rest)))
        out.append((len(line) - len(line.lstrip(" ")), tuple(cards), tuple(numbers), tuple(who)))
    return out


def _players(story: str) -> list[str]:
    return ["Ada", "Bruno", "Chiara", "Dmitri", "Emma", "Farid"]


def _same_story(results: dict[str, subprocess.CompletedProcess[str]]) -> Iterator[str]:
    english = skeleton("en", results["en"].stdout, _players(results["en"].stdout))
    assert len(english) > 30
    for lang in LANGS:
        story = results[lang].stdout
        yield lang
        assert skeleton(lang, story, _players(story)) == english, lang


def test_simulate_tells_the_same_game_in_every_language(tmp_path: Path) -> None:
    runs = _run_all({lang: ["--lang", lang, "simulate", "--players", "3", "--seed", "7",
                            "--json", "--transcript", str(tmp_path / f"{lang}.p2pclue")]
                     for lang in LANGS})
    for lang, r in runs.items():
        assert r.returncode == 0, (lang, r.stderr)
    verdicts = {lang: r.stdout.splitlines()[-1] for lang, r in runs.items()}
    assert len(set(verdicts.values())) == 1, "--json output changed with the language"
    assert json.loads(verdicts["en"])["result"] == "won"
    transcripts = {(tmp_path / f"{lang}.p2pclue").read_bytes() for lang in LANGS}
    assert len(transcripts) == 1, "the transcript changed with the language"
    stories = {lang: subprocess.CompletedProcess(r.args, 0, "\n".join(r.stdout.splitlines()[:-1]),
                                                 "") for lang, r in runs.items()}
    assert sorted(_same_story(stories)) == LANGS
    assert "Tah 1:" in stories["cs"].stdout and "1턴:" in stories["ko"].stdout
    assert stories["cs"].stdout != stories["en"].stdout


def test_audit_replay_tells_the_same_game_in_every_language() -> None:
    runs = _run_all({lang: ["audit", str(SAMPLE), "--replay", "--lang", lang] for lang in LANGS})
    for lang, r in runs.items():
        assert r.returncode == 0, (lang, r.stderr)
    assert sorted(_same_story(runs)) == LANGS
    assert "PLATNÉ" in runs["cs"].stdout and "유효" in runs["ko"].stdout


@pytest.mark.parametrize("where", ["env", "flag"])
def test_audit_json_never_changes_with_the_language(where: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    runs = {}
    for lang in LANGS:
        argv = ["audit", str(SAMPLE), "--json"]
        if where == "env":
            monkeypatch.setenv("LANG", f"{lang}_XX.UTF-8")
        else:
            argv += ["--lang", lang]
        runs[lang] = in_process(*argv)
    assert {r.returncode for r in runs.values()} == {0}
    assert len({r.stdout for r in runs.values()}) == 1


def test_unknown_language_says_so_and_uses_english() -> None:
    """A real process: the notice on its standard error, English on its standard output."""
    r = as_process("--lang", "tlh", "audit", str(SAMPLE), env=_env())
    assert r.returncode == 0
    assert "no translation for --lang 'tlh'" in r.stderr
    assert "VALID" in r.stdout


def test_errors_and_help_are_translated(tmp_path: Path) -> None:
    r = in_process("audit", str(tmp_path / "missing.p2pclue"), "--lang", "fr")
    assert r.returncode == 2 and "impossible de lire" in r.stderr
    h = in_process("--lang", "it", "simulate", "--help")
    assert h.returncode == 0 and "riprodurre una partita" in h.stdout


@pytest.mark.parametrize("lang", ["ko", "cs"])
def test_help_is_wrapped_by_columns(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    for argv in (["--help"], ["simulate", "--help"], ["audit", "--help"]):
        r = in_process("--lang", lang, *argv)
        assert r.returncode == 0, r.stderr
        wide = [ln for ln in r.stdout.splitlines() if text_width(ln) > 80]
        assert wide == [], wide
        assert r.stdout.startswith({"ko": "사용법: ", "cs": "použití: "}[lang])


def test_usage_errors_in_the_language() -> None:
    """A real process: argparse's exit status 2 is the interpreter's."""
    r = as_process("simulate", "--players", "9", "--lang", "cs", env=_env())
    assert r.returncode == 2
    assert r.stderr.startswith("použití: p2pclue simulate")
    assert "p2pclue simulate: chyba: parametr --players: neplatná volba: 9" in r.stderr
