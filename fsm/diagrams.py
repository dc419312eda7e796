"""Pictures of the machine, drawn from the one transition table.

The rules live in :mod:`fsm.table`; a reader should be able to see them
without reading Python, and to trust that the picture is the machine the
engine runs. So every picture is built by ``transitions``' ``GraphMachine``
from exactly the transition definitions the engine uses
(:func:`fsm.encounter.machine_transitions`): this module names no edge, it
only decides how the table's rows are grouped, labelled and styled.

Per ruleset, two views, each as DOT, SVG (Graphviz ``dot``), PNG and Mermaid:

* ``overview``: the turn phases and trigger windows; rows that leave the same
  phase for the same phase share one edge, labelled with their steps;
* ``windows``: every row that opens, answers or closes a trigger window, with
  each guard and the rule ids it enforces on that row.

A row that may start from every phase where a trigger is open (a response,
an event) is drawn once, from the box that holds those phases, instead of
once per phase.

Per scenario, two pictures: the path it took through the machine (visited
phases and taken edges highlighted, with step numbers) and a Mermaid
sequence diagram with a lane per combatant.

Output is deterministic byte for byte: everything is ordered by the table,
the phases or the scenario, and nothing carries a date. ``fsm diagram
--check`` regenerates the committed copies under ``diagrams/`` and compares.
"""

from __future__ import annotations

import html
import logging
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from transitions.extensions import GraphMachine
from transitions.extensions import diagrams_graphviz, diagrams_mermaid

from . import table as T
from .encounter import ALLOWED, GM_VERDICT, machine_transitions
from .frames import DISRUPTED, DONE, LOST
from .rulesets import RESPONSES
from .scenario import Replay, build, load_source, play_step

logging.getLogger("transitions.extensions.diagrams").setLevel(logging.WARNING)

VIEWS = ("overview", "windows")
FORMATS = ("dot", "svg", "png", "mermaid")
EXTENSIONS = {".dot": "dot", ".gv": "dot", ".svg": "svg", ".png": "png",
              ".mmd": "mermaid", ".mermaid": "mermaid"}
SUFFIX = {"dot": ".dot", "svg": ".svg", "png": ".png", "mermaid": ".mmd"}
SEQUENCE_SUFFIX = ".sequence.mmd"

ROOT = Path(__file__).resolve().parent.parent
DIAGRAMS_DIR = ROOT / "diagrams"
SCENARIOS_DIR = ROOT / "spec" / "scenarios"

# The texts' own examples, pictured under diagrams/scenarios/.
EXAMPLES = (
    "4e-interrupt-shift-away",
    "4e-reaction-between-attack-rolls",
    "4e-reaction-breaks-into-movement",
    "4e-reaction-when-hit",
    "pf2-release-two-objects",
    "pf2-disrupted-spell",
)

WINDOWS = (T.BEFORE, T.AFTER)
BOX = "any_trigger_open"     # the tail of edges that leave every trigger-open phase

PHASE_NOTES = {
    T.TURN_START: "start-of-turn triggers open",
    T.ACTING: "the turn's owner may act",
    T.BEFORE: "a trigger is declared, unresolved",
    T.AFTER: "a trigger (or a part) resolved",
    T.TURN_END: "end-of-turn triggers open",
}

TITLES = {"dnd4e": "D&D 4e", "pf2e": "Pathfinder 2e"}
VIEW_TITLES = {"overview": "turn phases and trigger windows",
               "windows": "trigger windows in detail: steps, guards, rule ids"}

FONT = "Helvetica"
INK = "#222222"
MACHINE_INK = "#6b6b6b"
RULE_INK = "#1d5fa6"
FADED = "#c4c4c4"
PATH_INK = "#c0392b"
FILL = {"phase": "#fffaf0", "turn": "#e3edf9", "visited": "#ffd9a8", "faded": "#ffffff",
        "box": "#fdf1d3", "box_line": "#d9b35f", "card": "#fbfbfb"}
CLUSTER = "cluster_trigger_open"


class DiagramError(ValueError):
    """A picture that cannot be made (unknown ruleset, view or format, no ``dot``)."""


# -- the table, grouped into edges ---------------------------------------------

@dataclass(frozen=True)
class Group:
    """Rows drawn as one edge: they leave the same tail (a phase, or the box of
    trigger-open phases) for the same phase, fired by the same hand."""

    number: int
    tail: str
    dest: str
    by: str
    rows: tuple          # ((table index, Row), ...), in table order

    @property
    def key(self) -> str:
        return f"g{self.number:02d}"

    @property
    def machine(self) -> bool:
        return self.by == T.MACHINE

    @property
    def sources(self) -> tuple:
        """The phases this edge stands for."""
        return T.TRIGGERED if self.tail == BOX else (self.tail,)

    @property
    def steps(self) -> tuple:
        return tuple(dict.fromkeys(row.step for _, row in self.rows))

    def touches_window(self) -> bool:
        return self.dest in WINDOWS or any(s in WINDOWS for s in self.sources)


def row_key(index: int) -> str:
    return f"row-{index:02d}"


def row_tails(row) -> tuple:
    """Where a row's edges start: the box when it leaves every trigger-open
    phase, plus each of its other phases."""
    if all(s in row.sources for s in T.TRIGGERED):
        return (BOX, *(s for s in row.sources if s not in T.TRIGGERED))
    return tuple(row.sources)


def group_rows(indexed_rows) -> list:
    """Group ``(index, Row)`` pairs by (tail, dest, by), in table order."""
    groups: dict = {}
    for index, row in sorted(indexed_rows, key=lambda pair: pair[0]):
        for tail in row_tails(row):
            groups.setdefault((tail, row.dest, row.by), []).append((index, row))
    return [Group(n, tail, dest, by, tuple(rows))
            for n, ((tail, dest, by), rows) in enumerate(groups.items(), 1)]


def guard_label(fn, rules) -> str:
    return f"{fn.__name__} ({', '.join(rules)})" if rules else fn.__name__


def guard_count(row) -> str:
    n = len(row.guards)
    return "" if n == 0 else f"{n} guard" if n == 1 else f"{n} guards"


# -- the scenario path ---------------------------------------------------------

@dataclass
class Trace:
    """What a replayed scenario did to the machine: every transition fired by a
    step that happened, and the phase and top frame after each step."""

    ruleset: str
    title: str
    moves: list = field(default_factory=list)     # (step, trigger, source, dest)
    after: dict = field(default_factory=dict)     # step -> (phase, frame, done, parts, outcome)

    def visited_states(self) -> list:
        seen = [T.TURN_START]
        for _, _, source, dest in self.moves:
            for phase in (source, dest):
                if phase not in seen:
                    seen.append(phase)
        return seen

    def steps_on(self, trigger: str, source: str, dest: str) -> list:
        return [step for step, t, s, d in self.moves if (t, s, d) == (trigger, source, dest)]


def _happened(verdict, data) -> bool:
    if verdict.verdict == ALLOWED:
        return True
    return verdict.verdict == GM_VERDICT and data.get("ruling", "allow") != "deny"


def trace_scenario(path) -> tuple:
    """Replay the scenario at ``path``, recording every transition of the machine.

    Returns ``(Replay, Trace)``; raises :class:`fsm.scenario.InputError` on bad input.
    """
    doc, lines = load_source(path)
    enc = build(doc, path)
    fired: list = []
    enc.machine.after_state_change = [
        lambda event: fired.append((event.event.name, event.transition.source,
                                    event.transition.dest))]
    trace = Trace(doc["ruleset"], str(doc.get("id") or Path(path).stem))
    results = []
    for index, data in enumerate(doc["steps"], 1):
        fired.clear()
        result = play_step(enc, data, path, index, lines)
        results.append(result)
        if _happened(result.verdict, data):
            trace.moves.extend((index, *move) for move in fired)
        top = enc.stack[-1]
        trace.after[index] = (enc.state, top.id, top.done, top.parts, top.outcome)
    return Replay(doc, str(path), enc, results), trace


# -- the machine ---------------------------------------------------------------

class _Picture:
    """The model the diagram machine drives; it only carries ``state``."""


class TableMachine(GraphMachine):
    """A ``GraphMachine`` over the table's transitions for one ruleset and view.

    Each transition carries its row's key as ``label``, so that the graph
    classes below find the row (its guards' rule ids, who fires it) again.
    """

    def __init__(self, ruleset: str, view: str, engine: str, trace: Trace | None = None):
        self.ruleset = ruleset
        self.view = view
        self.trace = trace
        self.rows_by_key = {row_key(i): (i, row) for i, row in enumerate(T.TABLES[ruleset][0])}
        self.machine_attributes = {"rankdir": "TB"}
        self.style_attributes = {"node": {}, "edge": {}, "graph": {}}
        definitions = [dict(d, label=row_key(i))
                       for i, d in enumerate(machine_transitions(ruleset))]
        super().__init__(model=_Picture(), states=list(T.STATES), initial=T.TURN_START,
                         transitions=definitions, auto_transitions=False,
                         show_conditions=True, graph_engine=engine,
                         title=_title(ruleset, view, trace))

    def _init_graphviz_engine(self, graph_engine):
        return {"graphviz": _DotGraph, "mermaid": _MermaidGraph}[graph_engine]

    def groups(self, transitions) -> list:
        """The drawn groups, from the markup's transitions (one per row and source)."""
        rows = dict(self.rows_by_key[t["label"]] for t in transitions)
        groups = group_rows(rows.items())
        if self.view == "windows":
            groups = [g for g in groups if g.touches_window()]
        return groups

    def uses_box(self) -> bool:
        return any(row_tails(row)[0] == BOX for _, row in self.rows_by_key.values())

    def steps_taken(self, group: Group, row=None) -> list:
        """The scenario's steps that took this edge (through ``row`` only, if given)."""
        if self.trace is None:
            return []
        steps = []
        for _, each in group.rows:
            if row is None or each is row:
                for source in group.sources:
                    steps.extend(self.trace.steps_on(each.trigger, source, group.dest))
        return sorted(dict.fromkeys(steps))

    def visited(self) -> list | None:
        return self.trace.visited_states() if self.trace else None


def _title(ruleset, view, trace) -> str:
    if trace is not None:
        return f"{TITLES[ruleset]}: the path of {trace.title}"
    return f"{TITLES[ruleset]}: {VIEW_TITLES[view]}"


# -- Graphviz ------------------------------------------------------------------

def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _html_lines(lines) -> str:
    return "<" + "<BR/>".join(lines) + ">"


class _DotGraph(diagrams_graphviz.Graph):
    """Draws the table as DOT: phases in their box, groups of rows, a legend."""

    def get_graph(self, title=None, roi_state=None):
        graph = super().get_graph(title=title)
        graph.graph_attr.update(_graph_attributes(self.machine))
        graph.node_attr.update(fontname=FONT, fontsize="11", style="rounded,filled",
                               shape="box", color=INK, fillcolor="white", penwidth="1.2")
        graph.edge_attr.update(fontname=FONT, fontsize="10", color=INK, fontcolor=INK,
                               arrowsize="0.7")
        return graph

    def _add_nodes(self, states, container):
        visited = self.machine.visited()
        names = [s["name"] for s in states]
        with container.subgraph(name=CLUSTER) as box:
            box.attr(label=_cluster_label(), style="rounded,filled", fillcolor=FILL["box"],
                     color=FILL["box_line"], fontname=FONT, fontsize="10", labeljust="l")
            for name in (n for n in names if n in T.TRIGGERED):
                box.node(name, label=_phase_label(name), **_phase_style(name, visited))
            if self.machine.uses_box():
                box.node(BOX, label=_box_label(), **_box_style())
        for name in (n for n in names if n not in T.TRIGGERED):
            container.node(name, label=_phase_label(name), **_phase_style(name, visited))

    def _add_edges(self, transitions, container):
        machine = self.machine
        for group in machine.groups(transitions):
            if machine.view == "windows" and not group.machine:
                self._add_card(group, container)
            else:
                self._add_direct(group, container)

    def _add_direct(self, group, container):
        taken = self.machine.steps_taken(group)
        # in the windows view, edges crowd the loop's right side: its label goes above
        loop = group.tail == group.dest and self.machine.view == "windows"
        place = "xlabel" if loop else "label"
        container.edge(group.tail, group.dest, **{place: _edge_label(self.machine, group)},
                       **_edge_style(group, taken, self.machine.trace is not None))

    def _add_card(self, group, container):
        card = f"c_{group.key}"
        container.node(card, label=_card_label(group), shape="box", style="rounded,filled",
                       fillcolor=FILL["card"], color=INK, margin="0.1,0.05")
        container.edge(group.tail, card, arrowhead="none", **_edge_style(group, [], False))
        container.edge(card, group.dest, **_edge_style(group, [], False))


def _graph_attributes(machine) -> dict:
    attrs = {"fontname": FONT, "fontsize": "12", "labelloc": "t", "labeljust": "l",
             "nodesep": "0.3", "ranksep": "0.4", "pad": "0.2", "newrank": "true",
             "label": _legend(machine)}
    if machine.view == "windows":
        attrs.update(ranksep="0.3", nodesep="0.25")
    return attrs


def _cluster_label() -> str:
    return "<<I>a trigger is open: responses may answer it</I>>"


def _phase_label(name) -> str:
    return _html_lines([f"<B>{name}</B>",
                        f'<FONT POINT-SIZE="9">{_esc(PHASE_NOTES[name])}</FONT>'])


def _box_label() -> str:
    return '<<FONT POINT-SIZE="9"><I>from any phase<BR/>in this box</I></FONT>>'


def _box_style() -> dict:
    return {"style": "rounded,dashed,filled", "fillcolor": FILL["box"],
            "color": FILL["box_line"], "penwidth": "1.4", "margin": "0.05,0.02"}


def _phase_style(name, visited) -> dict:
    fill = FILL["turn"] if name == T.ACTING else FILL["phase"]
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


def _step_line(row, count_ink=RULE_INK, taken=()) -> str:
    """One row of an edge label; on a scenario's path, a taken row is red and its
    step numbers follow on their own line."""
    name = _esc(row.step)
    if taken:
        name = f'<FONT COLOR="{PATH_INK}">{name}</FONT>'
    if row.by == T.MACHINE:
        guards = " ".join(fn.__name__ for fn, _ in row.guards)
        text = f"{name} if {_esc(guards)}" if guards else name
    else:
        text = f"<B>{name}</B>"
        count = guard_count(row)
        if count:
            text += f' <FONT POINT-SIZE="9" COLOR="{count_ink}">{count}</FONT>'
    if taken:
        text += f'<BR/><FONT COLOR="{PATH_INK}"><B>{_esc(_steps_text(taken))}</B></FONT>'
    return text


def _edge_label(machine, group) -> str:
    """The steps of a group, one a line; on a scenario's path, with the step
    numbers that took each."""
    faded = machine.trace is not None and not machine.steps_taken(group)
    ink = "#a8a8a8" if faded else RULE_INK
    return _html_lines([_step_line(row, ink, machine.steps_taken(group, row))
                        for _, row in group.rows])


def _steps_text(taken) -> str:
    return ("step " if len(taken) == 1 else "steps ") + ", ".join(map(str, taken))


def _card_label(group) -> str:
    cells = []
    for _, row in group.rows:
        cells.append(f'<TR><TD ALIGN="LEFT" BALIGN="LEFT" COLSPAN="2"><B>{_esc(row.step)}</B>'
                     f'{_own_rules(row)}</TD></TR>')
        for fn, rules in row.guards:
            cells.append(
                f'<TR><TD ALIGN="LEFT">   {_esc(fn.__name__)}</TD>'
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


# -- Mermaid -------------------------------------------------------------------

def _mermaid_text(text: str) -> str:
    """Text safe inside a Mermaid label: no statement separators, no markup."""
    for bad, good in ((";", ","), ("#", "no. "), ("<", "‹"), (">", "›"), (":", " ·"),
                      ("{", "("), ("}", ")"), ('"', "'")):
        text = text.replace(bad, good)
    return text


class _MermaidGraph(diagrams_mermaid.Graph):
    """Draws the table as a Mermaid state diagram: phases, groups, a legend note."""

    def get_graph(self, title=None, roi_state=None):
        graph = super().get_graph(title=f"title: {_mermaid_text(self.machine.title)}")
        lines = [line.rstrip() for line in graph.source.split("\n")]
        lines[5:5] = ["  " + line for line in _mermaid_styles()]
        lines.extend("  " + line for line in _mermaid_legend(self.machine))
        graph.source = "\n".join(lines) + "\n"
        return graph

    def _add_nodes(self, states, container):
        visited = self.machine.visited()
        for state in states:
            name = state["name"]
            container.append(f'state "{name}" as {name}')
            container.append(f"{name} : {_mermaid_text(PHASE_NOTES[name])}")
            container.append(f"class {name} {_mermaid_class(name, visited)}")
        if self.machine.uses_box():
            container.append(f'state "from any phase where a trigger is open" as {BOX}')
            container.append(f"{BOX} : {', '.join(T.TRIGGERED)}")
            container.append(f"class {BOX} box")

    def _add_edges(self, transitions, container):
        machine = self.machine
        for group in machine.groups(transitions):
            if machine.view == "windows" and not group.machine:
                self._add_card(group, container)
            else:
                container.append(f"{group.tail} --> {group.dest} : "
                                 f"{_mermaid_label(machine, group)}")

    def _add_card(self, group, container):
        card = f"c_{group.key}"
        container.append(f'state "{_mermaid_text(" · ".join(group.steps))}" as {card}')
        for _, row in group.rows:
            for line in _mermaid_card_lines(row):
                container.append(f"{card} : {line}")
        container.append(f"class {card} card")
        container.append(f"{group.tail} --> {card}")
        container.append(f"{card} --> {group.dest}")


def _mermaid_class(name, visited) -> str:
    if visited is None:
        return "turn" if name == T.ACTING else "phase"
    return "visited" if name in visited else "faded"


def _mermaid_styles() -> list:
    return [f"classDef phase fill:{FILL['phase']},stroke:{INK}",
            f"classDef turn fill:{FILL['turn']},stroke:{INK}",
            f"classDef box fill:{FILL['box']},stroke:{FILL['box_line']},stroke-dasharray:4 3",
            f"classDef visited fill:{FILL['visited']},stroke:{PATH_INK},stroke-width:2px",
            f"classDef faded fill:#ffffff,stroke:{FADED},color:#9a9a9a",
            f"classDef card fill:{FILL['card']},stroke:#888888"]


def _mermaid_step(row, taken=()) -> str:
    if row.by == T.MACHINE:
        guards = " ".join(fn.__name__ for fn, _ in row.guards)
        text = f"(machine) {row.step}" + (f" if {guards}" if guards else "")
    else:
        count = guard_count(row)
        text = f"{row.step} ({count})" if count else row.step
    return text + (f" ✔ {_steps_text(taken)}" if taken else "")


def _mermaid_label(machine, group) -> str:
    return _mermaid_text(" · ".join(_mermaid_step(row, machine.steps_taken(group, row))
                                    for _, row in group.rows))


def _mermaid_card_lines(row) -> list:
    own = f" ({', '.join(row.rules)})" if row.rules else ""
    lines = [f"{row.step}{own}"]
    lines.extend(f"{row.step} ‣ {guard_label(fn, rules)}" for fn, rules in row.guards)
    return [_mermaid_text(line) for line in lines]


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
    return [f"note right of {T.TURN_END}", *("  " + _mermaid_text(b) for b in body), "end note"]


# -- drawing -------------------------------------------------------------------

def machine_source(ruleset: str, view: str, engine: str, trace: Trace | None = None) -> str:
    """The DOT or Mermaid source of one picture (``engine``: graphviz or mermaid)."""
    if ruleset not in T.TABLES:
        raise DiagramError(f"unknown ruleset {ruleset!r} (known: {', '.join(T.TABLES)})")
    if view not in VIEWS:
        raise DiagramError(f"unknown view {view!r} (known: {', '.join(VIEWS)})")
    machine = TableMachine(ruleset, view, engine, trace)
    source = machine.models[0].get_graph().source
    return source if source.endswith("\n") else source + "\n"


def render(ruleset: str, view: str, fmt: str, trace: Trace | None = None) -> bytes:
    """One picture in ``fmt`` (dot, svg, png or mermaid), as bytes."""
    if fmt not in FORMATS:
        raise DiagramError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    if fmt == "mermaid":
        return machine_source(ruleset, view, "mermaid", trace).encode("utf-8")
    source = machine_source(ruleset, view, "graphviz", trace)
    if fmt == "dot":
        return source.encode("utf-8")
    return run_dot(source, fmt)


def dot_version() -> str | None:
    """The local Graphviz version (``2.43.0``), or None without ``dot``."""
    exe = shutil.which("dot")
    if exe is None:
        return None
    done = subprocess.run([exe, "-V"], capture_output=True, text=True, check=False)
    found = re.search(r"graphviz version (\S+)", done.stderr + done.stdout)
    return found.group(1) if found else None


def svg_version(svg: bytes) -> str | None:
    """The Graphviz version that wrote an SVG, from its header comment."""
    found = re.search(rb"Generated by graphviz version (\S+)", svg[:400])
    return found.group(1).decode("ascii") if found else None


def run_dot(source: str, fmt: str) -> bytes:
    """Lay out DOT ``source`` with the local Graphviz ``dot``."""
    exe = shutil.which("dot")
    if exe is None:
        raise DiagramError("Graphviz 'dot' is not installed (apt-get install graphviz); "
                           "DOT and Mermaid need no binary")
    done = subprocess.run([exe, f"-T{fmt}"], input=source.encode("utf-8"),
                          capture_output=True, check=False)
    if done.returncode != 0:
        raise DiagramError(f"dot failed: {done.stderr.decode('utf-8', 'replace').strip()}")
    return done.stdout


# -- the scenario's sequence -----------------------------------------------------

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
    enc = replay.encounter
    lanes = _lanes(replay)
    lines = ["---", f"title: {_mermaid_text(trace.title)} · step by step", "---",
             "sequenceDiagram"]
    lines.extend(f"  participant {alias} as {_mermaid_text(_lane_title(enc, cid))}"
                 for cid, alias in lanes.alias.items())
    first = enc.turns[0][1]
    lines.append(f"  Note over {lanes.all()}: round 1 · {_mermaid_text(first)}'s turn starts")
    shown = None
    for result in replay.results:
        lines.extend("  " + line for line in _step_lines(result, enc, lanes))
        window = trace.after[result.index]
        if _happened(result.verdict, result.data) and window != shown:
            note = _window_note(window, lanes)
            if note:
                lines.append("  " + note)
            shown = window
    return "\n".join(lines) + "\n"


def _lanes(replay) -> _Lanes:
    enc = replay.encounter
    order = replay.doc.get("initiative") or [c["id"] for c in replay.doc["combatants"]]
    alias = {cid: f"c{n}" for n, cid in enumerate(order, 1)}
    owners = {f"turn-start@{n}": who for n, (_, who) in enumerate(enc.turns, 1)}
    owners.update({f"turn-end@{n}": who for n, (_, who) in enumerate(enc.turns, 1)})
    owners.update({e["frame"]: e["actor"] for e in enc.log})
    return _Lanes(alias, owners)


def _lane_title(enc, cid) -> str:
    return f"{cid} ({enc.fighters[cid].side})"


def _what(data) -> str:
    text = data.get("do", "?")
    if data.get("name"):
        text += f" “{data['name']}”"
    if data.get("to"):
        text += f" to {data['to']}"
    if data.get("on"):
        text += f" on {data['on']}"
    return text


def _step_lines(result, enc, lanes) -> list:
    data, verdict, index = result.data, result.verdict, result.index
    if not _happened(verdict, data):
        return _refused_lines(result, lanes)
    entries = [e for e in enc.log if e["step"] == index]
    lines = []
    for entry in entries:
        lines.extend(_entry_lines(entry, result, enc, lanes))
    if not entries:
        who = lanes.of(verdict.target) or lanes.alias.get(data.get("actor")) or lanes.all()
        target = f" {verdict.target}" if verdict.target else ""
        lines.append(f"Note over {who}: {index} · {_mermaid_text(data['do'] + target)}")
    return lines


def _refused_lines(result, lanes) -> list:
    data, verdict, index = result.data, result.verdict, result.index
    why = verdict.reason or verdict.verdict
    text = _mermaid_text(f"{index} · {_what(data)} ✗ {why}")
    actor = lanes.alias.get(data.get("actor"))
    if actor is None:
        return [f"Note over {lanes.all()}: {text}"]
    target = lanes.of(verdict.target) or actor
    return [f"{actor}-x{target}: {text}"]


def _entry_lines(entry, result, enc, lanes) -> list:
    event, frame = entry["event"], entry["frame"]
    lane = lanes.alias.get(entry["actor"])
    index = result.index
    if event == "declared":
        return _declared_lines(entry, result, lanes)
    if event == "turn starts":
        rnd, who = enc.turns[int(frame.split("@")[1]) - 1]
        return [f"Note over {lanes.all()}: round {rnd} · {_mermaid_text(who)}'s turn starts"]
    if event == "turn ends":
        return [f"Note over {lanes.all()}: {index} · {_mermaid_text(entry['actor'])} "
                f"ends the turn · turn_end opens"]
    where = lane or lanes.all()
    if event.startswith("part "):
        return [f"Note over {where}: {index} · {_mermaid_text(frame)} {event} resolved"]
    mark = {DONE: "✓ {} resolves", LOST: "✗ {} is lost (no effect, cost spent)",
            DISRUPTED: "✗ {} is disrupted (no effect, cost spent)"}[event]
    lines = [f"Note over {where}: {index} · {mark.format(_mermaid_text(frame))}"]
    if event != DONE:
        lines = [LOSS_BAND, *("  " + line for line in lines), "end"]
    if lane and lanes.active.get(lane):
        lanes.active[lane] -= 1
        lines.append(f"deactivate {lane}")
    return lines


def _declared_lines(entry, result, lanes) -> list:
    data, verdict, index = result.data, result.verdict, result.index
    lane = lanes.alias.get(entry["actor"])
    gm = " (GM's call)" if verdict.verdict == GM_VERDICT else ""
    text = _mermaid_text(f"{index} · {_what(data)} [{entry['frame']}]{gm}")
    if lane is None:
        return [f"Note over {lanes.all()}: {text}"]
    target = lanes.of(verdict.target) if entry["kind"] in RESPONSES else None
    lanes.active[lane] = lanes.active.get(lane, 0) + 1
    return [f"{lane}->>{target or lane}: {text}", f"activate {lane}"]


def _window_note(window, lanes) -> str | None:
    phase, frame, done, parts, outcome = window
    if phase == T.BEFORE:
        part = f" (part {done + 1}/{parts})" if parts > 1 else ""
        text = f"window_interrupt · {frame}{part} declared, not resolved"
    elif phase == T.AFTER and outcome in (LOST, DISRUPTED):
        text = f"window_reaction · {frame} {outcome}"
    elif phase == T.AFTER:
        part = f" part {done}/{parts}" if parts > 1 and done < parts else ""
        text = f"window_reaction · {frame}{part} resolved"
    else:
        return None
    return f"Note over {lanes.all()}: {_mermaid_text(text)}"


# -- the committed pictures -----------------------------------------------------

@dataclass(frozen=True)
class Output:
    """One committed file under ``diagrams/`` and how to make it."""

    name: str            # path relative to the diagrams folder
    fmt: str             # dot, svg or mermaid
    make: object         # () -> bytes


def scenario_file(scenario_id: str) -> Path:
    for ext in (".json", ".yaml", ".yml"):
        path = SCENARIOS_DIR / f"{scenario_id}{ext}"
        if path.exists():
            return path
    raise DiagramError(f"no scenario {scenario_id!r} under {SCENARIOS_DIR}")


def scenario_pictures(path, fmt: str) -> tuple:
    """The path picture in ``fmt`` and the Mermaid sequence diagram of a scenario."""
    replay, trace = trace_scenario(path)
    picture = render(trace.ruleset, "overview", fmt, trace)
    return picture, sequence_diagram(replay, trace).encode("utf-8"), replay


def outputs() -> list:
    """Every committed picture, in a stable order."""
    out = []
    for ruleset in T.TABLES:
        for view in VIEWS:
            for fmt in ("dot", "svg", "mermaid"):
                out.append(Output(f"{ruleset}-{view}{SUFFIX[fmt]}", fmt,
                                  _maker(ruleset, view, fmt)))
    for scenario_id in EXAMPLES:
        for fmt in ("dot", "svg"):
            out.append(Output(f"scenarios/{scenario_id}{SUFFIX[fmt]}", fmt,
                              _scenario_maker(scenario_id, fmt)))
        out.append(Output(f"scenarios/{scenario_id}{SEQUENCE_SUFFIX}", "mermaid",
                          _sequence_maker(scenario_id)))
    out.append(Output("README.md", "markdown", gallery))
    return out


def gallery() -> bytes:
    """diagrams/README.md: every Mermaid picture in a fenced block, which code
    hosts render without any binary, and links to the SVGs."""
    lines = ["# Diagrams", "",
             "Generated by `fsm diagram --write` from `fsm/table.py`; do not edit by hand.",
             "`fsm diagram --check` fails when a picture here is stale.", ""]
    for ruleset in T.TABLES:
        for view in VIEWS:
            name = f"{ruleset}-{view}"
            lines += [f"## {TITLES[ruleset]}: {VIEW_TITLES[view]}", "",
                      f"[SVG]({name}.svg) · [DOT]({name}.dot) · [Mermaid]({name}.mmd)", "",
                      "```mermaid", render(ruleset, view, "mermaid").decode("utf-8").rstrip(),
                      "```", ""]
    for scenario_id in EXAMPLES:
        replay, trace = trace_scenario(scenario_file(scenario_id))
        lines += [f"## {scenario_id}", "", replay.doc.get("description", ""), "",
                  f"[its path through the machine](scenarios/{scenario_id}.svg)", "",
                  "```mermaid", sequence_diagram(replay, trace).rstrip(), "```", ""]
    return "\n".join(lines).encode("utf-8")


def _maker(ruleset, view, fmt):
    return lambda: render(ruleset, view, fmt)


def _scenario_maker(scenario_id, fmt):
    return lambda: scenario_pictures(scenario_file(scenario_id), fmt)[0]


def _sequence_maker(scenario_id):
    def make():
        replay, trace = trace_scenario(scenario_file(scenario_id))
        return sequence_diagram(replay, trace).encode("utf-8")
    return make


def write_all(directory: Path) -> list:
    """Regenerate every committed picture under ``directory``; return the paths."""
    written = []
    for output in outputs():
        path = Path(directory) / output.name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(output.make())
        written.append(path)
    return written


@dataclass
class CheckReport:
    """What ``fsm diagram --check`` found."""

    stale: list = field(default_factory=list)      # names that differ or are missing
    extra: list = field(default_factory=list)      # pictures no longer generated
    compared: int = 0
    skipped_svg: list = field(default_factory=list)
    why_skipped: str = ""

    @property
    def ok(self) -> bool:
        return not self.stale and not self.extra


def check_all(directory: Path) -> CheckReport:
    """Regenerate every picture and compare it with the copy in ``directory``.

    DOT and Mermaid are compared exactly. An SVG is compared byte for byte only
    when the local Graphviz is the version that wrote the committed copy (its
    header says which): layout and number formatting change between versions,
    and the DOT it was drawn from is compared anyway.
    """
    directory = Path(directory)
    report, local = CheckReport(), dot_version()
    expected = outputs()
    for output in expected:
        path = directory / output.name
        if not path.exists():
            report.stale.append(output.name)
            continue
        committed = path.read_bytes()
        if output.fmt == "svg" and svg_version(committed) != local:
            report.skipped_svg.append(output.name)
            report.why_skipped = _why_skipped(local, svg_version(committed))
            continue
        report.compared += 1
        if output.make() != committed:
            report.stale.append(output.name)
    report.extra = _extra_pictures(directory, {o.name for o in expected})
    return report


def _why_skipped(local, committed) -> str:
    if local is None:
        return "Graphviz 'dot' is not installed here"
    return f"they were drawn by Graphviz {committed}, this machine has {local}"


def _extra_pictures(directory, names) -> list:
    found = []
    for path in sorted(directory.rglob("*")):
        name = path.relative_to(directory).as_posix()
        if path.suffix in (".dot", ".svg", ".mmd") and name not in names:
            found.append(name)
    return found


def check_lines(report: CheckReport, directory: Path) -> list:
    """What ``fsm diagram --check`` prints for a report."""
    lines = [f"  stale: {name}" for name in report.stale]
    lines += [f"  no longer generated: {name}" for name in report.extra]
    if report.skipped_svg:
        lines.append(f"  {len(report.skipped_svg)} SVG not compared: {report.why_skipped} "
                     f"(their DOT sources were compared)")
    if report.ok:
        lines.append(f"diagram check: ok, {report.compared} pictures in {directory} are fresh")
    else:
        count = len(report.stale) + len(report.extra)
        lines.append(f"diagram check: {count} picture(s) out of date; run "
                     f"'fsm diagram --write' and commit diagrams/")
    return lines


# -- a scenario's pictures, on request --------------------------------------------

def format_for(path) -> str:
    """The picture format a file name asks for, from its extension."""
    ext = Path(path).suffix.lower()
    if ext not in EXTENSIONS:
        raise DiagramError(f"{path}: cannot tell the picture type from "
                           f"{ext or 'a name without extension'!r}; "
                           f"use .dot, .svg, .png or .mmd")
    return EXTENSIONS[ext]


def sequence_path(path) -> Path:
    """Where the sequence diagram goes beside a path picture: FILE's stem + .sequence.mmd."""
    path = Path(path)
    return path.with_name(path.stem + SEQUENCE_SUFFIX)


def draw_scenario(scenario_path, target) -> list:
    """Write the scenario's path picture to ``target`` (format from its extension)
    and its sequence diagram beside it; return both paths."""
    fmt = format_for(target)
    picture, sequence, _ = scenario_pictures(scenario_path, fmt)
    target = Path(target)
    target.write_bytes(picture)
    beside = sequence_path(target)
    beside.write_bytes(sequence)
    return [target, beside]
