"""Option values checked as argparse reads them: a bad one is argparse's own error (exit 2,
"argument --wait: ..."), never a traceback nor a value that means something else."""

from __future__ import annotations

import argparse
import math

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


def peer(text: str) -> str:
    """``HOST:PORT`` that can be dialled (``parse_peer``); kept as typed."""
    from p2pclue.net.play import parse_peer  # the network stack, only once --peer is given

    try:
        parse_peer(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text
