"""D&D 5e (SRD 5.2.1) on the scene's grid: the feet a step's squares cover
(5 each; 10 in the space of a creature that is neither the mover's ally nor
Tiny, Difficult Terrain) and the sizes of creatures (T-5E-SPACES,
ASM-5E-SQUARES, ASM-5E-SIZES)."""

from __future__ import annotations

FEET_PER_SQUARE = 5
SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")    # in order
SQUARE_FEET = "square feet"     # enc.uses: a move's feet per square, when one is 10


def square_feet(enc, st) -> list:
    """The feet each part of a step covers: 5 per square (its path, its
    squares, or one), 10 for a square of its own path where a creature
    stands that is neither its ally nor Tiny (Difficult Terrain, T-5E-SPACES)."""
    if not (enc.scene and st.path and st.actor is not None and st.forced is None):
        return [FEET_PER_SQUARE] * st.parts
    mover = enc.fighters[st.actor]
    standing = {f.at: f for f in enc.fighters.values() if f.id != st.actor}
    return [2 * FEET_PER_SQUARE if _difficult(mover, standing.get(tuple(sq))) else
            FEET_PER_SQUARE for sq in st.path]


def _difficult(mover, other) -> bool:
    return other is not None and other.side != mover.side and other.size != SIZES[0]


def feet(enc, st) -> int:
    """The feet a move covers (square_feet)."""
    return sum(square_feet(enc, st))
