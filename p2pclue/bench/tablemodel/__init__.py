"""A generative fault model of a whole table: session cores on the in-memory transport,
driven by Hypothesis's rule-based state machine (``machine``), with the faults a LAN and
its players can produce and the properties the protocol promises checked after every
step (``checks``). ``p2pclue bench --only model`` runs it deep; the test suite runs a
bounded profile of the same machine.
"""
