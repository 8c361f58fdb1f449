"""Resolve a git merge whose translation catalogs conflict (maintainers only: Babel and git).

Two branches that each add a few messages conflict in every ``.po``, every ``.mo`` and the
template, though nothing really clashes: each side only added or retranslated entries. After
resolving the conflicts in the code, run

    python -m tools.catalog_merge

in the worktree. It keeps this branch's catalogs (git's stage 2, "ours"), extracts the
messages of the merged source again (``catalogs update``), gives every message left empty or
fuzzy the other branch's translation where it has one (stage 3, "theirs"), compiles, and
prints what is still missing. Then read the entries it took from the other side, fix what
needs fixing, ``git add`` the catalogs and commit.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from p2pclue.i18n.languages import LANGUAGES
from tools.catalogs import (
    PACKAGE_DIR,
    TEMPLATE,
    _write_po,
    compile_all,
    po_path,
    problems,
    read_catalog,
    update,
)

OURS, THEIRS = 2, 3
"""git's index stages of a conflicted file."""


def staged(path: Path, stage: int) -> bytes | None:
    """The file as one side of the merge has it, or None where that side has none."""
    rel = path.relative_to(PACKAGE_DIR.parent).as_posix()
    out = subprocess.run(["git", "show", f":{stage}:{rel}"], capture_output=True,
                         cwd=PACKAGE_DIR.parent, check=False)
    return out.stdout if out.returncode == 0 else None


def _key(message: Message) -> tuple[object, object]:
    ident = message.id
    return (tuple(ident) if isinstance(ident, list | tuple) else ident, message.context)


def _unfinished(string: object) -> bool:
    return not string or (isinstance(string, list | tuple) and not all(string))


def fill(lang: str, theirs: Catalog) -> list[str]:
    """Give the other side's translation to every entry of ``lang`` this side left unfinished."""
    known = {_key(m): m for m in theirs if m.id and not m.fuzzy and not _unfinished(m.string)}
    catalog = read_catalog(po_path(lang), lang)
    taken = []
    for message in catalog:
        if not message.id or not (message.fuzzy or _unfinished(message.string)):
            continue
        other = known.get(_key(message))
        if other is not None:
            message.string = other.string
            message.flags.discard("fuzzy")
            message.previous_id = []
            taken.append(f"{lang}: {message.id!r} => {message.string!r}")
    _write_po(catalog, po_path(lang))
    return taken


def resolve() -> tuple[list[str], list[str]]:
    """(entries taken from the other side, problems left); see the module docstring."""
    theirs: dict[str, Catalog] = {}
    for lang in sorted(LANGUAGES):
        ours, other = staged(po_path(lang), OURS), staged(po_path(lang), THEIRS)
        if ours is not None:
            po_path(lang).write_bytes(ours)
        if other is not None:
            theirs[lang] = read_po(io.BytesIO(other), locale=lang)
    template = staged(TEMPLATE, OURS)
    if template is not None:
        TEMPLATE.write_bytes(template)
    update()
    taken = [line for lang, other in sorted(theirs.items()) for line in fill(lang, other)]
    compile_all()
    return taken, problems()


def main() -> int:
    taken, left = resolve()
    for line in taken:
        print(f"from the other side: {line}")
    for line in left:
        print(line)
    print(f"{len(taken)} translation(s) taken from the other side; {len(left)} problem(s) left")
    return 1 if left else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
