"""Explorations spread over machines: ``fsm explore ... --shard I/N`` walks
the I-th of N parts of the space and writes what each state it expanded
contributed; ``fsm explore merge FILES`` puts the parts together into the
report a single run gives.

The parts are the root's moves, dealt out in turn: every timeline starts
with one of them, so the N parts together reach every state, and a state
reached in several parts contributes the same there (its moves, verdicts and
successors depend on the state alone). The merge counts each state once
(by a hash of its canonical picture, stable across processes), keeps its
shortest depth, adds up the root's parts, and keeps the shortest
counterexample: as long as any, since the shortest timeline that breaks an
invariant starts with a root move of some part.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from dataclasses import asdict, replace

from ..errors import ConfigError
from .runs import answerer_sets
from .walk import Config, Explorer, Report, Violation, deadline_of
from .watch import Problem

KIND = "fsm-explore-shard"


def stable(value):
    """A value made comparable across processes: sets sorted, tuples kept."""
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted((stable(v) for v in value), key=repr)))
    if isinstance(value, (tuple, list)):
        return tuple(stable(v) for v in value)
    return value


def state_hash(key) -> str:
    return hashlib.blake2b(repr(stable(key)).encode("utf-8"), digest_size=12).hexdigest()


class Ledger:
    """Per expanded state: depth, steps tried, transitions, steps beyond the
    bounds, the highest stack reached, and the audit's counts."""

    def __init__(self):
        self.keys: dict = {}        # state index -> (hash, depth)
        self.states: dict = {}      # hash -> [depth, steps, transitions, beyond, stack, counts]
        self._saved = None

    def add(self, index, key, depth) -> None:
        self.keys[index] = (state_hash(key), depth)

    def begin(self, report, index) -> None:
        self._saved = (report.steps, report.transitions, report.beyond, report.stack_reached,
                       report.audit.counts)
        report.stack_reached = 0
        report.audit.counts = Counter()

    def end(self, report, index) -> None:
        steps, transitions, beyond, stack, counts = self._saved
        digest, depth = self.keys[index]
        mine = report.audit.counts
        self.states[digest] = [depth, report.steps - steps, report.transitions - transitions,
                               report.beyond - beyond, report.stack_reached,
                               [[*k, n] for k, n in sorted(mine.items())]]
        counts.update(mine)
        report.audit.counts = counts
        report.stack_reached = max(stack, report.stack_reached)


def parse_shard(text: str) -> tuple:
    """``I/N`` with 0 <= I < N (ConfigError if not)."""
    part, sep, parts = text.partition("/")
    if not sep or not part.isdigit() or not parts.isdigit() or not 0 <= int(part) < int(parts):
        raise ConfigError(f"--shard takes I/N with 0 <= I < N, not {text!r}")
    return int(part), int(parts)


def run_shard(cfg: Config) -> dict:
    """Walk one part of every run of ``cfg``; what the merge needs, as JSON."""
    runs = []
    deadline = deadline_of(cfg)
    for team in answerer_sets(cfg):
        walker = Explorer(replace(cfg, answerers=team, deadline=deadline))
        walker.ledger = Ledger()
        report = walker.run()
        runs.append({"answerers": list(team) if team else None,
                     "root": walker.ledger.keys[0][0], "states": walker.ledger.states,
                     "complete": report.complete, "stopped": report.stopped,
                     "seconds": report.seconds,
                     "violation": _violation_json(report.violation)})
    return {"kind": KIND, "format": 1, "shard": list(cfg.shard), "config": _config_json(cfg),
            "runs": runs}


def write_shard(doc: dict, folder: str) -> str:
    os.makedirs(folder, exist_ok=True)
    part, parts = doc["shard"]
    path = os.path.join(folder, f"explore-{doc['config']['ruleset']}-shard-{part}-of-{parts}.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, separators=(",", ":"))
        fh.write("\n")
    return path


MAX_PARTS = 4096
MAX_SHARD_BYTES = 1 << 30
_INT = {"type": "integer", "minimum": 0, "maximum": 10 ** 12}
_ENTRY = {"type": "array", "minItems": 6, "maxItems": 6,
          "prefixItems": [_INT, _INT, _INT, _INT, _INT,
                          {"type": "array", "items": {
                              "type": "array", "minItems": 4, "maxItems": 4,
                              "prefixItems": [{"type": "string"}, {"type": "string"},
                                              {"type": "string"}, _INT]}}]}
# What a shard file must be before anything of it is believed (fsm explore merge)
SHARD_SCHEMA = {
    "type": "object",
    "required": ["kind", "format", "shard", "config", "runs"],
    "properties": {
        "kind": {"const": KIND},
        "format": {"const": 1},
        "shard": {"type": "array", "minItems": 2, "maxItems": 2,
                  "prefixItems": [{"type": "integer", "minimum": 0, "maximum": MAX_PARTS},
                                  {"type": "integer", "minimum": 1, "maximum": MAX_PARTS}]},
        "config": {"type": "object",
                   "required": ["ruleset", "combatants", "rounds", "depth"],
                   "properties": {"ruleset": {"type": "string"},
                                  "combatants": {"type": "integer", "minimum": 1, "maximum": 6},
                                  "rounds": {"type": "integer", "minimum": 1, "maximum": 5},
                                  "depth": {"type": "integer", "minimum": 1, "maximum": 4},
                                  "options": {"type": "object"}}},
        "runs": {"type": "array", "maxItems": 64, "items": {
            "type": "object", "required": ["root", "states", "complete"],
            "properties": {"root": {"type": "string"},
                           "states": {"type": "object", "additionalProperties": _ENTRY},
                           "complete": {"type": "boolean"},
                           "stopped": {"type": ["string", "null"]}}}},
    },
}


def read_shard(name: str) -> dict:
    """A shard file, read within bounds (size, nesting, digits) and checked
    against :data:`SHARD_SCHEMA` (InputError, one line, if it is not one)."""
    from jsonschema import Draft202012Validator

    from ..errors import InputError, JSONError
    from ..io import jsonsafe
    from ..io.scenario import read_capped
    try:
        with open(name, "rb") as fh:
            head = fh.read(4096).lstrip()
    except OSError as exc:
        raise InputError(name, f"cannot read: {exc.strerror or exc}") from None
    if not head.startswith(b"{"):       # /dev/zero, a picture: refused before a GiB is read
        raise InputError(name, "not a shard file written by fsm explore --shard "
                               "(not a JSON object)")
    raw = read_capped(name, MAX_SHARD_BYTES)
    try:
        doc = jsonsafe.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, JSONError):
        raise InputError(name, "not a shard file written by fsm explore --shard "
                               "(not JSON)") from None
    error = next(iter(Draft202012Validator(SHARD_SCHEMA).iter_errors(doc)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the file"
        raise InputError(name, f"not a shard file written by fsm explore --shard: {where}: "
                               f"{error.message[:100]}")
    return doc


def merge(docs: list) -> Report:
    """The report of a single run, from the shard files of all its parts."""
    if not docs:
        raise ConfigError("explore merge needs the shard files to merge")
    config = docs[0]["config"]
    parts = docs[0]["shard"][1]
    seen = sorted(d["shard"][0] for d in docs)
    if any(d.get("kind") != KIND or d["config"] != config or d["shard"][1] != parts
           for d in docs):
        raise ConfigError("the files are not shards of one exploration (same ruleset, "
                          "bounds, options and N)")
    if seen != list(range(parts)):
        missing = sorted(set(range(parts)) - set(seen))
        raise ConfigError(f"shards missing or repeated: have {seen}, missing {missing}")
    try:
        cfg = Config(**{k: v for k, v in config.items()})
    except TypeError:
        raise ConfigError("the shards' config is not one fsm explore writes") from None
    from .output import check_config
    check_config(cfg)
    total = Report(cfg)
    for number in range(len(docs[0]["runs"])):
        _merge_run(total, [d["runs"][number] for d in docs])
    return total


def _merge_run(total: Report, runs: list) -> None:
    states: dict = {}
    root = runs[0]["root"]
    for run in runs:
        for digest, entry in run["states"].items():
            if digest == root:
                continue
            if digest not in states or entry[0] < states[digest][0]:
                states[digest] = entry
    roots = [run["states"][root] for run in runs if root in run["states"]]
    entries = list(states.values())
    total.states += len(states) + 1
    total.runs += 1
    total.complete = total.complete and all(run["complete"] for run in runs)
    total.stopped = total.stopped or stopped_at(runs)
    for entry in entries + roots:
        total.steps += entry[1]
        total.transitions += entry[2]
        total.beyond += entry[3]
        total.stack_reached = max(total.stack_reached, entry[4])
        for phase, kind, cls, n in entry[5]:
            total.audit.counts[(phase, kind, cls)] += n
    total.depth_reached = max([total.depth_reached, *(e[0] for e in entries)])
    found = [v for v in (_violation_from(run["violation"]) for run in runs) if v is not None]
    if found:
        best = min(found, key=lambda v: len(v.path))
        if total.violation is None or len(best.path) < len(total.violation.path):
            total.violation = best


def stopped_at(runs: list) -> str | None:
    """The limit the first stopped run of a shard file stopped at (None if
    none says; files written before runs said so carry no such entry)."""
    return next((run["stopped"] for run in runs if run.get("stopped")), None)


def _config_json(cfg: Config) -> dict:
    out = asdict(cfg)
    out["ruleset"] = cfg.name
    for name in ("answerers", "shard", "max_states", "max_seconds", "deadline", "max_levels"):
        out.pop(name, None)
    return out


def _violation_json(v: Violation | None):
    if v is None:
        return None
    return {"problem": asdict(v.problem), "path": v.path, "verdicts": v.verdicts}


def _violation_from(doc):
    if doc is None:
        return None
    problem = dict(doc["problem"], rules=tuple(doc["problem"]["rules"]))
    return Violation(Problem(**problem), doc["path"], doc["verdicts"])
