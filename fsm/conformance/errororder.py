"""Generated vectors for the order of errors (T-ERRORS): one step with two
faults, the one T-ERRORS reads first expected.

The faults below follow T-ERRORS' written order, one entry per check, each
reading of the table of a step's fields (:data:`fsm.engine.steps.READINGS`)
with its own (:data:`READ_FAULTS`), in the table's order. For each
fault, the next one in the order that can share a step with it (a step kind
both apply to, no field in common, another error code) makes a pair; every
pair is written twice, its fields in the order read and reversed, so an engine
that reads two fields the other way round fails two vectors, and one that
reads a step's fields in the order they are written fails one. A fault that
no later one can share a step with is held alone (twice as well), so every
fault's code is expected somewhere. The reference
plays every fault alone and every pair before it is written: a fault that
does not give its own code, or a pair that does not give its first fault's,
is a :class:`MisOrdered` (a test holds there is none).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..engine.rows import END_TURN, EVENT
from ..engine.steps import ANY_COMBATANT, READINGS, makes_frame
from ..errors import FsmError, StepError
from ..io.scenario import FORMAT
from ..rulesets import RULESETS
from ..scenario import build

FIRST, SECOND = "ayla", "orc"          # the active combatant, and another
AT = {FIRST: [0, 0], SECOND: [2, 0]}
DELETE = object()                      # a fault that takes a field away
WHATEVER = ", whatever the order its fields are written in"


class MisOrdered(FsmError):
    """The reference does not read a step's faults in T-ERRORS' order."""


@dataclass(frozen=True)
class Fault:
    name: str                 # in words, for the file name and description
    code: str                 # the error it gives alone
    fields: dict              # set on the step (DELETE: taken away)
    kinds: tuple              # the step kinds it applies to, preferred first
    scene: bool | None = None  # True: needs positions; False: needs none
    keys: frozenset = field(default=frozenset())

    def touches(self) -> frozenset:
        return frozenset(self.fields) | self.keys


def _kinds(rs) -> tuple:
    """Representative step kinds of ``rs``, preferred first: what each fault is tried on."""
    specs = rs.step_specs
    plain = [x for x in sorted(rs.turn_actions) if x not in rs.spec_of and makes_frame(rs, x)]
    turn = (plain or sorted(rs.turn_actions))[0]
    answer = sorted(rs.answer_kinds)[0]
    stack = sorted(rs.stack_moves)[-1]
    activity = [s.kind for s in specs if s.cost_field]
    texts = [s.kind for s in specs if s.text_fields]
    flagged = [s.kind for s in specs if s.flags]
    return tuple(dict.fromkeys([turn, answer, EVENT, stack, END_TURN, *activity, *texts,
                                 *flagged]))


class _Kinds:
    """The step kinds of ``rs`` each fault is tried on, preferred first."""

    def __init__(self, rs):
        self.every = every = _kinds(rs)
        self.frame = tuple(x for x in every if makes_frame(rs, x))
        self.walker = tuple(x for x in self.frame if x != EVENT)   # a path walked by an actor
        self.needs_actor = tuple(x for x in every
                                 if x in rs.turn_actions or x in rs.answer_kinds)
        self.answers = tuple(x for x in every if x in rs.answer_kinds)
        self.others = tuple(x for x in every if x not in rs.answer_kinds)
        self.no_frame = tuple(x for x in every if not makes_frame(rs, x))
        self.activity = tuple(s.kind for s in rs.step_specs if s.cost_field)
        # the ruleset's words of forced movement: one walked (None if none)
        self.walked = next((k for k in rs.scene.forced_kinds if k != rs.scene.jump), None)


def faults(rs) -> list[Fault]:
    """The faults a step of ``rs`` can have, in the order T-ERRORS reads them:
    an unknown field, then each reading of the table of a step's fields
    (:data:`fsm.engine.steps.READINGS`) in its order, the faults of each
    giving the codes it declares, then a trigger that is not there."""
    k = _Kinds(rs)
    out = [Fault("an unknown field", "unknown-field", {"colour": "red"}, k.every)]
    for reading in READINGS:
        out += [g for f in READ_FAULTS[reading.name](rs, k)
                if None not in f.fields.values() for g in _with_a_count(f)]
    out.append(Fault("a 'to' naming no frame", "unknown-trigger", {"to": "nowhere"},
                     k.answers))
    return out


def _kind_faults(rs, k) -> list[Fault]:
    return [Fault("no kind", "missing-kind", {"do": DELETE}, k.every),
            Fault("an unknown kind", "unknown-kind", {"do": "juggle"}, k.every),
            Fault("a frame's field on a step that makes none", "field-of-another-kind",
                  {"attacks": 2}, k.no_frame),
            Fault("a frame's field of a bad value on a step that makes none",
                  "field-of-another-kind", {"parts": 0}, k.no_frame)]


def _actor_faults(rs, k) -> list[Fault]:
    return [Fault("an unknown actor", "unknown-combatant", {"actor": "nobody"}, k.every),
            Fault("an actor that is no string", "bad-value", {"actor": 7}, k.every),
            Fault("no actor", "missing-actor", {"actor": DELETE}, k.needs_actor)]


def _id_faults(rs, k) -> list[Fault]:
    return [Fault("an empty id", "bad-value", {"id": ""}, k.every),
            Fault("a moment's id", "id-taken", {"id": "turn-start@1"}, k.every)]


def _answers_only(k, field, article, value) -> list[Fault]:
    """A field only an answer takes: on a step that answers nothing, there
    and of a bad type, then of a bad type on an answer."""
    return [Fault(f"{article} '{field}' on a step that answers nothing",
                  "field-of-another-kind", {field: value}, k.others),
            Fault(f"{article} '{field}' that is no string on a step that answers nothing",
                  "field-of-another-kind", {field: 5}, k.others),
            Fault(f"{article} '{field}' that is no string", "bad-value", {field: 5}, k.answers)]


def _to_faults(rs, k) -> list[Fault]:
    return _answers_only(k, "to", "a", "s1")


def _on_faults(rs, k) -> list[Fault]:
    return _answers_only(k, "on", "an", "hit")


def _counts_faults(rs, k) -> list[Fault]:
    return [Fault("two part counts", "two-part-counts", {"squares": 2, "parts": 2}, k.frame),
            Fault("a part count of 0", "bad-value", {"parts": 0}, k.frame)]


def _lists_faults(rs, k) -> list[Fault]:
    return [Fault("'provokes' that is no list", "bad-value", {"provokes": SECOND}, k.frame),
            Fault("'provokes' naming nobody known", "unknown-combatant",
                  {"provokes": ["nobody"]}, k.frame),
            Fault("empty 'triggers'", "bad-value", {"triggers": []}, k.frame)]


def _scene_faults(rs, k) -> list[Fault]:
    path = frozenset({"path"})
    return [
        Fault("an unknown attack kind", "bad-value", {"attack": "psychic"}, k.frame),
        Fault("'targets' naming nobody known", "unknown-combatant",
              {"targets": ["nobody"]}, k.frame),
        Fault("empty 'targets'", "bad-value", {"targets": []}, k.frame),
        Fault("a 'shift' that is not true or false", "bad-value", {"shift": "yes"}, k.frame),
        Fault("a 'shift' without a path", "shift-without-path", {"shift": True}, k.frame,
              keys=path),
        Fault("'forced' outside an event", "field-of-another-kind", {"forced": k.walked},
              k.walker, keys=path),
        Fault("'forced' of an unknown kind outside an event", "field-of-another-kind",
              {"forced": "yank"}, k.walker, keys=path),
        Fault("an unknown kind of forced movement", "bad-value", {"forced": "yank"},
              (EVENT,)),
        Fault("'forced' without a path", "forced-without-path", {"forced": k.walked},
              (EVENT,), keys=path),
        Fault("a path without a scene", "path-without-scene", {"path": [[1, 0]]}, k.walker,
              scene=False),
        Fault("a path nobody walks", "missing-actor", {"path": [[1, 0]]}, (EVENT,),
              scene=True, keys=frozenset({"actor"})),
        Fault("a path that is no list", "bad-value", {"path": "east"}, k.walker, scene=True),
        Fault("a teleport of two squares", "bad-path",
              {"forced": rs.scene.jump, "actor": FIRST, "path": [[5, 5], [6, 6]]}, (EVENT,),
              scene=True),
        Fault("a path that jumps", "bad-path", {"path": [[5, 5]]}, k.walker, scene=True),
        *_walked_jumps(rs, k.walker),
        Fault("a path ending on a combatant", "bad-path", {"path": [[1, 0], AT[SECOND]]},
              k.walker, scene=True),
        Fault("a part count beside a path", "two-part-counts",
              {"path": [[1, 0]], "attacks": 1}, k.walker, scene=True),
    ]


def _cost_faults(rs, k) -> list[Fault]:
    if not k.activity:
        return []
    plain = tuple(x for x in k.every if x not in k.activity)
    return [Fault("an activity without its cost", "missing-cost", {"cost": DELETE},
                  k.activity),
            Fault("a cost of 9 actions", "bad-value", {"cost": 9}, k.activity),
            Fault("a cost on a step that has none", "field-of-another-kind", {"cost": 1},
                  plain),
            Fault("a cost of 9 on a step that has none", "field-of-another-kind", {"cost": 9},
                  plain)]


def _ruling_faults(rs, k) -> list[Fault]:
    return [Fault("a ruling other than allow or deny", "bad-value", {"ruling": "maybe"},
                  k.every)]


def _name_faults(rs, k) -> list[Fault]:
    return [Fault("a name that is no string", "bad-value", {"name": 5}, k.every)]


def _flags_faults(rs, k) -> list[Fault]:
    out = []
    for flag in sorted(rs.flag_fields):
        owners = tuple(x for x in k.every if x in rs.spec_of and flag in rs.spec_of[x].flags)
        out += [Fault(f"'{flag}' on a step that does not take it", "field-of-another-kind",
                      {flag: True}, tuple(x for x in k.every if x not in owners)),
                Fault(f"'{flag}' neither true nor false on a step that does not take it",
                      "field-of-another-kind", {flag: "yes"},
                      tuple(x for x in k.every if x not in owners)),
                Fault(f"'{flag}' that is not true or false", "bad-value", {flag: "yes"},
                      owners)]
    return out


def _texts_faults(rs, k) -> list[Fault]:
    out = []
    for text in sorted({t for s in rs.step_specs for t in s.text_fields}):
        owners = tuple(s.kind for s in rs.step_specs if text in s.text_fields)
        out += [Fault(f"'{text}' on a step that does not take it", "field-of-another-kind",
                      {text: "a move"}, tuple(x for x in k.every if x not in owners)),
                Fault(f"'{text}' that is no string on a step that does not take it",
                      "field-of-another-kind", {text: 5},
                      tuple(x for x in k.every if x not in owners)),
                Fault(f"'{text}' that is no string", "bad-value", {text: 5}, owners)]
        words = {dict(s.choices).get(text) for s in rs.step_specs} - {None}
        if words == {ANY_COMBATANT}:                               # a combatant's id
            out.append(Fault(f"'{text}' that names no combatant", "unknown-combatant",
                             {text: "nobody"}, owners))
        elif words:                                                # a closed list of words
            out.append(Fault(f"'{text}' that is none of its words", "bad-value",
                             {text: "now and then"}, owners))
    return out


# The faults of each reading of the table (fsm.engine.steps.READINGS), by its name
READ_FAULTS = {"kind": _kind_faults, "actor": _actor_faults, "id": _id_faults,
               "to": _to_faults, "on": _on_faults, "counts": _counts_faults,
               "lists": _lists_faults, "scene": _scene_faults, "cost": _cost_faults,
               "ruling": _ruling_faults, "name": _name_faults, "flags": _flags_faults,
               "texts": _texts_faults, "unread": lambda rs, k: []}


def _walked_jumps(rs, walker) -> list[Fault]:
    """A path that jumps on a step that says it teleports but is no teleport:
    its kind takes no such flag, or the flag is not true. Its path is read
    as a walk, before the flag (T-ERRORS)."""
    jump = rs.scene.jump
    owners = tuple(x for x in walker if jump in getattr(rs.spec_of.get(x), "flags", ()))
    if not jump or not owners:
        return []
    return [Fault(f"a path that jumps, on a step whose kind takes no '{jump}' that says it",
                  "bad-path", {"path": [[5, 5]], jump: True},
                  tuple(x for x in walker if x not in owners), scene=True),
            Fault(f"a path that jumps, its '{jump}' not true", "bad-path",
                  {"path": [[5, 5]], jump: "yes"}, owners, scene=True)]


def _with_a_count(fault: Fault) -> list[Fault]:
    """A path's own fault, then the same beside a part count: it still comes
    first (T-ERRORS reads the count beside a path last)."""
    if "path" not in fault.fields or fault.code == "two-part-counts":
        return [fault]
    return [fault, replace(fault, name=f"{fault.name} beside a part count",
                           fields={**fault.fields, "attacks": 1})]


def _base(rs, kind) -> dict:
    step = {"do": kind}
    if kind in rs.turn_actions:
        step["actor"] = FIRST
    elif kind in rs.answer_kinds:
        step["actor"] = SECOND
    spec = rs.spec_of.get(kind)
    if spec is not None and spec.cost_field:
        step["cost"] = 1
    return step


def _apply(step: dict, fault: Fault) -> dict:
    for key, value in fault.fields.items():
        if value is DELETE:
            step.pop(key, None)
        else:
            step[key] = value
    return step


def _vector(rs, vid, description, step, scene) -> dict:
    combatants = [{"id": FIRST, "side": "heroes"}, {"id": SECOND, "side": "monsters"}]
    if scene:
        for c in combatants:
            c["at"] = list(AT[c["id"]])
    return {"format": FORMAT, "id": vid, "ruleset": rs.name, "description": description,
            "rules": [], "combatants": combatants, "steps": [step]}


def _code(vector) -> str | None:
    enc = build(vector, vector["id"])
    try:
        enc.step(dict(vector["steps"][0]))
    except StepError as exc:
        return exc.code
    return None


def _pair(rs, first: Fault, second: Fault):
    """(kind, scene) for a step that can have both faults, or None."""
    if first.code == second.code or first.touches() & second.touches():
        return None
    if None not in (first.scene, second.scene) and first.scene != second.scene:
        return None
    kind = next((x for x in first.kinds if x in second.kinds), None)
    if kind is None:
        return None
    return kind, first.scene if first.scene is not None else bool(second.scene)


def _slug(words: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in words.lower()).split())


def vectors_for(rs) -> list[dict]:
    found = faults(rs)
    out = []
    for fault in found:      # each fault alone gives its own code
        kind = fault.kinds[0]
        alone = _vector(rs, "alone", "", _apply(_base(rs, kind), fault), bool(fault.scene))
        if _code(alone) != fault.code:
            raise MisOrdered(f"{rs.name}: {fault.name} on {kind} gives {_code(alone)}, "
                             f"not {fault.code}")
    for i, first in enumerate(found):
        match = next(((second, got) for second in found[i + 1:]
                      if (got := _pair(rs, first, second))), None)
        if match is None:      # the last of its kind in the order: held alone
            out.extend(_alone(rs, first))
            continue
        second, (kind, scene) = match
        step = _apply(_apply(_base(rs, kind), first), second)
        made = _twice(rs, f"err-{rs.name}-{_slug(first.name)}", step, first.code, scene,
                      lambda whatever: f"One {kind} step with two faults, {first.name} "
                      f"({first.code}) and {second.name} ({second.code}): T-ERRORS reads "
                      f"the first one first{whatever}, so the error is {first.code}.")
        for vector in made:
            got = _code(vector)
            if got != first.code:
                raise MisOrdered(f"{rs.name}: {first.name} and {second.name} on {kind} give "
                                 f"{got}, not {first.code}")
        out.extend(made)
    return out


def _twice(rs, vid, step, code, scene, describe) -> list[dict]:
    """``step`` expecting ``code``, in two vectors: its fields in the order
    given, and reversed (``describe(words)`` with the words the second adds)."""
    out = []
    for order, keys in (("", list(step)), ("-reversed", list(step)[::-1])):
        written = {key: step[key] for key in keys}
        written["expect"] = {"error": code}
        out.append(_vector(rs, vid + order, describe(WHATEVER if order else ""), written,
                           scene))
    return out


def _alone(rs, fault) -> list[dict]:
    """A fault no later one can share a step with, in vectors of its own."""
    kind = fault.kinds[0]
    return _twice(rs, f"err-{rs.name}-{_slug(fault.name)}-alone",
                  _apply(_base(rs, kind), fault), fault.code, bool(fault.scene),
                  lambda whatever: f"One {kind} step with {fault.name}: the error is "
                  f"{fault.code}{whatever}.")


def generate() -> dict:
    """Ruleset name -> its error-order vectors."""
    return {name: vectors_for(RULESETS[name]) for name in sorted(RULESETS)}


def coverage(made: dict) -> dict:
    """What the error-order vectors hold, per ruleset: pairs, and the error
    codes expected (COVERAGE.json)."""
    return {name: {"pairs": sum(v["id"].endswith("-reversed") and "-alone" not in v["id"]
                                for v in vs),
                   "alone": sum(v["id"].endswith("-alone") for v in vs),
                   "codes": sorted({v["steps"][0]["expect"]["error"] for v in vs})}
            for name, vs in made.items()}
