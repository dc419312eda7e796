"""A covering conformance suite, generated from the reachable graph.

The explorer walks every timeline of a small encounter. Walking it again, this
module notes the first (so the shortest) timeline that reaches each of:

* every **decision**: a phase, a step kind, and the verdict and reason it got;
* every **machine row** that fires (a frame leaving the stack to each kind of
  phase beneath, a window kept open, the turn-start moment passing, the next
  turn starting);
* every **precedence** that can differ: two neighbouring checks of a row that
  fail together, so that checking them in the other order changes the reason.

It then composes those timelines into a few vectors: a rejected step changes
nothing, so the rejected probes of a situation ride along on a timeline that
passes through it. Every step of a generated vector carries full
expectations (verdict, reason, every fact), computed by the reference.
``fsm conformance --generate`` writes them under ``spec/vectors/generated/``
with ``COVERAGE.json``, the list of what they reach; a test regenerates both
and compares them with the committed files.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, replace

from ..engine import REJECTED, Encounter
from ..explore import AuditObserver, Config, Explorer, answerer_sets, combatants_for
from ..io.scenario import FORMAT
from ..rulesets import RULESETS
from . import denials, errororder, fieldvalues, splits, sweeps

# The bounds of the generated suite: three combatants (an ally and an enemy
# for everyone), one round, two frames above the turn, one answering
# combatant at a time; default options.
BOUNDS = {name: dict(combatants=3, rounds=1, depth=2, responders=1) for name in RULESETS}
# And on a grid (``fsm explore --grid``: a scene, moves with paths, shifts,
# attacks), for the rulesets that have a grid mode, within smaller bounds: two
# combatants, one frame above the turn.
GRID_BOUNDS = {name: dict(combatants=2, rounds=1, depth=1, responders=1, grid=True)
               for name, rs in RULESETS.items() if rs.explore.grid_moves is not None}


def variants() -> list[tuple[str, str, dict]]:
    """(ruleset, name in COVERAGE.json, bounds) of every walk the suite comes from."""
    return [*((r, r, b) for r, b in BOUNDS.items()),
            *((r, f"{r}-grid", b) for r, b in GRID_BOUNDS.items())]


class WitnessObserver(AuditObserver):
    """The audit's observer, noting for each step the keys it reaches."""

    def reset(self):
        super().reset()
        self.reached = []

    def on_deciding(self, enc, st, rule):
        super().on_deciding(enc, st, rule)
        self._phase, self._pair = enc.state, self._precedence(enc, st, rule)

    def on_decided(self, enc, st, verdict):
        self.reached.append(("decide", self._phase, st.kind, verdict.verdict, verdict.reason))
        if self._pair is not None and verdict.verdict == REJECTED:
            self.reached.append(self._pair)

    def on_transition(self, enc, trigger, source, dest, st):
        if trigger in enc.ruleset.table.machine_triggers:
            self.reached.append(("machine", source, trigger, dest))

    @staticmethod
    def _precedence(enc, st, rule):
        """(precedence, step, row or refused, first, second) when the first
        failing check of the deciding row is followed by another that fails too."""
        if rule is None:
            return None
        where = "refused" if enc.refusal_for(enc.state, st.trigger) is rule else "row"
        guards = rule.guards
        for k, (fn, _) in enumerate(guards):
            if fn(enc, st) is False:
                if k + 1 < len(guards) and guards[k + 1][0](enc, st) is False:
                    return ("precedence", rule.step, where, fn.name,
                            guards[k + 1][0].name)
                return None
        return None


class Witnessing(Explorer):
    """The explorer, noting the shortest timeline to each key it reaches."""

    def __init__(self, cfg):
        super().__init__(cfg)
        self.observer = WitnessObserver()
        self.observer.reset()
        self.enc.observer = self.observer
        self.found: dict = {}

    def on_step(self, index, move):
        for key in self.observer.reached:
            if key not in self.found:
                self.found[key] = (index, move)

    def witnesses(self) -> dict:
        """key -> (moves to the state, the move, whether it changes the state)."""
        out = {}
        for key, (index, move) in self.found.items():
            prefix = []
            i = index
            while i > 0:
                i, parent_move = self.parents[i]
                prefix.append(parent_move)
            prefix.reverse()
            out[key] = tuple(prefix) + (move,)
        return out


def _walk(cfg: Config) -> dict:
    walk = Witnessing(cfg)
    report = walk.run()
    if report.violation is not None or report.audit.gaps or not report.complete:
        raise RuntimeError(f"the walk of {cfg.ruleset} is not clean: "
                           f"{report.violation or report.audit.gaps or 'not complete'}")
    return walk.witnesses()


def witnesses(ruleset: str, jobs: int = 1, bounds: dict | None = None) -> dict:
    """key -> the shortest timeline (as moves) reaching it, over every run of
    the bounds (one per answering combatant)."""
    cfg = Config(ruleset, **(bounds or BOUNDS[ruleset]))
    runs = [replace(cfg, answerers=team) for team in answerer_sets(cfg)]
    if jobs > 1 and len(runs) > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(min(jobs, len(runs))) as pool:
            parts = pool.map(_walk, runs)
    else:
        parts = [_walk(run) for run in runs]
    best: dict = {}
    for part in parts:
        for key, moves in part.items():
            if key not in best or (len(moves), repr(moves)) < (len(best[key]), repr(best[key])):
                best[key] = moves
    return best


# -- composing vectors ----------------------------------------------------------------

@dataclass
class Replayed:
    steps: list          # step dicts with their expectations
    rules: set
    keys: list


def _combatants(ruleset, bounds=None) -> list:
    return combatants_for(Config(ruleset, **(bounds or BOUNDS[ruleset])))


def _replay(ruleset, moves, reached_keys, bounds=None) -> Replayed:
    enc = Encounter(ruleset, _combatants(ruleset, bounds))
    steps, rules = [], set()
    for move in moves:
        data = move.render(enc)
        verdict = enc.step(data)
        facts = enc.facts()
        expect = {"verdict": verdict.verdict, "reason": verdict.reason}
        expect.update(facts)
        steps.append(dict(data, expect=expect))
        rules.update(verdict.rules)
    return Replayed(steps, rules, reached_keys)


def compose(ruleset: str, found: dict, bounds: dict | None = None) -> list[dict]:
    """Vectors that together reach every key of ``found``."""
    probes: dict = {}       # prefix -> {move: keys}
    ends: dict = {}         # changing timelines -> keys
    for key, moves in sorted(found.items(), key=lambda kv: (len(kv[1]), repr(kv))):
        prefix, move = moves[:-1], moves[-1]
        if _changes(ruleset, moves, bounds):
            ends.setdefault(moves, []).append(key)
        else:
            probes.setdefault(prefix, {}).setdefault(move, []).append(key)
    needed = set(ends) | set(probes)
    leaves = sorted((n for n in needed
                     if not any(len(m) > len(n) and m[:len(n)] == n for m in needed)),
                    key=lambda n: (len(n), repr(n)))
    placed: set = set()
    vectors = []
    for leaf in leaves:
        moves, keys = [], []
        for i in range(len(leaf) + 1):
            node = leaf[:i]
            for move, move_keys in probes.get(node, {}).items():
                if (node, move) in placed:
                    continue
                placed.add((node, move))
                moves.append(move)
                keys.extend(move_keys)
            if node in ends:
                keys.extend(ends[node])
            if i < len(leaf):
                moves.append(leaf[i])
        rep = _replay(ruleset, moves, keys, bounds)
        vectors.append(_vector(ruleset, rep, bounds))
    return vectors


def _changes(ruleset, moves, bounds=None) -> bool:
    """Whether the last move of ``moves`` changes the encounter."""
    enc = Encounter(ruleset, _combatants(ruleset, bounds))
    for move in moves[:-1]:
        enc.step(move.render(enc))
    before = enc.fingerprint()
    enc.step(moves[-1].render(enc))
    return enc.fingerprint() != before


def _describe(key) -> str:
    if key[0] == "decide":
        _, phase, kind, verdict, reason = key
        return f"{kind} in {phase}: {verdict}" + (f" ({reason})" if reason else "")
    if key[0] == "machine":
        _, phase, trigger, dest = key
        return f"{trigger.replace('_', '-')} from {phase} to {dest}"
    _, step, where, first, second = key
    return f"{step} ({where}): {first} before {second}"


def _vector(ruleset: str, rep: Replayed, bounds=None) -> dict:
    digest = hashlib.sha256(json.dumps(rep.steps, sort_keys=True).encode()).hexdigest()
    reaches = sorted({_describe(k) for k in rep.keys})
    grid = "grid-" if bounds and bounds.get("grid") else ""
    where = " on a grid" if grid else ""
    return {
        "format": FORMAT,
        "id": f"gen-{ruleset}-{grid}{digest[:10]}",
        "ruleset": ruleset,
        "description": f"Generated from the reachable graph{where}; reaches: "
                       + "; ".join(reaches),
        "rules": sorted(rep.rules),
        "combatants": _combatants(ruleset, bounds),
        "steps": rep.steps,
    }


def key_json(key) -> list:
    return list(key)


def _walked(ruleset: str, name: str, bounds: dict, jobs: int) -> tuple[list[dict], dict]:
    found = witnesses(ruleset, jobs, bounds)
    made = compose(ruleset, found, bounds)
    keys = sorted(found, key=repr)
    return made, {"rulesets": {name: {
        "decisions": [key_json(k) for k in keys if k[0] == "decide"],
        "machine": [key_json(k) for k in keys if k[0] == "machine"],
        "precedence": [key_json(k) for k in keys if k[0] == "precedence"],
        "vectors": len(made),
        "steps": sum(len(v["steps"]) for v in made),
    }}}


def _family(module, key: str):
    def make(jobs: int) -> tuple[list[dict], dict]:
        made = module.generate()
        if isinstance(made, dict):          # the error order: its vectors by ruleset
            return [v for vs in made.values() for v in vs], {key: module.coverage(made)}
        return made, {key: module.coverage(made)}
    return make


# The generated suite in parts that are made apart from each other: part name
# -> (the id prefix of its vectors, make(jobs) -> (vectors, its keys of the manifest)).
PARTS: dict = {
    **{name: (f"gen-{ruleset}-" + ("grid-" if bounds.get("grid") else ""),
              lambda jobs, r=ruleset, n=name, b=bounds: _walked(r, n, b, jobs))
       for ruleset, name, bounds in variants()},
    "error_order": ("err-", _family(errororder, "error_order")),
    "sweeps": ("sweep-", _family(sweeps, "sweeps")),
    "denials": ("deny-", _family(denials, "denials")),
    "splits": ("split-", _family(splits, "splits")),
    "field_values": ("val-", _family(fieldvalues, "field_values")),
}


def part_of(vector_id: str) -> str | None:
    """The part a generated vector belongs to, by its id (the longest prefix)."""
    best = None
    for name, (prefix, _) in PARTS.items():
        if vector_id.startswith(prefix) and (best is None or len(prefix) > len(PARTS[best][0])):
            best = name
    return best


def generate(jobs: int = 1, only=None) -> tuple[list[dict], dict]:
    """Every generated vector, and the coverage manifest (of the parts named in
    ``only``: the whole suite when None)."""
    vectors, coverage = [], {"bounds": BOUNDS, "grid_bounds": GRID_BOUNDS, "rulesets": {}}
    for name, (_, make) in PARTS.items():
        if only is not None and name not in only:
            continue
        made, keys = make(jobs)
        vectors.extend(made)
        coverage["rulesets"].update(keys.pop("rulesets", {}))
        coverage.update(keys)
    return vectors, coverage


COVERAGE = "COVERAGE.json"      # beside the folder of generated vectors, in spec/


def render(vectors: list[dict], coverage: dict) -> dict:
    """File name -> text, exactly as committed (the vectors, and the manifest)."""
    files = {f"{v['id']}.json": (_step_per_line(v) if v["id"].startswith("sweep-") else
                                 json.dumps(v, indent=1, ensure_ascii=False) + "\n")
             for v in vectors}
    files[COVERAGE] = json.dumps(coverage, indent=1, sort_keys=True) + "\n"
    return files


def _step_per_line(vector: dict) -> str:
    """A long vector as committed (a sweep): its head indented, one step per line."""
    head = {k: v for k, v in vector.items() if k != "steps"}
    text = json.dumps(head, indent=1, ensure_ascii=False)[:-2]
    steps = ",\n  ".join(json.dumps(s, ensure_ascii=False) for s in vector["steps"])
    return f"{text},\n \"steps\": [\n  {steps}\n ]\n}}\n"


def folders(root) -> tuple[str, str]:
    """Where the generated vectors go, and where the manifest goes."""
    spec = os.path.join(str(root), "spec")
    return os.path.join(spec, "vectors", "generated"), spec


def write(root, files: dict) -> list[str]:
    """Write the generated files under ``root``/spec; old vectors are removed."""
    vectors_dir, spec_dir = folders(root)
    os.makedirs(vectors_dir, exist_ok=True)
    for name in os.listdir(vectors_dir):
        if name.endswith(".json") and name not in files:
            os.remove(os.path.join(vectors_dir, name))
    written = []
    for name, text in files.items():
        path = os.path.join(spec_dir if name == COVERAGE else vectors_dir, name)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        written.append(path)
    return written


def stale(root, files: dict) -> list[str]:
    """Names of generated files that differ from, or are missing beside, the committed ones."""
    vectors_dir, spec_dir = folders(root)
    out = []
    for name, text in files.items():
        path = os.path.join(spec_dir if name == COVERAGE else vectors_dir, name)
        try:
            with open(path, encoding="utf-8") as fh:
                if fh.read() != text:
                    out.append(name)
        except OSError:
            out.append(name)
    if os.path.isdir(vectors_dir):
        out += sorted(n for n in os.listdir(vectors_dir)
                      if n.endswith(".json") and n not in files)
    return out


def summary_lines(coverage: dict) -> list[str]:
    out = []
    for ruleset, c in coverage["rulesets"].items():
        grid = ruleset.endswith("-grid")
        b = coverage["grid_bounds" if grid else "bounds"][ruleset.removesuffix("-grid")]
        out.append(f"{ruleset}: every reachable decision of {b['combatants']} combatants x "
                   f"{b['rounds']} round(s): {len(c['decisions'])} decisions, "
                   f"{len(c['machine'])} machine rows, {len(c['precedence'])} precedences, "
                   f"in {c['vectors']} vectors of {c['steps']} steps")
    for ruleset, c in coverage.get("sweeps", {}).items():
        out.append(f"{ruleset}: {c['vectors']} sweeps of {c['steps']} steps, every budget "
                   f"tried at every moment of {c['turns']} turns")
    for ruleset, c in coverage.get("field_values", {}).items():
        out.append(f"{ruleset}: each field alone, {c['vectors']} values read off its schema "
                   f"({', '.join(c['answers'])})")
    for ruleset, c in coverage.get("error_order", {}).items():
        out.append(f"{ruleset}: the order of errors, {c['pairs']} pairs of faults and "
                   f"{c.get('alone', 0)} alone (each written twice), {len(c['codes'])} "
                   f"error codes")
    return out
