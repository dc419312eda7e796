"""The reference side of the protocol: the machine's own hello and results,
the in-process runner, and ``fsm serve``, which speaks the protocol on
stdin/stdout."""

from __future__ import annotations

import json
import time

from ..errors import InputError, StepError, TableGap
from ..io import jsonsafe
from ..rulesets import RULESETS, discover
from ..scenario import build
from .pipes import MAX_LINE
from .vectors import (FAIL, FEATURES, FORMAT, PASS, PROTOCOL, REFERENCE_FACTS, REPORTS,
                      Outcome, judge, public_vector)

# -- the reference engine ----------------------------------------------------------

def reference_hello() -> dict:
    discover()          # the rulesets installed packages add are served too
    return {
        "type": "hello", "protocol": PROTOCOL, "format": FORMAT,
        "engine": "fsm reference", "facts": list(REFERENCE_FACTS),
        "reports": list(REPORTS),
        "features": list(FEATURES),
        "rulesets": {
            name: {"options": {o.name: (list(o.choices) if o.choices else "integer-or-null")
                               for o in rs.options}}
            for name, rs in RULESETS.items()
        },
    }


def reference_result(vector: dict, ruleset=None) -> dict:
    """Play a (public) vector on the reference machine (or on ``ruleset``, a
    Ruleset value with another table); the protocol's result."""
    enc = build(vector, vector.get("id", "<vector>"), ruleset=ruleset)
    steps = []
    for data in vector["steps"]:
        try:
            v = enc.step(data)
        except StepError as exc:
            steps.append({"verdict": "error", "error": exc.code, "message": str(exc)})
            break
        entry = {"verdict": v.verdict, "reason": v.reason, "rules": list(v.rules),
                 "facts": enc.facts()}
        if v.notes:
            entry["notes"] = list(v.notes)
        steps.append(entry)
    return {"type": "result", "id": vector.get("id"), "steps": steps}



def run_in_process(vectors, ruleset=None, stop_after=None,
                   verdicts_only: bool = False) -> list[Outcome]:
    """Run ``vectors`` on the reference machine, or on ``ruleset`` (a Ruleset
    value: a mutant's table, say) for the vectors of that ruleset; with
    ``stop_after`` N, stop once N vectors have failed. ``verdicts_only``
    holds the machine to what an engine reporting no facts and no rule ids
    is held to: verdicts, reason codes and error codes."""
    hello = reference_hello()
    if verdicts_only:
        hello = dict(hello, facts=[], reports=[])
    out = []
    failed = 0
    for path, doc in vectors:
        failed += bool(out) and out[-1].status == FAIL
        if stop_after is not None and failed >= stop_after:
            break
        start = time.perf_counter()
        try:
            result = reference_result(public_vector(doc), ruleset)
        except InputError as exc:
            out.append(Outcome(doc.get("id", path), path, FAIL, exc.render()))
            continue
        except TableGap as exc:
            out.append(Outcome(doc.get("id", path), path, FAIL, f"table gap: {exc}"))
            continue
        except Exception as exc:  # a mutant table may break the engine itself
            out.append(Outcome(doc.get("id", path), path, FAIL,
                               f"the engine raised {type(exc).__name__}: {exc}"))
            continue
        problems = judge(doc, result, hello["facts"], validate=False,
                         reports=hello["reports"])
        out.append(Outcome(doc["id"], path, FAIL if problems else PASS,
                           problems[0] if problems else "", time.perf_counter() - start,
                           problems))
    return out


# -- the engine side: `fsm serve` -----------------------------------------------------

def _lines(stdin):
    """The input's lines as text, each read with at most MAX_LINE bytes held: a
    longer one is skipped to its end and given as None (refused, not read)."""
    source = getattr(stdin, "buffer", None)
    if source is None:                    # a text stream (tests): lines as they come
        yield from stdin
        return
    while True:
        raw = source.readline(MAX_LINE + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):
                raw = source.readline(MAX_LINE)
            yield None
            continue
        yield raw.decode("utf-8", errors="surrogateescape")


def serve(stdin, stdout) -> int:
    """Speak the protocol as the reference engine until stdin closes; a line
    longer than MAX_LINE bytes gets an error answer and is never held whole."""
    for line in _lines(stdin):
        if line is None:
            reply = {"type": "error", "message": f"a line longer than {MAX_LINE} bytes; refused"}
            stdout.write(json.dumps(reply) + "\n")
            stdout.flush()
            continue
        line = line.strip()
        if not line:
            continue
        try:
            msg = jsonsafe.loads(line)
        except jsonsafe.JSONError as exc:
            reply = {"type": "error", "message": exc.message}
        else:
            try:
                reply = _answer(msg)
            except Exception as exc:  # a bug of the reference: answer, and stay up
                reply = {"type": "error", "message": f"internal error: "
                                                     f"{type(exc).__name__}: {exc}"}
        stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0


def _answer(msg) -> dict:
    if not isinstance(msg, dict):
        return {"type": "error", "message": "expected an object"}
    if msg.get("type") == "hello":
        return reference_hello()
    if msg.get("type") == "vector":
        vector = msg.get("vector")
        if not isinstance(vector, dict):
            return {"type": "error", "message": "a vector message carries a 'vector' object"}
        try:
            return reference_result(vector)
        except InputError as exc:
            return {"type": "result", "id": vector.get("id"),
                    "steps": [{"verdict": "error", "error": "bad-document",
                               "message": exc.message}]}
    return {"type": "error", "message": f"unknown message type {msg.get('type')!r}"}
