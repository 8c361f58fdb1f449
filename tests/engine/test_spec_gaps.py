"""What docs/protocol.md now says where an implementer had to guess: each test checks the
engine does what the spec's sentence says, on real bytes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2pclue.bots.protocol import make_config
from p2pclue.engine.config import GameConfig
from p2pclue.engine.errors import TranscriptError, WireError
from p2pclue.engine.transcript import MAX_META_BYTES, Footer, Transcript, parse
from p2pclue.engine.wire import pack
from p2pclue.rules.variants import preset


def _config_with(name: str) -> GameConfig:
    config, _ = make_config(preset("classic"), 3, 1)
    players = list(config.players)
    players[1] = replace(players[1], name=name)
    wire = {**config.to_wire(), "players": [p.to_wire() for p in players]}
    return GameConfig.from_wire(wire)  # as a peer reads a config from the wire


@pytest.mark.parametrize("name", ["a" * 40, "\uac00" * 40, "Ann Lee", "e\u0301" * 20,
                                  "\u00e9" * 40])
def test_a_name_of_40_code_points_that_python_calls_printable_is_a_name(name: str) -> None:
    assert _config_with(name).players[1].name == name


@pytest.mark.parametrize("name", ["", "a" * 41, "\uac00" * 41, "e\u0301" * 21, "a\u200bb",
                                  "a\u00a0b", "tab\there", "a\nb", "\u2028"])
def test_more_than_40_code_points_or_any_unprintable_one_is_no_name(name: str) -> None:
    with pytest.raises(WireError, match="printable"):
        _config_with(name)


def _finished_file() -> bytes:
    config, _ = make_config(preset("classic"), 3, 1)
    return Transcript(config, (), Footer("abandoned", 0)).to_bytes()


def test_a_footer_over_4_mib_is_unreadable_and_any_list_within_it_decodes() -> None:
    data = _finished_file()
    footer_len = int.from_bytes(data[-len(pack({"blame": None, "entries": 0,
                                                "status": "abandoned"})) - 4:][:4], "big")
    assert footer_len == len(pack({"blame": None, "entries": 0, "status": "abandoned"}))
    head = data[:-footer_len - 4]
    big = pack({"blame": None, "entries": 0, "status": "abandoned",
                "votes": [b"x"] * (MAX_META_BYTES // 2)})
    assert len(big) > MAX_META_BYTES
    with pytest.raises(TranscriptError, match="unreadable footer"):
        parse(head + len(big).to_bytes(4, "big") + big)
    # 5000 votes (far over any payload's list limit) decode; the footer's shape check, not
    # the decoder, then refuses them (at most 6 votes)
    wide = pack({"blame": None, "entries": 0, "status": "abandoned", "votes": [b"x"] * 5000})
    with pytest.raises(TranscriptError, match="votes are 1 to 6 signed votes"):
        parse(head + len(wide).to_bytes(4, "big") + wide)


def _keys_forgery(valid_proof: bool) -> tuple[str | None, int | None]:
    """Seat 1's ``keys`` repeats seat 0's ``Y``: with seat 1's own (now wrong) proof, or
    with a valid proof (seats 0 and 1 colluding, sharing seat 0's ``k``). (check, culprit)."""
    from p2pclue.crypto.keys import prove_key
    from p2pclue.crypto.rand import SeededRandom
    from p2pclue.engine.peer import Peer
    from p2pclue.engine.stage import proof_context
    from p2pclue.engine.wire import read_payload, sign_frame, split_frame
    from tests.engine.conftest import finished_game

    game = finished_game(3, "classic", 1)
    entries = game.peers[0].entries
    typed = [read_payload(split_frame(raw)[1]) for raw in entries]
    first = next(i for i, (h, _) in enumerate(typed) if h.type == "keys")
    mine = first + 1
    header, body = typed[mine]
    assert header.sender == 1 and typed[first][0].sender == 0
    watcher = Peer(game.peers[0].config, None, relay=False)
    for raw in entries[:mine]:
        watcher.receive(raw, 0.0)
    forged = dict(body, Y=typed[first][1]["Y"])
    if valid_proof:
        k0 = game.peers[0]._secrets.k
        assert k0 is not None and watcher.game_id is not None
        forged["proof"] = prove_key(proof_context(watcher.game_id, mine, 1, "keys"), k0,
                                    SeededRandom(b"colluder")).to_wire()
    key = game.peers[1]._identity
    assert key is not None
    watcher.receive(sign_frame(key, header, forged), 0.0)
    blame = watcher.blame
    return (None, None) if blame is None else (blame.check, blame.culprit)


def test_keys_checks_its_proof_before_the_repeated_key() -> None:
    """Order in `keys`: `proof:key` first, then `keys` (Y distinct from earlier keys)."""
    assert _keys_forgery(valid_proof=False) == ("proof:key", 1)
    assert _keys_forgery(valid_proof=True) == ("keys", 1)


def _open_forgery(points: int, drop_opening: bool) -> tuple[str | None, int | None]:
    """An ``open`` re-signed by its sender with ``points`` of its envelope points (3: all)
    and, with ``drop_opening``, its last opening left out. (check, culprit)."""
    from p2pclue.engine.peer import Peer
    from p2pclue.engine.wire import read_payload, sign_frame, split_frame
    from tests.engine.conftest import finished_game

    game = finished_game(3, "classic", 1)
    entries = game.peers[0].entries
    typed = [read_payload(split_frame(raw)[1]) for raw in entries]
    index = next(i for i, (h, b) in enumerate(typed) if h.type == "open" and b["openings"])
    header, body = typed[index]
    watcher = Peer(game.peers[0].config, None, relay=False)
    for raw in entries[:index]:
        watcher.receive(raw, 0.0)
    forged = dict(body, points=body["points"][:points])
    if drop_opening:
        forged["openings"] = body["openings"][:-1]
    key = game.peers[header.sender]._identity
    assert key is not None
    watcher.receive(sign_frame(key, header, forged), 0.0)
    blame = watcher.blame
    assert blame is None or blame.culprit == header.sender
    return (None, None) if blame is None else (blame.check, header.sender)


def test_open_checks_its_points_count_then_the_dleq_then_the_openings_count() -> None:
    check, _ = _open_forgery(2, drop_opening=True)
    assert check == "proof:dleq-batch"  # the count of points first, whatever the openings
    check, _ = _open_forgery(3, drop_opening=True)
    assert check == "proof:opening"  # a valid unlayer, then the openings' count
    assert _open_forgery(3, drop_opening=False) == (None, None)  # the real one re-signed


def test_an_unfinished_file_holding_the_last_secrets_has_the_finished_verdict() -> None:
    """Every field as the finished file's but `unfinished`, the note and the file's hash."""
    from p2pclue.engine.audit import audit, audit_unfinished
    from p2pclue.engine.transcript import entry_bytes, opening_bytes
    from tests.engine.conftest import finished_game

    peer = finished_game(3, "classic", 1).peers[0]
    data = peer.transcript().to_bytes()
    finished = audit(parse(data), data).to_json()
    cut = opening_bytes(peer.config) + b"".join(entry_bytes(e) for e in peer.entries)
    assert data.startswith(cut) and len(cut) < len(data)  # the same file without its end
    unfinished = audit_unfinished(peer.config, list(peer.entries), cut).to_json()
    differ = {k for k in finished if finished[k] != unfinished[k]}
    assert differ == {"unfinished", "notes", "transcript_sha256"}
    assert finished["result"] == "won" and finished["envelope"] and finished["hands"]
    assert unfinished["unfinished"] is True and unfinished["valid"] is True
    assert any("the game is complete, only the footer is missing" in n
               for n in unfinished["notes"])


@pytest.mark.parametrize("outer", [1, 2, 9])
def test_a_signed_undecodable_payload_naming_this_game_is_blamed_in_any_envelope(
        outer: int) -> None:
    """Seat 1 signs a payload for this game with an extra key (not strict): its signer is
    blamed (`message`) whether the outer sender says 1, another seat or no seat."""
    from p2pclue.engine.peer import Peer
    from p2pclue.engine.wire import SIGNING_PREFIX
    from tests.engine.conftest import finished_game

    game = finished_game(3, "classic", 1)
    config, key = game.peers[0].config, game.peers[1]._identity
    assert key is not None
    watcher = Peer(config, None, relay=False)
    payload = pack({"v": 1, "game": config.digest(), "from": 1, "seq": 0, "prev": bytes(32),
                    "type": "end_turn", "body": {}, "extra": 1})
    watcher.receive(pack([outer, payload, key.sign(SIGNING_PREFIX + payload)]), 0.0)
    assert watcher.blame is not None
    assert (watcher.blame.culprit, watcher.blame.check) == (1, "message")
    other = Peer(config, None, relay=False)  # the same bytes for another game: dropped
    elsewhere = pack({"v": 1, "game": bytes(32), "from": 1, "seq": 0, "prev": bytes(32),
                      "type": "end_turn", "body": {}, "extra": 1})
    other.receive(pack([outer, elsewhere, key.sign(SIGNING_PREFIX + elsewhere)]), 0.0)
    assert other.blame is None and other.dropped_count == 1
