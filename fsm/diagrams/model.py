"""The table as the pictures see it: its rows grouped into edges, and a
scenario's path through the machine.

Every picture is built from the rows the engine runs (a ruleset's
``rows``): this package names no edge, it only decides how the rows are
grouped, labelled and styled. A row that may start from every phase where a
trigger is open (an answer, an event) is drawn once, from the box that holds
those phases, instead of once per phase.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..engine.rows import AFTER, BEFORE, MACHINE, STARTING, TRIGGERED
from ..engine.verdict import ALLOWED, GM_VERDICT
from ..errors import DiagramError
from ..paths import default_root
from ..rulesets import RULESETS, get
from ..scenario import Replay, build, load_source, play_step

VIEWS = ("overview", "windows")
FORMATS = ("dot", "svg", "png", "mermaid")
EXTENSIONS = {".dot": "dot", ".gv": "dot", ".svg": "svg", ".png": "png",
              ".mmd": "mermaid", ".mermaid": "mermaid"}
SUFFIX = {"dot": ".dot", "svg": ".svg", "png": ".png", "mermaid": ".mmd"}
SEQUENCE_SUFFIX = ".sequence.mmd"

ROOT = default_root()
DIAGRAMS_DIR = ROOT / "diagrams"
SCENARIOS_DIR = ROOT / "spec" / "scenarios"

# The texts' own examples, pictured under diagrams/scenarios/.
EXAMPLES = (
    "4e-interrupt-shift-away",
    "4e-reaction-between-attack-rolls",
    "4e-reaction-when-the-ogre-enters-reach",
    "4e-reaction-when-hit",
    "pf2-release-two-objects",
    "pf2-disrupted-spell",
    "4e-shift-away-on-the-grid",
)

WINDOWS = (BEFORE, AFTER)
BOX = "any_trigger_open"     # the tail of edges that leave every trigger-open phase


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
        return self.by == MACHINE

    @property
    def sources(self) -> tuple:
        """The phases this edge stands for."""
        return TRIGGERED if self.tail == BOX else (self.tail,)

    @property
    def steps(self) -> tuple:
        return tuple(dict.fromkeys(row.step for _, row in self.rows))

    def touches_window(self) -> bool:
        return self.dest in WINDOWS or any(s in WINDOWS for s in self.sources)


def row_tails(row) -> tuple:
    """Where a row's edges start: the box when it leaves every trigger-open
    phase, plus each of its other phases."""
    if all(s in row.sources for s in TRIGGERED):
        return (BOX, *(s for s in row.sources if s not in TRIGGERED))
    return tuple(row.sources)


def group_rows(indexed_rows) -> list:
    """Group ``(index, Row)`` pairs by (tail, dest, by), in table order."""
    groups: dict = {}
    for index, row in sorted(indexed_rows, key=lambda pair: pair[0]):
        for tail in row_tails(row):
            groups.setdefault((tail, row.dest, row.by), []).append((index, row))
    return [Group(n, tail, dest, by, tuple(rows))
            for n, ((tail, dest, by), rows) in enumerate(groups.items(), 1)]


def machine_words(row) -> str:
    """A machine row in words: its step, and when it fires (what its timing
    guards decide; the guards that only pick the destination or keep the row
    from firing twice say nothing, the edge shows where it goes)."""
    says = [g.says for g, _ in row.guards if g.routing and not (g.structural or g.once)
            and g.says]
    return f"{row.step} when {' and '.join(says)}" if says else row.step


def guard_names(rows) -> str:
    """The guards of ``rows`` by name, for a tooltip (the words are the label)."""
    names = [f"{r.step}: {' '.join(g.name for g, _ in r.guards)}" for r in rows if r.guards]
    return "; ".join(names)


def guard_label(g, rules) -> str:
    return f"{g.title} ({', '.join(rules)})" if rules else g.title


def steps_text(taken) -> str:
    return ("step " if len(taken) == 1 else "steps ") + ", ".join(map(str, taken))


def guard_count(row) -> str:
    n = len(row.guards)
    return "" if n == 0 else f"{n} guard" if n == 1 else f"{n} guards"


def title_of(ruleset) -> str:
    """The short title of a ruleset (a registered name or a Ruleset value)."""
    return get(ruleset).title


class Picture:
    """One picture of one ruleset's table: a view, and a scenario's path on it."""

    def __init__(self, ruleset, view: str, trace=None):
        rules = get(ruleset)
        if rules is None:
            raise DiagramError(f"unknown ruleset {ruleset!r} (known: {', '.join(RULESETS)})")
        if view not in VIEWS:
            raise DiagramError(f"unknown view {view!r} (known: {', '.join(VIEWS)})")
        self.ruleset = rules.name
        self.view = view
        self.trace = trace
        self.rows = dict(enumerate(rules.rows))
        if trace is not None:
            self.title = f"{rules.title}: the path of {trace.title}"
        else:
            self.title = f"{rules.title}: {VIEW_TITLES[view]}"

    def groups(self) -> list:
        groups = group_rows(self.rows.items())
        if self.view == "windows":
            groups = [g for g in groups if g.touches_window()]
        return groups

    def uses_box(self) -> bool:
        return any(row_tails(row)[0] == BOX for row in self.rows.values())

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
        seen = [STARTING]
        for _, _, source, dest in self.moves:
            for phase in (source, dest):
                if phase not in seen:
                    seen.append(phase)
        return seen

    def steps_on(self, trigger: str, source: str, dest: str) -> list:
        return [step for step, t, s, d in self.moves if (t, s, d) == (trigger, source, dest)]


def happened(verdict, data) -> bool:
    if verdict.verdict == ALLOWED:
        return True
    return verdict.verdict == GM_VERDICT and data.get("ruling", "allow") != "deny"


class _Recorder:
    """An observer of the encounter: every transition a step takes."""

    def __init__(self):
        self.fired = []

    def on_transition(self, enc, trigger, source, dest, st):
        self.fired.append((trigger, source, dest))


def trace_scenario(path) -> tuple:
    """Replay the scenario at ``path``, recording every transition of the machine.

    Returns ``(Replay, Trace)``; raises :class:`fsm.errors.InputError` on bad input.
    """
    doc, lines = load_source(path)
    return trace_document(doc, path, lines)


def trace_document(doc, path, lines=None, on_step=None) -> tuple:
    """:func:`trace_scenario` for a document already read. ``on_step(enc,
    result, fired)`` is told the start (``result`` None) and then each step
    with the transitions it fired, settling included."""
    enc = build(doc, path)
    enc.explaining = True           # the reason of each allowed step, for the pages
    recorder = enc.observer = _Recorder()
    trace = Trace(doc["ruleset"], str(doc.get("id") or Path(path).stem))
    results = []
    if on_step is not None:
        on_step(enc, None, ())
    for index, data in enumerate(doc["steps"], 1):
        recorder.fired.clear()
        result = play_step(enc, data, path, index, lines)
        results.append(result)
        if on_step is not None:
            on_step(enc, result, recorder.fired)
        if happened(result.verdict, data):
            trace.moves.extend((index, *move) for move in recorder.fired)
        # the stack is empty only while a turn is under way (4e: a delayed turn
        # just taken, which has no turn-start moment)
        top = enc.stack[-1] if enc.stack else None
        trace.after[index] = (enc.state, None, 0, 0, None) if top is None else \
            (enc.state, top.id, top.done, top.parts, top.outcome)
    return Replay(doc, str(path), enc, results), trace
