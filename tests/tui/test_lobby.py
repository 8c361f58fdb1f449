"""The lobby model: what the lobby screen shows and what its keys send to the runner."""

from __future__ import annotations

import dataclasses

from p2pclue.i18n import _
from p2pclue.net.api import LinkPath
from p2pclue.net.discovery import TableAd, fingerprint
from p2pclue.net.lobby import LobbyView, Member, TableInfo
from p2pclue.net.play import Opened
from p2pclue.net.table import Pick, Ready
from p2pclue.rules.cards import SUSPECTS
from p2pclue.rules.variants import preset
from p2pclue.tui.lobby import KEYS_HELP, LobbyModel

ME, ADA, EVE = b"\x01" * 32, b"\x02" * 32, b"\x03" * 32
SCARLETT, MUSTARD, WHITE = (SUSPECTS[i].index for i in range(3))


def view(*, me_ready: bool = False, long_name: bool = False) -> LobbyView:
    return LobbyView(TableInfo("Kitchen", preset("classic"), 4), (
        Member(ADA, "Chiara (medium bot)" if long_name else "Ada", "player", SCARLETT, True),
        Member(ME, "Me", "player", MUSTARD, me_ready),
        Member(EVE, "Eve", "spectator"),
    ), failed_attempts=2)


def text(model: LobbyModel) -> str:
    return "\n".join(t for _, t in model.lines(100))


def test_the_lobby_shows_the_table_the_people_and_their_keys() -> None:
    model = LobbyModel(ME, "Me")
    model.opened = Opened("Kitchen", "123456", "127.0.0.1", 5000, "ab", True)
    model.on_view(view())
    shown = text(model)
    assert "Table code: 123456" in shown
    assert "Table 'Kitchen': classic rules, 2/4 seats" in shown
    assert fingerprint(ADA) in shown and fingerprint(ME) in shown
    assert "Me (you)" in shown and "Colonel Mustard" in shown
    assert "Watching: Eve" in shown
    assert "2 failed attempts with a wrong code" in shown
    assert "> 2. Colonel Mustard    taken" in shown, "the cursor starts on my suspect"
    assert "3. Mrs White          free" in shown
    model.phase, model.check = "started", "apple-river-stone"
    assert "Table check: apple-river-stone" in text(model)


def test_keys_pick_free_suspects_and_toggle_ready() -> None:
    model = LobbyModel(ME, "Me")
    model.on_view(view())
    assert model.press("1") == [] and "taken" in model.message
    assert model.press("2") == [] and "already" in model.message
    assert model.press("3") == [Pick(WHITE)]
    model.press("up")
    model.press("up")
    assert model.press("enter") == [], "Scarlett is Ada's"
    assert model.press("r") == [Ready(True)]
    model.on_view(view(me_ready=True))
    assert model.press("r") == [Ready(False)]
    assert model.press("q") == [] and model.quit


def test_tables_found_are_listed_and_one_is_chosen() -> None:
    def ad(name: str, playing: bool) -> TableAd:
        return TableAd(b"\x00" * 16, name, "classic", 2, 4, playing, 1, "ab-cd", "127.0.0.1",
                       5000)

    model = LobbyModel(ME, "Me")
    model.phase = "tables"
    assert "Looking for tables" in text(model)
    model.on_tables([ad("Busy", True), ad("Attic", False)])
    shown = text(model)
    assert "1. Attic  classic, 2/4 seats, lobby" in shown and "2. Busy" in shown
    model.press("down")
    model.press("enter")
    assert model.chosen is None and "playing already" in model.message
    model.press("up")
    model.press("enter")
    assert model.chosen is not None and model.chosen.name == "Attic"


def test_the_last_seat_question_marks_the_suspects_the_record_says_are_taken() -> None:
    last = TableAd(b"\x00" * 16, "Attic", "classic", 2, 3, False, 1, "ab-cd", "127.0.0.1",
                   5000, taken=(SCARLETT, MUSTARD))
    model = LobbyModel(ME, "Me")
    model.phase = "tables"
    model.on_tables([last])
    model.press("enter")
    assert model.phase == "wish" and model.chosen is None
    shown = text(model)
    assert "  1. Miss Scarlett   taken" in shown and "  2. Colonel Mustard taken" in shown
    assert "> 3. Mrs White       free" in shown, "the cursor starts on the first free one"
    model.press("1")
    assert model.press("enter") == [] and model.chosen is None
    assert "taken" in model.message
    model.press("4")
    model.press("enter")
    assert model.chosen == last and model.wish == SUSPECTS[3].index


def test_a_record_that_does_not_say_who_is_taken_marks_nothing() -> None:
    model = LobbyModel(ME, "Me")
    model.ask_wish(TableAd(b"\x00" * 16, "Attic", "classic", 2, 3, False, 1, "ab-cd",
                           "127.0.0.1", 5000))
    listed = [line for line in text(model).splitlines() if line[2:3].isdigit()]
    assert len(listed) == 6 and not any("taken" in ln or "free" in ln for ln in listed)


def test_the_lobby_in_each_language_fits_and_names_the_cards_in_it() -> None:
    from p2pclue.i18n import LANGUAGES, _, card_name, display_name, install, text_width

    try:
        for lang in sorted(LANGUAGES):
            install(lang)
            model = LobbyModel(ME, "Me")
            model.opened = Opened("default's table", "257968", "127.0.0.1", 50123, "ab", True)
            model.on_view(view(long_name=True))
            lines = [t for _s, t in model.lines(80)]
            assert all(text_width(t) <= 80 for t in lines)
            shown = "\n".join(lines)
            assert "…" not in shown, shown  # wrapped, never cut
            assert "127.0.0.1:50123" in shown  # the end of the join command
            assert display_name("Chiara (medium bot)") + " " in shown  # the column makes room
            for phase, keys in KEYS_HELP.items():  # the key bar: one line, uncut
                assert text_width(_(keys)) <= 80, (lang, phase, _(keys))
            assert _("p2pclue: the lobby") in shown and _("Your suspect:") in shown
            assert card_name(SUSPECTS[2].index) in shown  # Mrs White, in this language
            if lang != "en":
                assert "Your suspect:" not in shown and "Players:" not in shown
    finally:
        install("en")


def test_the_lobby_says_what_the_start_waits_for() -> None:
    model = LobbyModel(ME, "Me")
    model.on_view(view(me_ready=True))  # two players at a table of four
    assert "Waiting for 1 more player to sit down." in text(model)
    leo = Member(b"\x04" * 32, "Leo", "player", WHITE, False)
    three = LobbyView(TableInfo("Kitchen", preset("classic"), 4), (
        Member(ADA, "Ada", "player", SCARLETT, True), Member(ME, "Me", "player", MUSTARD, True),
        leo))
    model.on_view(three)
    assert "Leo is not ready yet." in text(model) and "sit down" not in text(model)
    mine_too = dataclasses.replace(three, members=(three.members[0], dataclasses.replace(
        three.members[1], ready=False), leo))
    model.on_view(mine_too)
    assert "You are not ready yet: press r when you are." in text(model)
    assert "Leo is not ready" not in text(model), "one thing to wait for at a time"


def test_the_openers_screen_shows_a_fresh_code_then_that_nobody_new_can_join() -> None:
    model = LobbyModel(ME, "Me")
    opened = Opened("Kitchen", "123456", "127.0.0.1", 5000, "ab", True)
    model.opened = opened
    model.on_view(view())
    opened.code, opened.code_turns = "654321", 1  # what open_table does at a turn
    shown = " ".join(text(model).split())
    assert "The old table code is used up (too many wrong codes). The new table code is " \
           "654321." in shown
    assert "Table code: 654321" in shown and "--code 654321" in shown
    assert "123456" not in shown
    opened.entry_closed = True
    shown = " ".join(text(model).split())  # the long line may wrap
    assert "Too many wrong codes: the last table code is used up, and nobody new can join. " \
           "The seated players play on." in shown
    assert "Table code:" not in shown and "Others join with" not in shown


def links_line(model: LobbyModel, width: int = 100) -> list[str]:
    """The rows of the links line (it may wrap), with its no-break spaces as spaces."""
    rows = [t.replace("\u00a0", " ") for _s, t in model.lines(width)]
    at = [i for i, t in enumerate(rows) if t.startswith(_("Your links: {links}").split("{")[0])]
    if not at:
        return []
    end = at[0] + 1
    while end < len(rows) and rows[end].startswith("    "):
        end += 1
    return rows[at[0]:end]


def test_an_internet_tables_links_show_direct_or_relayed_and_the_round_trip() -> None:
    model = LobbyModel(ME, "Me")
    model.on_view(view())
    assert links_line(model) == [], "no link measured (a LAN table): no line"
    model.on_links({ADA: LinkPath(False, 3), EVE: LinkPath(True, 1234), ME: LinkPath(False, 0)})
    assert links_line(model) == ["Your links: Ada · direct · 3 ms, Eve · relayed · 1,234 ms"]
    model.on_links({ADA: LinkPath(False, 0)})  # Eve's link went: she is not listed
    assert links_line(model) == ["Your links: Ada · direct · <1 ms"]
    model.on_links({b"\x09" * 32: LinkPath(False, 5)})  # a key the lobby does not show
    assert links_line(model) == []


def test_plain_says_a_link_again_only_when_it_changed_notably() -> None:
    model = LobbyModel(ME, "Me")
    model.on_view(view())
    model.on_links({ADA: LinkPath(False, 40)}, notable_only=True)
    seen = []
    for rtt, relayed in ((45, False), (59, False), (61, False), (61, True), (70, True),
                         (20, True)):
        model.on_links({ADA: LinkPath(relayed, rtt)}, notable_only=True)
        seen.append(model.links[ADA])
    assert seen == [LinkPath(False, 40), LinkPath(False, 40), LinkPath(False, 61),
                    LinkPath(True, 61), LinkPath(True, 61), LinkPath(True, 20)]
    model.on_links({EVE: LinkPath(False, 1)}, notable_only=True)
    assert model.links == {EVE: LinkPath(False, 1)}, "a new link at once, a gone one gone"
    model.on_links({EVE: LinkPath(False, 2)})  # the full screen: every look as it is
    assert model.links == {EVE: LinkPath(False, 2)}


def test_the_links_in_each_language_fit_80_columns_each_link_whole_on_one_row() -> None:
    from p2pclue.i18n import LANGUAGES, install, text_width
    from p2pclue.tui.lobby import link_text

    paths = {ADA: LinkPath(False, 3), EVE: LinkPath(True, 85)}
    try:
        for lang in sorted(LANGUAGES):
            install(lang)
            model = LobbyModel(ME, "Me")
            model.on_view(view(long_name=True))
            model.on_links(paths)
            rows = [t for _s, t in model.lines(80)]
            assert all(text_width(t) <= 80 for t in rows), (lang, rows)
            names = {ADA: "Chiara (medium bot)", EVE: "Eve"}
            for ident, path in paths.items():
                whole = link_text(names[ident], path)
                assert sum(whole in t for t in rows) == 1, (lang, whole, rows)
            if lang != "en":
                shown = "\n".join(rows)
                assert "\u00a0direct\u00a0" not in shown and "Your links" not in shown
    finally:
        install("en")


def test_a_short_screen_shows_whole_messages_only() -> None:
    """An opener's lobby with the evening's score and an internet table's links has more rows
    than 80x24 holds: what does not fit goes whole (hints first), never a sentence's end."""
    from p2pclue.bots.protocol import make_config
    from p2pclue.rules import game as rg
    from p2pclue.tui.evening import Evening
    from p2pclue.tui.lobby import lobby_layout
    from tests.tui.model_screen import draw

    model = LobbyModel(b"\x01" * 32, "Massimiliano")
    model.opened = Opened("tavolo", "257968", "127.0.0.1", 50123, fingerprint(b"\x01" * 32),
                          True)
    config, _keys = make_config(preset("classic"), 6, seed=5)
    won = rg.new_game(preset("classic"), [p.suspect for p in config.players],
                      hand_sizes=[3] * 6, weapon_rooms={6 + i: 12 + i for i in range(6)})
    model.evening = Evening()
    model.evening.record(config, dataclasses.replace(won, result="won", winner=4))
    assert model.evening.line()
    model.on_view(LobbyView(TableInfo("tavolo", preset("classic"), 4), (
        Member(b"\x02" * 32, "Margherita", "player", 0, True),
        Member(b"\x03" * 32, "Bartolomeo", "player", 1, True),
        Member(b"\x01" * 32, "Massimiliano", "player", 2, False),
        Member(b"\x04" * 32, "Ludovica", "spectator"),
    )))
    model.on_links({b"\x02" * 32: LinkPath(False, 3), b"\x03" * 32: LinkPath(True, 85),
                    b"\x04" * 32: LinkPath(False, 1)})
    every = [t for _s, t in model.lines(80)]
    assert len(every) > 23, every  # more than the body's rows: the case under test
    shown = draw(lambda w, h: lobby_layout(model, lambda: w))
    screen = " ".join(" ".join(line.split()) for line in shown)
    rule = " ".join(_("The game starts when every seat is taken, or when at least three "
                      "players are all ready.").split())
    first_words = " ".join(rule.split()[:4])
    assert rule in screen or first_words not in screen, shown
    # what matters stays: the code, every seat, the cursor's suspect
    assert "257968" in screen and "Margherita" in screen and "> 3." in screen, "\n".join(shown)
    body = model.lines(80, 23)
    assert len(body) <= 23 and all(text in every for _style, text in body)
