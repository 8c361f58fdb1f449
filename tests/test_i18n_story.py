"""The same game told in every language: same events, same order; machine output unchanged.

Real processes (`python -m p2pclue ... --lang X`), run side by side. Each story line is
reduced to a language-free skeleton: its indentation, the cards it names (found through
that language's card names and story forms), its numbers and the players it names.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pclue.i18n import LANGUAGES, local_names, text_width

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "protocol" / "samples" / "classic-3p.p2pclue"
LANGS = sorted(LANGUAGES)
TIMEOUT = 240


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    env["PYTHONPATH"] = str(ROOT)
    env["NO_COLOR"] = "1"
    return env


def _run_all(argvs: dict[str, list[str]]) -> dict[str, subprocess.CompletedProcess[str]]:
    """Run the commands side by side; every process is waited for or killed."""
    procs: dict[str, subprocess.Popen[str]] = {}
    try:
        for key, argv in argvs.items():
            procs[key] = subprocess.Popen(
                [sys.executable, "-m", "p2pclue", *argv], stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", env=_env(), cwd=ROOT)
        done = {}
        for key, proc in procs.items():
            out, err = proc.communicate(timeout=TIMEOUT)
            done[key] = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
        return done
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def _card_pattern(lang: str) -> tuple[re.Pattern[str], dict[str, int]]:
    phrases: dict[str, int] = {}
    for n in local_names(lang):
        for text in (n.name, *n.forms.values()):
            assert phrases.setdefault(text, n.index) == n.index, text
    alternatives = sorted(phrases, key=len, reverse=True)
    # whole words only: a form such as Czech "hala" must not match inside "spáchala"
    words = "|".join(re.escape(a) for a in alternatives)
    return re.compile(rf"(?<!\w)(?:{words})(?!\w)"), phrases


def skeleton(lang: str, text: str, players: list[str]) -> list[tuple[object, ...]]:
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
def test_audit_json_never_changes_with_the_language(where: str) -> None:
    runs = {}
    for lang in LANGS:
        env = _env()
        argv = [sys.executable, "-m", "p2pclue", "audit", str(SAMPLE), "--json"]
        if where == "env":
            env["LANG"] = f"{lang}_XX.UTF-8"
        else:
            argv += ["--lang", lang]
        runs[lang] = subprocess.run(argv, capture_output=True, text=True, env=env,
                                    timeout=TIMEOUT, check=False, cwd=ROOT)
    assert {r.returncode for r in runs.values()} == {0}
    assert len({r.stdout for r in runs.values()}) == 1


def test_unknown_language_says_so_and_uses_english() -> None:
    r = subprocess.run([sys.executable, "-m", "p2pclue", "--lang", "tlh", "audit", str(SAMPLE)],
                       capture_output=True, text=True, env=_env(), timeout=TIMEOUT, check=False,
                       cwd=ROOT)
    assert r.returncode == 0
    assert "no translation for --lang 'tlh'" in r.stderr
    assert "VALID" in r.stdout


def test_errors_and_help_are_translated() -> None:
    r = subprocess.run([sys.executable, "-m", "p2pclue", "audit", "/nonexistent/x", "--lang",
                        "fr"], capture_output=True, text=True, env=_env(), timeout=TIMEOUT,
                       check=False, cwd=ROOT)
    assert r.returncode == 2 and "impossible de lire" in r.stderr
    h = subprocess.run([sys.executable, "-m", "p2pclue", "--lang", "it", "simulate", "--help"],
                       capture_output=True, text=True, env=_env(), timeout=TIMEOUT, check=False,
                       cwd=ROOT)
    assert h.returncode == 0 and "riprodurre una partita" in h.stdout


@pytest.mark.parametrize("lang", ["ko", "cs"])
def test_help_is_wrapped_by_columns(lang: str) -> None:
    env = _env() | {"COLUMNS": "80"}
    for argv in (["--help"], ["simulate", "--help"], ["audit", "--help"]):
        r = subprocess.run([sys.executable, "-m", "p2pclue", "--lang", lang, *argv],
                           capture_output=True, text=True, env=env, timeout=TIMEOUT, check=False,
                           cwd=ROOT)
        assert r.returncode == 0, r.stderr
        wide = [ln for ln in r.stdout.splitlines() if text_width(ln) > 80]
        assert wide == [], wide
        assert r.stdout.startswith({"ko": "사용법: ", "cs": "použití: "}[lang])


def test_usage_errors_in_the_language() -> None:
    r = subprocess.run([sys.executable, "-m", "p2pclue", "simulate", "--players", "9", "--lang",
                        "cs"], capture_output=True, text=True, env=_env(), timeout=TIMEOUT,
                       check=False, cwd=ROOT)
    assert r.returncode == 2
    assert r.stderr.startswith("použití: p2pclue simulate")
    assert "p2pclue simulate: chyba: parametr --players: neplatná volba: 9" in r.stderr
