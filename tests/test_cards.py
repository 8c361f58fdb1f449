import pytest

from p2pclue.rules.cards import CARDS, ROOMS, SUSPECTS, WEAPONS, CardNameError, Category, find_card


def test_R1_twenty_one_cards_in_three_groups() -> None:
    assert (len(SUSPECTS), len(WEAPONS), len(ROOMS)) == (6, 6, 9)
    assert [c.index for c in CARDS] == list(range(21))
    assert len({c.slug for c in CARDS}) == 21


@pytest.mark.parametrize(
    ("typed", "slug"),
    [
        ("Mr Green", "green"), ("reverend green", "green"), ("Knife", "dagger"),
        ("dagger", "dagger"), ("Spanner", "wrench"), ("wrench", "wrench"),
        ("Lead Pipe", "lead_pipe"), ("pipe", "lead_pipe"), ("SCAR", "scarlett"),
        ("dining", "dining_room"), ("billiard room", "billiard_room"), ("Col. Mustard", "mustard"),
    ],
)
def test_R2_R3_aliases_and_prefixes(typed: str, slug: str) -> None:
    assert find_card(typed).slug == slug


def test_R2_ambiguous_prefix_is_an_error_unless_narrowed() -> None:
    with pytest.raises(CardNameError, match="could be any of"):
        find_card("w")
    assert find_card("w", Category.SUSPECT).slug == "white"
    assert find_card("w", Category.WEAPON).slug == "wrench"
    with pytest.raises(CardNameError, match="no card"):
        find_card("banana")
