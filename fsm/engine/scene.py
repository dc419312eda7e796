"""The optional scene: combatants' positions on a square grid, the squares a
move enters, and whom an attack targets. The words a step may use of it
(kinds of attack, forced movements) are its ruleset's.

An encounter has a scene when its combatants are given positions (``at``);
then a move may give its ``path`` and is split into one part per square, and
each square resolved moves its owner there (a step that attacks after its
path has one part more, the attack, which moves nobody). Distances count a diagonal step
as one square, as the published grid rules do (spec/divergences.yaml,
ASM-SCENE-GRID). What a ruleset derives from the scene (who is provoked,
when a reach is entered, which attack can no longer reach) is its own.
"""

from __future__ import annotations

from ..errors import StepError

COORDINATE = 10_000             # squares lie within this many of the origin
MAX_REACH = 20


def distance(a, b) -> int:
    """Squares between two squares, a diagonal step counting as one."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def adjacent(a, b) -> bool:
    return distance(a, b) == 1


def within_reach(fighter, square) -> bool:
    return distance(fighter.at, square) <= fighter.reach


def show(square) -> str:
    return f"({square[0]},{square[1]})"


def square(value, what: str, field: str) -> tuple:
    """``[x, y]`` as a tuple of two integers within the grid (StepError if not)."""
    if not (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool)
                    and -COORDINATE <= v <= COORDINATE for v in value)):
        raise StepError(f"{what} must be a square [x, y] of two integers from "
                        f"{-COORDINATE} to {COORDINATE}, not {value!r}", field)
    return (value[0], value[1])


def place(fighters, combatants) -> bool:
    """Set each fighter's ``at`` and ``reach`` from the combatants' objects;
    True when the encounter has a scene. Positions are all or none."""
    placed = [c for c in combatants if isinstance(c, dict) and "at" in c]
    if placed and len(placed) != len(fighters):
        missing = [cid for cid, f in fighters.items()
                   if not any(isinstance(c, dict) and c.get("id") == cid for c in placed)]
        raise StepError(f"give every combatant a position 'at', or none (missing: "
                        f"{', '.join(missing)})", "combatants")
    taken: dict = {}
    for c in placed:
        f = fighters[c["id"]]
        f.at = square(c["at"], f"combatant {f.id}: 'at'", "combatants")
        if f.at in taken:
            raise StepError(f"combatants {taken[f.at]} and {f.id} are both at {show(f.at)}",
                            "combatants")
        taken[f.at] = f.id
    for c in combatants:
        if isinstance(c, dict) and "reach" in c:
            reach = c["reach"]
            if not placed:
                raise StepError(f"combatant {c.get('id')}: 'reach' needs positions ('at')",
                                "combatants")
            if not isinstance(reach, int) or isinstance(reach, bool) \
                    or not 1 <= reach <= MAX_REACH:
                raise StepError(f"combatant {c.get('id')}: 'reach' must be an integer "
                                f"from 1 to {MAX_REACH}", "combatants")
            fighters[c["id"]].reach = reach
    return bool(placed)


def read(enc, st, data) -> None:
    """The scene fields of a step: ``path``, ``shift``, ``attack``, ``targets``
    and ``forced``; the values ``attack`` and ``forced`` take are the ruleset's
    (:class:`fsm.rulesets.SceneWords`). A step of the actor's own whose kind
    takes the flag named after the jump (``teleport: true``) is that jump:
    its path is the one square arrived at, and it is no walk."""
    words = enc.ruleset.scene
    if "attack" in data:
        if data["attack"] not in words.attack_kinds:
            raise StepError(f"'attack' must be one of {', '.join(words.attack_kinds)}",
                            "attack")
        st.attack = data["attack"]
    if "targets" in data:
        targets = data["targets"]
        if not isinstance(targets, list) or not targets or \
                not all(isinstance(t, str) for t in targets):
            raise StepError("'targets' must be a non-empty list of combatant ids", "targets")
        for t in targets:
            if t not in enc.fighters:
                raise StepError(f"'targets' names unknown combatant {t!r}", "targets",
                                "unknown-combatant")
        st.targets = tuple(targets)
    if "shift" in data:
        if not isinstance(data["shift"], bool):
            raise StepError("'shift' must be true or false", "shift")
        if "path" not in data:
            raise StepError("'shift' says how a path is taken: give the 'path'", "shift",
                            "shift-without-path")
        st.shift = data["shift"]
    if "forced" in data:
        if st.kind != "event":      # the kind before the value (T-ERRORS)
            raise StepError(f"'forced' moves a combatant by an event, not by the {st.kind} "
                            "step", "forced", "field-of-another-kind")
        if data["forced"] not in words.forced_kinds:
            raise StepError(f"'forced' must be one of {', '.join(words.forced_kinds)}",
                            "forced")
        if "path" not in data:
            raise StepError("'forced' says how a path is taken: give the 'path'", "forced",
                            "forced-without-path")
        if "shift" in data:
            raise StepError("a forced path is no shift: give 'forced' or 'shift'", "shift",
                            "field-of-another-kind")
        st.forced = data["forced"]
    if _ticked(enc, st, data, words.jump):
        st.forced = words.jump      # its own teleport: the jump, without a push (T-SCENE)
    if "path" in data:
        _path(enc, st, data)


def _ticked(enc, st, data, flag) -> bool:
    """Whether the step says ``flag: true`` and its kind takes that flag."""
    spec = enc.ruleset.spec_of.get(st.kind)
    return bool(flag) and data.get(flag) is True and spec is not None and flag in spec.flags


def attacks_after(enc, frame) -> bool:
    """Whether ``frame``'s (or a step's) last part is an attack of its own
    after its path, made from the path's last square (T-SCENE)."""
    after = enc.ruleset.scene.after
    return bool(frame.path) and after is not None and after in frame.flags


def on_path(frame) -> bool:
    """Whether the part of ``frame`` in play (pending, or next) is a square
    of its path, not the attack after it."""
    return bool(frame.path) and frame.done < len(frame.path)


def _path(enc, st, data) -> None:
    if not enc.scene:
        raise StepError("'path' needs a scene: give every combatant a position 'at'", "path",
                        "path-without-scene")
    if st.actor is None:
        raise StepError("a 'path' is walked by its 'actor'", "path", "missing-actor")
    path = data["path"]
    if not isinstance(path, list) or not 1 <= len(path) <= 100:
        raise StepError("'path' must be a list of 1 to 100 squares [x, y]", "path")
    squares = tuple(square(s, "each square of 'path'", "path") for s in path)
    here = enc.fighters[st.actor].at
    jump = st.forced is not None and st.forced == enc.ruleset.scene.jump
    if jump and len(squares) != 1:
        raise StepError("a teleport's 'path' is the one square arrived at", "path", "bad-path")
    for n, sq in enumerate(squares, 1):
        if not jump and not adjacent(here, sq):
            raise StepError(f"square {n} of 'path', {show(sq)}, is not next to "
                            f"{show(here)}", "path", "bad-path")
        here = sq
    for f in enc.fighters.values():
        if f.id != st.actor and f.at == squares[-1]:
            raise StepError(f"'path' ends on {show(squares[-1])}, where {f.id} stands",
                            "path", "bad-path")
    given = [k for k in ("squares", "attacks", "parts") if k in data]
    if given and not (given == ["squares"] and data["squares"] == len(squares)):
        raise StepError(f"'{given[0]}' disagrees with the path of {len(squares)} "
                        f"square(s); give the path alone", given[0], "two-part-counts")
    st.path = squares
    # an attack after the path is a part of its own, after the squares (T-SCENE)
    st.parts = len(squares) + _ticked(enc, st, data, enc.ruleset.scene.after)
    st.moving = True
