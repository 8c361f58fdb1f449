"""Option values checked as argparse reads them: a bad one is argparse's own error (exit 2,
"argument --wait: ..."), never a traceback nor a value that means something else."""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

from p2pclue.i18n import _

MAX_WAIT = 86_400.0
"""A day: longer is a typo, not a wait."""


def seconds(text: str) -> float:
    """A finite number of seconds from 0 to ``MAX_WAIT`` (``nan`` would wait forever)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= MAX_WAIT):
        raise argparse.ArgumentTypeError(
            _("{value} is not a number of seconds from 0 to {most}").format(
                value=repr(text), most=f"{MAX_WAIT:g}"))
    return value


def new_file(text: str) -> Path:
    """A path to create a file at, as typed: ``Path`` would read "" as "." and drop a
    trailing separator, writing a file where a folder was meant."""
    if not text:
        raise argparse.ArgumentTypeError(_("the path is empty: name a file"))
    if text.endswith(tuple(sep for sep in (os.sep, os.altsep) if sep)):
        raise argparse.ArgumentTypeError(
            _("{path} ends with a separator: name a file, not a folder").format(
                path=repr(text)))
    return Path(text)


def peer(text: str) -> str:
    """``HOST:PORT`` that can be dialled (``parse_peer``); kept as typed."""
    from p2pclue.net.play import parse_peer  # the network stack, only once --peer is given

    try:
        parse_peer(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text
