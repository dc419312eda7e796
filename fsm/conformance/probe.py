"""The fuzzer's probe: it runs decoded timelines on the engine under test,
restarting it when it misbehaves, and says what the engine gets wrong
(:func:`fsm.conformance.vectors.judge`)."""

from __future__ import annotations

import re

from ..errors import EngineError
from .engine import Engine
from .vectors import judge, public_vector


class Probe:
    """Runs decoded timelines on the engine, restarting it when it misbehaves."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.alive = False
        self.runs = 0
        self.last: dict = {}

    def problems(self, doc: dict) -> list:
        self.runs += 1
        try:
            if not self.alive:
                self.engine.start()
                self.alive = True
            self.engine.send({"type": "vector", "vector": public_vector(doc)})
            result = self.engine.receive()
        except EngineError as exc:
            self.alive = False
            return [str(exc)]
        hello = self.engine.hello
        problems = judge(doc, result, hello.get("facts") or (),
                         reports=hello.get("reports") or ())
        if problems and problems[0].startswith(("answered for vector", "the answer is not")):
            self.alive = False
        return problems

    def cut(self, doc) -> dict:
        """``doc`` without the steps after the last one the engine gets wrong,
        if it still disagrees without them (shrinking may keep some)."""
        marks = [re.match(r"step (\d+): ", p) for p in self.problems(doc)]
        if marks and all(marks) and max(int(m.group(1)) for m in marks) < len(doc["steps"]):
            shorter = {**doc, "steps": doc["steps"][:max(int(m.group(1)) for m in marks)]}
            return shorter if self.problems(shorter) else doc
        return doc
