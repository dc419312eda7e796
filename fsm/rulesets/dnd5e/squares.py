"""D&D 5e (SRD 5.2.1): the feet a step's squares cover (5 each; 5 more in
Difficult Terrain: a move that says so, or the space of a creature that is
neither the mover's ally nor Tiny; 5 more when a Prone creature crawls; half
its Speed to stand up)
and the sizes of creatures (T-5E-SPACES, T-5E-PRONE, ASM-5E-SQUARES,
ASM-5E-SIZES)."""

from __future__ import annotations

FEET_PER_SQUARE = 5
SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")    # in order
STAND = "stand"                 # a move's: it stands up from Prone first (T-5E-PRONE)
DIFFICULT = "difficult"         # a move's: each of its squares is Difficult Terrain


def square_feet(enc, st) -> list:
    """The feet each part of a step covers: 5 per square (its path, its
    squares, or one); 5 more for each square of a step that says
    ``difficult``, or else for a square of its own path where a creature
    stands that is neither its ally nor Tiny (Difficult Terrain, counted once:
    T-5E-SPACES); 5 more a square when a Prone mover crawls; half its Speed
    more on the first part when it stands up, which is its only part when it
    gives no square (T-5E-PRONE). A forced path or a teleport covers none."""
    if st.forced is not None:
        return [0] * st.parts                         # moved or teleported: no feet of its own
    mover = enc.fighters.get(st.actor)
    if mover is None:
        return [FEET_PER_SQUARE] * st.parts
    stand = STAND in st.flags
    if stand and not st.path and not st.counted:
        return [standing_feet(mover)]                 # it only stands up
    rough = DIFFICULT in st.flags
    costs = [FEET_PER_SQUARE * (2 if rough else 1)] * st.parts
    if enc.scene and st.path and not rough:
        others = {f.at: f for f in enc.fighters.values() if f.id != st.actor}
        costs = [cost + FEET_PER_SQUARE * _difficult(mover, others.get(tuple(sq)))
                 for cost, sq in zip(costs, st.path)]
    if mover.prone and not stand:                     # it crawls
        costs = [cost + FEET_PER_SQUARE for cost in costs]
    if stand:
        costs[0] += standing_feet(mover)
    return costs


def standing_feet(mover) -> int:
    """What standing up from Prone costs: half the Speed, rounded down, at
    least 1 foot (with a Speed of 0 one cannot stand)."""
    return max(mover.speed // 2, 1)


def _difficult(mover, other) -> bool:
    return other is not None and other.side != mover.side and other.size != SIZES[0]


def feet(enc, st) -> int:
    """The feet a move covers (square_feet)."""
    return sum(square_feet(enc, st))
