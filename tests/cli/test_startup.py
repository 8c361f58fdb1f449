"""A ``p2pclue`` process loads only what its subcommand needs.

Every command is a new Python process (and so is every player of a LAN table): the
terminal UI, the network and the cryptography are loaded by the subcommands that use
them, never to print a help text. Checked on the modules a real process holds when it
exits (``sys.modules``: ``python -X importtime`` does not list a module loaded through
``importlib.import_module``, as ``p2pclue.i18n`` and the bench load theirs), never on time,
which load changes; the CPU figure itself is ``p2pclue bench --only startup`` (goal:
``audit --help`` under 0.3 s).
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from p2pclue.cli import build_parser, main
from tests.cli.helpers import ROOT, TIMEOUT, cli_env

HEAVY = ("prompt_toolkit", "zeroconf", "asyncio", "nacl", "cryptography", "spake2", "noise",
         "p2pclue.net", "p2pclue.tui", "p2pclue.engine", "p2pclue.crypto", "p2pclue.bots",
         "p2pclue.deduce", "babel", "tools")
"""What no help text needs: the UI, the network, the protocol engine and its proofs."""
NEVER_FOR_AN_AUDIT = ("prompt_toolkit", "zeroconf", "asyncio", "spake2", "noise",
                      "p2pclue.net", "p2pclue.tui", "p2pclue.bots", "p2pclue.deduce",
                      "p2pclue.bench.")
"""``audit FILE`` checks a file: no terminal UI, no network, no bots."""
SAMPLE = ROOT / "protocol" / "samples" / "classic-3p.p2pclue"


MODULES = "modules loaded: "
RUN_AND_LIST = (
    "import runpy, sys\n"
    "try:\n"
    "    runpy.run_module('p2pclue', run_name='__main__', alter_sys=True)\n"
    "finally:\n"
    f"    print({MODULES!r} + ' '.join(sorted(sys.modules)), file=sys.stderr)\n"
)
"""``python -m p2pclue ARGS``, then the modules the process holds, whatever its exit."""


def imported(*args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run ``p2pclue ARGS`` in a new process; the names of every module it imported."""
    done = subprocess.run([sys.executable, "-c", RUN_AND_LIST, *args], capture_output=True,
                          text=True, env=cli_env(LANG=None, LC_ALL=None, LC_MESSAGES=None),
                          timeout=TIMEOUT, cwd=ROOT)
    listed = [line for line in done.stderr.splitlines() if line.startswith(MODULES)]
    assert len(listed) == 1, done.stderr[-2000:]
    return done, set(listed[0][len(MODULES):].split())


def loaded(names: set[str], prefixes: tuple[str, ...]) -> list[str]:
    """The modules of ``names`` under any of ``prefixes`` (``a.b.``: its submodules only)."""
    def under(name: str, prefix: str) -> bool:
        if prefix.endswith("."):
            return name.startswith(prefix)
        return name == prefix or name.startswith(prefix + ".")

    return sorted(n for n in names if any(under(n, p) for p in prefixes))


@pytest.mark.parametrize("args", [("--help",), ("audit", "--help"), ("bench", "--help")],
                         ids=" ".join)
def test_a_help_text_loads_no_engine_no_network_and_no_ui(args: tuple[str, ...]) -> None:
    done, names = imported(*args)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage: p2pclue" in done.stdout
    assert {"p2pclue.cli", "p2pclue.i18n.options", "argparse"} <= names  # the listing works
    assert loaded(names, HEAVY) == []


def test_a_subcommand_help_loads_only_its_own_parser() -> None:
    done, names = imported("audit", "--help")
    assert done.returncode == 0 and "transcript" in done.stdout
    assert "p2pclue.cli.audit_options" in names
    assert loaded(names, ("p2pclue.cli.audit", "p2pclue.cli.simulate", "p2pclue.cli.join",
                          "p2pclue.cli.human", "p2pclue.cli.narrate",
                          "p2pclue.bench.")) == []


def test_an_audit_loads_the_engine_but_no_network_and_no_ui() -> None:
    done, names = imported("audit", str(SAMPLE))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "VALID" in done.stdout
    assert {"p2pclue.cli.audit", "p2pclue.engine.audit", "nacl"} <= names
    assert loaded(names, NEVER_FOR_AN_AUDIT) == []


def test_a_bad_option_of_join_is_refused_without_opening_anything() -> None:
    """``join --wait x`` is argparse's error; the network is not loaded to say so."""
    done, names = imported("join", "--wait", "x")
    assert done.returncode == 2 and "argument --wait" in done.stderr
    assert loaded(names, ("prompt_toolkit", "zeroconf", "asyncio", "p2pclue.tui",
                          "p2pclue.net.play", "p2pclue.net.session")) == []


@pytest.mark.parametrize("command", ["join", "watch", "simulate", "audit", "bench"])
def test_the_help_built_on_demand_is_the_whole_parsers_help(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``main`` adds a subcommand's arguments only once it is chosen; its help is the help
    of the parser built whole (the language option last, every argument in its place)."""
    whole = build_parser()
    subparsers = next(a for a in whole._actions if isinstance(a, argparse._SubParsersAction))
    expected = subparsers.choices[command].format_help()
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == expected
    assert "--lang CODE" in expected


def test_a_lazy_parser_lists_every_subcommand_and_fills_only_the_chosen_one() -> None:
    parser = build_parser(complete=False)
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(subparsers.choices) == {"join", "watch", "simulate", "audit", "bench"}
    assert all(len(p._actions) == 1 for p in subparsers.choices.values())  # only -h so far
    args = parser.parse_args(["bench", "--only", "crypto", "--only", "game", "audit"])
    assert args.only == ["crypto", "game", "audit"]
    filled = {name for name, p in subparsers.choices.items() if len(p._actions) > 1}
    assert filled == {"bench"}
