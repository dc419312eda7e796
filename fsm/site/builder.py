"""The guided builder of the live checker: a scenario made by clicking.

Two functions serve the page (in the browser, under Pyodide), both on the
scenario's text, so the text stays the one source and a user may switch
between clicking and editing at any moment:

* :func:`menu`: what the builder offers after the scenario's steps: the
  ruleset and its options (each with its meaning), the combatants and the
  fields the ruleset lets them have, the moment in words, and every step
  each combatant could take now with the verdict the machine would give it
  (the answers once per trigger they could name), with the fields that step
  takes: exactly what :meth:`Encounter.try_step <fsm.engine.encounter.Encounter.try_step>`
  says, so a disabled button carries the reason :func:`~fsm.engine.query.possible` gives
  (``first``: the answers to the top trigger, which ``possible`` tries, and every
  other step; the page draws a refused answer to another trigger in its list
  of refusals only);
* :func:`edit`: the text after one change (start a scenario, pick the
  ruleset, set an option, add or remove a combatant, move one earlier in
  the initiative, add a step, undo the last, branch from an earlier one),
  written back as JSON, or as YAML when the text was YAML. A change the
  scenario could not be read with is refused and the text kept.
"""

from __future__ import annotations

import json

from ..engine.rows import END_TURN, EVENT, PHASE_END, PHASE_NOTES
from ..engine.steps import COST_RANGE, MOMENTS
from ..errors import FsmError
from ..io.scenario import parse_text
from ..report import describe, why
from ..rulesets import RULESETS
from ..scenario import replay
from .trace import pasted_name

NEW_ID = "my-question"
COUNTS = (2, 3, 4, 5, 6)          # offered for attacks, parts and squares (1 is the default)
PAST_TRIGGERS = 6                 # frames that left the stack, most recent first, offered as triggers
SIDES = ("heroes", "monsters")


def _is_yaml(text: str) -> bool:
    """Whether a change writes the text back as YAML (an empty text: JSON)."""
    return bool(text.strip()) and pasted_name(text).endswith(".yaml")


def _read(text: str) -> dict:
    doc = parse_text(text, pasted_name(text))
    if not isinstance(doc, dict):
        raise FsmError("the scenario must be an object (a mapping), not a list or a value")
    return doc


def dump(doc: dict, yaml_form: bool = False) -> str:
    """The text of ``doc``: JSON with one combatant and one step a line, as
    the gallery writes it, or YAML."""
    if yaml_form:
        import yaml
        return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)
    out = []
    for key, value in doc.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            inner = ",\n".join("    " + json.dumps(v, ensure_ascii=False) for v in value)
            out.append(f"  {json.dumps(key)}: [\n{inner}\n  ]")
        else:
            out.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(out) + "\n}\n"


# -- what the builder offers now -----------------------------------------------------

def menu(text: str) -> dict:
    """What the builder shows for ``text`` (see the module docstring);
    ``{"ok": false, "error": one line}`` when the text cannot be read."""
    rulesets = [{"name": rs.name, "title": rs.long_title} for rs in RULESETS.values()]
    if not text.strip():
        return {"ok": True, "empty": True, "rulesets": rulesets}
    try:
        doc = _read(text)
        rs = RULESETS.get(doc.get("ruleset")) if isinstance(doc.get("ruleset"), str) else None
        if rs is None:
            raise FsmError(f"the ruleset must be one of {', '.join(RULESETS)}")
        given = doc.get("options") or {}
        out = {"ok": True, "empty": False, "rulesets": rulesets, "ruleset": rs.name,
               "options": [{"name": o.name, "doc": o.doc, "default": o.default,
                            "choices": list(o.choices) if o.choices else None,
                            "set": o.name in given, "value": given.get(o.name, o.default)}
                           for o in rs.options],
               "fighter_fields": [{"name": k, "type": "flag" if v is bool else "count",
                                   "low": None if v is bool else v[0],
                                   "high": None if v is bool else v[1]}
                                  for k, v in rs.fighter.FIELDS.items()],
               "sides": sorted({*SIDES, *(c.get("side") for c in doc.get("combatants") or ()
                                          if isinstance(c, dict) and c.get("side"))}),
               "combatants": [c for c in doc.get("combatants") or () if isinstance(c, dict)],
               "steps": len(doc.get("steps") or ()), "choices": [], "now": ""}
        if not out["combatants"]:
            out["now"] = "add the combatants, in initiative order"
            return out
        enc = replay(doc, "scenario").encounter
    except FsmError as exc:
        return {"ok": False, "error": str(exc), "rulesets": rulesets}
    triggers = _triggers(enc)
    out.update(_moment(enc, triggers), choices=_choices(enc, triggers))
    return out


def _moment(enc, triggers) -> dict:
    facts = enc.facts()
    now = f"round {facts['round']}, {facts['active']}'s turn: {PHASE_NOTES[facts['state']]}"
    if facts["state"] == PHASE_END:          # its owner's next step is the next turn's
        now += f"; {enc.order[(enc.turn_index + 1) % len(enc.order)]}'s turn comes next"
    return {"now": now, "positions": facts.get("positions"),
            "triggers": [t for t, _ in triggers]}


def _triggers(enc) -> list:
    """({"id", "what"}, the id a step names) of every trigger an answer could
    name now: the frames on the stack, top first, the turn's moments, and the
    frames that left it most recently."""
    out, seen = [], set()
    for f in reversed(enc.stack):
        if f.kind in MOMENTS:
            word = f.kind
            out.append(({"id": word, "what": f"the {word.replace('-', ' ')} of "
                                               f"{f.owner or enc.active}'s turn"}, word))
        elif f.id not in seen:
            out.append(({"id": f.id, "what": _frame_words(f, "on the stack")}, f.id))
        seen.add(f.id)
    added = 0
    for fid in reversed(enc.past_order):
        f = enc.past.get(fid)
        if added == PAST_TRIGGERS:
            break
        if f is None or f.id in seen or f.kind in MOMENTS:
            continue
        seen.add(f.id)
        added += 1
        out.append(({"id": f.id, "what": _frame_words(f, f.outcome or "done")}, f.id))
    return out


def _frame_words(f, state) -> str:
    who = f"{f.owner} " if f.owner else ""
    name = f" \u201c{f.name}\u201d" if f.name else ""
    return f"{f.id}: {who}{f.kind}{name} ({state})"


def _choice(enc, data, fields) -> dict:
    v = enc.try_step(data)
    extra = [{"name": "ruling", "type": "choice", "choices": ["allow", "deny"],
              "label": "the GM rules"}] if v.verdict == "gm" else []
    return {"step": data, "label": describe(data), "verdict": v.verdict, "reason": v.reason,
            "why": why(v), "rules": list(v.rules), "fields": fields + extra, "first": True}


def _choices(enc, triggers) -> list:
    """Every step the builder offers now, each with its verdict (module docstring);
    the answers once per trigger of ``triggers`` (:func:`_triggers`)."""
    rs, scene = enc.ruleset, bool(enc.scene)
    combatants = list(enc.fighters)
    out = []
    for cid in enc.fighters:
        for kind in rs.player_steps:
            if kind in rs.stack_moves or kind == EVENT:
                continue
            spec = rs.spec_of.get(kind)
            base = {"actor": cid, "do": kind}
            if spec is not None and spec.cost_field:
                base["cost"] = COST_RANGE[0]
            if kind in rs.answer_kinds:
                fields = _fields(rs, kind, scene, combatants, answer=True)
                for n, (_, to) in enumerate(triggers):
                    out.append({**_choice(enc, {**base, "to": to}, fields), "first": n == 0})
            else:
                out.append(_choice(enc, base, _fields(rs, kind, scene, combatants)))
    for kind in rs.player_steps:
        if kind in rs.stack_moves:
            out.append(_choice(enc, {"do": kind}, []))
    out.append(_choice(enc, {"do": EVENT}, _fields(rs, EVENT, scene, combatants)))
    return out


def _fields(rs, kind, scene, combatants, answer=False) -> list:
    """The fields the builder's form offers for a step of ``kind`` (the rest,
    such as ``provokes`` or ``expect``, are written in the text)."""
    if kind == END_TURN:
        return []
    spec = rs.spec_of.get(kind)
    out = [{"name": "name", "type": "text", "label": "what it is, in your words"}]
    if kind == EVENT:
        out.append({"name": "actor", "type": "choice", "choices": combatants,
                    "label": "whom it concerns"})
    if spec is not None and spec.cost_field:
        out.append({"name": "cost", "type": "choice", "required": True,
                    "choices": list(range(COST_RANGE[0], COST_RANGE[1] + 1)),
                    "label": "actions it costs"})
    moving = spec is not None and spec.moving
    if not answer and kind != EVENT and not moving:
        out.append({"name": "attacks", "type": "choice", "choices": list(COUNTS),
                    "label": "attack rolls (one by default)"})
    if not answer and kind != EVENT:
        out.append({"name": "parts", "type": "choice", "choices": list(COUNTS),
                    "label": "parts a reaction may fall between (one by default)"})
    if spec is not None and spec.moving and not scene:
        out.append({"name": "squares", "type": "choice", "choices": list(COUNTS),
                    "label": "squares moved (one by default)"})
    out += [{"name": f, "type": "flag", "label": f} for f in (spec.flags if spec else ())]
    out += [{"name": f, "type": "text", "label": f} for f in (spec.text_fields if spec else ())]
    if scene:
        out.append({"name": "path", "type": "path", "label": "the squares entered, in order"})
        if moving and rs.scene.shifts:
            out.append({"name": "shift", "type": "flag", "label": "a shift"})
        if kind == EVENT and rs.scene.forced_kinds:
            out.append({"name": "forced", "type": "choice", "choices": list(rs.scene.forced_kinds),
                        "label": "how the path moves whom it concerns"})
        elif rs.scene.attack_kinds:
            out.append({"name": "attack", "type": "choice", "choices": list(rs.scene.attack_kinds),
                        "label": "the kind of attack"})
            out.append({"name": "targets", "type": "targets", "choices": combatants,
                        "label": "aimed at"})
    return out


# -- changes -----------------------------------------------------------------------------

def edit(text: str, change: dict) -> dict:
    """``{"ok": true, "text": the new text}`` after ``change``, or ``{"ok":
    false, "error": one line}`` with the text left as it was."""
    try:
        op = change.get("op")
        doc = {} if op == "new" else _read(text)
        new = _apply(doc, op, change)
        replay_checked(new)
    except FsmError as exc:
        return {"ok": False, "error": str(exc)}
    return {"ok": True, "text": dump(new, _is_yaml(text))}


def replay_checked(doc) -> None:
    """Raise the error ``fsm check`` would, if the document cannot be read."""
    if doc.get("combatants"):
        replay(doc, "scenario")


def _apply(doc: dict, op, change: dict) -> dict:
    doc = json.loads(json.dumps(doc))          # a copy: the change never touches the old one
    steps = doc.setdefault("steps", [])
    if op == "new":
        rs = _ruleset(change.get("ruleset"))
        return {"format": 1, "id": NEW_ID, "ruleset": rs.name, "combatants": [], "steps": []}
    if op == "ruleset":
        rs = _ruleset(change.get("ruleset"))
        doc["ruleset"] = rs.name
        doc.pop("options", None)
        allowed = {"id", "side", "name", "at", "reach", *rs.fighter.FIELDS}
        doc["combatants"] = [{k: v for k, v in c.items() if k in allowed}
                             for c in doc.get("combatants") or ()]
        doc["steps"] = []
    elif op == "option":
        doc = _placed(doc, "options", doc.get("options") or {}, before=("combatants", "steps"))
        options = doc["options"]
        if change.get("default"):
            options.pop(change.get("name"), None)
        else:
            options[change.get("name")] = change.get("value")
        if not options:
            doc.pop("options")
    elif op == "add-combatant":
        _add_combatant(doc, change.get("combatant") or {})
    elif op == "remove-combatant":
        cid = change.get("id")
        if any(s.get("actor") == cid or cid in (s.get("targets") or ()) for s in steps
               if isinstance(s, dict)):
            raise FsmError(f"steps name {cid}: undo them before removing {cid}")
        doc["combatants"] = [c for c in doc.get("combatants") or () if c.get("id") != cid]
        if "initiative" in doc:
            doc["initiative"] = [x for x in doc["initiative"] if x != cid]
    elif op == "earlier":
        if steps:
            raise FsmError("the initiative changes only before the first step: undo the "
                           "steps first (or edit the text)")
        order = list(doc.get("initiative") or [c.get("id") for c in doc.get("combatants") or ()])
        cid = change.get("id")
        if cid in order and order.index(cid) > 0:
            i = order.index(cid)
            order[i - 1], order[i] = order[i], order[i - 1]
        doc = _placed(doc, "initiative", order, before=("steps",))
    elif op == "add-step":
        step = change.get("step")
        if not isinstance(step, dict):
            raise FsmError("a step is an object")
        steps.append(step)
    elif op == "undo":
        if not steps:
            raise FsmError("there is no step to undo")
        steps.pop()
    elif op == "branch":
        keep = change.get("keep")
        if not isinstance(keep, int) or not 0 <= keep <= len(steps):
            raise FsmError(f"branch: keep must be a step number from 0 to {len(steps)}")
        del steps[keep:]
    else:
        raise FsmError(f"unknown change {op!r}")
    return doc


def _placed(doc, key, value, before) -> dict:
    """``doc`` with ``key`` set to ``value``; a new key goes before the first
    of ``before`` (where the gallery writes it)."""
    if key in doc:
        return {**doc, key: value}
    out = {}
    for k, v in doc.items():
        if k in before and key not in out:
            out[key] = value
        out[k] = v
    out.setdefault(key, value)
    return out


def _ruleset(name):
    rs = RULESETS.get(name) if isinstance(name, str) else None
    if rs is None:
        raise FsmError(f"the ruleset must be one of {', '.join(RULESETS)}")
    return rs


def _add_combatant(doc, c) -> None:
    cid = c.get("id")
    if not isinstance(cid, str) or not cid.strip():
        raise FsmError("a combatant needs a name (its id)")
    c = {**c, "id": cid.strip()}
    if any(x.get("id") == c["id"] for x in doc.get("combatants") or ()):
        raise FsmError(f"there is already a combatant {c['id']}")
    doc.setdefault("combatants", []).append(c)
    if "initiative" in doc:
        doc["initiative"].append(c["id"])


def menu_json(text: str) -> str:
    return json.dumps(menu(text), ensure_ascii=False)


def edit_json(text: str, change_json: str) -> str:
    return json.dumps(edit(text, json.loads(change_json)), ensure_ascii=False)
