"""Pure game rules and the board: no crypto, no I/O, no randomness of its own.

Everything hidden or random (the deal, dice, which card is shown, whether an
accusation is right) is an input, so the protocol layer can supply it from the
cryptography and every peer can check every step.
"""
