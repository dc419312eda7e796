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
    no row or by two.

    What the table alone settles is worked out once per (phase, trigger):
    a pair with a refusal, no row or one row is classed without a guard
    judged, and a machine trigger with one row and no routing guard can
    neither fire twice nor be timed and fire nowhere. Within one firing
    each guard is judged once, however many rows name it (guards change
    nothing, so its answer cannot differ between rows)."""

    def __init__(self):
        self.decided = None
        self.routing_problem = None
        self._table = None          # the table the two below were worked out for
        self._classes: dict = {}    # (phase, trigger) -> its class, or None: judge the rows
        self._plain: dict = {}      # (phase, trigger) -> its one row cannot misroute

    def _read(self, enc) -> None:
        """Work the table out afresh when the encounter's is another."""
        table = enc.ruleset.table
        if table is not self._table:
            self._table, self._classes, self._plain = table, {}, {}

    def reset(self):
        self.decided = None
        self.routing_problem = None

    def on_deciding(self, enc, st, rule) -> None:
        self.decided = (enc.state, st.kind, self._coverage(enc, st))

    def _coverage(self, enc, st) -> str:
        self._read(enc)
        pair = (enc.state, st.trigger)
        try:
            cls = self._classes[pair]
        except KeyError:
            cls = self._classes[pair] = _table_class(enc, *pair)
        if cls is not None:
            return cls
        rows = enc.rows_for(*pair)
        if not rows:
            return STRUCTURAL if st.responding and st.target is None else UNDEFINED
        could = sum(1 for r in rows if all(fn(enc, st) is not False for fn, _ in r.guards))
        return AMBIGUOUS if could > 1 else ROW

    def on_firing(self, enc, trigger, st) -> None:
        """A machine row fires where at most one row's guards pass, and one
        does wherever a row's timing guards pass (its routing then decides)."""
        if self.routing_problem is not None:
            return
        self._read(enc)
        pair = (enc.state, trigger)
        plain = self._plain.get(pair)
        if plain is None:
            rows = enc.rows_for(*pair)
            plain = self._plain[pair] = len(rows) == 1 and not any(
                g.structural for g, _ in rows[0].guards)
        if plain:
            return
        firing, timed, answers = 0, False, {}
        for r in enc.rows_for(*pair):
            passes = timing = True
            for g, _ in r.guards:
                answer = answers.get(g)
                if answer is None:
                    answer = answers[g] = g.check(enc, st)
                if answer is not True:
                    passes = False
                    if not g.structural:
                        timing = False
                        break
            firing += passes
            timed = timed or timing
        if firing > 1 or (timed and firing == 0):
            self.routing_problem = (enc.state, trigger, firing)


def _table_class(enc, phase, trigger):
    """The class of a step in ``phase`` as the table alone settles it (None:
    no row, or several, whose guards must be judged)."""
    refusal, rows = enc.refusal_for(phase, trigger), enc.rows_for(phase, trigger)
    if refusal is not None:
        return AMBIGUOUS if rows else REFUSED
    return ROW if len(rows) == 1 else None


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
