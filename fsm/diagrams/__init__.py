"""Pictures of the machine, drawn from the one transition table.

A reader should be able to see the rules without reading Python, and to
trust that the picture is the machine the engine runs. So every picture is
built from exactly the rows the engine is built from (a ruleset's ``rows``):
this package names no edge, it only decides how the rows are grouped,
labelled and styled.

Per ruleset, two views, each as DOT, SVG (Graphviz ``dot``), PNG and Mermaid:

* ``overview``: the turn phases and trigger windows; rows that leave the same
  phase for the same phase share one edge, labelled with their steps;
* ``windows``: every row that opens, answers or closes a trigger window, with
  each guard and the rule ids it enforces on that row.

Per scenario, two pictures: the path it took through the machine (visited
phases and taken edges highlighted, with step numbers) and a Mermaid
sequence diagram with a lane per combatant. ``fsm diagram --check``
regenerates the committed copies under ``diagrams/`` and compares.

Modules: :mod:`.model` (rows grouped into edges, the scenario trace),
:mod:`.dot` and :mod:`.mermaid` (the two sources), :mod:`.sequence`,
:mod:`.files` (formats, committed files, the check).
"""

from ..errors import DiagramError
from .files import (CheckReport, Output, check_all, check_lines, dot_version, draw_scenario,
                    format_for, gallery, machine_source, outputs, render, run_dot,
                    scenario_file, scenario_pictures, sequence_path, svg_version, write_all)
from .model import (BOX, DIAGRAMS_DIR, EXAMPLES, EXTENSIONS, FORMATS, SCENARIOS_DIR,
                    SEQUENCE_SUFFIX, SUFFIX, VIEW_TITLES, VIEWS, Group, Picture, Trace,
                    group_rows, happened, row_tails, title_of, trace_scenario)
from .sequence import LOSS_BAND, sequence_diagram

__all__ = [
    "BOX", "DIAGRAMS_DIR", "EXAMPLES", "EXTENSIONS", "FORMATS", "LOSS_BAND", "SCENARIOS_DIR",
    "SEQUENCE_SUFFIX", "SUFFIX", "VIEW_TITLES", "VIEWS", "CheckReport", "DiagramError",
    "Group", "Output", "Picture", "Trace", "check_all", "check_lines", "dot_version",
    "draw_scenario", "format_for", "gallery", "group_rows", "happened", "machine_source",
    "outputs", "render", "row_tails", "run_dot", "scenario_file", "scenario_pictures",
    "sequence_diagram", "sequence_path", "svg_version", "title_of", "trace_scenario",
    "write_all",
]
