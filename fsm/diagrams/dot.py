"""The pictures in Graphviz DOT: the phases in their box, each group of rows
as an edge (or, in the windows view, as a card of its guards and rule ids),
the title and legend as the graph's own label."""

from __future__ import annotations

import html

import graphviz

from ..engine.rows import ACTING, MACHINE, PHASE_NAMES, PHASE_NOTES, STATES, TRIGGERED
from .model import (BOX, CLUSTER, FADED, FILL, FONT, INK, MACHINE_INK, PATH_INK,
                    RULE_INK, guard_count, guard_names, machine_words, steps_text)


def dot_source(pic) -> str:
    """The DOT source of a :class:`~fsm.diagrams.model.Picture`."""
    graph = graphviz.Digraph(name=pic.title, node_attr={}, edge_attr={}, graph_attr={})
    graph.graph_attr.update(rankdir="TB", label=pic.title)
    _add_nodes(pic, graph)
    for group in pic.groups():
        if pic.view == "windows" and not group.machine:
            _add_card(group, graph)
        else:
            _add_direct(pic, group, graph)
    graph.graph_attr.update(_graph_attributes(pic))
    graph.node_attr.update(fontname=FONT, fontsize="11", style="rounded,filled", shape="box",
                           color=INK, fillcolor="white", penwidth="1.2")
    graph.edge_attr.update(fontname=FONT, fontsize="10", color=INK, fontcolor=INK,
                           arrowsize="0.7")
    source = graph.source
    return source if source.endswith("\n") else source + "\n"


def _add_nodes(pic, container) -> None:
    visited = pic.visited()
    with container.subgraph(name=CLUSTER) as box:
        box.attr(label=_cluster_label(), style="rounded,filled", fillcolor=FILL["box"],
                 color=FILL["box_line"], fontname=FONT, fontsize="10", labeljust="l")
        for name in (n for n in STATES if n in TRIGGERED):
            box.node(name, label=_phase_label(name), **_phase_style(name, visited))
        if pic.uses_box():
            box.node(BOX, label=_box_label(), **_box_style())
    for name in (n for n in STATES if n not in TRIGGERED):
        container.node(name, label=_phase_label(name), **_phase_style(name, visited))


def _add_direct(pic, group, container) -> None:
    taken = pic.steps_taken(group)
    # in the windows view the edges to the turn's phases leave a phase on its
    # right and top: a loop hangs below it, where its label has room
    loop = group.tail == group.dest and pic.view == "windows"
    ports = {"tailport": "s", "headport": "s"} if loop else {}
    tips = {"labeltooltip": guard_names(r for _, r in group.rows)} if group.machine else {}
    ends = (group.tail, group.dest)
    if _goes_back(pic, group):
        # drawn as its reverse with the arrow turned: Graphviz then lays the two
        # edges between these phases side by side, labels apart (a 4e delay
        # beside the turn start's close)
        ends, ports = ends[::-1], {**ports, "dir": "back"}
    container.edge(*ends, label=_edge_label(pic, group), **tips, **ports,
                   **_edge_style(group, taken, pic.trace is not None))


def _goes_back(pic, group) -> bool:
    """An edge between two of the turn's own phases, against their order, whose
    reverse is drawn too."""
    tail, dest = group.tail, group.dest
    if tail in TRIGGERED and dest in TRIGGERED or tail not in STATES or dest not in STATES:
        return False
    return STATES.index(tail) > STATES.index(dest) and any(
        g.tail == dest and g.dest == tail for g in pic.groups())


def _add_card(group, container) -> None:
    card = f"c_{group.key}"
    container.node(card, label=_card_label(group), shape="box", style="rounded,filled",
                   fillcolor=FILL["card"], color=INK, margin="0.1,0.05")
    container.edge(group.tail, card, arrowhead="none", **_edge_style(group, [], False))
    container.edge(card, group.dest, **_edge_style(group, [], False))


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _html_lines(lines) -> str:
    return "<" + "<BR/>".join(lines) + ">"


def _graph_attributes(machine) -> dict:
    attrs = {"fontname": FONT, "fontsize": "12", "labelloc": "t", "labeljust": "l",
             "nodesep": "0.3", "ranksep": "0.4", "pad": "0.2", "newrank": "true",
             "label": _legend(machine)}
    if machine.view == "windows":
        # left to right: the tall cards of steps sit in columns of their own, so
        # the box of open phases holds only its phases (top to bottom, it spanned
        # the cards' height and stood mostly empty)
        attrs.update(rankdir="LR", ranksep="0.3", nodesep="0.25")
    return attrs


def _cluster_label() -> str:
    return "<<I>a trigger is open: responses may answer it</I>>"


def _phase_label(name) -> str:
    return _html_lines([f"<B>{_esc(PHASE_NAMES[name])}</B>",
                        f'<FONT POINT-SIZE="9">{_esc(PHASE_NOTES[name])}</FONT>'])


def _box_label() -> str:
    return '<<FONT POINT-SIZE="9"><I>from any phase<BR/>in this box</I></FONT>>'


def _box_style() -> dict:
    return {"style": "rounded,dashed,filled", "fillcolor": FILL["box"],
            "color": FILL["box_line"], "penwidth": "1.4", "margin": "0.05,0.02"}


def _phase_style(name, visited) -> dict:
    fill = FILL["turn"] if name == ACTING else FILL["phase"]
    if visited is None:
        return {"fillcolor": fill}
    if name in visited:
        return {"fillcolor": FILL["visited"], "color": PATH_INK, "penwidth": "2.2"}
    return {"fillcolor": FILL["faded"], "color": FADED, "fontcolor": "#9a9a9a"}


def _edge_style(group, taken, on_path) -> dict:
    style = {"style": "dashed", "color": MACHINE_INK, "fontcolor": MACHINE_INK} \
        if group.machine else {}
    if taken:
        style.update(color=PATH_INK, penwidth="2.2")
    elif on_path:
        style.update(color=FADED, fontcolor="#a8a8a8")
    return style


def _step_line(row, count_ink=RULE_INK, taken=(), narrow=False) -> str:
    """One row of an edge label; on a scenario's path, a taken row is red and its
    step numbers follow on their own line. ``narrow``: a machine row's words
    break after its step (the windows view, where labels crowd)."""
    name = _esc(row.step)
    if taken:
        name = f'<FONT COLOR="{PATH_INK}">{name}</FONT>'
    if row.by == MACHINE:
        words = machine_words(row)[len(row.step):]
        text = name + (f" when<BR/>{_esc(words[len(' when '):])}"
                       if narrow and words.startswith(" when ") else _esc(words))
    else:
        text = f"<B>{name}</B>"
        count = guard_count(row)
        if count:
            text += f' <FONT POINT-SIZE="9" COLOR="{count_ink}">{count}</FONT>'
    if taken:
        text += f'<BR/><FONT COLOR="{PATH_INK}"><B>{_esc(steps_text(taken))}</B></FONT>'
    return text


def _edge_label(machine, group) -> str:
    """The steps of a group, one a line; on a scenario's path, with the step
    numbers that took each."""
    faded = machine.trace is not None and not machine.steps_taken(group)
    ink = "#a8a8a8" if faded else RULE_INK
    return _html_lines([_step_line(row, ink, machine.steps_taken(group, row),
                                   narrow=machine.view == "windows")
                        for _, row in group.rows])


def _card_label(group) -> str:
    cells = []
    for _, row in group.rows:
        cells.append(f'<TR><TD ALIGN="LEFT" BALIGN="LEFT" COLSPAN="2"><B>{_esc(row.step)}</B>'
                     f'{_own_rules(row)}</TD></TR>')
        for fn, rules in row.guards:
            cells.append(
                f'<TR><TD ALIGN="LEFT" TITLE="{_esc(fn.name)}">   {_esc(fn.title)}</TD>'
                f'<TD ALIGN="LEFT"><FONT COLOR="{RULE_INK}">{_esc(", ".join(rules))}'
                f'</FONT></TD></TR>')
    return ('<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">'
            + "".join(cells) + "</TABLE>>")


def _own_rules(row) -> str:
    """The row's own rule ids, grey, two to a line so that cards stay narrow."""
    if not row.rules:
        return ""
    lines = [", ".join(row.rules[at:at + 2]) for at in range(0, len(row.rules), 2)]
    text = "<BR/>".join(_esc(line) for line in lines)
    return f'  <FONT POINT-SIZE="10" COLOR="#666666">{text}</FONT>'


def _legend(machine) -> str:
    """The title and the legend, as the graph's own label: no edge can cross it."""
    entries = _path_legend() if machine.trace is not None else _table_legend(machine.view)
    rows = "".join(f'<TR>{sample}<TD ALIGN="LEFT"><FONT POINT-SIZE="10">{_esc(text)}</FONT>'
                   f'</TD></TR>' for sample, text in entries)
    return ('<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="3" CELLPADDING="1">'
            f'<TR><TD ALIGN="LEFT" COLSPAN="2"><FONT POINT-SIZE="14"><B>{_esc(machine.title)}'
            f'</B></FONT></TD></TR>{rows}</TABLE>>')


def _line_sample(color, dashed=False) -> str:
    style = ' STYLE="dashed"' if dashed else ""
    return f'<TD WIDTH="34" HEIGHT="8" SIDES="B" BORDER="2" COLOR="{color}"{style}></TD>'



def _box_sample(fill, color, dashed=False, text="") -> str:
    style = ' STYLE="dashed"' if dashed else ""
    label = f'<FONT POINT-SIZE="8"><I>{_esc(text)}</I></FONT>' if text else ""
    return (f'<TD HEIGHT="14" WIDTH="34" BGCOLOR="{fill}" BORDER="1" COLOR="{color}"{style}>'
            f'{label}</TD>')


def _word_sample(text, color=RULE_INK) -> str:
    return f'<TD ALIGN="RIGHT"><FONT POINT-SIZE="9" COLOR="{color}">{_esc(text)}</FONT></TD>'


def _table_legend(view) -> list:
    entries = [(_line_sample(INK), "a step a player declares (bold name)"),
               (_line_sample(MACHINE_INK, dashed=True), "a step the machine fires itself"),
               (_box_sample(FILL["box"], FILL["box_line"]), "the phases where a trigger is open"),
               (_box_sample(FILL["box"], FILL["box_line"], dashed=True, text="from any phase"),
                "its edges leave every phase in the box")]
    if view == "overview":
        entries.append((_word_sample("n guards"),
                        "rule limits that may refuse the step (named in the windows view)"))
    else:
        entries.append((_word_sample("RULE-ID"),
                        "the rules a guard enforces on that row; grey: the row's own rules"))
    return entries


def _path_legend() -> list:
    return [(_box_sample(FILL["visited"], PATH_INK), "a phase the scenario visited"),
            (_line_sample(PATH_INK), "an edge it took; red: the steps that took it"),
            (_line_sample(FADED), "an edge it did not take"),
            (_line_sample(MACHINE_INK, dashed=True), "dashed: the machine fires the step")]


