"""The audit: in every reachable situation, is each step kind decided by
exactly one row or one refusal, and does each machine row that must fire
find exactly one row to route it? An observer of the encounter
(:class:`fsm.engine.encounter.Encounter` tells it what decides each step)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

ROW, REFUSED, STRUCTURAL, UNDEFINED, AMBIGUOUS = (
    "row", "refused", "structural", "undefined", "ambiguous")


class AuditObserver:
    """Remembers what decided the last step, and any machine row routed by
    no row or by two."""

    def __init__(self):
        self.decided = None
        self.routing_problem = None

    def reset(self):
        self.decided = None
        self.routing_problem = None

    def on_deciding(self, enc, st, rule) -> None:
        self.decided = (enc.state, st.kind, self._coverage(enc, st))

    @staticmethod
    def _coverage(enc, st) -> str:
        refusal = enc.refusal_for(enc.state, st.trigger)
        rows = enc.rows_for(enc.state, st.trigger)
        if refusal is not None and rows:
            return AMBIGUOUS
        if refusal is not None:
            return REFUSED
        if not rows:
            return STRUCTURAL if st.responding and st.target is None else UNDEFINED
        if len(rows) == 1:
            return ROW
        could = sum(1 for r in rows if all(fn(enc, st) is not False for fn, _ in r.guards))
        return AMBIGUOUS if could > 1 else ROW

    def on_firing(self, enc, trigger, st) -> None:
        """A machine row fires where at most one row's guards pass, and one
        does wherever a row's timing guards pass (its routing then decides)."""
        if self.routing_problem is not None:
            return
        firing, timed = 0, False
        for r in enc.rows_for(enc.state, trigger):
            passes = timing = True
            for g, _ in r.guards:
                if g.check(enc, st) is not True:
                    passes = False
                    if not g.structural:
                        timing = False
                        break
            firing += passes
            timed = timed or timing
        if firing > 1 or (timed and firing == 0):
            self.routing_problem = (enc.state, trigger, firing)


@dataclass
class Finding:
    kind: str                 # undefined or ambiguous
    phase: str
    step: str
    detail: str
    count: int = 0
    example: list | None = None   # the shortest timeline that reaches it


class Audit:
    """Counts, per (phase, step kind), what decided each step tried."""

    def __init__(self):
        self.counts = Counter()
        self.findings: dict = {}

    def record(self, phase, kind, verdict_class):
        self.counts[(phase, kind, verdict_class)] += 1

    def find(self, kind, phase, step, detail, path_fn):
        key = (kind, phase, step, detail)
        finding = self.findings.get(key)
        if finding is None:
            finding = self.findings[key] = Finding(kind, phase, step, detail,
                                                   example=path_fn())
        finding.count += 1

    def merge(self, other: "Audit") -> None:
        self.counts.update(other.counts)
        for key, finding in other.findings.items():
            mine = self.findings.get(key)
            if mine is None:
                self.findings[key] = finding
                continue
            mine.count += finding.count
            if len(finding.example or ()) < len(mine.example or ()):
                mine.example = finding.example

    @property
    def gaps(self) -> list:
        return list(self.findings.values())

    def table(self) -> dict:
        out: dict = {}
        for (phase, kind, cls), n in sorted(self.counts.items()):
            out.setdefault(phase, {}).setdefault(kind, {})[cls] = n
        return out
