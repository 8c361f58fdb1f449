"""The screens that fill the terminal instead of the game: the deal, the end, the help."""

from __future__ import annotations

import os
import time

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from p2pclue.engine.config import table_check
from p2pclue.i18n import (
    _,
    card_name,
    card_word,
    outcome_word,
    triple_word,
)
from p2pclue.i18n import rules_summary as rules_in_short
from p2pclue.net.api import Ended
from p2pclue.rules.cards import SUSPECTS
from p2pclue.rules.variants import Rules
from p2pclue.tui import board as bd
from p2pclue.tui.model import Overlay, UIModel
from p2pclue.tui.panel import quit_lines, story_lines
from p2pclue.tui.text import centre, line_fragments, pad, path_lines, wrap

SPINNER = "|/-\\"


def dealing(model: UIModel, width: int, height: int) -> StyleAndTextTuples:
    frac = model.deal_fraction()
    bar_w = min(60, width - 10)
    filled = int(frac * bar_w)
    spin = SPINNER[int(time.monotonic() * 8) % len(SPINNER)]
    lines: list[tuple[str, str]] = [
        ("class:title", centre(_("Dealing the cards: nobody sees them, everybody checks"),
                               width)),
        ("", ""),
        ("", centre(f"{spin} {model.progress_text}", width)),
        ("", ""),
        ("class:bar", centre("[" + "█" * filled + "·" * (bar_w - filled) + f"] {frac:4.0%}",
                             width)),
        ("", ""),
        *[("class:dim", centre(ln, width)) for ln in wrap(
            _("Each player shuffles and locks the deck in turn, with a proof the others check."),
            width)],
    ]
    for line in model.story[-3:]:
        lines.append(("class:dim", centre(line, width)))
    if model.overlay is Overlay.QUIT:
        lines += [("", ""), *quit_lines(model, width, height - len(lines) - 1)]
    top = max(0, min(height // 2 - 6, height - len(lines)))  # the quit question pushes up
    return line_fragments([("", "")] * top + lines[:height], width)


def end_screen(model: UIModel, width: int, height: int) -> StyleAndTextTuples:
    if model.reading_story:  # PgUp: the whole story, read back from the end
        return story_lines(model, width, height, story_only=True)
    end = model.end
    lines: list[tuple[str, str]] = [("class:title", centre(_("The game is over"), width)),
                                    ("", "")]
    if model.left_table and end.ended is None:
        lines[0] = ("class:title", centre(_("You left the table"), width))
        lines += [("", ln) for ln in wrap(_("Your cards were laid face up for everybody; "
                                            "the game goes on without you."), width)]
    if end.envelope is not None:
        lines.append(("class:good", _("The envelope: {triple}.").format(
            triple=triple_word(end.envelope))))
    if end.result == "won" and end.winner is not None:
        winner = model.config.players[end.winner]
        who = _("You win!") if end.winner == model.seat else \
            _("{player} ({suspect}) wins.").format(player=winner.name,
                                                   suspect=card_word(winner.suspect))
        lines.append(("class:title", who))
    elif end.result == "nobody":
        lines.append(("", _("Nobody wins: every accusation was wrong.")))
    lines += [("", ln) for why in end.why for ln in wrap(why.strip(), width, "  ")]
    score = model.evening.line() if model.evening is not None else ""
    lines += [("class:title", ln) for ln in wrap(score, width, "  ") if score]
    lines.append(("", ""))
    e = end.ended
    if e is not None:
        verdict = {True: "class:good", False: "class:warn", None: ""}[e.audit_ok]
        lines += [(verdict, ln) for ln in wrap(e.message, width)]
        lines += transcript_lines(e, width)
        lines += [("class:dim", ln) for ln in wrap(
            _("Anyone can check it again: p2pclue audit <transcript>"), width)]
    lines.append(("", ""))
    if end.hands is not None:
        lines.append(("class:title", _("Every hand, revealed and checked:")))
        for seat, hand in sorted(end.hands.items()):
            p = model.config.players[seat]
            who = _("You") if seat == model.seat else p.name
            for ln in wrap("  " + _("{player} ({suspect}): {cards}").format(
                    player=who, suspect=card_word(p.suspect),
                    cards=", ".join(card_name(c) for c in hand)), width, "      "):
                lines.append(("", ln))
    elif e is not None and e.status == "complete" and e.transcript is not None:
        # Only a complete game reveals every hand: an abandoned or halted one never will.
        lines.append(("class:dim", _("Reading the hands from the transcript...")))
    lines.append(("", ""))
    lines.append(("class:title", _("p: play again · q: leave · PgUp: read back the story")
                  if model.again_offered() else _("q: leave · PgUp: read back the story")))
    if len(lines) > height:  # 80 x 24 with every hand: blank lines go first
        lines = [ln for ln in lines if ln[1]]
    return line_fragments(lines[-height:] if len(lines) > height else lines, width)


def transcript_lines(e: Ended, width: int) -> list[tuple[str, str]]:
    """Where the transcript is: on one line if it fits, else the path on lines of its own,
    broken only after a separator, so it can be selected and pasted whole."""
    status = outcome_word(e.status)
    if e.transcript is None:
        return [("", ln) for ln in wrap(_("Transcript ({status}): {where}").format(
            status=status, where=_("not saved")), width)]
    line = _("Transcript ({status}): {where}").format(status=status, where=e.transcript)
    if get_cwidth(line) <= width:
        return [("", line)]
    label = _("Transcript ({status}): {where}").format(status=status, where="").rstrip()
    return [*[("", ln) for ln in wrap(label, width)],
            *[("class:path", ln) for ln in path_lines(str(e.transcript), width, os.sep)]]


def rules_summary(rules: Rules) -> list[str]:
    """The rules in short for the help screen, in the reader's language (``p2pclue.i18n``)."""
    return rules_in_short(rules)


def help_text(model: UIModel, width: int, height: int) -> StyleAndTextTuples:
    keys = [
        (_("r / p"), _("roll the dice / take the secret passage") if model.config.rules.two_dice
         else _("roll the die / take the secret passage")),
        (_("arrows"), _("pick a destination after a roll (or click it); Enter goes")),
        ("1-9", _("after a roll: the room of that number (the numbers are shown)")),
        ("e", _("end the turn (after a roll: stay where you are)")),
        (_("s / a"), _("suggest (in a room) / accuse (asks to confirm)")),
        (_("arrows, Enter"), _("choose from a list; when asked, pick the card to show")),
        ("h", _("hint: the most informative suggestion in your room")),
        (_("n or Tab"), _("notepad: move over cells, read why each is marked")),
        ("PgUp/Dn Home/End", _("read back the story of the game")),
        ("w / x", _("a player is silent: vote to wait more / to end the game as abandoned")),
        (_("? F1 / q"), _("this help / leave (asks first)")),
    ]
    # The table check first: on the game screen it scrolls out of the story within a turn or
    # two, and a latecomer to the table must still be able to compare it aloud.
    check = _("Table check: {check} (compare it aloud: every screen here shows the "
              "same).").format(check=table_check(model.config))
    lines: list[tuple[str, str]] = [("class:dim", ln) for ln in wrap(check, width)]
    lines.append(("class:title", _("Keys")))
    widest = max(get_cwidth(k) for k, _what in keys)  # never cut a key (fr, sq: 17-19)
    key_w = min(max(16, widest), width // 3) if width < 100 else 30
    for k, what in keys:
        for i, ln in enumerate(wrap(what, width - key_w - 3)):
            lines.append(("", f"  {pad(k if i == 0 else '', key_w)} {ln}"))
    lines.append(("", ""))
    marks = (_("orange: doors; green: where you can go") if model.color
             else _("##: doors; :: where you can go, [] your pick"))  # NO_COLOR has no orange
    lines += [("class:dim", ln) for ln in wrap(
        _("Board: {codes} are the suspects' tokens (yours underlined); {marks}. "
          "Notepad: ✓ held, · not held, ? unknown.").format(
            codes=" ".join(bd.token_code(s) for s in range(len(SUSPECTS))), marks=marks), width)]
    weapons = bd.weapon_legend()  # a crowded room shows its weapons by these codes
    if weapons:
        lines += [("class:dim", ln) for ln in wrap(
            _("Weapon codes on the board: {codes}.").format(codes=", ".join(
                f"{code} {card_name(w)}" for code, w in weapons)), width)]
    lines.append(("", ""))
    lines.append(("class:title", _("Rules in short")))
    for para in rules_summary(model.config.rules):
        lines += [("", ln) for ln in wrap(para, width, "  ")]
    if len(lines) > height:  # 80 x 24: the board's legend matters more than blank lines
        lines = [ln for ln in lines if ln[1]]
    if len(lines) > height:  # still too long (every language at 80 x 24): pages
        per_page = max(1, height - 1)
        pages = -(-len(lines) // per_page)
        page = model.help_page = min(model.help_page, pages - 1)  # Up after the end works
        footer = (_("Page {page} of {pages}: Space or Down for more, Up to go back")
                  if page < pages - 1 else _("Page {page} of {pages}: Up to go back"))
        lines = lines[page * per_page:(page + 1) * per_page]
        lines.append(("class:title", footer.format(page=page + 1, pages=pages)))
    return line_fragments(lines[:height], width)
