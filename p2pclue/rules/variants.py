"""Rule variants and the presets that bundle them (rules.md "Presets").

All peers must agree on one ``Rules`` value before the deal, so it has a
strict, canonical wire form: every field, plain types, nothing else accepted.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from p2pclue.rules.errors import SetupError, WireError


@dataclass(frozen=True, slots=True)
class Rules:
    """One field per variant; the defaults are the ``classic`` preset (texts A and B)."""

    deal_equal: bool = False
    """R7 DEAL-EQUAL: equal hands, leftover cards shown to all (else DEAL-ALL)."""
    tokens_played_only: bool = False
    """R8 TOKENS-PLAYED: only played suspects have a token (else TOKENS-ALL)."""
    weapons_random: bool = True
    """R9 WEAPONS-RANDOM: placement is an input (else WEAPONS-FIXED, text C's table)."""
    first_white: bool = False
    """R10 FIRST-WHITE: Mrs White's player starts (else FIRST-SCARLETT)."""
    two_dice: bool = False
    """R12 TWO-DICE (else ONE-DIE)."""
    revisit_ok: bool = False
    """R14 REVISIT-OK: squares may be re-entered within a turn (else NO-REVISIT)."""
    enter_exact: bool = False
    """R16 ENTER-EXACT: the whole roll must be used to enter a room (else ENTER-ANY)."""
    weapon_swap: bool = False
    """R20 WEAPON-SWAP: a weapon already in the room swaps places (else WEAPON-MOVE)."""
    summon_restricted: bool = False
    """R22 text C: no summoned suggestion where the player already suggested before."""
    reenter_other_door: bool = False
    """R23 REENTER-OTHER-DOOR (else: leave and re-enter on a later turn suffices)."""
    must_leave: bool = False
    """R24 text C: a turn begun by rolling in a room must leave it if it can."""
    last_standing_wins: bool = True
    """R29 text B: when all others accused wrongly the last player wins at once."""

    def override(self, **changes: bool) -> Rules:
        """These rules with some variants changed; unknown names or non-bools are errors."""
        return self.with_overrides(changes)

    def with_overrides(self, changes: Mapping[str, object]) -> Rules:
        names = {f.name for f in dataclasses.fields(self)}
        for key, value in changes.items():
            if key not in names:
                raise SetupError("PRESETS", f"unknown rule variant {key!r}")
            if not isinstance(value, bool):
                raise SetupError("PRESETS", f"variant {key!r} must be true or false, not {value!r}")
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def to_wire(self) -> dict[str, bool]:
        return {f.name: bool(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_wire(cls, obj: object) -> Rules:
        """Strict decoding: exactly the known keys, each a bool."""
        if not isinstance(obj, dict):
            raise WireError(f"rules must be a map, not {type(obj).__name__}")
        names = [f.name for f in dataclasses.fields(cls)]
        extra = sorted(str(k) for k in obj if k not in names)
        missing = [n for n in names if n not in obj]
        if extra or missing:
            raise WireError(f"rules keys wrong: unknown {extra}, missing {missing}")
        values: dict[str, Any] = {}
        for n in names:
            if not isinstance(obj[n], bool):
                raise WireError(f"rules.{n} must be a bool, not {obj[n]!r}")
            values[n] = obj[n]
        return cls(**values)

    def name(self) -> str:
        """The preset this equals, or ``"custom"``."""
        for key, rules in PRESETS.items():
            if rules == self:
                return key
        return "custom"


CLASSIC = Rules()
CZ = Rules(
    deal_equal=True,
    weapons_random=False,
    first_white=True,
    revisit_ok=True,
    enter_exact=True,
    weapon_swap=True,
    summon_restricted=True,
    reenter_other_door=True,
    must_leave=True,
    last_standing_wins=False,
)
PRESETS: dict[str, Rules] = {"classic": CLASSIC, "cz": CZ}


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise SetupError("PRESETS", f"unknown rule preset {name!r} (known: classic, cz)") from None
