"""``join --resume`` as a process, where there is nothing to resume.

A player process killed with SIGKILL mid-game and brought back by ``join --resume`` (four
processes, byte-identical transcripts, a valid audit, the table seeing it away and back)
is the crash game of tests/net/test_fault_campaign.py; a person's ``join`` coming back is
tests/net/test_resume_person.py.
"""

from __future__ import annotations

from tests.net.procs import Procs


def test_resume_without_a_game_is_a_clear_error(procs: Procs) -> None:
    p = procs.p2pclue("resume", "join", "--resume", "--bot", "random", "--profile", "nobody")
    code, _out, err = p.finish()
    assert code == 2 and "no unfinished game" in err and "Traceback" not in err
