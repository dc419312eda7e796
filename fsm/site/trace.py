"""A scenario replayed step by step for a page: each step's verdict, reason,
cited rules, explanation, what was expected of it and did not happen, the
phase, the stack, the budgets and the edges of the machine's picture it
took.

The same function serves the scenario pages (at build time) and the live
checker (in the browser, under Pyodide): :func:`judge` takes the text a user
pasted and answers in JSON. One replay (:func:`fsm.diagrams.model.trace_document`)
gives the records and the sequence diagram, drawn as SVG by
:mod:`.sequence_svg`. Nothing here runs Graphviz or reads a file.
"""

from __future__ import annotations

import json

from ..engine.frames import TURN_KINDS
from ..engine.rows import NEXT_TURN, PHASE_NOTES
from ..errors import FsmError
from ..io.scenario import parse_text
from ..report import Citations, bbcode, describe, markdown, options_line, why
from .words import Namer, capital


def move_key(trigger, source, dest) -> str:
    """How a transition is named in the table of edge titles a page carries."""
    return f"{trigger} {source} {dest}"


def _budgets(facts) -> str:
    """Each combatant's budgets in words ('nothing' where a value is none)."""
    return "; ".join(f"{who}: " + ", ".join(f"{k.replace('_', ' ')} {'nothing' if v is None else v}"
                                            for k, v in b.items())
                     for who, b in facts["budgets"].items())


def _scene(enc, facts, result) -> str:
    """The grid after a step (with the squares its path entered), or '' without a scene."""
    if "positions" not in facts:
        return ""
    from .scene_svg import scene_svg
    path = result.data.get("path") if result is not None and isinstance(result.data, dict) \
        else None
    squares = [p for p in path if isinstance(p, list) and len(p) == 2] if isinstance(path, list) \
        else []
    return scene_svg(facts["positions"], {cid: f.reach for cid, f in enc.fighters.items()},
                     squares, "where each combatant stands after this step")


def _on_stack(enc) -> list:
    """The frames on the stack as a reader sees them: a frame that has
    resolved, been lost or disrupted says so (it leaves when the next step
    comes)."""
    return [f"{f.id} ({f.outcome})" if f.outcome else f.id
            for f in enc.stack if f.kind not in TURN_KINDS]


def trace(doc, path, lines, edges) -> tuple:
    """(the start as a step, every step's record, the sequence diagram as
    SVG, each of its rows marked with its step, the replay itself), from one
    replay; ``edges``
    maps :func:`move_key` to the title of the edge that draws it. A step
    that cannot be read raises :class:`~fsm.errors.InputError`. Each record
    also says its step in a player's words (:mod:`.words`): ``title`` (who
    does what, read just before the step), ``say`` (the verdict in one
    sentence), ``cost`` (what it spent), ``moment`` (where play stands after
    it) and ``purse`` (every budget, named)."""
    from ..diagrams.model import trace_document
    from ..diagrams.sequence import sequence_rows
    from ..rulesets import RULESETS
    from .sequence_svg import sequence_svg

    records, titles, spent = [], {}, {}
    steps = doc.get("steps") if isinstance(doc, dict) else None
    rs = RULESETS.get(doc.get("ruleset")) if isinstance(doc, dict) else None
    namer = Namer(rs, doc) if rs is not None else None

    def turn_started(enc):            # a budget a new turn gives back is not the step's cost
        spent["base"] = enc.budgets()

    def record(enc, result, fired):
        facts = enc.facts()
        entry = {"what": "the encounter starts", "verdict": "", "reason": None,
                 "rules": [], "explain": "", "failures": [], "title": "The encounter starts",
                 "say": "", "cost": ""}
        if result is None:
            enc.observer = _TurnWatch(enc.observer, turn_started)
        else:
            v = result.verdict
            entry = {"what": describe(result.data), "verdict": v.verdict, "reason": v.reason,
                     "rules": list(v.rules), "explain": why(v),
                     "failures": result.failures, "title": titles.get(result.index, ""),
                     "say": namer.say(enc, result.data, v),
                     "cost": "" if v.verdict == "rejected" else namer.costs(
                         spent.get("base") or {}, facts["budgets"],
                         result.data.get("actor") if isinstance(result.data, dict) else None)}
        seen = spent.setdefault("ended", set())     # lost or disrupted by a step before
        ended = [(fid, how) for how in ("lost", "disrupted") for fid in facts.get(how, ())
                 if fid not in seen]
        spent["ended"] |= {fid for fid, _ in ended}
        if ended and result is not None and entry["verdict"] != "rejected" and \
                isinstance(result.data, dict) and result.data.get("do") == "resolve":
            said = "; ".join(f"{namer.frame_id(enc, fid)} is {how}" for fid, how in ended)
            entry["say"] = f"{entry['say']} {capital(said)}.".strip()    # in the same row
        index = 0 if result is None else result.index
        if isinstance(steps, list) and index < len(steps):
            titles[index + 1] = namer.title(enc, steps[index])
        spent["base"] = facts["budgets"]
        lit = {edges.get(move_key(*m)) for m in fired} - {None}
        records.append({**entry, "phase": facts["state"], "now": PHASE_NOTES[facts["state"]],
                        "moment": namer.now(enc), "purse": namer.purse(facts["budgets"]),
                        "stack": facts["stack"], "on_stack": _on_stack(enc),
                        "scene": _scene(enc, facts, result),
                        "budgets": _budgets(facts), "edges": sorted(lit)})

    replay, traced = trace_document(doc, path, lines, record)
    records[0]["options"] = options_line(replay)
    records[0]["explain"] = f"the options in force: {records[0]['options']}"
    sequence = sequence_svg(sequence_rows(replay, traced), f"sequence diagram of {traced.title}")
    return records[0], records[1:], sequence, replay


class _TurnWatch:
    """An encounter's observer that also tells ``on_turn(enc)`` each time the
    machine starts a turn (before the step that started it is judged)."""

    def __init__(self, inner, on_turn):
        self._inner, self._on_turn = inner, on_turn

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def on_transition(self, enc, trigger, source, dest, st):
        if self._inner is not None and hasattr(self._inner, "on_transition"):
            self._inner.on_transition(enc, trigger, source, dest, st)
        if trigger == NEXT_TURN.replace("-", "_"):
            self._on_turn(enc)


def pasted_name(text: str) -> str:
    """The name a pasted scenario is read under: JSON when it starts with a
    brace, YAML otherwise (as its errors will name it)."""
    return "scenario.json" if text.lstrip().startswith("{") else "scenario.yaml"


_CITES: list = []


def _citations() -> Citations:
    """The rule statements, read once (spec/statements.json) for every check of the page."""
    if not _CITES:
        _CITES.append(Citations())
    return _CITES[0]


def judge(text: str, edges_by_ruleset: dict) -> dict:
    """The live checker's answer for a pasted scenario (JSON when it starts
    with a brace, YAML otherwise): ``{"ok": true, "ruleset", "id", "start",
    "steps", "sequence", "markdown", "bbcode"}`` (the sequence diagram as SVG,
    the verdicts as ``fsm check`` writes them for a post), or ``{"ok": false,
    "error": one line}`` as ``fsm check`` would print it."""
    name = pasted_name(text)
    lines: dict = {}
    try:
        doc = parse_text(text, name, lines)
        ruleset = doc.get("ruleset") if isinstance(doc, dict) else None
        start, records, sequence, replay = trace(doc, name, lines,
                                                 edges_by_ruleset.get(ruleset) or {})
    except FsmError as exc:
        return {"ok": False, "error": str(exc)}
    cites = _citations()
    return {"ok": True, "ruleset": doc["ruleset"], "id": doc.get("id"),
            "question": _text(doc.get("question")), "answer": _text(doc.get("answer")),
            "start": start,
            "steps": records, "sequence": sequence,
            "markdown": markdown(replay, cites), "bbcode": bbcode(replay, cites)}


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def judge_json(text: str, edges_json: str) -> str:
    """:func:`judge` with JSON in and out (what the page's script calls)."""
    return json.dumps(judge(text, json.loads(edges_json)), ensure_ascii=False)
