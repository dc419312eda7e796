"""How a replay reads: plain text for a terminal, Markdown to paste in a
forum thread or an issue, JSON for programs. Rules are cited with the
project's paraphrase; with the user's copy of the texts, with the original
sentences too.
"""

from __future__ import annotations

from dataclasses import dataclass

from .engine.rows import PHASE_NOTES
from .engine.setup import ANYONE
from .io.terminal import safe


class Citations:
    """Rule statements, and the sentences stating each rule when the texts are at hand.

    The statements are read from spec/statements.json (generated from
    spec/rules.yaml) when a verdict first cites a rule: a timeline whose
    every step is allowed cites none, and its check reads nothing."""

    def __init__(self, root: Path | None = None, sources: str | None = None):
        self._root = root                 # found when first needed (fsm.paths)
        self._statements: dict | None = None
        self.sentences: dict = {}      # rule id -> [(sentence id, original)]
        if sources:
            self._load_sentences(sources)

    @property
    def root(self) -> Path:
        """The folder holding the spec/ cited."""
        from pathlib import Path

        from .paths import root_folder
        return Path(self._root or root_folder())

    @property
    def statements(self) -> dict:
        """Rule id -> the project's statement of the rule, on one line."""
        if self._statements is None:
            self._statements = self._load_statements()
        return self._statements

    def _load_statements(self) -> dict:
        from .io import statements
        from .paths import root_folder
        found = statements.read(self._root or root_folder())
        if found is not None:
            return found
        return self._statements_from_yaml()   # a spec folder without statements.json

    def _statements_from_yaml(self) -> dict:
        import yaml

        from .io.yamlsafe import project_yaml
        from .io.statements import from_rules
        path = self.root / "spec" / "rules.yaml"
        if not path.exists():
            return {}
        try:
            doc = project_yaml(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError:
            return {}
        return from_rules(doc.get("rules") if isinstance(doc, dict) else None)

    def _load_sentences(self, folder):
        from . import spec as S
        try:
            spec = S.load(self.root, with_tests=False)
        except S.SpecError:
            return
        texts = S.find_sources(spec, folder)
        for e in spec.sentences:
            text = texts.get(e["source"])
            if text is None:
                continue
            for rid in e.get("rules") or ():
                self.sentences.setdefault(rid, []).append(
                    (e["id"], " ".join(text[e["start"]:e["end"]].split())))

    def statement(self, rule_id: str) -> str:
        return self.statements.get(rule_id, "")


NAME_WIDTH = 40        # a step's free-text name is cut to this many characters
PATH_SHOWN = 6         # squares of a path shown before the rest is elided


def describe(data: dict) -> str:
    """'ayla reaction “riposte” to twin' for a step, safe to print."""
    if not isinstance(data, dict):
        return "?"
    who = data.get("actor")
    what = describe_action(data)
    return f"{safe(who)} {what}" if who else what


def describe_action(data: dict, width: int | None = NAME_WIDTH) -> str:
    """'reaction “riposte” to twin': what a step does, without who does it;
    its name cut to ``width`` characters (None: whole)."""
    text = safe(data.get("do", "?"))
    if data.get("name"):
        name = safe(data["name"])
        if width is not None and len(name) > width:
            name = name[:width - 1] + "\u2026"
        text += f" \u201c{name}\u201d"
    if data.get("to"):
        text += f" to {safe(data['to'])}"
    if data.get("on"):
        text += f" on {safe(data['on'])}"
    return text + _scene_words(data)


def _scene_words(data: dict) -> str:
    """' (ranged attack at bo)', ' shifting (1,0) (2,0)': the scene fields of a step."""
    text = attack = ""
    if isinstance(data.get("attack"), str):
        targets = data.get("targets")
        at = f" at {', '.join(map(safe, targets))}" if isinstance(targets, list) and \
            all(isinstance(t, str) for t in targets) else ""
        attack = f" ({safe(data['attack'])} attack{at})"
    path = data.get("path")
    if isinstance(path, list) and path:
        squares = [f"({p[0]},{p[1]})" for p in path[:PATH_SHOWN]
                   if isinstance(p, list) and len(p) == 2]
        more = " \u2026" if len(path) > PATH_SHOWN else ""
        text += f" {'shifting' if data.get('shift') is True else 'moving'} " \
                f"{' '.join(squares)}{more}"
        if attack and data.get("attack_after") is True:     # the attack comes after the path
            return text + " then" + attack
    return attack + text


class Style:
    """Colour for terminals only."""

    def __init__(self, enabled: bool):
        self.enabled = enabled

    def paint(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.enabled else text

    def verdict(self, verdict: str) -> str:
        code = {"allowed": "32", "rejected": "31", "gm": "33"}.get(verdict, "0")
        return self.paint(verdict, code)


def options_in_force(rep) -> tuple[list, list]:
    """The premises of the verdicts: ([(option, value, meaning)] the file sets,
    [(option, value)] it leaves at their defaults)."""
    given = rep.doc.get("options") or {}
    rs = rep.encounter.ruleset
    set_here = [(o.name, given[o.name], o.doc) for o in rs.options if o.name in given]
    defaults = [(o.name, o.default) for o in rs.options if o.name not in given]
    return set_here, defaults


def _shown(value) -> str:
    return "no limit" if value is None else str(value)


def options_line(rep) -> str:
    """The options a replay's verdicts rest on, in words: those the scenario
    sets (with what each means), then the defaults."""
    set_here, defaults = options_in_force(rep)
    parts = [f"{name} {_shown(value)} (set: {doc})" for name, value, doc in set_here]
    if defaults:
        parts.append("defaults " + ", ".join(f"{n} {_shown(v)}" for n, v in defaults))
    return "; ".join(parts)


def because(verdict) -> str:
    """The reason of an allowed verdict: what each limit saw as it let the
    step through, or that none applies ('' when the encounter did not explain)."""
    if verdict.because is None:
        return ""
    return "; ".join(verdict.because) or "no limit of this ruleset applies to it here"


def why(verdict) -> str:
    """A verdict in words for people: what refused it, or why it was allowed."""
    return verdict.says or (f"because {because(verdict)}" if because(verdict) else "")


def _cited(verdict):
    return [] if verdict.verdict == "allowed" else list(verdict.rules)


# -- text ----------------------------------------------------------------------------------

def text(rep, cites: Citations, style: Style, explain: bool = False) -> str:
    doc = rep.doc
    named = f": {safe(doc['id'])}" if doc.get("id") else ""
    out = [f"{safe(rep.path)}{named} ({doc['ruleset']})"]
    if doc.get("question"):
        out.append(f"  Q: {safe(doc['question'])}")
    elif doc.get("description"):
        out.append(f"  {safe(doc['description'])}")
    if rep.encounter.ruleset.options:
        out.append(f"  options: {safe(options_line(rep))}")
    for r in rep.results:
        v = r.verdict
        step = describe(r.data)
        if len(step) > 46:       # a long step gets its own line; the verdict goes beneath
            out.append(f"  {r.index:>3}  {step}")
            step = ""
        line = f"  {r.index:>3}  {step:<46} {style.verdict(v.verdict)}" if step else \
            f"  {'':>3}  {'':<46} {style.verdict(v.verdict)}"
        if v.reason:
            line += f"  {v.reason}"
        out.append(line)
        if v.verdict == "allowed":
            if because(v):
                out.append(f"       because {safe(because(v))}")
            bearing = v.rules if v.bears is None else v.bears
            if explain and bearing:
                out.append(style.paint(f"       under {', '.join(bearing)}", "2"))
        for rid in _cited(v):
            out.append(f"       {rid}: {cites.statement(rid)}".rstrip(": "))
            for sid, original in cites.sentences.get(rid, ())[:2]:
                out.append(style.paint(f"         {sid}: {original}", "2"))
        if explain and v.says:
            out.append(f"       why: {safe(v.says)}")
        for note in v.notes:
            out.append(f"       note: {safe(note)}")
        for failure in r.failures:
            out.append(f"       {style.paint('FAIL', '31;1')} {safe(failure)}")
    if doc.get("answer"):
        out.append(f"  A: {safe(doc['answer'])}")
    if rep.ok:
        out.append(f"  ok: {len(rep.results)} steps, every expectation holds")
    else:
        out.append(f"  {len(rep.failures)} expectation(s) failed")
    return "\n".join(out) + "\n"


# -- markdown ------------------------------------------------------------------------------

def _md(text) -> str:
    return safe(str(text).replace("\n", " ")).replace("|", "\\|")


def _bb(text) -> str:
    return safe(str(text).replace("\n", " "))


@dataclass(frozen=True, eq=False, repr=False)
class Markup:
    """How a forum post is written: Markdown, or BBCode (the ``[TABLE]``
    dialect of XenForo and vBulletin forums)."""

    text: object                    # plain text, escaped
    bold: object
    heading: object
    table: object                   # (head, rows) -> lines
    item: object                    # (text, depth) -> a line of a list
    around_list: tuple = (None, None)  # the lines a list opens and closes with (None: none)


def _md_table(head, rows) -> list:
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + \
        ["| " + " | ".join(row) + " |" for row in rows]


def _bb_table(head, rows) -> list:
    def tr(cells, tag):
        return "[TR]" + "".join(f"[{tag}]{c}[/{tag}]" for c in cells) + "[/TR]"
    return ["[TABLE]", tr(head, "TH"), *(tr(row, "TD") for row in rows), "[/TABLE]"]


MARKDOWN = Markup(_md, lambda t: f"**{t}**", lambda t: f"### {t}", _md_table,
                  lambda t, depth: "  " * depth + f"- {t}")
BBCODE = Markup(_bb, lambda t: f"[B]{t}[/B]", lambda t: f"[SIZE=5][B]{t}[/B][/SIZE]", _bb_table,
                lambda t, depth: f"[*]{'— ' * depth}{t}", ("[LIST]", "[/LIST]"))


def markdown(rep, cites: Citations, explain: bool = False) -> str:
    """The report as Markdown, for a forum post or an issue."""
    return forum_post(rep, cites, explain, MARKDOWN)


def bbcode(rep, cites: Citations, explain: bool = False) -> str:
    """The report as BBCode, for a forum that takes it."""
    return forum_post(rep, cites, explain, BBCODE)


def forum_post(rep, cites: Citations, explain: bool, m: Markup) -> str:
    doc = rep.doc
    out = [m.heading(f"{m.text(doc.get('id') or rep.path)} ({doc['ruleset']})"), ""]
    if doc.get("question"):
        out += [f"{m.bold('Question.')} {m.text(doc['question'])}", ""]
    if doc.get("answer"):
        out += [f"{m.bold('Answer.')} {m.text(doc['answer'])}", ""]
    elif doc.get("description"):
        out += [m.text(doc["description"]), ""]
    if rep.encounter.ruleset.options:
        out += [f"{m.bold('Options.')} {m.text(options_line(rep))}", ""]
    rows, cited = [], []
    for r in rep.results:
        v = r.verdict
        rules = ", ".join(v.rules) if v.verdict != "allowed" or explain else ""
        reason = v.reason or (m.text("because " + because(v)) if because(v) else "")
        rows.append([str(r.index), m.text(describe(r.data)), m.bold(v.verdict), reason, rules])
        for rid in _cited(v):
            if rid not in cited:
                cited.append(rid)
    out += m.table(["#", "step", "verdict", "reason", "rules"], rows) + [""]
    notes = [(r.index, n) for r in rep.results for n in r.verdict.notes]
    if explain:
        notes += [(r.index, f"why: {r.verdict.says}") for r in rep.results
                  if r.verdict.says]
    if notes:
        out += [m.around_list[0], *(m.item(f"step {index}: {m.text(note)}", 0)
                                    for index, note in notes), m.around_list[1], ""]
    if cited:
        out += ["Rules cited:", "", m.around_list[0]]
        for rid in cited:
            out.append(m.item(f"{m.bold(rid)}: {m.text(cites.statement(rid))}", 0))
            for sid, original in cites.sentences.get(rid, ())[:2]:
                out.append(m.item(f"{sid}: \u201c{m.text(original)}\u201d", 1))
        out += [m.around_list[1], ""]
    fails = rep.failures
    if fails:
        out.append(f"{len(fails)} expectation(s) failed: " +
                   "; ".join(f"step {i}: {msg}" for i, msg in fails))
    elif any(isinstance(s, dict) and s.get("expect") for s in doc.get("steps") or ()):
        out.append("Every expectation holds.")      # said only of expectations set
    return "\n".join(line for line in out if line is not None) + "\n"


# -- json ---------------------------------------------------------------------------------

def as_json(rep, cites: Citations | None = None) -> dict:
    steps = []
    for r in rep.results:
        v = r.verdict
        entry = {**v.as_dict(), "do": r.data.get("do"), "actor": r.data.get("actor"),
                 "target": v.target_id, "failures": r.failures}
        if v.verdict == "allowed" and because(v):
            entry["because"] = list(v.because) or [because(v)]
        if v.guard:
            entry["guard"] = v.guard
            entry["explain"] = v.says
            entry["seen"] = v.seen
        if cites is not None and v.verdict != "allowed":
            entry["cited"] = [{"rule": rid, "statement": cites.statement(rid),
                               "sentences": [{"id": sid, "original": o}
                                             for sid, o in cites.sentences.get(rid, ())]}
                              for rid in v.rules]
        steps.append(entry)
    set_here, defaults = options_in_force(rep)
    return {"file": rep.path, "id": rep.doc.get("id"), "ruleset": rep.doc["ruleset"],
            "options": {"set": {n: v for n, v, _ in set_here}, "defaults": dict(defaults)},
            "ok": rep.ok, "steps": steps}


# -- what is possible now ---------------------------------------------------------------

def possible_text(enc, after: int, style: Style) -> str:
    out = [f"after step {after}: round {enc.round}, {safe(enc.active)}'s turn: "
           f"{PHASE_NOTES[enc.state]}"]
    for who, row in enc.possible().items():
        if not row:
            continue
        allowed = [k for k, v in row.items() if v.verdict == "allowed"]
        gm = [k for k, v in row.items() if v.verdict == "gm"]
        rejected = [f"{k} ({v.reason})" for k, v in row.items() if v.verdict == "rejected"]
        label = "anyone" if who == ANYONE else safe(who)
        out.append(f"  {label}:")
        if allowed:
            out.append(f"    {style.verdict('allowed')}: {', '.join(allowed)}")
        if gm:
            out.append(f"    {style.verdict('gm')}: {', '.join(gm)}")
        if rejected:
            out.append(f"    {style.verdict('rejected')}: {', '.join(rejected)}")
    return "\n".join(out) + "\n"


def possible_json(enc, after: int) -> dict:
    return {
        "after_step": after, "round": enc.round, "active": enc.active, "state": enc.state,
        "possible": {who: {k: {"verdict": v.verdict, "reason": v.reason,
                                "rules": list(v.rules)} for k, v in row.items()}
                     for who, row in enc.possible().items()},
    }


def possible_markdown(enc, after: int, m: Markup = MARKDOWN) -> str:
    """What each combatant may do after step ``after``, as a table for a post."""
    rows = [["anyone" if who == ANYONE else m.text(who), k, v.verdict, v.reason or ""]
            for who, row in enc.possible().items() for k, v in row.items()]
    out = [f"{m.bold(f'After step {after}')} (round {enc.round}, {m.text(enc.active)}'s turn: "
           f"{PHASE_NOTES[enc.state]})", "", *m.table(["who", "step", "verdict", "reason"], rows)]
    return "\n".join(out) + "\n"
