"""p2pclue: Clue for 3 to 6 players on one LAN, with nobody to trust.

Layers, imports flowing one way (each may import only those listed before it):
``rules`` (pure game rules) -> ``crypto`` (group, deck, proofs) -> ``engine``
(sans-IO protocol peer) -> ``bots`` -> ``net`` / ``tui`` / ``cli`` / ``bench``.
"""

__version__ = "0.1.0"
PROTOCOL_VERSION = 1
