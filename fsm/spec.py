"""The spec map: every sentence of the texts, traced to rules, transitions,
guards, tests and vectors, and checked.

``spec/`` never holds the texts' sentences: each is known by its source (the
SHA-256 of the file's bytes), its character span and the SHA-256 of the
sentence. Given a folder with the user's copies (``--sources DIR``), the
fingerprints are verified and the originals can be printed beside our
paraphrases.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .errors import SpecError
from .io.yamlsafe import project_yaml
from .rulesets import RULESETS

KINDS = {"rule", "definition", "example", "heading", "list-label", "flavour",
         "cross-reference", "metadata"}
RULE_KINDS = {"rule", "assumption", "example", "gm"}
ID_RE = re.compile(r"^(?P<source>[a-z0-9-]+)\.(?P<n>\d{3})$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")


from .paths import DATA_NAME, default_root, installed_roots  # noqa: F401  (re-exported)


@dataclass
class Spec:
    root: Path
    sources: list
    sentences: list
    rules: list
    divergences: list
    assumptions: list
    gm: list
    gaps: list
    tests: dict = field(default_factory=dict)      # rule id -> [test ids]
    tests_known: bool = True
    vectors: dict = field(default_factory=dict)    # rule id -> [vector ids]
    scenarios: dict = field(default_factory=dict)  # rule id -> [scenario ids]

    @property
    def rule_by_id(self) -> dict:
        return {r["id"]: r for r in self.rules}

    @property
    def sentence_by_id(self) -> dict:
        return {s["id"]: s for s in self.sentences}

    def entries(self):
        for group in ("divergences", "assumptions", "gm", "gaps"):
            for e in getattr(self, group):
                yield group, e


def _yaml(path: Path):
    try:
        with open(path, encoding="utf-8") as fh:
            return project_yaml(fh)
    except OSError as exc:
        raise SpecError(f"{path}: cannot read: {exc.strerror}") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise SpecError(f"{where}: invalid YAML: {exc.problem}") from None
    except yaml.YAMLError as exc:
        raise SpecError(f"{path}: invalid YAML: {exc}") from None


def collect_tests(root: Path) -> dict:
    """Ask pytest which tests carry which rule marker (a collect-only run)."""
    if not (root / "tests").is_dir():
        raise RuntimeError(f"no tests/ under {root}: checking the links from rules to "
                           f"tests needs a checkout of the project")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rules.json")
        env = dict(os.environ, FSM_RULES_OUT=out, PYTHONDONTWRITEBYTECODE="1")
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "fsm._collect_rules",
             "-p", "no:cacheprovider", str(root / "tests")],
            cwd=root, env=env, capture_output=True, text=True)
        if not os.path.exists(out):
            tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
            raise RuntimeError("collecting tests failed: " + " / ".join(tail))
        with open(out, encoding="utf-8") as fh:
            return json.load(fh)


def collect_cases(folder: Path) -> dict:
    """rule id -> ids of the vectors (or scenarios) in ``folder`` that cover it."""
    out: dict = {}
    if not folder.is_dir():
        return out
    for path in sorted(folder.iterdir()):
        if path.suffix not in (".json", ".yaml", ".yml"):
            continue
        try:
            doc = _yaml(path)
        except SpecError:
            continue
        if not isinstance(doc, dict):
            continue
        for rule_id in doc.get("rules") or ():
            out.setdefault(rule_id, []).append(doc.get("id") or path.stem)
    return out


def load(root: Path | None = None, with_tests: bool = True) -> Spec:
    root = Path(root or default_root())
    sdir = root / "spec"
    sent = _yaml(sdir / "sentences.yaml")
    rules = _yaml(sdir / "rules.yaml")
    div = _yaml(sdir / "divergences.yaml")
    for name, doc in (("sentences.yaml", sent), ("rules.yaml", rules),
                      ("divergences.yaml", div)):
        if not isinstance(doc, dict):
            raise SpecError(f"{sdir / name}: expected a mapping at the top level")
    spec = Spec(root, sent.get("sources") or [], sent.get("sentences") or [],
                rules.get("rules") or [], div.get("divergences") or [],
                div.get("assumptions") or [], div.get("gm") or [], div.get("gaps") or [])
    if with_tests:
        spec.tests = collect_tests(root)
    spec.tests_known = with_tests   # the links to tests need a checkout
    spec.vectors = collect_cases(sdir / "vectors")
    spec.scenarios = collect_cases(sdir / "scenarios")
    return spec


# -- what the machine says about each rule ------------------------------------

def table_links(ruleset: str) -> dict:
    """rule id -> (set of transition names, set of guard names) in the table."""
    rs = RULESETS[ruleset]
    rows, refusals = rs.rows, rs.refusals
    links: dict = {}
    for r in (*rows, *refusals):
        for rid in r.rules:
            links.setdefault(rid, (set(), set()))[0].add(r.step)
        for fn, rules in r.guards:
            for rid in rules:
                t, g = links.setdefault(rid, (set(), set()))
                t.add(r.step)
                g.add(fn.__name__)
    return links


# -- sources -----------------------------------------------------------------------

def find_sources(spec: Spec, folder) -> dict:
    """source id -> decoded text, for every source found in ``folder`` by its hash."""
    wanted = {s["sha256"]: s["id"] for s in spec.sources}
    found = {}
    folder = Path(folder)
    if not folder.is_dir():
        return found
    for path in sorted(folder.rglob("*")):
        try:
            if not path.is_file() or path.stat().st_size > 16 * 1024 * 1024:
                continue
            data = path.read_bytes()
        except OSError:          # unreadable, vanished: not one of the texts
            continue
        digest = hashlib.sha256(data).hexdigest()
        if digest in wanted and wanted[digest] not in found:
            found[wanted[digest]] = data.decode("utf-8")
    return found


# -- the check ----------------------------------------------------------------------

def check(spec: Spec, texts: dict | None = None, map_text: str | None = None) -> list[str]:
    """Every problem with the map; empty when it holds."""
    problems: list[str] = []
    add = problems.append
    rules = spec.rule_by_id
    source_ids = {}
    for s in spec.sources:
        if s.get("id") in source_ids:
            add(f"source {s.get('id')}: listed twice")
        source_ids[s.get("id")] = s
        if not HEX64.match(str(s.get("sha256", ""))):
            add(f"source {s.get('id')}: sha256 must be 64 lowercase hex digits")
        if s.get("system") not in RULESETS:
            add(f"source {s.get('id')}: system must be one of {', '.join(RULESETS)}")
        if not isinstance(s.get("sentences"), int):
            add(f"source {s.get('id')}: 'sentences' must give the number of entries")

    # sentences
    by_source: dict = {}
    seen_ids = set()
    linked: dict = {}
    for e in spec.sentences:
        sid = e.get("id")
        where = f"sentence {sid}"
        if sid in seen_ids:
            add(f"{where}: id used twice")
        seen_ids.add(sid)
        m = ID_RE.match(str(sid))
        if not m or m["source"] != e.get("source"):
            add(f"{where}: id must be <source>.<NNN> of its own source")
        if e.get("source") not in source_ids:
            add(f"{where}: unknown source {e.get('source')!r}")
            continue
        start, end = e.get("start"), e.get("end")
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end):
            add(f"{where}: span must be two integers, 0 <= start < end")
            continue
        if not HEX64.match(str(e.get("sha256", ""))):
            add(f"{where}: sha256 must be 64 lowercase hex digits")
        if e.get("kind") not in KINDS:
            add(f"{where}: kind must be one of {', '.join(sorted(KINDS))}")
        if not str(e.get("paraphrase") or "").strip():
            add(f"{where}: no paraphrase")
        ids = e.get("rules")
        if not isinstance(ids, list):
            add(f"{where}: 'rules' must be a list")
            ids = []
        if not ids and not str(e.get("reason") or "").strip():
            add(f"{where}: states no rule and gives no reason why")
        if ids and e.get("reason"):
            add(f"{where}: gives both rules and a reason")
        system = source_ids[e["source"]].get("system")
        for rid in ids:
            rule = rules.get(rid)
            if rule is None:
                add(f"{where}: unknown rule {rid}")
            elif rule.get("status") == "retired":
                add(f"{where}: links retired rule {rid}")
            elif rule.get("ruleset") != system:
                add(f"{where}: links {rid}, a rule of {rule.get('ruleset')}, not {system}")
            linked.setdefault(rid, []).append(sid)
        by_source.setdefault(e["source"], []).append(e)

    for src, entries in by_source.items():
        numbers = [int(ID_RE.match(e["id"])["n"]) for e in entries if ID_RE.match(str(e["id"]))]
        if numbers != list(range(1, len(numbers) + 1)):
            add(f"source {src}: sentence ids are not numbered 001.. without gaps")
        expected = source_ids[src].get("sentences")
        if isinstance(expected, int) and expected != len(entries):
            add(f"source {src}: {len(entries)} sentence entries, the source lists {expected}")
        last_end = 0
        for e in entries:
            if e["start"] < last_end:
                add(f"sentence {e['id']}: overlaps the entry before it")
            last_end = max(last_end, e["end"])
    for src in source_ids:
        if src not in by_source:
            add(f"source {src}: has no sentence entries")

    # rules against the machine, the tests and the vectors
    links = {rs: table_links(rs) for rs in RULESETS}
    cited = {}
    for group, e in spec.entries():
        for rid in e.get("rules") or ():
            cited.setdefault(rid, set()).add(group)
    seen_rules = set()
    for r in spec.rules:
        rid = r.get("id")
        where = f"rule {rid}"
        if rid in seen_rules:
            add(f"{where}: id used twice")
        seen_rules.add(rid)
        if r.get("ruleset") not in RULESETS:
            add(f"{where}: unknown ruleset {r.get('ruleset')!r}")
            continue
        if r.get("kind") not in RULE_KINDS:
            add(f"{where}: kind must be one of {', '.join(sorted(RULE_KINDS))}")
        if not str(r.get("statement") or "").strip():
            add(f"{where}: no statement")
        if r.get("status", "active") == "retired":
            continue
        t_have, g_have = links[r["ruleset"]].get(rid, (set(), set()))
        t_said, g_said = set(r.get("transitions") or ()), set(r.get("guards") or ())
        if t_said != t_have:
            add(f"{where}: transitions {sorted(t_said)} in spec, {sorted(t_have)} in the table")
        if g_said != g_have:
            add(f"{where}: guards {sorted(g_said)} in spec, {sorted(g_have)} in the table")
        if r.get("kind") != "example" and not (t_have or g_have):
            add(f"{where}: no transition or guard implements it")
        if not spec.tests.get(rid):
            add(f"{where}: no test carries its rule marker")
        if r.get("kind") == "example":
            if not (spec.vectors.get(rid) or spec.scenarios.get(rid)):
                add(f"{where}: the example is replayed by no vector or scenario")
        if not spec.vectors.get(rid):
            add(f"{where}: no conformance vector covers it")
        if r.get("kind") in ("rule", "example") and rid not in linked:
            add(f"{where}: no sentence states it")
        if r.get("kind") == "assumption" and "assumptions" not in cited.get(rid, ()):
            add(f"{where}: an assumption with no entry under assumptions")
        if r.get("kind") == "gm" and "gm" not in cited.get(rid, ()):
            add(f"{where}: left to the GM with no entry under gm")
    for rs, rl in links.items():
        for rid in rl:
            if rid not in rules:
                add(f"table ({rs}): rule {rid} is not in spec/rules.yaml")
    for rid in spec.tests:
        if rid not in rules:
            add(f"tests: marker names unknown rule {rid}")
    for rid in spec.vectors:
        if rid not in rules:
            add(f"vectors: unknown rule {rid}")

    # divergences, assumptions, GM decisions
    entry_ids = set()
    sentences = spec.sentence_by_id
    for group, e in spec.entries():
        eid = e.get("id")
        where = f"{group[:-1] if group != 'gm' else 'gm'} {eid}"
        if eid in entry_ids:
            add(f"{where}: id used twice")
        entry_ids.add(eid)
        if not e.get("sentences") and group != "gaps":
            add(f"{where}: cites no sentence")
        for sid in e.get("sentences") or ():
            if sid not in sentences:
                add(f"{where}: cites unknown sentence {sid}")
        for rid in e.get("rules") or ():
            if rid not in rules:
                add(f"{where}: cites unknown rule {rid}")
        if not str(e.get("ruling") or "").strip():
            add(f"{where}: no ruling")
        opt = e.get("option")
        if opt:
            rsets = {rules[rid]["ruleset"] for rid in e.get("rules") or () if rid in rules}
            if not any(RULESETS[rs].option(opt.get("name")) for rs in rsets):
                add(f"{where}: option {opt.get('name')!r} is not an option of {sorted(rsets)}")
        if group == "divergences":
            readings = e.get("readings") or {}
            wanted = {src for rid in e.get("rules") or () if rid in rules
                      for src in RULESETS[rules[rid]["ruleset"]].readings}
            if set(readings) != wanted:
                add(f"{where}: give the reading of each of {', '.join(sorted(wanted)) or 'no'} "
                    f"text")

    # fingerprints and tiling, given the texts
    if texts is not None:
        for src, s in source_ids.items():
            text = texts.get(src)
            if text is None:
                add(f"source {src}: no file with sha256 {s.get('sha256')} in the sources folder")
                continue
            pos = 0
            for e in by_source.get(src, []):
                piece = text[e["start"]:e["end"]]
                if hashlib.sha256(piece.encode("utf-8")).hexdigest() != e.get("sha256"):
                    add(f"sentence {e['id']}: fingerprint does not match the text")
                gap = text[pos:e["start"]]
                if gap.strip():
                    add(f"source {src}: characters {pos}..{e['start']} are covered by no entry")
                pos = max(pos, e["end"])
            if text[pos:].strip():
                add(f"source {src}: characters from {pos} to the end are covered by no entry")

    if map_text is not None:
        fresh = render_map(spec)
        if fresh != map_text:
            add("spec/MAP.md is stale: run `fsm spec map` to regenerate it")
    return problems


def coverage(spec: Spec) -> dict:
    out = {}
    for src in spec.sources:
        entries = [e for e in spec.sentences if e.get("source") == src["id"]]
        covered = [e for e in entries if e.get("rules") or str(e.get("reason") or "").strip()]
        out[src["id"]] = {"sentences": len(entries), "covered": len(covered)}
    return out


def sentence_json(spec: Spec, texts: dict | None = None) -> dict:
    def entry(e):
        out = {k: e.get(k) for k in ("id", "source", "start", "end", "sha256", "kind", "rules",
                                     "reason", "paraphrase")}
        if texts and e.get("source") in texts:
            out["original"] = texts[e["source"]][e["start"]:e["end"]]
        return out

    sentences = spec.sentence_by_id
    groups = {}
    for group, e in spec.entries():
        item = dict(e)
        item["cited"] = [entry(sentences[s]) for s in e.get("sentences") or () if s in sentences]
        groups.setdefault(group, []).append(item)
    return {
        "sources": spec.sources,
        "sentences": [entry(e) for e in spec.sentences],
        "divergences": groups.get("divergences", []),
        "assumptions": groups.get("assumptions", []),
        "gm": groups.get("gm", []),
        "gaps": groups.get("gaps", []),
        "coverage": coverage(spec),
    }


# -- the readable map -----------------------------------------------------------------

def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


def render_map(spec: Spec) -> str:
    """spec/MAP.md: the whole map as Markdown, generated (never edited by hand)."""
    lines = [
        "# The spec map",
        "",
        "Generated by `fsm spec map` from `spec/sentences.yaml`, `spec/rules.yaml`,",
        "`spec/divergences.yaml`, the transition table, the tests and the vectors.",
        "Do not edit by hand; a test checks that it is fresh.",
        "",
        "The texts' sentences are not reproduced: each is known by its span and",
        "fingerprint. `fsm spec show ID --sources DIR` prints the original beside the",
        "paraphrase from your own copy.",
        "",
        "## Coverage",
        "",
        "| source | language | system | sentences | covered |",
        "|---|---|---|---|---|",
    ]
    cov = coverage(spec)
    for s in spec.sources:
        c = cov[s["id"]]
        lines.append(f"| {s['id']} — {_cell(s.get('title', ''))} | {s.get('language')} | "
                     f"{s.get('system')} | {c['sentences']} | {c['covered']} |")
    lines += ["", "## Rules", ""]
    for r in spec.rules:
        rid = r["id"]
        stating = [e["id"] for e in spec.sentences if rid in (e.get("rules") or ())]
        lines += [f"### {rid}", "",
                  f"*{r.get('ruleset')} · {r.get('kind')}"
                  + (" · retired" if r.get("status") == "retired" else "") + "*", "",
                  _cell(r.get("statement", "")), ""]
        lines.append(f"- sentences: {', '.join(stating) or '—'}")
        lines.append(f"- transitions: {', '.join(f'`{t}`' for t in r.get('transitions') or ()) or '—'}")
        lines.append(f"- guards: {', '.join(f'`{g}`' for g in r.get('guards') or ()) or '—'}")
        tests = spec.tests.get(rid, [])
        lines.append(f"- tests ({len(tests)}): " + (", ".join(f"`{t}`" for t in tests) or "—"))
        vecs = sorted(set(spec.vectors.get(rid, [])))
        lines.append(f"- vectors ({len(vecs)}): " + (", ".join(f"`{v}`" for v in vecs) or "—"))
        scen = sorted(set(spec.scenarios.get(rid, [])))
        if scen:
            lines.append("- scenarios: " + ", ".join(f"`{v}`" for v in scen))
        lines.append("")
    titles = {"divergences": "Divergences between the Czech and French 4e texts",
              "assumptions": "Assumptions (the texts are silent)",
              "gm": "Left to the GM/DM", "gaps": "Known gaps"}
    groups: dict = {}
    for group, e in spec.entries():
        groups.setdefault(group, []).append(e)
    for group in ("divergences", "assumptions", "gm", "gaps"):
        lines += [f"## {titles[group]}", ""]
        if not groups.get(group):
            lines += ["None.", ""]
        for e in groups.get(group, []):
            lines += [f"### {e['id']}", ""]
            if e.get("status") == "retired":
                lines.append("- status: retired (kept so that its id stays stable)")
            lines.append(f"- sentences: {', '.join(e.get('sentences') or ()) or '—'}")
            lines.append(f"- rules: {', '.join(e.get('rules') or ()) or '—'}")
            for src, reading in (e.get("readings") or {}).items():
                lines.append(f"- {src}: {_cell(reading)}")
            if e.get("silent"):
                lines.append(f"- silent: {_cell(e['silent'])}")
            lines.append(f"- ruling: {_cell(e.get('ruling', ''))}")
            opt = e.get("option")
            if opt:
                lines.append(f"- option: `{opt.get('name')}` (default `{opt.get('default')}`, "
                             f"other: {opt.get('other')}): {_cell(opt.get('effect', ''))}")
            lines.append("")
    for src in spec.sources:
        lines += [f"## Sentences of {src['id']}", "",
                  "| id | span | kind | rules | paraphrase |", "|---|---|---|---|---|"]
        for e in spec.sentences:
            if e.get("source") != src["id"]:
                continue
            ids = ", ".join(e.get("rules") or ()) or f"— ({_cell(e.get('reason', ''))})"
            lines.append(f"| {e['id']} | {e['start']}–{e['end']} | {e.get('kind')} | {ids} | "
                         f"{_cell(e.get('paraphrase', ''))} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# -- show -------------------------------------------------------------------------------

def show(spec: Spec, item_id: str, texts: dict | None = None) -> list[str] | None:
    """The chain sentence -> paraphrase -> rule -> transitions -> tests -> vectors."""
    sentences = spec.sentence_by_id
    rules = spec.rule_by_id
    out: list[str] = []

    def original(e):
        if texts and e["source"] in texts:
            return texts[e["source"]][e["start"]:e["end"]]
        return None

    def rule_lines(rid, indent=""):
        r = rules.get(rid)
        if r is None:
            return [f"{indent}{rid}: unknown rule"]
        lines = [f"{indent}{rid} ({r.get('kind')}): {r.get('statement')}"]
        lines.append(f"{indent}  transitions: {', '.join(r.get('transitions') or ()) or '-'}")
        lines.append(f"{indent}  guards: {', '.join(r.get('guards') or ()) or '-'}")
        tests = spec.tests.get(rid, []) if spec.tests_known else None
        lines.append(f"{indent}  tests: " + ("(listed in a checkout of the project)"
                                             if tests is None else ", ".join(tests) or "-"))
        lines.append(f"{indent}  vectors: {', '.join(sorted(set(spec.vectors.get(rid, [])))) or '-'}")
        return lines

    if item_id in sentences:
        e = sentences[item_id]
        out.append(f"{item_id}  [{e['source']} {e['start']}:{e['end']}]  {e.get('kind')}")
        text = original(e)
        if text is not None:
            out.append(f"  original:   {text}")
        out.append(f"  paraphrase: {e.get('paraphrase')}")
        if not e.get("rules"):
            out.append(f"  states no rule: {e.get('reason')}")
        for rid in e.get("rules") or ():
            out.extend(rule_lines(rid, "  "))
        return out
    if item_id in rules:
        out.extend(rule_lines(item_id))
        for e in spec.sentences:
            if item_id in (e.get("rules") or ()):
                out.append(f"  stated by {e['id']}: {e.get('paraphrase')}")
                text = original(e)
                if text is not None:
                    out.append(f"    original: {text}")
        for group, entry in spec.entries():
            if item_id in (entry.get("rules") or ()):
                out.append(f"  {group}: {entry['id']}")
        return out
    for group, entry in spec.entries():
        if entry.get("id") == item_id:
            out.append(f"{item_id} ({group})")
            for src, reading in (entry.get("readings") or {}).items():
                out.append(f"  {src}: {reading}")
            if entry.get("silent"):
                out.append(f"  silent: {entry['silent']}")
            out.append(f"  ruling: {entry.get('ruling')}")
            opt = entry.get("option")
            if opt:
                out.append(f"  option: {opt.get('name')} (default {opt.get('default')}; "
                           f"other: {opt.get('other')})")
            for sid in entry.get("sentences") or ():
                e = sentences.get(sid)
                if e is None:
                    continue
                out.append(f"  {sid}: {e.get('paraphrase')}")
                text = original(e)
                if text is not None:
                    out.append(f"    original: {text}")
            for rid in entry.get("rules") or ():
                out.extend(rule_lines(rid, "  "))
            return out
    return None
