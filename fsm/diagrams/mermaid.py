"""The pictures as Mermaid state diagrams, which code hosts render with no
binary: phases, groups of rows, cards of guards, a legend note."""

from __future__ import annotations

from ..engine.rows import (ACTING, ENDING, MACHINE, PHASE_NAMES, PHASE_NOTES, STARTING,
                           STATES, TRIGGERED)
from .model import (BOX, FADED, FILL, INK, PATH_INK, guard_count, guard_label,
                    machine_words, steps_text)


def mermaid_source(pic) -> str:
    """The Mermaid source of a :class:`~fsm.diagrams.model.Picture`."""
    lines = ["---", f"title: {mermaid_text(pic.title)}", "---", "stateDiagram-v2",
             "direction TB", ""]
    _add_nodes(pic, lines)
    lines.append("")
    for group in pic.groups():
        if pic.view == "windows" and not group.machine:
            _add_card(group, lines)
        else:
            lines.append(f"{group.tail} --> {group.dest} : {_mermaid_label(pic, group)}")
    lines.append(f"[*] --> {STARTING}")
    lines = [lines[0], *lines[1:4], *("  " + line for line in lines[4:])]
    lines = [line.rstrip() for line in lines]
    lines[5:5] = ["  " + line for line in _mermaid_styles()]
    lines.extend("  " + line for line in _mermaid_legend(pic))
    return "\n".join(lines) + "\n"


def _add_nodes(pic, container) -> None:
    visited = pic.visited()
    for name in STATES:
        container.append(f'state "{mermaid_text(PHASE_NAMES[name])}" as {name}')
        container.append(f"{name} : {mermaid_text(PHASE_NOTES[name])}")
        container.append(f"class {name} {_mermaid_class(name, visited)}")
    if pic.uses_box():
        container.append(f'state "from any phase where a trigger is open" as {BOX}')
        container.append(f"{BOX} : {', '.join(TRIGGERED)}")
        container.append(f"class {BOX} box")


def _add_card(group, container) -> None:
    card = f"c_{group.key}"
    container.append(f'state "{mermaid_text(" · ".join(group.steps))}" as {card}')
    for _, row in group.rows:
        for line in _mermaid_card_lines(row):
            container.append(f"{card} : {line}")
    container.append(f"class {card} card")
    container.append(f"{group.tail} --> {card}")
    container.append(f"{card} --> {group.dest}")


def mermaid_text(text: str) -> str:
    """Text safe inside a Mermaid label: no statement separators, no markup."""
    for bad, good in ((";", ","), ("#", "no. "), ("<", "‹"), (">", "›"), (":", " ·"),
                      ("{", "("), ("}", ")"), ('"', "'")):
        text = text.replace(bad, good)
    return text


def _mermaid_class(name, visited) -> str:
    if visited is None:
        return "turn" if name == ACTING else "phase"
    return "visited" if name in visited else "faded"


def _mermaid_styles() -> list:
    return [f"classDef phase fill:{FILL['phase']},stroke:{INK}",
            f"classDef turn fill:{FILL['turn']},stroke:{INK}",
            f"classDef box fill:{FILL['box']},stroke:{FILL['box_line']},stroke-dasharray:4 3",
            f"classDef visited fill:{FILL['visited']},stroke:{PATH_INK},stroke-width:2px",
            f"classDef faded fill:#ffffff,stroke:{FADED},color:#9a9a9a",
            f"classDef card fill:{FILL['card']},stroke:#888888"]


def _mermaid_step(row, taken=()) -> str:
    if row.by == MACHINE:
        text = f"(machine) {machine_words(row)}"
    else:
        count = guard_count(row)
        text = f"{row.step} ({count})" if count else row.step
    return text + (f" ✔ {steps_text(taken)}" if taken else "")


def _mermaid_label(machine, group) -> str:
    return mermaid_text(" · ".join(_mermaid_step(row, machine.steps_taken(group, row))
                                    for _, row in group.rows))


def _mermaid_card_lines(row) -> list:
    own = f" ({', '.join(row.rules)})" if row.rules else ""
    lines = [f"{row.step}{own}"]
    lines.extend(f"{row.step} ‣ {guard_label(fn, rules)}" for fn, rules in row.guards)
    return [mermaid_text(line) for line in lines]


def _mermaid_legend(machine) -> list:
    if machine.trace is not None:
        body = ["Legend", "orange - a phase the scenario visited",
                "✔ steps n - the scenario's steps that took the edge"]
    elif machine.view == "windows":
        body = ["Legend", "a card - the rows that share one edge",
                "step (RULE-ID) - the rules of the row itself",
                "step ‣ guard (RULE-ID) - a rule limit and the rules it enforces there"]
    else:
        body = ["Legend", "step - a player declares it",
                "(machine) step - the machine fires it itself",
                "n guards - rule limits that may refuse the step"]
    return [f"note right of {ENDING}", *("  " + mermaid_text(b) for b in body), "end note"]


