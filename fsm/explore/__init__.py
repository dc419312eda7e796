"""Exhaustive exploration of small encounters, with every invariant checked.

Vectors and random timelines only sample what the machine can reach. For a
few combatants and rounds the explorer walks all of it (``walk``, one walk
per set of answerers in ``runs``), checking
every invariant after every step (``watch``, and each ruleset's own), and
reports the first broken one with the shortest timeline that breaks it,
written as a vector ``fsm check`` replays (``output``). States are merged by
a canonical picture (``state``).

The audit (``audit``) asks the table a second question in every reachable
situation: is each step kind decided by exactly one row or one refusal? A
step the engine cannot read (``StepError``) is structural and counted apart;
a situation no row decides, or two rows could decide, is a gap. Machine rows
(``close``, ``keep-open``, ``next-turn``) are audited as they settle the
stack: two firing at once, or timing that says "move" with no row to route
it, is a gap too.
"""

from .audit import AMBIGUOUS, REFUSED, ROW, STRUCTURAL, UNDEFINED, Audit, AuditObserver, Finding
from .output import (audit_json, check_config, counterexample, finding_id, parse_option,
                     recorded_gaps, render_text, report_json, unrecorded_gaps,
                     write_counterexample, ProgressBar)
from .state import CLOSED, KEPT, canonical, freeze, positions, stack_height, thaw
from .alphabet import Alphabet, Move
from .walk import Config, Explorer, Report, Violation, combatants_for, make_encounter, replay_verdicts
from .parallel import ParallelExplorer
from .runs import answerer_sets, explore
from .watch import Problem, Watch

__all__ = [name for name in dir() if not name.startswith("_")]
