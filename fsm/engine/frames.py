"""The data an encounter carries: combatants with their budgets, and action frames.

Everything here is plain data with cheap copies, so that a step the rules
reject can be undone exactly (snapshot / restore) without copying the
``transitions`` machine. Nothing in this module decides a rule: each
ruleset's guards read these values and its effects change them.
"""

from __future__ import annotations

from operator import attrgetter

PENDING = "pending"    # the frame's current part has been declared, not resolved
RESOLVED = "resolved"  # the frame's current part has resolved

# Outcomes of a frame once it is finished. A frame resolved completely has the
# outcome RESOLVED, the phase of its last part: the facts name both "resolved".
LOST = "lost"
DISRUPTED = "disrupted"

# Kinds of frame that are not actions but moments of the turn. An answer's
# ``to`` may name them for the current turn's moment; the schema lists them in
# this order.
TURN_START = "turn-start"
TURN_END = "turn-end"
EVENT = "event"
TURN_KINDS = (TURN_START, TURN_END)


def moment_id(kind: str, turn: int) -> str:
    """The id of the moment ``kind`` of the turn numbered ``turn``: turn-end@3."""
    return f"{kind}@{turn}"


# What a frame keeps of the step that made it, each with its value when no step
# gave it (a turn's moment, say). A parsed step (fsm.engine.steps.Step) has the
# same attributes with the same defaults, and push_frame copies them: a field
# the frame carries is declared here once.
CARRIED = {
    "parts": 1,              # the pieces a reaction may fall between
    "provokes": (),          # whom it provokes, as stated
    "labels": ("",),         # the trigger labels it presents
    "cost": 0,               # the actions it costs
    "moving": False,         # a move: a reaction may break into it
    "name": None,
    # The scene (fsm.engine.scene): the squares entered, one per part; whether
    # it is a shift; the kind of attack and its targets.
    "path": (),
    "shift": False,
    "attack": None,
    "targets": (),
    # How a path moves its owner when it is not the owner's own movement (an
    # event's path: its ruleset's forced kinds)
    "forced": None,
    "flags": frozenset(),    # the true/false fields of its step (a spell, say)
}
CARRIED_DEFAULTS = tuple(CARRIED.values())
carried_of = attrgetter(*CARRIED)   # a step (or frame) -> its carried values, in order


class Frame:
    """One entry of the action stack: an action, a response or an event.

    A frame is a trigger too: responses name the frame they answer. ``parts``
    splits an action into the pieces a reaction may fall between (squares of
    a move, attack rolls of a multi-attack power, actions of an activity).
    """

    __slots__ = (
        "id", "owner", "kind", "response", "done", "phase", "outcome", "parent", "turn",
        "interrupted", "closed", "step", "readies", "window_part", "kept", "closed_by",
        "start", *CARRIED,
    )

    def __init__(self, id, owner, kind, *, response=False, parent=None, turn=0, step=0,
                 phase=PENDING, start=None, carried=CARRIED_DEFAULTS):
        self.id = id
        self.owner = owner
        self.kind = kind
        self.response = response
        self.done = 0
        self.phase = phase
        self.outcome = None
        self.parent = parent
        self.turn = turn
        self.interrupted = False
        self.closed = False
        self.step = step
        self.readies = None
        # The window of the frame's latest resolved part: open while
        # window_part == done >= 1 (spec/TIMING.md, T-WINDOW).
        self.window_part = 0
        # Off the stack with its window still open (T-CUT-IN).
        self.kept = False
        # Who closed its window, and with which step: (step number, words).
        self.closed_by = None
        self.start = start          # where its path starts
        carry(self, carried)        # CARRIED's values, in its order (carried_of)

    @property
    def between_parts(self) -> bool:
        """True when a part has resolved and more parts remain."""
        return self.outcome is None and self.phase == RESOLVED and self.done < self.parts

    @property
    def pending(self) -> bool:
        """True while the frame's current part is declared and not resolved."""
        return self.phase == PENDING and self.outcome is None

    @property
    def after_open(self) -> bool:
        """True while the window of the latest resolved part is open."""
        return not self.closed and self.done >= 1 and self.window_part == self.done

    @property
    def occurrence(self) -> int:
        """Which occurrence of this trigger is in play: the part pending, the
        part that last resolved, or the part that was lost or disrupted
        (turn moments are one occurrence, and so is a move, whichever of its
        squares is in play: spec/TIMING.md, T-OCCURRENCE)."""
        if self.kind in TURN_KINDS or self.moving:
            return 1
        if self.phase == PENDING or self.outcome in (LOST, DISRUPTED):
            return self.done + 1
        return self.done

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return (f"Frame({self.id!r}, {self.kind}, owner={self.owner}, "
                f"{self.phase} {self.done}/{self.parts}, outcome={self.outcome})")


class Journal:
    """Copy on write for fighters: while a snapshot is open, the first change
    to a fighter saves its values, so that undoing a step restores only the
    fighters it touched, whatever the size of the encounter."""

    __slots__ = ("open", "changed")

    def __init__(self):
        self.open: list = []      # one {fighter: values} per open snapshot, innermost last
        # the fighters changed since the crowd's classes were last brought up
        # to date (fsm.engine.crowd); None while nobody keeps them
        self.changed: set | None = None


def field_kind(bounds) -> str:
    """What a combatant field of ``Fighter.FIELDS`` holds: ``"flag"`` (true or
    false), ``"count"`` (an integer between two bounds) or ``"choice"`` (one
    of its words)."""
    if bounds is bool:
        return "flag"
    return "choice" if isinstance(bounds[0], str) else "count"


class Fighter:
    """A combatant: its id and side, how many of its turns have started, and
    the budgets its ruleset keeps (a subclass of each ruleset adds slots).
    Every change goes through the encounter's :class:`Journal`."""

    __slots__ = ("id", "side", "turns_started", "at", "reach", "_journal")

    # combatant fields a scenario may set: (lowest, highest) for an integer,
    # ``bool`` for true or false, a tuple of strings for one of those words
    # (field_kind tells them apart)
    FIELDS: dict = {}

    def __setattr__(self, name, value):
        journal = self._journal
        if journal is not None:
            for saved in journal.open:
                if self not in saved:
                    saved[self] = _slots_of(type(self))[0](self)
            if journal.changed is not None:
                journal.changed.add(self)
        object.__setattr__(self, name, value)

    def __init__(self, id: str, side: str, **fields):
        object.__setattr__(self, "_journal", None)
        self.id = id
        self.side = side
        self.turns_started = 0
        self.at = None          # the square it stands on, when the encounter has a scene
        self.reach = 1

    def attach(self, journal: Journal) -> None:
        """Record this fighter's changes in ``journal`` (its encounter's)."""
        object.__setattr__(self, "_journal", journal)


# -- every slot at once: snapshots are taken before most steps, so these are hot --

def _slot_setter_for(slots):
    """``set(obj, values)`` assigning every slot in one statement (generated:
    a setattr loop costs several times more)."""
    targets = ", ".join(f"obj.{slot}" for slot in slots) + ","
    namespace: dict = {}
    exec(f"def set_slots(obj, values):\n    {targets} = values\n", namespace)
    return namespace["set_slots"]


def _slot_setter(cls):
    return _slot_setter_for(cls.__slots__)


carry = _slot_setter_for(tuple(CARRIED))   # (obj, CARRIED's values in order)


def _raw_setter_for(slots):
    """``set(obj, values)`` past a class's own ``__setattr__`` (restoring saved
    values is not a change to record)."""
    body = "\n".join(f"    _set(obj, {slot!r}, values[{i}])" for i, slot in enumerate(slots))
    namespace: dict = {}
    exec(f"def set_slots(obj, values, _set=object.__setattr__):\n{body}\n", namespace)
    return namespace["set_slots"]


def all_slots(cls) -> tuple:
    """Every slot of ``cls`` and of its bases, bases first."""
    out = []
    for klass in reversed(cls.__mro__):
        out.extend(getattr(klass, "__slots__", ()))
    return tuple(dict.fromkeys(out))


_SLOTS: dict = {}


def _slots_of(cls):
    """(getter of every slot as a tuple, setter of every slot) for ``cls``."""
    pair = _SLOTS.get(cls)
    if pair is None:
        slots = tuple(s for s in all_slots(cls) if not s.startswith("_"))
        pair = _SLOTS[cls] = (attrgetter(*slots), _raw_setter_for(slots))
    return pair


def fighter_values(fighter) -> tuple:
    return _slots_of(type(fighter))[0](fighter)


def set_fighter(fighter, values) -> None:
    _slots_of(type(fighter))[1](fighter, values)


frame_values = attrgetter(*Frame.__slots__)        # frame -> tuple of its slots
set_frame = _slot_setter(Frame)


def frame_from(values) -> Frame:
    """A new frame holding ``values`` (as given by :func:`frame_values`)."""
    frame = Frame.__new__(Frame)
    set_frame(frame, values)
    return frame
