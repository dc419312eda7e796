"""The check of the map: every sentence covered and fingerprinted, every rule
implemented by the table, tested and covered by a vector, every reference
resolving, the generated files fresh."""

from __future__ import annotations

import hashlib

from ..rulesets import RULESETS
from .model import HEX64, ID_RE, KINDS, RULE_KINDS, Spec, table_links
from .render import render_map

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
        if rid in spec.listed_links:
            add(f"{where}: lists transitions or guards; they come from the table, "
                f"leave them out")
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
