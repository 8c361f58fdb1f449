"""Group, deck operations, zero-knowledge proofs and shared randomness. No I/O."""
