"""The rules in short, in the reader's language, for any front end's help.

Written from the rule variants themselves (``p2pclue.rules.variants``), so the
summary always describes the rules the table really plays. Each variant is a
whole sentence of its own: no sentence is glued from translated fragments.
"""

from __future__ import annotations

from p2pclue.i18n.phrases import card_word
from p2pclue.i18n.text import rules_label
from p2pclue.i18n.translate import _
from p2pclue.rules.cards import BY_SLUG
from p2pclue.rules.variants import Rules


def rules_summary(rules: Rules) -> list[str]:
    """Paragraphs, each a few sentences, for a help screen."""
    move = (_("Roll two dice and move that many squares, across or along the corridors, never "
              "diagonally.") if rules.two_dice
            else _("Roll one die and move that many squares, across or along the corridors, "
                   "never diagonally."))
    revisit = (_("A square may be crossed twice in one move.") if rules.revisit_ok
               else _("No square may be entered twice in one move."))
    enter = (_("A room can be entered only with the exact roll; entering ends the move.")
             if rules.enter_exact
             else _("A room may be entered with fewer steps than rolled; entering ends the "
                    "move."))
    first = BY_SLUG["white" if rules.first_white else "scarlett"].index
    opening = [_("Rules: {preset}.").format(preset=rules_label(rules.name())),
               _("{suspect}'s player starts; turns go clockwise.").format(
                   suspect=card_word(first))]
    if rules.deal_equal:
        opening.append(_("Everybody gets as many cards as everybody else; the cards left over "
                         "are shown to all."))
    goal = _("The goal: be first to name the three cards hidden in the envelope: who, with "
             "which weapon, in which room. The notepad keeps track of what you learn.")
    paragraphs = [goal, " ".join(opening), " ".join((move, revisit, enter))]
    if rules.must_leave:
        paragraphs.append(_("A turn that starts with a roll in a room must leave that room if "
                            "it can."))
    paragraphs.append(_("In a room, suggest a suspect and a weapon: that room is the scene. "
                        "The players to your left answer in turn: the first who holds a named "
                        "card shows you one of them, with a proof; those who hold none prove "
                        "that too."))
    paragraphs.append(_("The corner rooms have secret passages to the opposite corner."))
    accuse = _("Accuse once per game, wherever you are, on your turn: right wins, wrong puts "
               "you out (you still show cards).")
    if rules.last_standing_wins:
        accuse += " " + _("When everybody else is out, the last player wins.")
    paragraphs.append(accuse)
    return paragraphs
