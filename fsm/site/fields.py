"""The fields a step's details form offers in the builder, read from the
ruleset: its step specs (costs, flags, free-text fields, moves), its scene
words (kinds of attack and of forced movement, shifts) and its words."""

from __future__ import annotations

from ..engine.rows import END_TURN, EVENT
from ..engine.steps import COST_RANGE
from ..rulesets.words import READY_CODES, READY_WHEN

COUNTS = (2, 3, 4, 5, 6)          # offered for attacks, parts and squares (1 is the default)
SQUARES = "squares moved"         # a count of squares, on its quick buttons (Words.fields: in full)


def step_fields(rs, kind, combatants, who, scene, answer=False) -> list:
    """The fields the details form offers for a step of ``kind`` (the rest,
    such as ``expect``, are written in the text); ``who`` names a combatant."""
    if kind == END_TURN:
        return []
    spec = rs.spec_of.get(kind)
    moving = spec is not None and spec.moving
    out = [{"name": "name", "type": "text", "label": "what it is, in your words"}]
    if kind == EVENT:
        out.append({"name": "actor", "type": "choice", "choices": combatants,
                    "words": [who(c) for c in combatants], "label": "whom it concerns"})
    if spec is not None and spec.cost_field:
        out.append({"name": "cost", "type": "count", "required": True,
                    "choices": list(range(COST_RANGE[0], COST_RANGE[1] + 1)),
                    "label": "actions it costs", "quick": False})
    if kind != EVENT and not moving:
        out.append({"name": "attacks", "type": "count", "choices": list(COUNTS),
                    "label": "attack rolls"})
    if (moving or answer) and not scene:
        out.append({"name": "squares", "type": "count", "choices": list(COUNTS),
                    "label": rs.words.fields.get("squares", SQUARES), "short": SQUARES})
    elif not answer and kind != EVENT and not moving:
        out.append({"name": "parts", "type": "count",
                    "choices": [1, *COUNTS] if spec is not None and spec.cost_field else
                    list(COUNTS), "label": "parts a reaction may fall between"})
    words, unwords = rs.words.flags, rs.words.unflags
    for f in spec.flags if spec else ():
        label = words.get(f) or f.replace("_", " ")
        if f in unwords:          # its false says something too: a choice of the two
            out.append({"name": f, "type": "choice", "choices": [True, False],
                        "words": [label, unwords[f]], "label": f.replace("_", " ")})
        else:
            out.append({"name": f, "type": "flag", "label": label,
                        "hint": rs.words.hints.get(f, "")})
    listed = dict(spec.choices) if spec else {}       # a closed list: offered as words below
    out += [{"name": f, "type": "text", "label": f.replace("_", " "),
             "suggest": list(rs.words.suggest.get(f, ()))}
            for f in (spec.text_fields if spec else ()) if f not in listed]
    if spec is not None and "readies" in spec.text_fields:
        checked = "when" in listed
        out.append({"name": "when", "type": "when", "choices": list(READY_WHEN),
                    "who": combatants, "words": [who(c) for c in combatants],
                    "codes": [READY_CODES.get(w, "") if READY_CODES.get(w) in
                              listed.get("when", ()) else "" for w in READY_WHEN],
                    "label": "when it fires (the rules check it)" if checked else
                             "when it fires (its name says so: the rules do not check it)"})
    if kind != EVENT:
        out.append({"name": "triggers", "type": "labels",
                    "label": "what it presents to be answered, one at a time (for "
                             "Pathfinder, its traits: manipulate, move...), comma-separated"})
    if answer:
        out.append({"name": "on", "type": "text",
                    "label": "which of its trigger's labels it answers (a trait)"})
    if scene:
        out.append({"name": "path", "type": "path", "label": "the squares entered",
                    "jump": (kind == EVENT and rs.scene.jump) or None,
                    "required": moving and not answer})
        after = spec is not None and rs.scene.after in spec.flags     # a power moves, attacks
        if rs.scene.shifts and (moving or answer or after):
            out.append({"name": "shift", "type": "flag",
                        "label": "a shift (it provokes nobody)"})
        if kind == EVENT and rs.scene.forced_kinds:
            out.append({"name": "forced", "type": "choice",
                        "choices": list(rs.scene.forced_kinds),
                        "label": "how the path moves whom it concerns"})
        elif rs.scene.attack_kinds and kind != EVENT and not moving:     # a walk aims at nobody
            out.append({"name": "attack", "type": "choice",
                        "choices": list(rs.scene.attack_kinds), "label": "an attack"})
            out.append({"name": "targets", "type": "targets", "choices": combatants,
                        "words": [who(c) for c in combatants], "label": "aimed at"})
    return out
