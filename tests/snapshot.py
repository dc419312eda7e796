"""Everything the machine says, in one file, to show a restructuring changed
no behaviour.

    python tests/snapshot.py before.json        # record
    ... change the code ...
    python tests/snapshot.py after.json
    python tests/snapshot.py --compare before.json after.json

It records, for every vector (generated ones included) and every scenario,
the reference's protocol result (verdicts, reasons, rules, facts, notes,
error codes) and `fsm check --json`'s output; the mutant scores of both
families, vector by vector; the default exploration report of every
ruleset, and its grid walk; and the bytes of everything `fsm spec map`,
`fsm diagram --write` and `fsm conformance --generate` would write.
``--compare`` prints each difference and exits 1 if there is one.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _check_json(path) -> object:
    from fsm.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(["check", "--json", str(path)])
    return {"status": status, "out": json.loads(out.getvalue() or "null")}


def _documents() -> dict:
    from fsm.conformance.vectors import collect
    from fsm.conformance.reference import reference_result
    from fsm.conformance.vectors import public_vector
    out = {}
    for path, doc in collect(None):
        key = str(Path(path).resolve().relative_to(ROOT))
        out[key] = {"result": reference_result(public_vector(doc)),
                    "check": _check_json(path)}
    return out


def _mutants() -> dict:
    from fsm.conformance.vectors import collect
    from fsm.conformance.scoring import score
    vectors = collect(None)
    return {m.id: killers for family in ("guards", "mistakes")
            for m, killers in score(vectors, families=(family,))}


def _explorations() -> dict:
    from fsm.explore import Config, explore
    from fsm.rulesets import RULESETS
    out = {}
    for name, rs in sorted(RULESETS.items()):
        walks = {"default": Config(name, combatants=2, rounds=2)}
        if rs.explore.grid_moves is not None:
            walks["grid"] = Config(name, combatants=2, rounds=1, depth=1, grid=True)
        for label, cfg in walks.items():
            r = explore(cfg)
            out[f"{name} {label}"] = {
                "states": r.states, "transitions": r.transitions, "steps": r.steps,
                "beyond": r.beyond, "depth": r.depth_reached, "stack": r.stack_reached,
                "complete": r.complete, "violation": repr(r.violation),
                "audit": sorted(map(repr, r.audit.counts.items()))}
    return out


def _generated() -> dict:
    """sha256 of every file `fsm spec map`, `fsm diagram --write` and `fsm
    conformance --generate` write (they write in place: git shows the rest)."""
    from fsm.cli import main
    with contextlib.redirect_stdout(io.StringIO()):
        for args in (["spec", "map"], ["diagram", "--write"], ["conformance", "--generate"]):
            assert main(args) == 0, args
    files = [ROOT / "spec" / n for n in ("MAP.md", "PRECEDENCE.md", "vector.schema.json",
                                         "statements.json", "protocol.d.ts", "COVERAGE.json")]
    files += sorted((ROOT / "diagrams").rglob("*")) + sorted(
        (ROOT / "spec" / "vectors" / "generated").glob("*.json"))
    return {str(p.relative_to(ROOT)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in files if p.is_file()}


def record() -> dict:
    return {"documents": _documents(), "mutants": _mutants(),
            "explorations": _explorations(), "generated": _generated()}


def compare(a: dict, b: dict, where="") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{where}/{k}: only in {'after' if k not in a else 'before'}")
            else:
                out += compare(a[k], b[k], f"{where}/{k}")
        return out
    return [] if a == b else [f"{where}: {json.dumps(a)[:200]} -> {json.dumps(b)[:200]}"]


def main(argv) -> int:
    if argv[:1] == ["--compare"] and len(argv) == 3:
        a, b = (json.loads(Path(p).read_text()) for p in argv[1:])
        diffs = compare(a, b)
        for line in diffs:
            print(line)
        print(f"{len(diffs)} difference(s)")
        return 1 if diffs else 0
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    Path(argv[0]).write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
