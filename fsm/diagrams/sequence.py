"""A replayed scenario as a Mermaid sequence diagram: a lane per combatant,
each action and answer, each trigger window, what resolved, was lost or
disrupted, and the steps the rules refused."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.frames import DISRUPTED, LOST, RESOLVED
from ..engine.rows import AFTER, BEFORE
from ..engine.scene import show
from ..engine.verdict import GM_VERDICT
from ..report import describe_action
from ..scenario import Replay
from .mermaid import mermaid_text
from .model import Trace, happened


@dataclass
class _Lanes:
    """Mermaid participants: one lane per combatant, in initiative order."""

    alias: dict          # combatant id -> participant alias
    owners: dict         # frame id -> owner (None for events)
    active: dict = field(default_factory=dict)   # alias -> open activations

    def of(self, frame_id) -> str | None:
        owner = self.owners.get(frame_id)
        return self.alias.get(owner) if owner else None

    def all(self) -> str:
        names = list(self.alias.values())
        return names[0] if len(names) == 1 else f"{names[0]},{names[-1]}"


LOSS_BAND = "rect rgb(255, 226, 222)"


def sequence_diagram(replay: Replay, trace: Trace) -> str:
    """A Mermaid sequence diagram of a replayed scenario: a lane per combatant,
    each action and response, each trigger window, what resolved, was lost or
    disrupted, and the steps the rules refused."""
    lines = ["---", f"title: {mermaid_text(trace.title)} · step by step", "---",
             "sequenceDiagram"]
    return "\n".join(lines + [line for _, line in sequence_rows(replay, trace)]) + "\n"


def sequence_rows(replay: Replay, trace: Trace) -> list:
    """The diagram's statements after its header, each with the step it
    belongs to (0: before the first): (step, line)."""
    enc = replay.encounter
    lanes = _lanes(replay)
    rows = [(0, f"  participant {alias} as {mermaid_text(_lane_title(enc, cid))}")
            for cid, alias in lanes.alias.items()]
    # the first turn's owner: the initiative as it was then, not as it ended
    # (a readied action may have moved someone ahead since)
    first = (enc.turn_of(1) or (1, next(iter(lanes.alias))))[1]
    rows.append((0, f"  Note over {lanes.all()}: round 1 · {mermaid_text(first)}'s turn starts"))
    shown = None
    for result in replay.results:
        rows.extend((result.index, "  " + line) for line in _step_lines(result, enc, lanes))
        window = trace.after[result.index]
        if happened(result.verdict, result.data) and window != shown:
            note = _window_note(window, lanes)
            if note:
                rows.append((result.index, "  " + note))
            shown = window
    return rows


def _lanes(replay) -> _Lanes:
    enc = replay.encounter
    order = replay.doc.get("initiative") or [c["id"] for c in replay.doc["combatants"]]
    alias = {cid: f"c{n}" for n, cid in enumerate(order, 1)}
    owners = {frame.id: frame.owner for frame in enc.stack[:1]}
    owners.update({e["frame"]: e["actor"] for e in enc.log})
    return _Lanes(alias, owners)


def _lane_title(enc, cid) -> str:
    return f"{cid} ({enc.fighters[cid].side})"


def _step_lines(result, enc, lanes) -> list:
    data, verdict, index = result.data, result.verdict, result.index
    if not happened(verdict, data):
        return _refused_lines(result, lanes)
    entries = [e for e in enc.log if e["step"] == index]
    lines = []
    if data["do"] in enc.ruleset.turn_changes and verdict.notes:
        # a change of turn that makes no frame (4e: delay, return): what its notes say
        who = lanes.alias.get(data.get("actor")) or lanes.all()
        lines += [f"Note over {who}: {index} · {mermaid_text(note)}" for note in verdict.notes]
    for entry in entries:
        lines.extend(_entry_lines(entry, result, enc, lanes))
    if not lines:
        who = lanes.of(verdict.target_id) or lanes.alias.get(data.get("actor")) or lanes.all()
        target = f" {verdict.target_id}" if verdict.target_id else ""
        lines.append(f"Note over {who}: {index} · {mermaid_text(data['do'] + target)}")
    return lines


def _refused_lines(result, lanes) -> list:
    data, verdict, index = result.data, result.verdict, result.index
    why = verdict.reason or verdict.verdict
    text = mermaid_text(f"{index} · {describe_action(data, None)} ✗ {why}")
    actor = lanes.alias.get(data.get("actor"))
    if actor is None:
        return [f"Note over {lanes.all()}: {text}"]
    target = lanes.of(verdict.target_id) or actor
    return [f"{actor}-x{target}: {text}"]


def _entry_lines(entry, result, enc, lanes) -> list:
    event, frame = entry["event"], entry["frame"]
    lane = lanes.alias.get(entry["actor"])
    index = result.index
    if event == "declared":
        return _declared_lines(entry, result, enc, lanes)
    if event == "turn starts":
        rnd, who = enc.turn_of(entry["turn"])
        return [f"Note over {lanes.all()}: round {rnd} · {mermaid_text(who)}'s turn starts"]
    if event == "turn ends":
        return [f"Note over {lanes.all()}: {index} · {mermaid_text(entry['actor'])} "
                f"ends the turn · end-of-turn triggers open"]
    where = lane or lanes.all()
    square = f" · at {show(entry['square'])}" if "square" in entry else ""
    if event.startswith("part "):
        return [f"Note over {where}: {index} · {mermaid_text(frame)} {event} resolved"
                f"{mermaid_text(square)}"]
    mark = {RESOLVED: "✓ {} resolves", LOST: "✗ {} is lost (no effect, cost spent)",
            DISRUPTED: "✗ {} is disrupted (no effect, cost spent)"}[event]
    lines = [f"Note over {where}: {index} · {mark.format(mermaid_text(frame))}"
             f"{mermaid_text(square)}"]
    if event != RESOLVED:
        lines = [LOSS_BAND, *("  " + line for line in lines), "end"]
    if lane and lanes.active.get(lane):
        lanes.active[lane] -= 1
        lines.append(f"deactivate {lane}")
    return lines


def _declared_lines(entry, result, enc, lanes) -> list:
    data, verdict, index = result.data, result.verdict, result.index
    lane = lanes.alias.get(entry["actor"])
    gm = " (GM's call)" if verdict.verdict == GM_VERDICT else ""
    text = mermaid_text(f"{index} · {describe_action(data, None)} [{entry['frame']}]{gm}")
    if lane is None:
        return [f"Note over {lanes.all()}: {text}"]
    target = lanes.of(verdict.target_id) if entry["kind"] in enc.ruleset.answer_kinds else None
    lanes.active[lane] = lanes.active.get(lane, 0) + 1
    return [f"{lane}->>{target or lane}: {text}", f"activate {lane}"]


def _window_note(window, lanes) -> str | None:
    phase, frame, done, parts, outcome = window
    if phase == BEFORE:
        part = f" (part {done + 1}/{parts})" if parts > 1 else ""
        text = f"{frame}{part} declared, not resolved · answers may come before it"
    elif phase == AFTER and outcome in (LOST, DISRUPTED):
        text = f"{frame} {outcome} · answers may come after it"
    elif phase == AFTER:
        part = f" part {done}/{parts}" if parts > 1 and done < parts else ""
        text = f"{frame}{part} resolved · answers may come after it"
    else:
        return None
    return f"Note over {lanes.all()}: {mermaid_text(text)}"


