"""The architecture stays visible: imports flow one way, and only the outer layers
touch sockets, terminals and clocks."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "p2pclue"
ORDER = ["rules", "crypto", "engine", "deduce", "bots", "i18n", "net", "tui", "bench", "cli"]
"""A package may import those before it, never those after (deduce and bots may share)."""
ALLOWED_EXTRA = {("deduce", "bots"), ("bots", "deduce")}
IO_MODULES = {"socket", "time", "asyncio", "select", "threading", "prompt_toolkit", "zeroconf",
              "datetime"}
PURE = {"rules", "crypto", "engine", "deduce", "bots"}
NO_SOCKETS = {"socket", "select", "selectors", "zeroconf", "ssl", "http", "urllib"}
"""What the terminal UI must never touch: it drives a session, the session owns the links."""


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def relative(value: object) -> str:
    """A test id: a module as its path from the repository root, never the checkout's path."""
    if isinstance(value, Path):
        return value.relative_to(PACKAGE.parent).as_posix()
    return str(value)


def layer_files() -> list[tuple[str, Path]]:
    return [(layer, f) for layer in ORDER for f in sorted((PACKAGE / layer).rglob("*.py"))]


@pytest.mark.parametrize(("layer", "path"), layer_files(), ids=relative)
def test_imports_flow_one_way(layer: str, path: Path) -> None:
    mine = ORDER.index(layer)
    for name in imports(path):
        parts = name.split(".")
        if parts[0] != "p2pclue" or len(parts) < 2 or parts[1] not in ORDER:
            continue
        other = parts[1]
        if (layer, other) in ALLOWED_EXTRA:
            continue
        assert ORDER.index(other) <= mine, f"{path.name} ({layer}) imports {name}"


@pytest.mark.parametrize(("layer", "path"), [lf for lf in layer_files() if lf[0] in PURE],
                         ids=relative)
def test_inner_layers_have_no_io_or_clock(layer: str, path: Path) -> None:
    bad = {name for name in imports(path) if name.split(".")[0] in IO_MODULES}
    assert not bad, f"{path} imports {sorted(bad)}"


SANS_IO_NET = ["framing.py", "pairing.py", "lobby.py"]
"""The transport's protocol cores: bytes in, bytes out, so they are tested without sockets."""
SANS_IO_SESSION = ["core.py", "actions.py", "redial.py", "junk.py", "guesses.py", "meta.py",
                   "memory.py", "api.py", "view.py", "ads.py", "transport.py"]
"""The session core and what it is made of, and the in-memory table that drives it in tests:
no event loop, socket, clock, thread or file (a driver does all of that)."""
FILE_IO_MODULES = {"os", "pathlib", "io", "shutil", "tempfile", "random", "secrets",
                   "subprocess", "signal", "logging"}
"""Beyond ``IO_MODULES``: files, processes, the OS and randomness a sans-IO core never
touches (its randomness is injected)."""
FILE_IO_CALLS = {"open", "print", "input"}


def runtime_imports(path: Path) -> set[str]:
    """``imports``, without those under ``if TYPE_CHECKING:`` (names for the type checker,
    never imported when the program runs)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            node.body = []
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)  # and ``from p2pclue.net import links`` as the module
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


@pytest.mark.parametrize("name", SANS_IO_NET)
def test_net_protocol_cores_are_sans_io(name: str) -> None:
    bad = {n for n in imports(PACKAGE / "net" / name) if n.split(".")[0] in IO_MODULES}
    assert not bad, f"net/{name} imports {sorted(bad)}"


@pytest.mark.parametrize("name", SANS_IO_SESSION)
def test_the_session_core_is_sans_io(name: str) -> None:
    path = PACKAGE / "net" / name
    bad = {n for n in runtime_imports(path)
           if n.split(".")[0] in IO_MODULES | FILE_IO_MODULES}
    assert not bad, f"net/{name} imports {sorted(bad)}"
    assert not file_calls(path), f"net/{name} calls {sorted(file_calls(path))}"


def file_calls(path: Path) -> set[str]:
    """The built-in file and terminal calls a module makes (``open``, ``print``...)."""
    calls = {node.func.id for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    return calls & FILE_IO_CALLS


def test_the_session_core_reaches_no_driver() -> None:
    """The core decides and the drivers execute: the core imports none of them."""
    drivers = {"p2pclue.net.session", "p2pclue.net.mesh", "p2pclue.net.links",
               "p2pclue.net.lanes", "p2pclue.net.store", "p2pclue.net.gamedir",
               "p2pclue.net.discovery", "p2pclue.net.play", "p2pclue.net.table"}
    for name in SANS_IO_SESSION:
        reached = runtime_imports(PACKAGE / "net" / name) & drivers
        assert not reached, f"net/{name} imports {sorted(reached)}"


SEAM_USERS = ["table.py", "session.py", "core.py", "lobby.py", "mesh.py", "memory.py"]
"""What runs a table: it reaches links and discovery only through ``net.transport`` (the
mesh builds the TCP transport when none is given, and nothing more of it)."""
TRANSPORT_IMPLEMENTATIONS = {"p2pclue.net.pairing", "p2pclue.net.discovery", "zeroconf",
                             "p2pclue.net.memlinks"}


@pytest.mark.parametrize("name", SEAM_USERS)
def test_the_table_reaches_links_and_discovery_only_through_the_seam(name: str) -> None:
    found = runtime_imports(PACKAGE / "net" / name)
    reached = {n for n in found if n in TRANSPORT_IMPLEMENTATIONS or n.startswith("zeroconf")}
    if name != "mesh.py":
        reached |= found & {"p2pclue.net.links"}
    assert not reached, f"net/{name} imports {sorted(reached)}"


def test_the_sans_io_check_catches_an_import_and_a_file_call(tmp_path: Path) -> None:
    """The check above can fail: a module that opens a file or reads the clock is caught."""
    bad = tmp_path / "bad.py"
    bad.write_text("import time\nfrom typing import TYPE_CHECKING\n"
                   "from p2pclue.net import links\n"
                   "if TYPE_CHECKING:\n    import asyncio\nopen('x')\n", encoding="utf-8")
    assert runtime_imports(bad) == {"time", "typing", "typing.TYPE_CHECKING", "p2pclue.net",
                                    "p2pclue.net.links"}
    assert file_calls(bad) == {"open"}


NET_MAX_LINES = 800


@pytest.mark.parametrize("path", sorted((PACKAGE / "net").glob("*.py")), ids=lambda p: p.name)
def test_no_net_module_is_over_800_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= NET_MAX_LINES, f"net/{path.name} has {lines} lines"


@pytest.mark.parametrize("path", [f for layer, f in layer_files() if layer == "tui"],
                         ids=relative)
def test_tui_uses_prompt_toolkit_never_sockets(path: Path) -> None:
    """tui/ may use prompt_toolkit, asyncio and clocks; links belong to net/."""
    bad = {name for name in imports(path) if name.split(".")[0] in NO_SOCKETS}
    assert not bad, f"{path} imports {sorted(bad)}"
    allowed = {"p2pclue.net.api", "p2pclue.net.local"}
    if path.name == "lobby.py":  # the lobby screen draws the lobby's data and sends Pick/Ready
        allowed |= {"p2pclue.net.lobby", "p2pclue.net.table", "p2pclue.net.discovery",
                    "p2pclue.net.play"}
    net = {name for name in imports(path) if name.startswith("p2pclue.net.")
           and name not in allowed}
    assert not net, f"{path} reaches into the network runner: {sorted(net)}"


def test_tui_layer_is_checked() -> None:
    assert [f for layer, f in layer_files() if layer == "tui"], "tui/ has modules to check"
