"""A list pick for a suggestion or an accusation: which list, how far, where the cursor is."""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pclue.i18n import _
from p2pclue.rules.cards import ROOMS, SUSPECTS, WEAPONS


@dataclass
class Picker:
    """A list pick for a suggestion or an accusation."""

    purpose: str
    """"suggest" or "accuse"."""
    room: int | None
    """The room a suggestion is made in (implied by the rules)."""
    chosen: list[int] = field(default_factory=list)
    cursor: int = 0

    @property
    def options(self) -> tuple[int, ...]:
        step = len(self.chosen)
        pools = (SUSPECTS, WEAPONS, ROOMS)
        return tuple(c.index for c in pools[step])

    @property
    def title(self) -> str:
        titles = ((_("Suggest: pick the suspect"), _("Suggest: pick the weapon"),
                   _("Suggest: pick the room")) if self.purpose == "suggest"
                  else (_("Accuse: pick the suspect"), _("Accuse: pick the weapon"),
                        _("Accuse: pick the room")))
        return titles[len(self.chosen)]

    @property
    def steps(self) -> int:
        return 2 if self.purpose == "suggest" else 3
