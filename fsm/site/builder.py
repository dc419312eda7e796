"""The guided builder of the live checker: a scenario made by clicking.

Two functions serve the page (in the browser, under Pyodide), both on the
scenario's text, so the text stays the one source and a user may switch
between clicking and editing at any moment:

* :func:`menu`: what the builder offers after the scenario's steps: the
  question, the ruleset and its options (each with its meaning), the
  combatants and the fields the ruleset lets them have, the moment in
  words, and the choices of :mod:`.menu`, grouped as players think of the
  moment, each with the verdict the machine would give it (a disabled one
  carries the reason :func:`~fsm.engine.query.possible` gives);
* :func:`edit`: the text after one change (start a scenario, ask its
  question, pick the ruleset, set an option, add combatants or remove one,
  move one earlier in the initiative, set one's field, put them on a grid
  or take them off it, move one on it, add the steps of a choice, undo the
  last step, branch from an earlier one), written back as JSON, or as YAML
  when the text was YAML. A change the scenario could not be read with is
  refused and the text kept.
"""

from __future__ import annotations

import json

import re

from ..engine.frames import field_kind
from ..engine.scene import within_reach
from ..engine.turn import whose_turn
from ..engine.setup import combatant_fields
from ..errors import FsmError
from ..io.scenario import FORMAT, parse_text
from ..rulesets import RULESETS
from ..scenario import replay
from .menu import Menu
from .trace import pasted_name
from .words import Namer

NEW_ID = "my-question"
SIDES = ("heroes", "monsters")
SLUG_WORDS = 8                    # a question's first words make the scenario's id


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
        namer = Namer(rs, doc)
        combatants = [c for c in doc.get("combatants") or () if isinstance(c, dict)]
        out = {"ok": True, "empty": False, "rulesets": rulesets, "ruleset": rs.name,
               "question": doc.get("question") if isinstance(doc.get("question"), str) else "",
               "options": [{"name": o.name, "doc": o.doc, "default": o.default,
                            "choices": list(o.choices) if o.choices else None,
                            "set": o.name in given, "value": given.get(o.name, o.default)}
                           for o in rs.options],
               "fighter_fields": [_fighter_field(rs, k, v) for k, v in rs.fighter.FIELDS.items()],
               "sides": sorted({*SIDES, *(c.get("side") for c in combatants
                                          if isinstance(c.get("side"), str))}),
               "combatants": [{**c, "who": namer.who(c.get("id"))} for c in combatants],
               "grid": bool(combatants) and all("at" in c for c in combatants),
               "steps": len(doc.get("steps") or ()), "groups": [], "now": "",
               "moving": [*(spec.kind for spec in rs.step_specs if spec.moving),
                          *rs.words.walks],
               "jump": rs.scene.jump}
        if not combatants:
            out["now"] = "Who fights? Name them in turn order."
            return out
        enc = replay(doc, "scenario").encounter
    except FsmError as exc:
        return {"ok": False, "error": str(exc), "rulesets": rulesets}
    facts = enc.facts()
    groups = Menu(enc, doc).groups()
    out.update(now=namer.now(enc), positions=facts.get("positions"),
               reach={cid: f.reach for cid, f in enc.fighters.items()},
               active=whose_turn(enc), groups=groups, strikes=strikes(enc, groups, rs))
    return out


def strikes(enc, groups, rs) -> dict:
    """The attack the one whose turn it is makes by a click on an enemy on
    the grid of where everyone stands: the turn's first allowed choice that
    may aim an attack, a melee attack at one within its reach, else a ranged
    one; {enemy: step}. Empty off a grid, or when no such choice is allowed."""
    actor = whose_turn(enc)
    scene, me = rs.scene, enc.fighters.get(actor)
    if not (scene.melee and scene.ranged) or me is None or me.at is None:
        return {}
    turn = next((g["choices"] for g in groups if g["id"] == "turn"), [])
    aiming = next((c["steps"][0] for c in turn if c["verdict"] != "rejected"
                   and len(c["steps"]) == 1 and set(c["steps"][0]) == {"actor", "do"}
                   and c["steps"][0]["actor"] == actor
                   and {"attack", "targets"} <= {f["name"] for f in c["fields"]}), None)
    if aiming is None:
        return {}
    return {cid: {**aiming, "attack": scene.melee if within_reach(me, f.at) else scene.ranged,
                  "targets": [cid]}
            for cid, f in enc.fighters.items() if f.side != me.side and f.at is not None}


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
    if op == "new":
        rs = _ruleset(change.get("ruleset"))
        out = {"format": FORMAT, "id": NEW_ID, "ruleset": rs.name, "combatants": [], "steps": []}
        return _question(out, change.get("question")) if change.get("question") else out
    doc.setdefault("steps", [])
    change_of = _CHANGES.get(op)
    if change_of is None:
        raise FsmError(f"unknown change {op!r}")
    return change_of(doc, change) or doc


def _switch(doc, change):
    rs = _ruleset(change.get("ruleset"))
    doc["ruleset"] = rs.name
    doc.pop("options", None)
    allowed = set(combatant_fields(rs))
    doc["combatants"] = [{k: v for k, v in c.items() if k in allowed}
                         for c in doc.get("combatants") or ()]
    doc["steps"] = []


def _option(doc, change):
    doc = _placed(doc, "options", doc.get("options") or {}, before=("combatants", "steps"))
    options = doc["options"]
    if change.get("default"):
        options.pop(change.get("name"), None)
    else:
        options[change.get("name")] = change.get("value")
    if not options:
        doc.pop("options")
    return doc


def _remove(doc, change):
    cid = change.get("id")
    if any(s.get("actor") == cid or cid in (s.get("targets") or ()) for s in doc["steps"]
           if isinstance(s, dict)):
        raise FsmError(f"steps name {cid}: undo them before removing {cid}")
    doc["combatants"] = [c for c in doc.get("combatants") or () if c.get("id") != cid]
    if "initiative" in doc:
        doc["initiative"] = [x for x in doc["initiative"] if x != cid]


def _earlier(doc, change):
    if doc["steps"]:
        raise FsmError("the initiative changes only before the first step: undo the "
                       "steps first (or edit the text)")
    order = list(doc.get("initiative") or [c.get("id") for c in doc.get("combatants") or ()])
    cid = change.get("id")
    if cid in order and order.index(cid) > 0:
        i = order.index(cid)
        order[i - 1], order[i] = order[i], order[i - 1]
    return _placed(doc, "initiative", order, before=("steps",))


def _add_steps(doc, change):
    steps = change.get("steps") if "steps" in change else [change.get("step")]
    if not isinstance(steps, list) or not steps or not all(isinstance(s, dict) for s in steps):
        raise FsmError("a step is an object")
    for e in change.get("edits") or ():       # an earlier step said to provoke someone
        made = doc["steps"][e["index"] - 1]
        made["provokes"] = [*(made.get("provokes") or ()), e["provokes"]]
    doc["steps"].extend(steps)


def _undo(doc, change):
    if not doc["steps"]:
        raise FsmError("there is no step to undo")
    doc["steps"].pop()


def _branch(doc, change):
    keep, steps = change.get("keep"), doc["steps"]
    if not isinstance(keep, int) or not 0 <= keep <= len(steps):
        raise FsmError(f"branch: keep must be a step number from 0 to {len(steps)}")
    del steps[keep:]


def _question(doc, change):
    """The question the scenario asks: it titles the page, the link and the
    Markdown, and its first words make the scenario's id."""
    text = change.get("question") if isinstance(change, dict) else change
    text = " ".join(str(text or "").split())
    doc = _placed(doc, "question", text, before=("ruleset",)) if text else doc
    if not text:
        doc.pop("question", None)
    words = re.findall(r"[a-z0-9]+", text.lower())[:SLUG_WORDS]
    doc["id"] = "-".join(words) or NEW_ID
    return doc


def _grid(doc, change):
    """Put the combatants on a grid (``at``: a square for each) or take
    them off it (paths become counts of squares)."""
    combatants = doc.get("combatants") or []
    at = change.get("at")
    if at is None:
        for c in combatants:
            c.pop("at", None)
            c.pop("reach", None)          # a reach needs positions
        for s in doc["steps"]:
            path = s.pop("path", None)
            s.pop("shift", None)
            if s.pop("forced", None) is None and isinstance(path, list) and len(path) > 1:
                s["squares"] = len(path)
        return
    if not isinstance(at, dict) or set(at) != {c.get("id") for c in combatants}:
        raise FsmError("give every combatant a square")
    for c in combatants:
        c["at"] = at[c["id"]]


def _place(doc, change):
    combatants = doc.get("combatants") or []
    if not all("at" in c for c in combatants):
        raise FsmError("put the combatants on a grid first")
    for c in combatants:
        if c.get("id") == change.get("id"):
            c["at"] = change.get("at")


def _fighter_field(rs, name, bounds) -> dict:
    """A combatant's own field as the builder offers it: a box, a count or
    a choice of words."""
    kind = field_kind(bounds)
    out = {"name": name, "type": kind, "label": rs.words.fields.get(name) or
           name.replace("_", " ")}
    if kind == "count":
        out["low"], out["high"] = bounds
    elif kind == "choice":
        out["choices"] = list(bounds)
    return out


def _field(doc, change):
    """A combatant's own field (a budget, a flag, its reach); None removes it."""
    for c in doc.get("combatants") or ():
        if c.get("id") == change.get("id"):
            if change.get("value") is None:
                c.pop(change.get("name"), None)
            else:
                c[change.get("name")] = change.get("value")


def _add_all(doc, change):
    """Combatants named in one line, in turn order: "orc vs ayla, bob" puts
    the orc on one side and the others on the other, each side named after
    its first; without "vs", all on ``side``."""
    text = str(change.get("text") or "")
    groups = [g for g in re.split(r"\s+(?:vs\.?|versus|against)\s+", text.strip(), flags=re.I)]
    named = [[n.strip() for n in re.split(r",|\band\b", g) if n.strip()] for g in groups]
    if not any(named):
        raise FsmError("name the combatants, in turn order (orc vs ayla, bob)")
    for names in named:
        side = change.get("side") or SIDES[0] if len(named) == 1 else f"{names[0]}'s side"
        for name in names:
            _add_combatant(doc, {"id": name, "side": side, **_square(doc)})


def _square(doc) -> dict:
    """A free square for a combatant joining a grid (none without one)."""
    combatants = doc.get("combatants") or []
    if not combatants or not all("at" in c for c in combatants):
        return {}
    taken = {tuple(c["at"]) for c in combatants}
    x = 0
    while (x, 2) in taken:
        x += 1
    return {"at": [x, 2]}


_CHANGES = {"ruleset": _switch, "option": _option, "remove-combatant": _remove,
            "add-combatant": lambda doc, c: _add_combatant(doc, {**_square(doc),
                                                                 **(c.get("combatant") or {})}),
            "add-combatants": _add_all, "earlier": _earlier, "add-step": _add_steps,
            "add-steps": _add_steps, "undo": _undo, "branch": _branch, "question": _question,
            "grid": _grid, "place": _place, "field": _field}


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
