"""Field values: vectors that hold how each field of a step is read, value
by value, derived from the fields' own schemas.

The error-order vectors (:mod:`.errororder`) hold which of two faults a
step reports first; these hold each field alone: for every field a step of
a ruleset may carry, a set of values read off its JSON Schema (``null``, a
value of another type, each bound and the value beyond it, an empty list or
string, a list holding another type, a plain good value), each on a step
that takes the field and on one that does not. An engine that reads
``null`` as absent where T-ERRORS says it is a bad value, or the other way
round, that lets a count past its bound, or that judges a field a step
does not take, gives another answer than the reference on one of them.

Each vector is one step after a short prologue that gives it something to
answer or act on, and expects what the reference answers: an error code,
or a verdict and reason. ``fsm conformance --generate`` writes them beside
the other generated vectors (``spec/vectors/generated/val-*.json``).
"""

from __future__ import annotations

import json

from ..engine import Encounter
from ..engine.rows import END_TURN, EVENT, RESOLVE
from ..engine.steps import FIELD_SCHEMAS, READINGS, fields_of
from ..errors import StepError
from ..io.scenario import FORMAT
from ..rulesets import RULESETS

FIRST, SECOND = "ayla", "orc"          # the active combatant, and another
_READ = {r.name: r for r in READINGS}
# the kind (read before all, and tried by every vector), and what is never judged
NOT_TRIED = tuple(name for r in (_READ["kind"], _READ["unread"]) for name, _, _ in r.fields)


def schema_of(rs, field: str) -> dict:
    if field in FIELD_SCHEMAS:
        return FIELD_SCHEMAS[field]
    if field == "cost":
        return _READ["cost"].schema
    return _READ["flags" if field in rs.flag_fields else "texts"].schema


# Values the format gives a meaning of their own, beyond the schema's types
WORDS = {
    "to": [("moment-start", "turn-start"), ("moment-end", "turn-end"),
           ("this-turn-start", "turn-start@1"), ("next-turn-start", "turn-start@2"),
           ("this-turn-end", "turn-end@1"), ("the-action", "s1"), ("no-frame", "nowhere")],
    "id": [("moment-id", "turn-start@1"), ("a-later-moment-id", "turn-end@7"),
           ("a-default-id", "s1"), ("a-default-id-to-come", "s9")],
    "ruling": [("deny", "deny")],
}
# Two fields given together, each pair a way engines read them apart
PAIRS = [
    ("squares-as-long-as-the-path", {"path": [[1, 0]], "squares": 1}),
    ("squares-longer-than-the-path", {"path": [[1, 0]], "squares": 2}),
    ("attacks-beside-a-path", {"path": [[1, 0]], "attacks": 2}),
    ("a-zero-count-beside-another", {"squares": 0, "parts": 2}),
    ("a-count-beside-a-zero-one", {"squares": 2, "parts": 0}),
    ("a-null-count-beside-another", {"squares": None, "parts": 2}),
    ("two-counts-alike", {"attacks": 2, "parts": 2}),
]


def values(schema: dict, good) -> list[tuple[str, object]]:
    """(name, value) pairs a field of ``schema`` is tried with; ``good`` is a
    value of it that is well formed."""
    types = schema.get("type")
    types = set(types) if isinstance(types, list) else {types} if types else set()
    out = [("null", None), ("good", good)]
    if "enum" in schema:
        out.append(("unknown-word", "sideways"))
    if "string" in types or "enum" in schema:
        out.append(("number", 7))
        if "null" not in types:
            out.append(("empty-string", ""))
    if "integer" in types:
        out.append(("text", "2"))
        out.append(("true", True))
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None:
            out += [("lowest", low), ("below-lowest", low - 1)]
        if high is not None:
            out += [("highest", high), ("above-highest", high + 1)]
    if "boolean" in types:
        out += [("text", "yes"), ("false", False)]
    if "array" in types:
        out += [("text", "x"), ("empty-list", [])]
        item = schema.get("items", {})
        if item.get("type") == "string":
            out.append(("list-of-numbers", [7]))
    return out


def _good(rs, field: str, kind: str):
    """A well-formed value of ``field`` (what a careful writer would give)."""
    return {"actor": SECOND if kind in rs.answer_kinds else FIRST, "id": "mine",
            "to": None, "on": "", "name": "a name", "squares": 2, "attacks": 2, "parts": 2,
            "provokes": [SECOND], "triggers": ["begin"], "ruling": "allow",
            "path": [[1, 0]], "shift": True, "attack": (rs.scene.attack_kinds or ("x",))[0],
            "forced": (rs.scene.forced_kinds or ("x",))[0], "targets": [SECOND],
            "cost": 1}.get(field, True if field in rs.flag_fields else "a text")


class _Context:
    """Where a step of a kind is tried: a prologue and the step's base."""

    def __init__(self, rs, kind: str):
        self.rs = rs
        self.prologue: list = []
        first_move = rs.explore.turn_moves(FIRST, (SECOND,))[0] if rs.explore else ("", ())
        if kind in rs.answer_kinds or kind in rs.stack_moves:
            move, fields = first_move
            self.prologue.append({"actor": FIRST, "do": move,
                                  **{k: list(v) if isinstance(v, tuple) else v
                                     for k, v in fields}})
        self.base = {"do": kind}
        if kind in rs.turn_actions:
            self.base["actor"] = FIRST
        elif kind in rs.answer_kinds:
            self.base["actor"] = SECOND
        spec = rs.spec_of.get(kind)
        if spec is not None and spec.cost_field:
            self.base["cost"] = 1


def _kinds_for(rs, field: str) -> list[str]:
    """A kind that takes ``field`` and one that does not (when there are)."""
    kinds = list(rs.player_steps)
    takes, lacks = [], []
    for kind in kinds:
        (takes if field in _fields_of_kind(rs, kind) else lacks).append(kind)
    out = takes[:1]
    if field not in ("actor", "id", "name", "ruling") and lacks:
        out.append(next((k for k in lacks if k in (END_TURN, RESOLVE)), lacks[0]))
    return out


def _fields_of_kind(rs, kind) -> set:
    """The fields a step of ``kind`` takes (beyond ``do``), by the format."""
    from ..engine.steps import FRAME_FIELDS, makes_frame
    common = set(FIELD_SCHEMAS) - set(FRAME_FIELDS) - {"to", "on"}
    if makes_frame(rs, kind):
        common |= set(FRAME_FIELDS)
    if kind in rs.answer_kinds:
        common |= {"to", "on"}
    spec = rs.spec_of.get(kind)
    if spec is not None:
        common |= set(spec.flags) | set(spec.text_fields) | ({"cost"} if spec.cost_field
                                                               else set())
    if kind != EVENT:
        common -= {"forced"}
    return common & fields_of(rs)


def _on_every_other_kind(rs) -> list[dict]:
    """Each field of the ruleset's own (its true/false and text fields) on
    every kind that does not take it, beyond the one ``_kinds_for`` tries:
    an engine that lets a field onto the one kind next to its own (a Step's
    flag on an activity, a critical hit on a reaction) answers otherwise."""
    out = []
    own = set(rs.flag_fields) | {t for s in rs.step_specs for t in s.text_fields}
    for field in sorted(own & fields_of(rs)):
        tried = set(_kinds_for(rs, field))
        for kind in rs.player_steps:
            if kind in tried or field in _fields_of_kind(rs, kind):
                continue
            ctx = _Context(rs, kind)
            made = _play(rs, ctx.prologue, {**ctx.base, field: _good(rs, field, kind)})
            if made is not None:
                out.append(_vector(rs, kind, field, "not-its-kind", made, False))
    return out


SCENE_FIELDS = tuple(name for name, _, _ in _READ["scene"].fields)


def _people(scene: bool) -> list:
    people = [{"id": FIRST, "side": "heroes"}, {"id": SECOND, "side": "monsters"}]
    if scene:
        people[0]["at"], people[1]["at"] = [0, 0], [1, 1]
    return people


def vectors_for(rs) -> list[dict]:
    out = []
    for field in sorted(fields_of(rs) - set(NOT_TRIED)):
        for scene in ((False, True) if field in SCENE_FIELDS else (False,)):
            for kind in _kinds_for(rs, field):
                ctx = _Context(rs, kind)
                tried = values(schema_of(rs, field), _good(rs, field, kind)) + \
                    WORDS.get(field, [])
                for name, value in tried:
                    step = dict(ctx.base)
                    step[field] = value
                    made = _play(rs, ctx.prologue, step, scene)
                    if made is not None:
                        out.append(_vector(rs, kind, field, name + ("-placed" if scene
                                                                     else ""), made, scene))
    out += _on_every_other_kind(rs)
    walker = next((k for k in rs.player_steps if k in rs.turn_actions
                   and "path" in _fields_of_kind(rs, k)), None)
    for name, fields in PAIRS if walker else ():
        scene = "path" in fields
        ctx = _Context(rs, walker)
        made = _play(rs, ctx.prologue, {**ctx.base, **fields}, scene)
        if made is not None:
            out.append(_vector(rs, walker, "+".join(fields), name, made, scene))
    return out


def _play(rs, prologue, step, scene=False):
    """The steps with their expectations, from the reference (None if the
    prologue itself is refused here)."""
    enc = Encounter(rs, _people(scene))
    steps = []
    for data in prologue:
        if enc.step(data).verdict != "allowed":
            return None
        steps.append(dict(data, expect={"verdict": "allowed", "reason": None}))
    try:
        verdict = enc.step(step)
        expect = {"verdict": verdict.verdict, "reason": verdict.reason}
    except StepError as exc:
        expect = {"error": exc.code}
    steps.append(dict(step, expect=expect))
    return steps


def _vector(rs, kind, field, name, steps, scene) -> dict:
    last = steps[-1]["expect"]
    said = f"error {last['error']}" if "error" in last else \
        last["verdict"] + (f" ({last['reason']})" if last["reason"] else "")
    shown = " and ".join(f"{f} {json.dumps(steps[-1][f])}" for f in field.split("+"))
    return {
        "format": FORMAT,
        "id": f"val-{rs.name}-{kind}-{field.replace('+', '-and-')}-{name}",
        "ruleset": rs.name,
        "description": f"How a {kind} step reads {shown} ({name}): {said}.",
        "rules": [],
        "combatants": _people(scene),
        "steps": steps,
    }


def generate() -> list[dict]:
    return [v for name in sorted(RULESETS) for v in vectors_for(RULESETS[name])]


def coverage(vectors: list[dict]) -> dict:
    """ruleset -> how many field values, and the codes and verdicts they expect."""
    out: dict = {}
    for v in vectors:
        c = out.setdefault(v["ruleset"], {"vectors": 0, "answers": set()})
        c["vectors"] += 1
        last = v["steps"][-1]["expect"]
        c["answers"].add(last.get("error") or last["verdict"])
    return {k: {"vectors": c["vectors"], "answers": sorted(c["answers"])}
            for k, c in out.items()}
