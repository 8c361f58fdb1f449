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


@pytest.mark.parametrize("name", SANS_IO_NET)
def test_net_protocol_cores_are_sans_io(name: str) -> None:
    bad = {n for n in imports(PACKAGE / "net" / name) if n.split(".")[0] in IO_MODULES}
    assert not bad, f"net/{name} imports {sorted(bad)}"


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
