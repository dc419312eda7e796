"""The conformance suite runner: vectors against the reference machine or
against any engine that speaks the JSON-lines protocol of spec/PROTOCOL.md.

An engine is started once and kept; a vector it cannot take (ruleset or
option value it does not support) is skipped, never failed. An engine that
crashes, hangs past the timeout, prints garbage or answers for the wrong
vector fails that vector, is restarted, and the run goes on.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from .errors import EngineError, StepError, TableGap
from .io import jsonsafe
from .rulesets import RULESETS
from .scenario import InputError, build, check_document, compare, load

PROTOCOL = 1
FORMAT = 1
REFERENCE_FACTS = ("state", "round", "active", "initiative", "budgets", "resolved", "lost",
                   "disrupted", "stack")
# What an engine that says nothing of its facts is held to: everything but the
# reference machine's own phase names and stack (spec/PROTOCOL.md).
ENGINE_FACTS = tuple(f for f in REFERENCE_FACTS if f not in ("state", "stack"))
PASS, FAIL, SKIP = "passed", "failed", "skipped"


@dataclass
class Outcome:
    id: str
    path: str
    status: str
    message: str = ""
    seconds: float = 0.0
    details: list = field(default_factory=list)


# -- vectors ---------------------------------------------------------------------

def default_vectors() -> Path:
    from .spec import default_root
    return default_root() / "spec" / "vectors"


def default_paths() -> list[Path]:
    """The default run: the vectors (generated ones included) and the scenarios."""
    return [default_vectors(), default_vectors().parent / "scenarios"]


def collect(paths) -> list[tuple[str, dict]]:
    """Every vector under ``paths`` (files, or folders searched to any depth),
    in a stable order."""
    files = []
    for p in paths or default_paths():
        p = Path(p)
        if p.is_dir():
            files.extend(sorted(x for x in p.rglob("*")
                                if x.suffix in (".json", ".yaml", ".yml") and x.is_file()))
        elif p.exists():
            files.append(p)
        else:
            raise InputError(str(p), "no such file or folder")
    out = []
    for f in files:
        doc = load(str(f))
        check_document(doc, str(f))
        out.append((str(f), doc))
    return out


def public_vector(doc: dict) -> dict:
    """The vector as an engine receives it: the expectations removed."""
    out = {k: v for k, v in doc.items() if k not in ("question", "answer", "comment")}
    out["steps"] = [{k: v for k, v in step.items() if k != "expect"}
                    for step in doc.get("steps", [])]
    return out


# -- the reference engine ----------------------------------------------------------

def reference_hello() -> dict:
    return {
        "type": "hello", "protocol": PROTOCOL, "format": FORMAT,
        "engine": "fsm reference", "facts": list(REFERENCE_FACTS),
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
            steps.append({"verdict": "error", "message": str(exc)})
            break
        entry = {"verdict": v.verdict, "reason": v.reason, "rules": list(v.rules),
                 "facts": enc.facts()}
        if v.notes:
            entry["notes"] = list(v.notes)
        steps.append(entry)
    return {"type": "result", "id": vector.get("id"), "steps": steps}


# -- judging a result ----------------------------------------------------------------

class _Seen:
    """A verdict as an engine reported it, shaped for scenario.compare."""

    def __init__(self, step: dict):
        self.verdict = step.get("verdict")
        self.reason = step.get("reason")
        self.rules = tuple(step.get("rules") or ())
        self.notes = tuple(step.get("notes") or ())


def judge(doc: dict, result: dict, facts_supported, validate: bool = True) -> list[str]:
    """Every way ``result`` misses the vector's expectations (empty: passed).
    An engine's answer is first checked against spec/result.schema.json
    (``validate=False`` only for the reference's own, in-process answers)."""
    if not isinstance(result, dict) or result.get("type") != "result":
        return ["the answer is not a result object"]
    problem = invalid("result", result) if validate else None
    if problem:
        return [f"the answer is not a well-formed result: {problem}"]
    if result.get("id") != doc.get("id"):
        return [f"answered for vector {result.get('id')!r}, not {doc.get('id')!r}"]
    steps = result.get("steps")
    if not isinstance(steps, list):
        return ["the result has no list of steps"]
    problems = []
    for i, data in enumerate(doc["steps"], 1):
        expect = data.get("expect") or {}
        if i > len(steps):
            if expect:
                problems.append(f"step {i}: no answer")
            continue
        got = steps[i - 1]
        if not isinstance(got, dict):
            problems.append(f"step {i}: the answer is not an object")
            continue
        if got.get("verdict") == "error":
            problems.append(f"step {i}: the engine refused the step as input: "
                            f"{got.get('message', '')}")
            continue
        wanted = {k: v for k, v in expect.items()
                  if k in ("verdict", "reason", "rules", "notes") or k in facts_supported}
        facts = got.get("facts") or {}
        missing = [k for k in wanted if k in REFERENCE_FACTS and k not in facts]
        if missing:
            problems.append(f"step {i}: the engine reported no {', '.join(missing)}")
            continue
        full = {k: facts.get(k) for k in REFERENCE_FACTS}
        full["budgets"] = facts.get("budgets") or {}
        for msg in compare(wanted, _Seen(got), full):
            problems.append(f"step {i}: {msg}")
    return problems


def unsupported(doc: dict, hello: dict) -> str | None:
    """Why an engine cannot take this vector, or None."""
    rulesets = hello.get("rulesets") or {}
    rs = doc.get("ruleset")
    if rs not in rulesets:
        return f"ruleset {rs} not supported"
    options = (rulesets[rs] or {}).get("options") or {}
    for name, value in (doc.get("options") or {}).items():
        if name not in options:
            return f"option {name} not supported"
        allowed = options[name]
        if isinstance(allowed, list) and value not in allowed:
            return f"option {name}={json.dumps(value)} not supported"
    return None


# -- runners -------------------------------------------------------------------------

def run_in_process(vectors, ruleset=None) -> list[Outcome]:
    """Run ``vectors`` on the reference machine, or on ``ruleset`` (a Ruleset
    value: a mutant's table, say) for the vectors of that ruleset."""
    hello = reference_hello()
    out = []
    for path, doc in vectors:
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
        problems = judge(doc, result, hello["facts"], validate=False)
        out.append(Outcome(doc["id"], path, FAIL if problems else PASS,
                           problems[0] if problems else "", time.perf_counter() - start,
                           problems))
    return out


MAX_LINE = 4 * 1024 * 1024        # bytes in one line from an engine (spec/PROTOCOL.md)


def _pump(fd: int, lines: queue.Queue) -> None:
    """Read an engine's output in bytes: whole lines, each at most MAX_LINE
    bytes and UTF-8, else a note of what was wrong; then end of output."""
    buffer = b""
    dropping = False
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            break
        buffer += chunk
        while True:
            cut = buffer.find(b"\n")
            if cut < 0:
                if len(buffer) > MAX_LINE and not dropping:
                    lines.put(("long", None))
                    dropping = True
                if dropping:
                    buffer = b""
                break
            line, buffer = buffer[:cut], buffer[cut + 1:]
            if dropping:
                dropping = False
                continue
            if len(line) > MAX_LINE:
                lines.put(("long", None))
                continue
            try:
                lines.put(("line", line.decode("utf-8")))
            except UnicodeDecodeError as exc:
                lines.put(("bytes", exc.start))
    lines.put(("end", None))


class Engine:
    """A subprocess speaking the protocol; restarted when it misbehaves.

    The engine runs in a process group of its own, killed as a whole, so a
    launcher script and the engine it starts both go. Reads have a deadline
    and a byte limit per line; writes have a deadline; nothing an engine
    prints can raise past :class:`EngineError`.
    """

    def __init__(self, command: str, timeout: float):
        self.command = command
        self.timeout = timeout
        self.proc = None
        self.reader = None
        self.lines: queue.Queue = queue.Queue()
        self.hello: dict = {}
        self.restarts = 0

    def start(self) -> dict:
        self.stop()
        try:
            argv = shlex.split(self.command)
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, start_new_session=True)
        except (OSError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or str(exc)
            raise EngineError(f"cannot start {self.command!r}: {why}") from None
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=_pump, args=(self.proc.stdout.fileno(),
                                                           self.lines), daemon=True)
        self.reader.start()
        self.send({"type": "hello", "protocol": PROTOCOL, "format": FORMAT})
        hello = self.receive()
        problem = invalid("hello", hello)
        if problem:
            raise EngineError(f"the engine's hello is not the protocol's: {problem}")
        if hello.get("format") != FORMAT:
            raise EngineError(f"the engine speaks format {hello.get('format')!r}, not {FORMAT}")
        self.hello = hello
        return hello

    def send(self, obj: dict) -> None:
        data = (json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8")
        failed: list = []
        done = threading.Event()

        def write():
            try:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            except (OSError, ValueError) as exc:
                failed.append(exc)
            finally:
                done.set()

        threading.Thread(target=write, daemon=True).start()
        if not done.wait(self.timeout):
            self.kill()
            raise EngineError(f"the engine did not read its input within {self.timeout:g} s")
        if failed:
            raise EngineError("the engine closed its input (crashed?)")

    def receive(self) -> dict:
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"no answer within {self.timeout:g} s")
            try:
                kind, value = self.lines.get(timeout=left)
            except queue.Empty:
                raise EngineError(f"no answer within {self.timeout:g} s") from None
            if kind == "end":
                try:
                    code = self.proc.wait(timeout=min(1.0, max(left, 0.1)))
                except subprocess.TimeoutExpired:
                    code = None
                raise EngineError(f"the engine exited (status {code})" if code is not None
                                  else "the engine closed its output")
            if kind == "long":
                raise EngineError(f"the engine printed a line longer than {MAX_LINE} bytes")
            if kind == "bytes":
                raise EngineError(f"the engine printed a line that is not UTF-8 "
                                  f"(byte {value})")
            if not value.strip():
                continue
            try:
                return jsonsafe.loads(value)
            except jsonsafe.JSONError as exc:
                shown = value.strip()[:60].encode("unicode_escape").decode("ascii")
                raise EngineError(f"the engine printed something that is not JSON "
                                  f"({exc.message}): {shown!r}") from None

    def kill(self) -> None:
        """Kill the engine's whole process group."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            try:
                self.proc.kill()
            except OSError:
                pass

    def stop(self) -> None:
        if self.proc is None:
            return
        self.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        if self.reader is not None:
            self.reader.join(timeout=2)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is self.proc.stdout and self.reader is not None and self.reader.is_alive():
                continue      # something outside the group still holds it: leave it
            try:
                pipe.close()
            except OSError:
                pass
        self.proc = None
        self.reader = None


# -- what an engine may say: spec/result.schema.json -----------------------------------

_VALIDATORS: dict = {}


def invalid(what: str, obj) -> str | None:
    """Why ``obj`` is not a well-formed ``hello`` or ``result`` message, or None."""
    if what not in _VALIDATORS:
        from jsonschema import Draft202012Validator
        from .spec import default_root
        with open(default_root() / "spec" / "result.schema.json", encoding="utf-8") as fh:
            schema = json.load(fh)
        defs = schema["$defs"]
        _VALIDATORS[what] = Draft202012Validator({**defs[what], "$defs": defs})
    error = next(iter(_VALIDATORS[what].iter_errors(obj)), None)
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "the message"
    return f"{where}: {error.message[:120]}"


def run_program(vectors, command: str, timeout: float = 10.0) -> list[Outcome]:
    engine = Engine(command, timeout)
    out = []
    try:
        hello = engine.start()
    except EngineError as exc:
        engine.stop()
        return [Outcome(doc.get("id", path), path, FAIL, f"handshake: {exc}")
                for path, doc in vectors]
    alive = True
    for path, doc in vectors:
        why = unsupported(doc, hello)
        if why:
            out.append(Outcome(doc["id"], path, SKIP, why))
            continue
        start = time.perf_counter()
        try:
            if not alive:
                hello = engine.start()
                engine.restarts += 1
                alive = True
            engine.send({"type": "vector", "vector": public_vector(doc)})
            result = engine.receive()
        except EngineError as exc:
            out.append(Outcome(doc["id"], path, FAIL, str(exc), time.perf_counter() - start))
            alive = False
            continue
        problems = judge(doc, result, hello.get("facts") or ())
        if problems and problems[0].startswith("answered for vector"):
            alive = False  # out of step with the engine: start afresh
        if problems and problems[0] == "the answer is not a result object":
            alive = False
        out.append(Outcome(doc["id"], path, FAIL if problems else PASS,
                           problems[0] if problems else "", time.perf_counter() - start,
                           problems))
    engine.stop()
    return out


# -- reports ---------------------------------------------------------------------------

def summary(outcomes) -> str:
    n = {s: sum(1 for o in outcomes if o.status == s) for s in (PASS, FAIL, SKIP)}
    return f"{n[PASS]} passed, {n[FAIL]} failed, {n[SKIP]} skipped"


def junit(outcomes, name="fsm-conformance") -> str:
    fails = sum(1 for o in outcomes if o.status == FAIL)
    skips = sum(1 for o in outcomes if o.status == SKIP)
    total = sum(o.seconds for o in outcomes)
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             f'<testsuite name={quoteattr(name)} tests="{len(outcomes)}" failures="{fails}" '
             f'errors="0" skipped="{skips}" time="{total:.3f}">']
    for o in outcomes:
        head = (f'  <testcase classname="conformance" name={quoteattr(o.id)} '
                f'file={quoteattr(o.path)} time="{o.seconds:.3f}"')
        if o.status == PASS:
            lines.append(head + "/>")
        elif o.status == SKIP:
            lines.append(head + f"><skipped message={quoteattr(o.message)}/></testcase>")
        else:
            body = escape("\n".join(o.details or [o.message]))
            lines.append(head + f"><failure message={quoteattr(o.message)}>{body}"
                         f"</failure></testcase>")
    lines.append("</testsuite>")
    return "\n".join(lines) + "\n"


# -- the engine side: `fsm serve` -----------------------------------------------------

def serve(stdin, stdout) -> int:
    """Speak the protocol as the reference engine until stdin closes."""
    for line in stdin:
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
                    "steps": [{"verdict": "error", "message": exc.message}]}
    return {"type": "error", "message": f"unknown message type {msg.get('type')!r}"}
