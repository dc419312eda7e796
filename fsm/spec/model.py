"""The spec as data: its files loaded into one :class:`Spec` (sentences,
rules, divergences, assumptions, the tests and vectors that cite each rule),
what the table says about each rule, and the user's copies of the texts
found by their SHA-256.

``spec/`` never holds the texts' sentences: each is known by its source (the
SHA-256 of the file's bytes), its character span and the SHA-256 of the
sentence. Given a folder with the user's copies (``--sources DIR``), the
fingerprints are verified and the originals can be printed beside our
paraphrases.
"""

from __future__ import annotations

import ast
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

from ..errors import SpecError
from ..io.yamlsafe import project_yaml
from ..rulesets import RULESETS

KINDS = {"rule", "definition", "example", "heading", "list-label", "flavour",
         "cross-reference", "metadata"}
RULE_KINDS = {"rule", "assumption", "example", "gm"}
ID_RE = re.compile(r"^(?P<source>[a-z0-9-]+)\.(?P<n>\d{3})$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")


from ..paths import default_root


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
    listed_links: list = field(default_factory=list)   # rules that list their implementation

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
    """Which tests carry which rule marker, read from the test files' syntax
    trees (no pytest run): ``{rule id: [test ids]}`` as pytest names them.

    A marker is ``@pytest.mark.rule(...)`` or a name bound to
    ``pytest.mark.rule`` at module level, on a ``test_*`` function or on a
    ``Test*`` class (then on each of its ``test_*`` methods). A test suite
    that marks tests any other way is not seen: :func:`collect_tests_with_pytest`
    asks pytest itself, and a test holds the two to the same answer.
    """
    folder = root / "tests"
    if not folder.is_dir():
        raise RuntimeError(f"no tests/ under {root}: checking the links from rules to "
                           f"tests needs a checkout of the project")
    rules: dict = {}
    for path in sorted(folder.rglob("test_*.py")):
        where = path.relative_to(root).as_posix()
        for test_id, ids in _marked_tests(path.read_text(encoding="utf-8"), where):
            for rule_id in ids:
                tests = rules.setdefault(rule_id, [])
                if test_id not in tests:
                    tests.append(test_id)
    return {k: sorted(v) for k, v in sorted(rules.items())}


def _is_mark_rule(node, aliases) -> bool:
    """``pytest.mark.rule`` itself, or a module-level alias of it."""
    if isinstance(node, ast.Name):
        return node.id in aliases
    return (isinstance(node, ast.Attribute) and node.attr == "rule"
            and isinstance(node.value, ast.Attribute) and node.value.attr == "mark"
            and isinstance(node.value.value, ast.Name) and node.value.value.id == "pytest")


def _rules_of(decorators, aliases) -> list:
    out = []
    for dec in decorators:
        if isinstance(dec, ast.Call) and _is_mark_rule(dec.func, aliases):
            out += [a.value for a in dec.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return out


def _marked_tests(text: str, where: str):
    tree = ast.parse(text)
    aliases = {t.id for node in tree.body if isinstance(node, ast.Assign)
               and _is_mark_rule(node.value, set())
               for t in node.targets if isinstance(t, ast.Name)}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.name.startswith("test"):
            ids = _rules_of(node.decorator_list, aliases)
            if ids:
                yield f"{where}::{node.name}", ids
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            common = _rules_of(node.decorator_list, aliases)
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                        and item.name.startswith("test"):
                    ids = common + _rules_of(item.decorator_list, aliases)
                    if ids:
                        yield f"{where}::{node.name}::{item.name}", ids


def collect_tests_with_pytest(root: Path) -> dict:
    """Ask pytest which tests carry which rule marker (a collect-only run):
    slower, and the reference :func:`collect_tests` is held to."""
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
    _implementation(spec)
    return spec


def _implementation(spec: Spec) -> None:
    """Give each rule the transitions and guards that carry its id in its
    ruleset's table, sorted: rules.yaml never lists them, the table is their
    one source. A rule that lists them anyway is noted for the check."""
    links = {name: table_links(name) for name in RULESETS}
    for r in spec.rules:
        if not isinstance(r, dict):
            continue
        if "transitions" in r or "guards" in r:
            spec.listed_links.append(r.get("id"))
        have = links.get(r.get("ruleset"), {}).get(r.get("id"), (set(), set()))
        r["transitions"], r["guards"] = sorted(have[0]), sorted(have[1])


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
                g.add(fn.name)
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


def coverage(spec: Spec) -> dict:
    out = {}
    for src in spec.sources:
        entries = [e for e in spec.sentences if e.get("source") == src["id"]]
        covered = [e for e in entries if e.get("rules") or str(e.get("reason") or "").strip()]
        out[src["id"]] = {"sentences": len(entries), "covered": len(covered)}
    return out
