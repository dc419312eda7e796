"""fsm spec: check the sentence map, show one chain, regenerate MAP.md and
PRECEDENCE.md."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ..errors import SpecError
from ..io.writing import check_folder, write_whole
from .common import RawFormatter, SEEDS_ENV, sources_folder


def add_parser(sub) -> None:
    spec = sub.add_parser(
        "spec", help="the sentence map: check it, show a chain, regenerate MAP.md",
        description="Every sentence of the four texts is traced to rules, transitions, "
                    "guards, tests and vectors. The texts themselves are never stored: give "
                    "your copies with --sources to verify fingerprints or print originals.")
    spec_sub = spec.add_subparsers(dest="spec_command", metavar="SUBCOMMAND")
    sc = spec_sub.add_parser(
        "check", help="exit 0 only when every sentence, rule and link holds",
        description="Check the whole map: every sentence covered, every rule implemented "
                    "by the table, tested (rule marker) and covered by a vector, every "
                    "reference resolving, the generated files fresh (MAP.md, "
                    "PRECEDENCE.md, the schema, statements.json, protocol.d.ts), every clause "
                    "of TIMING.md citing what exists and naming what the table has; with "
                    "--sources, every fingerprint and the tiling of each text.",
        epilog="exit status: 0 the map holds, 1 problems were found, 2 bad usage.\n"
               "example: fsm spec check --sources ../shared",
        formatter_class=RawFormatter)
    sc.add_argument("--sources", metavar="DIR", default=os.environ.get(SEEDS_ENV),
                    help=f"folder holding the texts, found by SHA-256 whatever their names "
                         f"(default: ${SEEDS_ENV})")
    sc.add_argument("--json", action="store_true",
                    help="print every sentence entry, divergence and assumption as JSON")
    sc.add_argument("--root", default=None, help=argparse.SUPPRESS)
    sc.set_defaults(func=cmd_spec_check)
    ss = spec_sub.add_parser(
        "show", help="the chain for a sentence, rule or divergence id",
        description="Print sentence -> paraphrase -> rule -> transitions -> tests -> vectors "
                    "for a sentence id (cs-4e.021), a rule id (4E-IMM-ONCE) or a divergence, "
                    "assumption or GM entry (DIV-OPP-TURN-SCOPE). With --sources, the "
                    "original sentence is printed beside the paraphrase.")
    ss.add_argument("id", help="a sentence, rule or divergence id")
    ss.add_argument("--sources", metavar="DIR", default=os.environ.get(SEEDS_ENV),
                    help="folder holding the texts (default: $FSM_SOURCES)")
    ss.add_argument("--root", default=None, help=argparse.SUPPRESS)
    ss.set_defaults(func=cmd_spec_show)
    sm = spec_sub.add_parser("map", help="regenerate spec/MAP.md, PRECEDENCE.md, "
                                         "vector.schema.json, statements.json, protocol.d.ts",
                             description="Regenerate the readable map spec/MAP.md, the "
                                         "precedence of checks spec/PRECEDENCE.md (from the "
                                         "spec files and the tables), the JSON Schema "
                                         "spec/vector.schema.json (from the rulesets), "
                                         "spec/statements.json (from the rules) and the "
                                         "TypeScript declarations spec/protocol.d.ts (from "
                                         "the two schemas).")
    sm.add_argument("--stdout", action="store_true", help="print MAP.md instead of writing the files")
    sm.add_argument("--root", default=None, help=argparse.SUPPRESS)
    sm.set_defaults(func=cmd_spec_map)
    spec.set_defaults(func=lambda args: (spec.print_help(), 2)[1])


def _spec_texts(spec_mod, spec, folder):
    if folder is None:
        return None
    return spec_mod.find_sources(spec, sources_folder(folder))


def _load_spec(spec_mod, root, with_tests=True):
    try:
        return spec_mod.load(root, with_tests=with_tests)
    except (SpecError, RuntimeError) as exc:
        print(f"fsm spec: {exc}", file=sys.stderr)
        return None


def cmd_spec_check(args) -> int:
    from .. import spec as spec_mod
    from ..spec import schema, statements, typescript
    spec = _load_spec(spec_mod, args.root)
    if spec is None:
        return 2
    texts = _spec_texts(spec_mod, spec, args.sources)
    map_path = spec.root / "spec" / "MAP.md"
    map_text = map_path.read_text(encoding="utf-8") if map_path.exists() else ""
    problems = spec_mod.check(spec, texts, map_text)
    problems += _timing_problems(spec)
    problems += schema.problems(spec.root)
    problems += statements.problems(spec)
    problems += typescript.problems(spec.root)
    cov = spec_mod.coverage(spec)
    total = sum(c["sentences"] for c in cov.values())
    covered = sum(c["covered"] for c in cov.values())
    if args.json:
        payload = spec_mod.sentence_json(spec, None)
        payload["ok"] = not problems
        payload["problems"] = problems
        payload["fingerprints_checked"] = texts is not None
        json.dump(payload, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        for problem in problems:
            print(f"  {problem}")
        for src, c in cov.items():
            pct = 100.0 * c["covered"] / c["sentences"] if c["sentences"] else 0.0
            print(f"{src}: {c['covered']}/{c['sentences']} sentences covered ({pct:.0f}%)")
        where = f"fingerprints verified against {args.sources}" if texts is not None \
            else "fingerprints not verified (no --sources)"
        rules = [r for r in spec.rules if r.get("status", "active") != "retired"]
        print(f"{covered}/{total} sentences, {len(rules)} rules, "
              f"{len(spec.divergences)} divergences, {len(spec.assumptions)} assumptions, "
              f"{len(spec.gm)} GM decisions; {where}")
        print("spec check: " + ("ok" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems else 0


def _timing_problems(spec) -> list:
    """TIMING.md's citations and table names, and PRECEDENCE.md's freshness."""
    from ..spec import timing
    sdir = spec.root / "spec"
    path = sdir / "TIMING.md"
    if not path.exists():
        return [f"{path}: missing (the written timing of the machine)"]
    known = set(spec.sentence_by_id) | {e["id"] for _, e in spec.entries()}
    precedence = sdir / "PRECEDENCE.md"
    fresh = precedence.read_text(encoding="utf-8") if precedence.exists() else ""
    return timing.check(path.read_text(encoding="utf-8"), known, fresh)


def cmd_spec_show(args) -> int:
    from .. import spec as spec_mod
    root = Path(args.root or spec_mod.default_root())
    # the links to tests need a checkout; the rest of the chain does not
    spec = _load_spec(spec_mod, root, with_tests=(root / "tests").is_dir())
    if spec is None:
        return 2
    texts = _spec_texts(spec_mod, spec, args.sources)
    lines = spec_mod.show(spec, args.id, texts)
    if lines is None:
        ids = list(spec.sentence_by_id) + list(spec.rule_by_id) + \
            [e["id"] for _, e in spec.entries()]
        import difflib
        near = difflib.get_close_matches(args.id, ids, n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        print(f"fsm spec show: no sentence, rule or divergence {args.id!r}{hint}",
              file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


def cmd_spec_map(args) -> int:
    from .. import spec as spec_mod
    if not (Path(args.root or spec_mod.default_root()) / "tests").is_dir():
        print("fsm spec map: it regenerates the files of a checkout's spec/ (MAP.md, "
              "PRECEDENCE.md, statements.json, the schema, protocol.d.ts) from its rules and "
              "tests: run it "
              "in a checkout of the project", file=sys.stderr)
        return 2
    if not args.stdout:
        check_folder(Path(args.root or spec_mod.default_root()) / "spec")
    spec = _load_spec(spec_mod, args.root)
    if spec is None:
        return 2
    from ..spec import schema, statements, timing, typescript
    text = spec_mod.render_map(spec)
    if args.stdout:
        sys.stdout.write(text)
        return 0
    folder = spec.root / "spec"
    files = ((folder / "MAP.md", lambda: text),
             (folder / "PRECEDENCE.md", timing.render_precedence),
             (folder / schema.NAME, schema.render),
             (folder / statements.NAME, lambda: statements.render(spec)))
    for path, render in files:
        write_whole(path, render())
        print(f"wrote {path}")
    declarations_path = folder / typescript.NAME      # from the schema files just written
    write_whole(declarations_path, typescript.render(spec.root))
    print(f"wrote {declarations_path}")
    return 0
