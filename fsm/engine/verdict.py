"""The answer the engine gives for one step."""

from __future__ import annotations

from dataclasses import dataclass, field

ALLOWED, REJECTED, GM_VERDICT = "allowed", "rejected", "gm"


@dataclass
class Verdict:
    """The answer for one step: ``allowed``, ``rejected`` with a stable reason
    code and the rule ids behind it, or ``gm``. ``guard`` names the check
    that decided, ``says`` what it saw, in words."""

    step: int
    verdict: str
    reason: str | None = None
    rules: tuple = ()
    guard: str | None = None
    notes: tuple = ()
    seen: dict = field(default_factory=dict)
    says: str | None = None
    target_id: str | None = None      # the trigger answered, or the frame resolved, lost or disrupted
    # allowed, in an encounter that explains: what each limit saw as it let the
    # step through (None: the encounter does not explain)
    because: tuple | None = None
    # how the words were made, so that the same answer for another combatant
    # is worded for it (fsm.engine.crowd): the template of ``says``, and each
    # line of ``because`` as (template, the values it was filled with)
    templates: tuple = field(default=(None, ()), compare=False, repr=False)
    # allowed, in an encounter that explains: the rules that bear on this step
    # (the row's own, and those of the limits that said something of it), a
    # part of ``rules``, for people; None when not worked out
    bears: tuple | None = field(default=None, compare=False, repr=False)

    @property
    def allowed(self) -> bool:
        return self.verdict == ALLOWED

    def as_dict(self) -> dict:
        out = {"step": self.step, "verdict": self.verdict, "reason": self.reason,
               "rules": list(self.rules)}
        if self.notes:
            out["notes"] = list(self.notes)
        if self.because:
            out["because"] = list(self.because)
        return out


def fill(words: str, seen: dict) -> str:
    """``words`` (a guard's ``says``) with what it saw put in; as written when
    a value it names was not seen."""
    try:
        return words.format(**seen)
    except (KeyError, IndexError):
        return words
