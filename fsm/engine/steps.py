"""Reading one step: the fields every step has, and those its ruleset's
step specs add (:class:`fsm.rulesets.StepSpec`). A step that cannot be read
raises :class:`fsm.errors.StepError` and changes nothing.

:data:`READINGS`, at the end of this module, is the one table of a step's
fields, in the order T-ERRORS reads them (spec/TIMING.md): each reading
names the fields it checks, with each one's JSON Schema and whether only a
step that puts a frame on the stack takes it, the error codes it gives,
and the function :func:`parse` calls for it. spec/vector.schema.json lists
the fields in its order, the error-order vectors
(:mod:`fsm.conformance.errororder`) hold its order, and the field-value
vectors (:mod:`fsm.conformance.fieldvalues`) read each field's schema off it."""

from __future__ import annotations

import re

from ..errors import StepError
from . import scene
from .frames import CARRIED, CARRIED_DEFAULTS, TURN_KINDS, carry
from .guard import Outcomes
from .rows import END_TURN

COST_RANGE = (1, 3)       # a step spec's `cost` field: actions an activity takes
COUNT_RANGE = (1, 100)    # squares, attacks or parts


def with_article(word: str) -> str:
    """'an activity', 'a move': the word after its indefinite article."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def suggest(word, known) -> str:
    """' (did you mean X?)' for the nearest known name, or ''."""
    if not isinstance(word, str):
        return ""
    import difflib      # only when a name is wrong: not worth its import at start-up
    near = difflib.get_close_matches(word, sorted(known), n=1, cutoff=0.6)
    return f" (did you mean {near[0]!r}?)" if near else ""


def _kinds(rs) -> str:
    """'; the kinds are: ...': what a step's ``do`` may say in ``rs``."""
    return "; the kinds are: " + ", ".join(rs.player_steps)


class Step:
    """A parsed step, as the guards and effects see it. What the frame it
    makes will carry (:data:`fsm.engine.frames.CARRIED`) starts at the same
    defaults."""

    __slots__ = ("index", "kind", "trigger", "actor", "to", "target", "on", "fid", "ruling",
                 "text", "responding", "provokes_stated", "next_turn", "outcomes", "cleared",
                 "counted", *CARRIED)

    def __init__(self, index, kind, responding=False):
        self.index = index
        self.kind = kind
        self.trigger = kind.replace("-", "_")
        self.actor = None
        self.to = None
        self.target = None
        self.on = ""
        self.fid = f"s{index}"
        self.ruling = "allow"
        self.text = {}             # the free-text fields of the step's spec
        self.responding = responding
        self.provokes_stated = False
        self.next_turn = False     # it answers the turn-start moment of the turn to come
        self.outcomes = Outcomes()  # what its guards said (fsm.engine.guard.judge)
        self.cleared = frozenset()  # its true/false fields given as false
        self.counted = False        # it gave a part count (squares, attacks or parts)
        carry(self, CARRIED_DEFAULTS)


def makes_frame(ruleset, kind: str) -> bool:
    """Whether a step of ``kind`` puts a frame of its own on the stack (a stack
    move, end-turn and a ruleset's other changes of turn do not: FORMAT.md, *Steps*)."""
    return kind != END_TURN and kind not in ruleset.stack_moves \
        and kind not in ruleset.turn_changes


def fields_of(ruleset) -> frozenset:
    """Every field a step of ``ruleset`` may have."""
    extra = {"cost"} if any(s.cost_field for s in ruleset.step_specs) else set()
    for spec in ruleset.step_specs:
        extra.update(spec.text_fields)
    return COMMON_FIELDS | extra | ruleset.flag_fields


def text_fields_of(ruleset) -> tuple:
    """The free-text fields of ``ruleset``'s steps, in name order."""
    return tuple(sorted(fields_of(ruleset) - COMMON_FIELDS - {"cost"} - ruleset.flag_fields))


def _int(data, key, low, high) -> int:
    n = data[key]
    if not isinstance(n, int) or isinstance(n, bool) or not low <= n <= high:
        raise StepError(f"{key} must be an integer from {low} to {high}", key)
    return n


def parse(enc, data, index: int) -> Step:
    """Check one step's fields and build a :class:`Step` (StepError if
    malformed): the whole step first (an object, no unknown field), then
    each reading of :data:`READINGS` in turn."""
    if not isinstance(data, dict):
        raise StepError(f"a step is an object, not {type(data).__name__}", code="not-an-object")
    known = enc._fields
    if not known.issuperset(data):
        for key in data:
            if key not in known:
                raise StepError(f"unknown field {key!r}{suggest(key, known)}", key,
                                "unknown-field")
    st = _kind(enc, data, index)
    for read in _READERS:
        read(enc, st, data)
    return st


def _kind(enc, data, index) -> Step:
    """The kind, and whether it takes the fields of a step that makes a frame:
    read first, since what else a step takes follows from it."""
    rs = enc.ruleset
    kind = data.get("do")
    if kind is None:
        raise StepError("missing field 'do' (what happens)", "do", "missing-kind")
    if not isinstance(kind, str) or kind not in rs.table.kinds:
        raise StepError(f"unknown step kind {kind!r} for {rs.name}"
                        f"{suggest(kind, rs.player_steps) or _kinds(rs)}", "do", "unknown-kind")
    if not makes_frame(rs, kind):
        for key in FRAME_FIELDS:
            if key in data and not (data[key] is None and key in NULLABLE):
                raise StepError(f"'{key}' belongs to a step that makes a frame; "
                                f"{with_article(kind)} step makes none", key,
                                "field-of-another-kind")
    return Step(index, kind, kind in rs.answer_kinds)


def _actor(enc, st, data) -> None:
    actor = data.get("actor")
    if actor is not None:
        if not isinstance(actor, str):
            raise StepError("'actor' must be a string: a combatant's id", "actor")
        if actor not in enc.fighters:
            raise StepError(f"unknown combatant {actor!r}{suggest(actor, enc.fighters)}",
                            "actor", "unknown-combatant")
    elif st.kind in enc.ruleset.turn_actions or st.responding:
        raise StepError(f"{with_article(st.kind)} step needs an 'actor'", "actor",
                        "missing-actor")
    st.actor = actor            # an end-turn's, when not given: Adjudication.step


def _to(enc, st, data) -> None:
    to = data.get("to")
    if to is not None:
        if not st.responding:
            raise StepError(f"'to' names a trigger; a {st.kind} step answers none", "to",
                            "field-of-another-kind")
        if not isinstance(to, str):
            raise StepError("'to' must be a string: the id of a trigger", "to")
        st.to = to


def _on(enc, st, data) -> None:
    if "on" in data:
        if not st.responding:
            raise StepError(f"'on' picks which trigger an answer takes; a {st.kind} step "
                            f"answers none", "on", "field-of-another-kind")
        if not isinstance(data["on"], str):
            raise StepError("'on' must be a string: which trigger of the frame", "on")
        st.on = data["on"]


def _counts(enc, st, data) -> None:
    given = [k for k in COUNT_FIELDS if k in data]
    if len(given) > 1:
        raise StepError(f"give only one of {', '.join(given)}", given[1], "two-part-counts")
    if given:
        st.parts = _int(data, given[0], *COUNT_RANGE)
        st.moving = given[0] == "squares"
        st.counted = True
    elif getattr(enc.ruleset.spec_of.get(st.kind), "moving", False):
        st.moving = True


def _cost(enc, st, data) -> None:
    rs = enc.ruleset
    spec = rs.spec_of.get(st.kind)
    if spec is not None and spec.cost_field:
        if "cost" not in data:
            raise StepError(f"{with_article(st.kind)} needs a 'cost' of {COST_RANGE[0]} to "
                            f"{COST_RANGE[1]} actions", "cost", "missing-cost")
        st.cost = _int(data, "cost", *COST_RANGE)
        if not st.counted and not st.path:      # a path gives one part per square
            st.parts = st.cost
    elif "cost" in data:
        takes = [s.kind for s in rs.step_specs if s.cost_field]
        raise StepError(f"'cost' applies to {', '.join(takes) or 'no'} steps only, "
                        f"not to {st.kind}", "cost", "field-of-another-kind")
    elif spec is not None:
        st.cost = spec.cost


def _ruling(enc, st, data) -> None:
    if "ruling" in data:
        if data["ruling"] not in RULINGS:
            raise StepError("'ruling' must be allow or deny", "ruling")
        st.ruling = data["ruling"]


def _name(enc, st, data) -> None:
    name = data.get("name")
    if name is not None:
        if not isinstance(name, str):
            raise StepError("'name' must be a string", "name")
        st.name = name


def _flags(enc, st, data) -> None:
    rs = enc.ruleset
    flags = rs.flag_fields
    if not flags:
        return
    spec = rs.spec_of.get(st.kind)
    for key in sorted(flags.intersection(data)):
        if spec is None or key not in spec.flags:
            takes = [s.kind for s in rs.step_specs if key in s.flags]
            raise StepError(f"'{key}' (true or false) belongs to a {' or '.join(takes)} step",
                            key, "field-of-another-kind")
        if not isinstance(data[key], bool):
            raise StepError(f"'{key}' must be true or false", key)
        if data[key]:
            st.flags |= {key}
        else:
            st.cleared |= {key}


def _texts(enc, st, data) -> None:
    rs = enc.ruleset
    spec = rs.spec_of.get(st.kind)
    for key in enc._text_fields:
        if data.get(key) is not None:
            if spec is None or key not in spec.text_fields or not isinstance(data[key], str):
                takes = [s.kind for s in rs.step_specs if key in s.text_fields]
                raise StepError(f"'{key}' (a string) belongs to a {' or '.join(takes)} step",
                                key, "bad-value" if spec is not None and key in
                                spec.text_fields else "field-of-another-kind")
            words = dict(spec.choices).get(key)
            if words == ANY_COMBATANT and data[key] not in enc.fighters:
                raise StepError(f"'{key}' names unknown combatant {data[key]!r}", key,
                                "unknown-combatant")
            if words not in (None, ANY_COMBATANT) and data[key] not in words:
                raise StepError(f"'{key}' must be one of {', '.join(words)}", key)
            st.text[key] = data[key]


def _frame_id(enc, st, data) -> None:
    if "id" in data:
        fid = data["id"]
        if not isinstance(fid, str) or not fid or fid in TURN_KINDS:
            raise StepError("'id' must be a non-empty string other than turn-start "
                            "and turn-end", "id")
        if _taken(enc, fid) or _MOMENT_ID.match(fid):
            raise StepError(f"id {fid!r} is already used", "id", "id-taken")
        st.fid = fid
    elif _taken(enc, st.fid):
        # an explicit id took this step's default: the first free s<N>#k, k >= 2
        k = 2
        while _taken(enc, f"{st.fid}#{k}"):
            k += 1
        st.fid = f"{st.fid}#{k}"


# turn-start@N and turn-end@N are the moments' own ids, those to come included
_MOMENT_ID = re.compile(f"(?:{'|'.join(map(re.escape, TURN_KINDS))})@[0-9]+\\Z")


def _taken(enc, fid) -> bool:
    return enc.find(fid) is not None or fid in enc.past


def _lists(enc, st, data) -> None:
    if "provokes" in data:
        provokes = data["provokes"]
        if not isinstance(provokes, list) or not all(isinstance(p, str) for p in provokes):
            raise StepError("'provokes' must be a list of combatant ids", "provokes")
        for p in provokes:
            if p not in enc.fighters:
                raise StepError(f"'provokes' names unknown combatant {p!r}", "provokes",
                                "unknown-combatant")
        st.provokes = tuple(provokes)
    st.provokes_stated = "provokes" in data
    triggers = data.get("triggers")
    if triggers is not None:
        if not isinstance(triggers, list) or not triggers or \
                not all(isinstance(t, str) for t in triggers):
            raise StepError("'triggers' must be a non-empty list of labels", "triggers")
        st.labels = tuple(triggers)


class Reading:
    """One reading of :data:`READINGS` (the module docstring)."""

    __slots__ = ("name", "fields", "codes", "read", "schema")

    def __init__(self, name, fields, codes, read, schema=None):
        self.name = name          # what it reads, in a word
        self.fields = fields      # ((field, its JSON Schema, only a step that makes a frame
                                  # takes it), ...); () for the ruleset's own fields
        self.codes = codes        # the error codes it gives, in the order it checks them
        self.read = read          # (enc, st, data) -> None; None: not read here
        self.schema = schema      # the JSON Schema of the ruleset's own fields it reads


ANY_COMBATANT = "a combatant"     # the words of a text field that names a combatant
_COUNT = {"type": "integer", "minimum": COUNT_RANGE[0], "maximum": COUNT_RANGE[1]}
_NOT_OURS = "field-of-another-kind"
RULINGS = ("allow", "deny")
READINGS = (
    Reading("kind", (("do", {"type": "string"}, False),),
            ("missing-kind", "unknown-kind", _NOT_OURS), None),     # parse() reads it first
    Reading("actor", (("actor", {"type": ["string", "null"]}, False),),   # null: absent
            ("bad-value", "unknown-combatant", "missing-actor"), _actor),
    Reading("id", (("id", {"type": "string", "minLength": 1,
                           "not": {"enum": list(TURN_KINDS)}}, False),),
            ("bad-value", "id-taken"), _frame_id),
    Reading("to", (("to", {"type": ["string", "null"]}, False),),
            (_NOT_OURS, "bad-value"), _to),     # a trigger that is not there: after them all
    Reading("on", (("on", {"type": "string"}, False),), (_NOT_OURS, "bad-value"), _on),
    Reading("counts", (("squares", _COUNT, True), ("attacks", _COUNT, True),
                       ("parts", _COUNT, True)),
            ("two-part-counts", "bad-value"), _counts),
    Reading("lists", (("provokes", {"type": "array", "items": {"type": "string"}}, True),
                      ("triggers", {"type": ["array", "null"], "items": {"type": "string"},
                                    "minItems": 1}, True)),
            ("bad-value", "unknown-combatant"), _lists),
    Reading("scene", (("attack", {"type": "string"}, True),   # the values of attack and
                      ("targets", {"type": "array", "items": {"type": "string"},
                                   "minItems": 1}, True),
                      ("shift", {"type": "boolean"}, True),
                      ("forced", {"type": "string"}, True),   # forced are the ruleset's
                      ("path", {"type": "array", "minItems": 1, "maxItems": 100,
                                "items": {"$ref": "#/$defs/square"}}, True)),
            ("bad-value", "unknown-combatant", "shift-without-path", _NOT_OURS,
             "forced-without-path", "path-without-scene", "missing-actor", "bad-path",
             "two-part-counts"), scene.read),
    Reading("cost", (), ("missing-cost", "bad-value", _NOT_OURS), _cost,
            {"type": "integer", "minimum": COST_RANGE[0], "maximum": COST_RANGE[1]}),
    Reading("ruling", (("ruling", {"enum": list(RULINGS)}, False),), ("bad-value",), _ruling),
    Reading("name", (("name", {"type": ["string", "null"]}, False),), ("bad-value",), _name),
    Reading("flags", (), (_NOT_OURS, "bad-value"), _flags, {"type": "boolean"}),
    Reading("texts", (), (_NOT_OURS, "bad-value", "unknown-combatant"), _texts,
            {"type": ["string", "null"]}),
    Reading("unread", (("comment", {"type": "string"}, False),          # for people
                       ("expect", {"$ref": "#/$defs/expect"}, False)),  # for fsm check
            (), None),
)
_READERS = tuple(r.read for r in READINGS if r.read is not None)
FIELD_SCHEMAS = {name: schema for r in READINGS for name, schema, _ in r.fields}
COMMON_FIELDS = frozenset(FIELD_SCHEMAS)
FRAME_FIELDS = tuple(name for r in READINGS for name, _, framed in r.fields if framed)
COUNT_FIELDS = next(tuple(name for name, _, _ in r.fields) for r in READINGS
                    if r.name == "counts")
# the fields whose null is read as absent (T-ERRORS): absent wins over misplaced
NULLABLE = frozenset(name for name, schema in FIELD_SCHEMAS.items()
                     if "null" in schema.get("type", ()))
COST_SCHEMA, FLAG_SCHEMA, TEXT_SCHEMA = (r.schema for r in READINGS
                                         if r.name in ("cost", "flags", "texts"))
