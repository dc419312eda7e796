"""The engine: phases, table values, frames, step parsing, dispatch and the
encounter that runs a ruleset's table. It names no ruleset: it takes a
:class:`fsm.rulesets.Ruleset` value and reads everything from it.

One step, in the order it goes: ``steps.parse`` reads the dict into a
:class:`~fsm.engine.steps.Step` (the only place a step's fields are checked,
in T-ERRORS' order); the encounter (its deciding part, ``adjudicate``) binds
what it answers, settles the stack through the machine's own rows and looks
the (phase, step) pair up in the :class:`~fsm.engine.rows.Table`; ``dispatch`` fires the row through
``transitions``, whose one condition per row runs the row's
:class:`~fsm.engine.guard.Guard` values through ``guard.judge`` (each
outcome noted on the step, since a condition answers only yes or no); the
effects change frames and fighters (``frames``) and note what happened in
the encounter's ``history``, and ``state`` undoes a step that is refused or
denied; the answer is a :class:`~fsm.engine.verdict.Verdict`.
The forms change where a reader needs another one (a dict, a parsed step,
frames, a verdict, then the report's text, JSON or Markdown outside the
engine); each module does one of these things.
"""

from .encounter import Encounter
from .verdict import ALLOWED, GM_VERDICT, REJECTED, Verdict

__all__ = ["Encounter", "Verdict", "ALLOWED", "REJECTED", "GM_VERDICT"]
