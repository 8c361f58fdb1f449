"""The screens that fill the terminal instead of the game: the deal, the end, the help."""

from __future__ import annotations

import os
import time

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from p2pclue.engine.config import table_check
from p2pclue.i18n import (
    PlayerWord,
    _,
    card_name,
    key_name,
    labelled,
    outcome_word,
    percent,
    player_word,
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
    def centred(style: str, text: str) -> list[tuple[str, str]]:
        return [(style, centre(ln, width)) for ln in wrap(text, width)]  # wrapped, never cut

    lines: list[tuple[str, str]] = [
        *centred("class:title", _("Dealing the cards: nobody sees them, everybody checks")),
        ("", ""),
        *centred("", f"{spin} {model.progress_text}"),
        ("", ""),
        ("class:bar", centre("[" + "█" * filled + "·" * (bar_w - filled) + "] "
                             + percent(frac), width)),
        ("", ""),
        *centred("class:dim", _("Each player shuffles and locks the deck in turn, with a "
                                "proof the others check.")),
    ]
    for line in model.story[-3:]:  # the table check, the first news: whole, wrapped
        lines += centred("class:dim", line)
    if model.overlay is Overlay.QUIT:
        lines += [("", ""), *quit_lines(model, width, height - len(lines) - 1)]
    top = max(0, min(height // 2 - 6, height - len(lines)))  # the quit question pushes up
    return line_fragments([("", "")] * top + lines[:height], width)


def end_screen(model: UIModel, width: int, height: int) -> StyleAndTextTuples:
    if model.reading_story:  # PgUp: the whole story, read back from the end
        return story_lines(model, width, height, story_only=True)
    end = model.end
    # One message per group, wrapped over its rows: a screen too short drops groups
    # whole (``_fit``), never the start or the end of a message.
    groups: list[list[tuple[str, str]]] = []

    def say(style: str, text: str, indent: str = "") -> None:
        groups.append([(style, ln) for ln in wrap(text, width, indent)])

    title = _("You left the table") if model.left_table and end.ended is None \
        else _("The game is over")
    groups += [[("class:title", centre(title, width))], [("", "")]]
    spare = [0]  # the title goes first when rows run short
    if model.left_table and end.ended is None:
        say("", _("Your cards were laid face up for everybody; the game goes on without "
                  "you."))
    if end.envelope is not None:
        say("class:good", _("The envelope: {triple}.").format(
            triple=triple_word(end.envelope)), "  ")
    if end.result == "won" and end.winner is not None:
        winner = model.config.players[end.winner]
        who = _("You win!") if end.winner == model.seat else \
            _("{player} wins.").format(player=player_word(winner.name,
                                                          suspect=winner.suspect))
        say("class:title", who, "  ")
    elif end.result == "nobody":
        say("", _("Nobody wins: every accusation was wrong."), "  ")
    for why in end.why:
        say("", why.strip(), "  ")
    score = model.evening.line() if model.evening is not None else ""
    if score:
        say("class:title", score, "  ")
    groups.append([("", "")])
    e = end.ended
    if e is not None:
        verdict = {True: "class:good", False: "class:warn", None: ""}[e.audit_ok]
        say(verdict, e.message)
        groups.append(transcript_lines(e, width))
        spare.append(len(groups))
        say("class:dim", _("Anyone can check it again: p2pclue audit <transcript>"))
    groups.append([("", "")])
    if end.hands is not None:
        say("class:title", _("Every hand, revealed and checked:"))
        for seat, hand in sorted(end.hands.items()):
            p = model.config.players[seat]
            # Translators: the local player among the hands revealed ("You (Miss Scarlett)").
            player = (PlayerWord(_("You"), suspect=p.suspect) if seat == model.seat
                      else player_word(p.name, suspect=p.suspect))
            say("", "  " + labelled(str(player), ", ".join(card_name(c) for c in hand)),
                "      ")
    elif e is not None and e.status == "complete" and e.transcript is not None:
        # Only a complete game reveals every hand: an abandoned or halted one never will.
        say("class:dim", _("Reading the hands from the transcript..."))
    groups.append([("", "")])
    keys_line = _("p: play again · q: leave · {key}: read back the story") \
        if model.again_offered() else _("q: leave · {key}: read back the story")
    say("class:title", keys_line.format(key=key_name("PgUp")))
    return line_fragments(_fit(groups, height, spare), width)


def _fit(groups: list[list[tuple[str, str]]], height: int,
         spare: list[int]) -> list[tuple[str, str]]:
    """The rows of ``groups`` in ``height`` rows (80 x 24 with every hand and an evening's
    score): blank rows go first, then the ``spare`` groups, then the oldest messages, each
    whole: a message cut at the top would show its end without its start."""
    def rows(kept: list[list[tuple[str, str]]]) -> int:
        return sum(len(g) for g in kept)

    if rows(groups) <= height:
        return [row for g in groups for row in g]
    kept = [g for g in groups if any(text for _style, text in g)]
    for index in spare:
        if rows(kept) > height:
            kept = [g for g in kept if g is not groups[index]]
    while rows(kept) > height and len(kept) > 1:
        kept.pop(0)
    rows_left = [row for g in kept for row in g]
    return rows_left[-height:] if height else []


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
        (_("arrows"), _("pick a destination after a roll (or click it); {enter} goes").format(
            enter=key_name("Enter"))),
        ("1-9", _("after a roll: the room of that number (the numbers are shown)")),
        ("e", _("end the turn (after a roll: stay where you are)")),
        (_("s / a"), _("suggest (in a room) / accuse (asks to confirm)")),
        (_("arrows, {enter}").format(enter=key_name("Enter")),
         _("choose from a list; when asked, pick the card to show")),
        ("h", _("hint: the most informative suggestion in your room")),
        (_("n or {tab}").format(tab=key_name("Tab")),
         _("notepad: move over cells, read why each is marked")),
        (" ".join(key_name(k) for k in ("PgUp", "PgDn", "Home", "End")),
         _("read back the story of the game")),
        ("w / x", _("a player is silent: vote to wait more / to end the game as abandoned")),
        (_("? F1 / q"), _("this help / leave (asks first)")),
    ]
    # The table check first: on the game screen it scrolls out of the story within a turn or
    # two, and a latecomer to the table must still be able to compare it aloud.
    check = _("Table check: {check} (compare it aloud: every screen here shows the "
              "same).").format(check=table_check(model.config))
    blocks: list[list[tuple[str, str]]] = [[("class:dim", ln) for ln in wrap(check, width)]]
    rules = rules_summary(model.config.rules)
    if rules:  # the goal first: what a newcomer needs before any key
        blocks.append([("", ln) for ln in wrap(rules[0], width, "  ")])
    blocks.append([("class:title", _("Keys"))])
    key_w = 16 if width < 100 else 30
    for k, what in keys:
        what_lines = wrap(what, width - key_w - 3)
        if get_cwidth(k) > key_w:  # a long key on a line of its own, never cut
            blocks.append([("", f"  {k}"), *(("", f"  {' ' * key_w} {wl}")
                                              for wl in what_lines)])
            continue
        blocks.append([("", f"  {pad(k if i == 0 else '', key_w)} {wl}")
                       for i, wl in enumerate(what_lines)])
    blocks.append([("", "")])
    marks = (_("orange: doors; green: where you can go") if model.color
             else _("##: doors; :: where you can go, [] your pick"))  # NO_COLOR has no orange
    blocks.append([("class:dim", ln) for ln in wrap(
        _("Board: {codes} are the suspects' tokens (yours underlined); {marks}. "
          "Notepad: ✓ held, · not held, ? unknown.").format(
            codes=" ".join(bd.token_code(s) for s in range(len(SUSPECTS))), marks=marks), width)])
    weapons = bd.weapon_legend()  # a crowded room shows its weapons by these codes
    if weapons:
        blocks.append([("class:dim", ln) for ln in wrap(
            _("Weapon codes on the board: {codes}.").format(codes=", ".join(
                f"{code} {card_name(w)}" for code, w in weapons)), width)])
    blocks.append([("", "")])
    title = ("class:title", _("Rules in short"))
    for n, para in enumerate(rules[1:]):  # the title stays with the paragraph under it
        blocks.append([*([title] if n == 0 else []),
                       *(("", ln) for ln in wrap(para, width, "  "))])
    if sum(map(len, blocks)) > height:  # 80 x 24: the board's legend matters more than
        blocks = [b for b in blocks if any(text for _style, text in b)]  # blank lines
    pages = help_pages(blocks, max(1, height - 1))
    if len(pages) == 1 and len(pages[0]) <= height:
        return line_fragments(pages[0], width)
    page = model.help_page = min(model.help_page, len(pages) - 1)  # Up after the end works
    footer = (_("Page {page} of {pages}: {space} or Down for more, Up to go back")
              if page < len(pages) - 1 else _("Page {page} of {pages}: Up to go back"))
    lines = pages[page]
    lines.append(("class:title", footer.format(page=page + 1, pages=len(pages),
                                               space=key_name("Space"))))
    return line_fragments(lines[:height], width)


def help_pages(blocks: list[list[tuple[str, str]]], per_page: int
               ) -> list[list[tuple[str, str]]]:
    """The help's lines in pages of ``per_page``: a block (a paragraph, a key and what it
    does) is never split between two pages unless it alone is longer than a page."""
    pages: list[list[tuple[str, str]]] = [[]]
    for block in blocks:
        if pages[-1] and len(pages[-1]) + len(block) > per_page:
            pages.append([])
        for line in block:
            if len(pages[-1]) >= per_page:
                pages.append([])
            pages[-1].append(line)
    return [p for p in pages if p]
