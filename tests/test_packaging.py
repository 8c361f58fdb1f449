"""What a plain install needs, and the versions CI installs.

A player's ``pip install .`` gets the runtime dependencies only: the maintainers' catalog
tools (Babel) and the test tools stay in the ``test`` extra, and no module of the package
imports them. ``constraints.txt`` pins one exact, tested version of every dependency, inside
the ranges ``pyproject.toml`` accepts, and every install command of the README uses it.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
MAINTAINER_ONLY = {"babel", "ruff", "mypy", "pytest", "hypothesis", "pyte"}


def _project() -> dict[str, object]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert isinstance(project, dict)
    return project


def _requirements(extra: str | None = None) -> list[Requirement]:
    project = _project()
    if extra is None:
        listed = project["dependencies"]
    else:
        extras = project["optional-dependencies"]
        assert isinstance(extras, dict)
        listed = extras[extra]
    assert isinstance(listed, list)
    return [Requirement(str(line)) for line in listed]


def _pins() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        assert sep and version, f"not an exact pin: {line!r}"
        pins[canonicalize_name(name)] = Version(version)
    return pins


def test_a_plain_install_needs_no_maintainer_or_test_tool() -> None:
    runtime = {canonicalize_name(r.name) for r in _requirements()}
    assert runtime and not runtime & MAINTAINER_ONLY
    assert {canonicalize_name(r.name) for r in _requirements("test")} >= MAINTAINER_ONLY


def test_no_module_of_the_package_imports_the_catalog_tools_or_babel() -> None:
    found = []
    for path in sorted((ROOT / "p2pclue").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.relative_to(ROOT)}: {n}" for n in names
                      if n.split(".")[0] in ("babel", "tools")]
    assert found == []


def test_every_dependency_is_pinned_inside_its_range() -> None:
    pins = _pins()
    for requirement in _requirements() + _requirements("test"):
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not pinned in constraints.txt"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"constraints.txt pins {name} {pins[name]}, outside {requirement.specifier}")


def test_msgpack_is_bounded_to_the_tested_releases() -> None:
    """Its packing is the canonical encoding: an untested release could change bytes."""
    msgpack = next(r for r in _requirements() if r.name == "msgpack")
    assert any(s.operator == "<" for s in msgpack.specifier)
    assert msgpack.specifier.contains(_pins()["msgpack"])


def test_every_install_command_uses_the_constraints() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    installs = re.findall(r"^python3 -m venv \.venv && \.venv/bin/pip install [^&\n]*",
                          readme + "\n" + ci, re.MULTILINE)
    assert len(installs) == 3, installs  # the README's two commands, and .ci/run
    for command in installs:
        assert "-c constraints.txt" in command, command
