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


class StepError(FsmError, ValueError):
    """A step that cannot be read in this encounter. Nothing was changed."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class TableGap(FsmError, RuntimeError):
    """A situation the table does not decide: a bug in the table, never a verdict."""


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
