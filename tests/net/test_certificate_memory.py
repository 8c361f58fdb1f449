"""A partition heals and the abandon certificate ends every seat the same way.

Four real session cores on the in-memory transport (real keys, real cryptography, real
frames, the table's clock), rebuilt from their own secrets where seat S owes a PET step
and sends it at once. Nothing reaches seat A or leaves it but B's vote; nothing reaches B
until B's own deadline has passed. A and B vote abandon at their deadlines: A gets
B's vote, counts the quorum (2 of 3) and closes its file abandoned at that point; B gets
S's step and plays on. Then everything on the wire is delivered (the heal): A's vote and
certificate reach B, C and S, and every seat closes the same file: the entries before the
point, the footer with A's and B's votes. Before certificates A's file and B's differed
(each audited valid).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from p2pclue.crypto.rand import SeededRandom
from p2pclue.engine.audit import audit
from p2pclue.engine.peer_secrets import PeerSecrets
from p2pclue.engine.transcript import Transcript, parse
from p2pclue.net.core import SessionCore, Settings
from p2pclue.net.lobby import Address, Start
from p2pclue.net.memory import MemoryTable
from tests.engine.accuser_owes import N, accusing_game, owed_point
from tests.net.core_table import address

TIMEOUT = 30.0


def test_a_healed_partition_ends_every_seat_at_the_certificates_point() -> None:
    game = accusing_game()
    owed, accuser = owed_point()
    point = owed - 1
    silent = (accuser + N - 1) % N
    a = next(s for s in range(N) if s not in (silent, accuser))
    b = accuser
    keys = [p._identity for p in game.peers if p._identity is not None]
    pub = [k.public_key().public_bytes_raw() for k in keys]
    start = Start(game.config, tuple(bytes(32) for _ in keys), tuple(bytes(64) for _ in keys),
                  tuple(Address(pub[i], "player", *address(i)) for i in range(N)))
    settings = Settings("seat", TIMEOUT, 3, (0.0, 0.0), game_files=True)
    table = MemoryTable()
    t0 = table.now
    cores = []
    for seat in range(N):
        core = SessionCore(start, keys[seat], settings, t0,
                           src=SeededRandom(b"cert-mem/%d" % seat), rng=random.Random(seat),
                           host_addr=None)
        secrets = PeerSecrets.from_bytes(game.peers[seat].export_secrets().to_bytes())
        core.restore(secrets, list(game.peers[seat].entries[:point]), t0)
        cores.append(core)
        member = table.add(core, address(seat))
        member.disk.entries = list(game.peers[seat].entries[:point])
    table.mesh()

    def free(i: int) -> bool:
        m = table.wire[i]
        return pub[a] not in (m.src, m.dst) and m.dst != pub[b]

    def flow(ok: Callable[[int], bool] = free) -> None:
        while (i := next((i for i in range(len(table.wire)) if ok(i)), None)) is not None:
            table.deliver(i)

    flow()
    assert cores[b].peer.expected_seat() == silent and len(cores[b].peer.entries) == point
    table.advance_to(t0 + TIMEOUT)  # A's and B's deadlines: both report S silent
    for seat in (a, b):
        cast, actions = cores[seat].vote("abandon", table.now)
        assert cast
        table.execute(table.members[pub[seat]], actions)
    to_a = [i for i, m in enumerate(table.wire) if m.src == pub[b] and m.dst == pub[a]]
    table.deliver(to_a[-1])  # the only thing A gets: B's vote (its last message to A)
    ended = cores[a].ended
    assert ended is not None and ended.status == "abandoned"
    assert table.members[pub[a]].disk.footer is not None

    def played_on(i: int) -> bool:  # the step reaches B now, and B plays on
        m = table.wire[i]
        return pub[a] not in (m.src, m.dst)

    table.advance_to(t0 + TIMEOUT + 1)
    flow(played_on)
    assert len(cores[b].peer.entries) > point and cores[b].ended is None
    table.run(lambda member, choice: None, patience=10 * TIMEOUT)  # the heal

    files = set()
    for seat in range(N):
        disk = table.members[pub[seat]].disk
        assert disk.footer is not None and disk.footer.status == "abandoned", seat
        assert disk.footer.blame is None and len(disk.entries) == point, seat
        files.add(Transcript(game.config, tuple(disk.entries), disk.footer).to_bytes())
    assert len(files) == 1, "the honest files differ after the heal"
    data = files.pop()
    verdict = audit(parse(data), data)
    assert verdict.valid and verdict.result == "abandoned" and verdict.blamed is None
    assert any(f"seats [{min(a, b)}, {max(a, b)}]" in n for n in verdict.notes), verdict.notes
    assert all(c.junk_charged == 0 for c in cores)
