"""No two p2pclue modules import each other, directly or round a longer circle.

Read from the source (AST), every import counts wherever it stands: at the top of the
module, under ``if TYPE_CHECKING:``, or inside a function. An import put off into a
function or behind TYPE_CHECKING still says that each module needs the other, which is
what a circle is (and what made ``tui.keys``/``tui.model`` and ``deduce.notepad``/
``explain``/``exposure`` one lump). One pattern is not a circle of that kind: a package's
``__init__`` loading its own submodules inside a function (a registry filled on demand,
as ``bench.sections()`` does so that ``p2pclue --help`` stays cheap), whose submodules
take shared names from the package; that edge is left out, and only that one.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_names(root: Path, package: str = "p2pclue") -> dict[str, Path]:
    """Every module of ``package`` under ``root`` by dotted name (a package by its own)."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The module an imported name lives in (the longest known prefix), if it is ours."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _imported(node: ast.Import | ast.ImportFrom, here: str, is_package: bool,
              modules: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = node.module or ""
    if node.level:  # relative: counted from the package this module is in
        parts = here.split(".") if is_package else here.split(".")[:-1]
        parts = parts[:len(parts) - (node.level - 1)]
        base = ".".join([*parts, base] if base else parts)
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]


def _deferred_own_submodule(here: str, is_package: bool, target: str, in_function: bool) -> bool:
    return is_package and in_function and target.startswith(here + ".")


def import_graph(root: Path, package: str = "p2pclue") -> dict[str, set[str]]:
    """Module -> the package modules it imports (anywhere in its source)."""
    modules = module_names(root, package)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for here, path in modules.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        functions = [n for n in ast.walk(tree)
                     if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
        nested = {id(inner) for f in functions for inner in ast.walk(f)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for name in _imported(node, here, is_package, modules):
                target = _resolve(name, modules)
                if target is None or target == here or _deferred_own_submodule(
                        here, is_package, target, id(node) in nested):
                    continue
                graph[here].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_no_module_of_p2pclue_imports_itself_round_a_circle() -> None:
    graph = import_graph(ROOT)
    assert len(graph) > 100, "the whole package was read"
    assert cycles(graph) == []


def _package(tmp: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp / "p2pclue" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp


def test_the_finder_sees_circles_behind_type_checking_and_in_functions(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                "    from p2pclue.b import B\n",
        "b.py": "from p2pclue import a\n",
        "c.py": "def f():\n    from p2pclue.d import x\n",
        "d.py": "from p2pclue.e import y\n",
        "e.py": "import p2pclue.c\n",
        "pkg/__init__.py": "from . import inner\n",
        "pkg/inner.py": "from p2pclue.pkg import thing\n",
        "ok.py": "import p2pclue.a\nimport os\n",
    })
    assert cycles(import_graph(root)) == [["p2pclue.a", "p2pclue.b"],
                                          ["p2pclue.c", "p2pclue.d", "p2pclue.e"],
                                          ["p2pclue.pkg", "p2pclue.pkg.inner"]]


def test_only_a_package_loading_its_own_parts_on_demand_is_left_out(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "reg/__init__.py": "Emit = int\ndef sections():\n    from p2pclue.reg import one\n",
        "reg/one.py": "from p2pclue.reg import Emit\n",
        "other/__init__.py": "def load():\n    from p2pclue.reg import one\n",
        "reg/two.py": "from p2pclue.other import load\n",
        "x.py": "def f():\n    from p2pclue.reg import two\n",
    })
    graph = import_graph(root)
    assert "p2pclue.reg.one" not in graph["p2pclue.reg"]
    assert graph["p2pclue.other"] == {"p2pclue.reg.one"}
    assert cycles(graph) == []
    (root / "p2pclue" / "reg" / "one.py").write_text("import p2pclue.x\n", encoding="utf-8")
    (root / "p2pclue" / "x.py").write_text("from p2pclue.reg import two\n", encoding="utf-8")
    (root / "p2pclue" / "reg" / "two.py").write_text("import p2pclue.reg.one\n",
                                                     encoding="utf-8")
    (root / "p2pclue" / "reg" / "__init__.py").write_text("import p2pclue.x\n",
                                                          encoding="utf-8")
    assert cycles(import_graph(root)) == [["p2pclue.reg.one", "p2pclue.reg.two", "p2pclue.x"]]
