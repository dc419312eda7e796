"""One base for every error the project reports, and the typed errors under it.

Commands map :class:`FsmError` to exit status 2 with one line, in one place
(fsm.cli); a :class:`TableGap` is a hole in a ruleset's table, a bug rather
than bad input, and is reported apart.
"""

from __future__ import annotations

from .io.terminal import safe


class FsmError(Exception):
    """Something the project refuses, with a one-line message."""

    def render(self) -> str:
        return safe(str(self))


# Why a step cannot be read: stable codes, never renamed nor reused (spec/FORMAT.md,
# *Errors and verdicts*; an engine reports them in the protocol's "error" field).
ERROR_CODES = {
    "not-an-object": "a step is not an object",
    "unknown-field": "a field no step of the ruleset has",
    "missing-kind": "a step without 'do'",
    "unknown-kind": "a 'do' the ruleset does not know",
    "unknown-combatant": "an 'actor', 'provokes', 'targets' or 5e's 'by' naming no combatant",
    "missing-actor": "no 'actor' where the step needs one",
    "unknown-trigger": "a 'to' naming no frame declared so far",
    "field-of-another-kind": "a field this kind of step does not take ('to' or 'on' on a "
                             "step that answers nothing, 'cost' or 'readies' elsewhere, a "
                             "frame's fields on a step that makes no frame)",
    "id-taken": "an 'id' a frame already has",
    "two-part-counts": "two of 'squares', 'attacks' and 'parts', or one of them beside a 'path'",
    "missing-cost": "an activity without 'cost'",
    "path-without-scene": "a 'path' in an encounter without positions",
    "bad-path": "a path not made of adjacent squares from where its actor stands",
    "shift-without-path": "'shift' without a 'path'",
    "forced-without-path": "'forced' without a 'path'",
    "bad-value": "a value of the wrong type or out of range",
    "bad-document": "the vector itself cannot be read (its combatants, initiative or "
                    "options; protocol only)",
}


class StepError(FsmError, ValueError):
    """A step that cannot be read in this encounter. Nothing was changed.
    ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, message: str, field: str | None = None, code: str = "bad-value"):
        super().__init__(message)
        self.field = field
        self.code = code


class TableGap(FsmError, RuntimeError):
    """A situation the table does not decide: a bug in the table, never a verdict."""


class TableError(FsmError, ValueError):
    """A table that cannot be built: a guard name given twice in one table, or
    a row naming a guard its ruleset's book does not have."""


class InputError(FsmError):
    """Bad input: one line naming the file, the step and what is wrong."""

    def __init__(self, path, message, step=None, line=None, column=None):
        self.path = path
        self.message = message
        self.step = step
        self.line = line
        self.column = column
        super().__init__(self.render())

    def render(self) -> str:
        """One line, whatever the path and message hold (see fsm.io.terminal)."""
        where = safe(self.path)
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        if self.step is not None:
            where += f": step {self.step}"
        return f"{where}: {safe(self.message)}"


class JSONError(FsmError, ValueError):
    """Text that is not acceptable JSON; ``line`` and ``column`` when known."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class SpecError(FsmError):
    """A spec file that cannot be read: one line, file and what is wrong."""


class DiagramError(FsmError, ValueError):
    """A picture that cannot be made (unknown ruleset, view or format, no ``dot``)."""


class ConfigError(FsmError, ValueError):
    """Bounds or options of an exploration that make no sense."""


class ConformanceFailure(FsmError):
    """A vector an engine under test got wrong (the pytest plugin's failure)."""

    def __init__(self, problems):
        super().__init__(problems[0])
        self.problems = problems


class EngineError(FsmError):
    """An engine under test crashed, hung, or said something that is not the protocol."""


class EngineNotStarted(EngineError):
    """The command of an engine under test could not be run at all (no such
    program, a command line that does not parse): bad input, not a failure."""
