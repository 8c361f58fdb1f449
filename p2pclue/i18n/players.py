"""Players as values of messages: a name, and what is said about it, in the reader's words.

A player reaches a message as one ``PlayerWord``: the name a person typed, and where it
matters the bot level, the seat and the suspect, kept apart until the sentence is made.
Each language orders them in its own pattern ("Bruno (medium bot, Colonel Mustard)",
catalog context "a player"), puts Korean 님 after the name and before the brackets
(``{player:님이}`` gives "Bruno 님(중급 봇)이", not "Bruno (중급 봇) 님이"), and never glues two
brackets ("Bruno (bot medio) (Colonnello Mustard)").

A bot's level travels in its signed name, in one fixed English form that no language
changes: "Bruno (medium bot)" (``roster_name``). Every reader's screen splits it back
(``split_name``) and says the level in the reader's own language ("Bruno 님(중급 봇)", "Bruno
(bot medio)"), so the signed game configuration keeps its format, an older peer simply
shows the name as it was signed, and a person who names themselves that way reads as such
a bot, as they chose.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from p2pclue.i18n.korean import FIXED, PAIRS, pronoun_with, with_particle
from p2pclue.i18n.phrases import card_word
from p2pclue.i18n.translate import pgettext

LEVELS = ("easy", "medium", "hard", "random")
"""The levels a bot's name can carry (``p2pclue.bots.registry``: detective plays as hard)."""
_ROSTER = re.compile(r"^(?P<name>.+) \((?P<level>easy|medium|hard|random) bot\)$")
HONORIFIC = "님"
"""A Korean spec on a player field that starts with this puts 님 after the name."""
PLAYER_FIELDS = frozenset({"player", "other", "refuter", "suggester", "silent", "culprit",
                           "cheater", "sender", "winner", "seat", "current", "expected"})
"""Message fields the code fills with a ``PlayerWord`` (``seat`` and ``current`` in the rules'
refusals): a translation may give them a Korean spec (``{player:님이}``)."""


def player_spec(spec: str | None) -> bool:
    """``spec`` is one a player field takes: 님 and what follows it, or a Korean particle."""
    return spec is not None and spec != "" and (spec.startswith(HONORIFIC) or spec in PAIRS
                                                or spec in FIXED)


def roster_name(name: str, level: str) -> str:
    """The name a bot signs into the roster: its name and level in the fixed form every
    reader splits back (never translated: the reader's screen translates the level)."""
    if level not in LEVELS:
        raise ValueError(f"no bot level {level!r}")
    return f"{name} ({level} bot)"


def bot_level(bot: str) -> str:
    """The level a bot of ``p2pclue.bots.registry`` plays at, as a signed name says it
    (``detective`` is another name for ``hard``)."""
    return {"detective": "hard"}.get(bot, bot)


def split_name(signed: str) -> tuple[str, str | None]:
    """A roster name as (the name, the bot level or None)."""
    found = _ROSTER.match(signed)
    if found is None:
        return signed, None
    return found.group("name"), found.group("level")


def level_word(level: str) -> str:
    """A bot level in the reader's language ("medium bot", "bot medio", "중급 봇")."""
    words = {
        # Translators: a bot that plays easily, said after its name: "Bruno (easy bot)".
        "easy": pgettext("bot level", "easy bot"),
        # Translators: a bot of medium strength, said after its name.
        "medium": pgettext("bot level", "medium bot"),
        # Translators: a bot that plays its best, said after its name.
        "hard": pgettext("bot level", "hard bot"),
        # Translators: a bot that plays any legal move, said after its name.
        "random": pgettext("bot level", "random bot"),
    }
    return words.get(level, level)


def _plain(text: str) -> str:
    return text


@dataclass(frozen=True)
class PlayerWord:
    """One player as a ``str.format`` value in the installed language.

    ``{player}`` is the language's pattern for what is known (the name alone, or with the
    level, seat and suspect); a Korean spec ``{player:님이}`` puts 님 after the name, inside
    the pattern, and the rest after it; ``{player:이}`` adds a particle by the sound of
    the whole (the name's, a bracket skipped).
    """

    name: str
    level: str | None = None
    seat: int | None = None
    suspect: int | None = None
    wrap: Callable[[str], str] = _plain
    """Styles the player (colour on a terminal), particles outside."""
    honorific: bool = True
    """False for a word that is not a name ("you", "nobody"): a Korean 님 spec then gives
    the word with its particle alone (나 + 이 is 내가)."""
    note: str | None = None
    """Said in the brackets where a bot's level would be ("spectator")."""

    def __format__(self, spec: str) -> str:
        suffix = ""
        name = self.name
        if spec.startswith(HONORIFIC) and not self.honorific:
            rest = spec[len(HONORIFIC):]
            particle = next((p for p in (*PAIRS, *FIXED) if rest.startswith(p)), "")
            return self.wrap(pronoun_with(name, particle)) + rest[len(particle):]
        if spec.startswith(HONORIFIC):
            name, suffix = f"{self.name} {HONORIFIC}", spec[len(HONORIFIC):]
        elif spec in PAIRS or spec in FIXED:
            core = self.core(name)
            return self.wrap(core) + with_particle(core, spec)[len(core):]
        elif spec:
            raise ValueError(f"a player has no form {spec!r}")
        return self.wrap(self.core(name)) + suffix

    def core(self, name: str) -> str:
        """The name with what is known about it, in the language's pattern."""
        level = level_word(self.level) if self.level is not None else self.note
        suspect = card_word(self.suspect) if self.suspect is not None else None
        seat = self.seat
        if seat is not None and level is not None and suspect is not None:
            # Translators: a bot, its seat and suspect: "Bruno (seat 1, medium bot, Colonel
            # Mustard)". Korean puts 님 in {name} when the sentence asks for it.
            pattern = pgettext("a player", "{name} (seat {seat}, {level}, {suspect})")
        elif seat is not None and suspect is not None:
            # Translators: a player, their seat and suspect: "Ada (seat 0, Miss Scarlett)".
            pattern = pgettext("a player", "{name} (seat {seat}, {suspect})")
        elif level is not None and suspect is not None:
            # Translators: a bot and its suspect: "Bruno (medium bot, Colonel Mustard)".
            pattern = pgettext("a player", "{name} ({level}, {suspect})")
        elif suspect is not None:
            # Translators: a player and the suspect they play: "Ada (Miss Scarlett)".
            pattern = pgettext("a player", "{name} ({suspect})")
        elif level is not None:
            # Translators: a bot and its level: "Bruno (medium bot)".
            pattern = pgettext("a player", "{name} ({level})")
        else:
            return name
        return pattern.format(name=name, level=level, seat=seat, suspect=suspect)

    def __str__(self) -> str:
        return format(self, "")


def spectator_word(signed: str) -> PlayerWord:
    """A spectator where a sentence names who came or went: "Ada (spectator)"."""
    # Translators: said in brackets after a spectator's name: "Ada (spectator)".
    return replace(player_word(signed), note=pgettext("a player", "spectator"))


def you_word() -> PlayerWord:
    """The local player where a sentence names players ("you"; Korean 나, never 나 님)."""
    # Translators: the local player where a sentence names a player as a subject.
    return PlayerWord(pgettext("the local player", "you"), honorific=False)


def player_word(signed: str, *, seat: int | None = None, suspect: int | None = None,
                wrap: Callable[[str], str] | None = None) -> PlayerWord:
    """A player for a message's player field, from the name as signed in the roster."""
    name, level = split_name(signed)
    return PlayerWord(name, level, seat, suspect, wrap or _plain)


def display_name(signed: str) -> str:
    """A roster name as the reader reads it alone ("Bruno (bot medio)")."""
    return str(player_word(signed))


def plain_name(signed: str) -> str:
    """The name without its bot level: for a notepad column's head."""
    return split_name(signed)[0]


__all__ = [
    "HONORIFIC",
    "LEVELS",
    "PLAYER_FIELDS",
    "PlayerWord",
    "bot_level",
    "display_name",
    "level_word",
    "plain_name",
    "player_spec",
    "player_word",
    "roster_name",
    "spectator_word",
    "split_name",
    "you_word",
]
