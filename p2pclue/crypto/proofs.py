"""One import for every proof: dataclasses (wire form) and their prove/verify functions.

Each proof type lives in its own module; this facade is what the engine imports.
"""

from __future__ import annotations

from p2pclue.crypto.commitshow import (
    CommitShowProof,
    Opening,
    check_opening,
    commit_card,
    equivocate,
    find_opening,
    prove_commit_show,
    show_rho,
    verify_commit_show,
)
from p2pclue.crypto.dleq import (
    DleqBatchProof,
    DleqProof,
    open_public,
    prove_dleq,
    prove_dleq_batch,
    reveal_to_owner,
    unlayer,
    verify_dleq,
    verify_dleq_batch,
    verify_unlayer,
)
from p2pclue.crypto.heldopening import (
    HeldProof,
    PublicOpening,
    prove_public_opening,
    verify_held,
    verify_public_opening,
)
from p2pclue.crypto.holdnone import NoneProof, prove_none, prove_none_unchecked, verify_none
from p2pclue.crypto.keys import KeyProof, keypair, prove_key, verify_key
from p2pclue.crypto.pet import (
    PetStepProof,
    pet_result,
    pet_start,
    pet_step,
    pet_weights,
    verify_pet_step,
)
from p2pclue.crypto.sealedopening import (
    SealedOpening,
    open_sealed,
    seal_opening,
    verify_sealed_opening,
)
from p2pclue.crypto.show import Ciphertext, ShowProof, decrypt_shown, prove_show, verify_show
from p2pclue.crypto.shuffleproof import ShuffleProof, prove_shuffle, shuffle, verify_shuffle

__all__ = [
    "Ciphertext",
    "CommitShowProof",
    "DleqBatchProof",
    "DleqProof",
    "HeldProof",
    "KeyProof",
    "NoneProof",
    "Opening",
    "PetStepProof",
    "PublicOpening",
    "SealedOpening",
    "ShowProof",
    "ShuffleProof",
    "check_opening",
    "commit_card",
    "decrypt_shown",
    "equivocate",
    "find_opening",
    "keypair",
    "open_public",
    "open_sealed",
    "pet_result",
    "pet_start",
    "pet_step",
    "pet_weights",
    "prove_commit_show",
    "prove_dleq",
    "prove_dleq_batch",
    "prove_key",
    "prove_none",
    "prove_none_unchecked",
    "prove_public_opening",
    "prove_show",
    "prove_shuffle",
    "reveal_to_owner",
    "seal_opening",
    "show_rho",
    "shuffle",
    "unlayer",
    "verify_commit_show",
    "verify_dleq",
    "verify_dleq_batch",
    "verify_held",
    "verify_key",
    "verify_none",
    "verify_pet_step",
    "verify_public_opening",
    "verify_sealed_opening",
    "verify_show",
    "verify_shuffle",
    "verify_unlayer",
]
