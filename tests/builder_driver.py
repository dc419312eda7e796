"""A player who knows the answer, rebuilding a gallery question in the live
checker's builder by clicking: the question typed, the ruleset clicked, the
combatants typed on one line ("orc vs ayla, bob") and added, their fields and
the options chosen, the grid clicked, then for each step of the gallery's file
the choice the builder offers that adds it (the one that saves the most
clicks, when one click adds several), its details given in its form: quick buttons where one does, else
each field and "Add"; a walk in a straight line by a click on the grid, an
attack by a click on its target there. Every
click and every choice in a list is counted; typing is not.

The builder's buttons carry the steps they add (``data-steps``): a step is
compared with the gallery's once both are made canonical (no name, id,
comment or expectation; a trigger named by the number of the step that made
it; an answer's default trigger made explicit; a stack move's actor left
out), and among those that match, the one whose verdict is the gallery's.

Each click is one call into the page, which clicks the element only if a
player could (shown and enabled) and answers with the builder's error line
and how many checks the page has made.
"""

from __future__ import annotations

import inspect
import json
import math

from fsm.rulesets import RULESETS
from fsm.scenario import replay

DROPPED = ("name", "id", "comment", "expect", "to", "provokes")
QUICK = ("attacks", "squares", "parts", "cost")        # counts with a button per value

# Click what ``css`` finds (or the index-th button of the choices, or the
# button beside it: "anyway", "more"), only if shown and enabled.
_CLICK = """
const [css, index, via] = arguments;
let e = index === null ? document.querySelector(css)
  : document.querySelectorAll(via === 'quick' ? '#b-form [data-quick]'
                                               : '#b-choices button[data-steps]')[index];
if (e && via === 'anyway') { e = e.closest('li').querySelector('button.anyway'); }
if (e && via === 'more') {
  e = e.closest('li') ? e.closest('li').querySelector('button.more') : e.nextElementSibling;
}
if (e && via === 'summary') { e = e.closest('details').querySelector('summary'); }
if (!e) { return 'nothing on the page matches ' + (css || index + ' ' + via); }
if (e.disabled || !e.checkVisibility()) { return 'a player cannot click ' + e.outerHTML.slice(0, 80); }
e.click();
const b = document.getElementById('b-error');
return b.hidden ? '' : b.textContent;"""

_SELECT = """
const [css, value] = arguments;
const e = document.querySelector(css);
if (!e || e.disabled || !e.checkVisibility()) { return 'a player cannot choose in ' + css; }
e.value = value;
e.dispatchEvent(new Event('change'));
const b = document.getElementById('b-error');
return b.hidden ? '' : b.textContent;"""

_TYPE = """
const [css, value] = arguments;
const e = document.querySelector(css);
e.value = value;
e.dispatchEvent(new Event('change'));"""

# Every button that adds steps now, and the scenario's text.
_OFFERED = """
return [[...document.querySelectorAll('#b-choices button[data-steps]')].map((b, i) => [i,
  b.dataset.steps, b.dataset.edits, b.dataset.verdict, Boolean(b.closest('details[data-group]')),
  b.disabled, b.dataset.form === '1', Boolean(b.closest('details:not([open])'))]),
  document.getElementById('source').value];"""


def line(a, b) -> list:
    """The squares of a straight walk from a to b (builder-grid.js, B.line)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = max(abs(dx), abs(dy))
    return [[a[0] + math.ceil(dx * i / n - 0.5), a[1] + math.ceil(dy * i / n - 0.5)]
            for i in range(1, n + 1)]


def path_clicks(start, path, jump=False) -> list:
    """The squares to click for ``path`` from ``start``: each click walks a
    straight line from the path's end."""
    if jump:
        return [path[-1]]
    out, here, i = [], start, 0
    while i < len(path):
        j = max(k for k in range(i, len(path)) if line(here, path[k]) == path[i:k + 1]) \
            if line(here, path[i]) == [path[i]] else i
        out.append(path[j])
        here, i = path[j], j + 1
    return out


class Player:
    """Clicks a gallery scenario together (module docstring)."""

    def __init__(self, browser, doc):
        self.b, self.doc = browser, doc
        self.rs = RULESETS[doc["ruleset"]]
        self.clicks = 0
        self.log = []
        steps = doc["steps"]
        self.ids = {s.get("id") or f"s{i}": i for i, s in enumerate(steps, 1)}
        self.rep = replay(doc, "gallery")
        self.want = [(r.verdict.verdict, r.verdict.reason) for r in self.rep.results]

    # -- clicking --------------------------------------------------------------------

    def click(self, css=None, why="", index=None, via=None):
        error = self.b.execute_script(_CLICK, css, index, via)
        self.clicks += 1
        self.log.append(why)
        assert not error, (why, error, self.log)

    def select(self, css, value, why):
        error = self.b.execute_script(_SELECT, css, value)
        self.clicks += 1
        self.log.append(why)
        assert not error, (why, error, self.log)

    def choose(self, css, key, value, why):
        """Choose in the list ``css`` the entry whose ``data-<key>`` is ``value``."""
        option = self.b.execute_script(
            "const o = [...document.querySelectorAll(arguments[0] + ' option')]"
            ".find((o) => o.dataset[arguments[1]] === arguments[2]); return o ? o.value : null",
            css, key, value)
        assert option is not None, (why, css, value, self.log)
        self.select(css, option, why)

    def type(self, css, text):
        self.b.execute_script(_TYPE, css, text)

    # -- the setup ---------------------------------------------------------------------

    def setup(self):
        doc = self.doc
        if doc.get("question"):
            self.type("#b-question", doc["question"])
        self.click(f'#b-rulesets button[data-ruleset="{doc["ruleset"]}"]', "ruleset")
        order = doc.get("initiative") or [c["id"] for c in doc["combatants"]]
        side = {c["id"]: c["side"] for c in doc["combatants"]}
        groups = [[order[0]]]
        for cid in order[1:]:
            if side[cid] == side[groups[-1][0]]:
                groups[-1].append(cid)
            else:
                groups.append([cid])
        assert len(groups) <= 2 or len({side[g[0]] for g in groups}) == len(groups), \
            "sides that alternate in the turn order take one line each"
        self.type("#b-who", " vs ".join(", ".join(g) for g in groups))
        self.click("#b-add-who", "combatants")
        if doc.get("options"):
            if not self.b.execute_script("return document.getElementById('b-options-box').open"):
                self.click("#b-options-box summary", "options")
            for name, value in doc["options"].items():
                self.select(f'[data-option="{name}"]', json.dumps(value), f"option {name}")
        if all("at" in c for c in doc["combatants"]):
            if not self.b.execute_script("return Boolean(document.getElementById('b-place-prompt'))"):
                self.click("#b-grid", "grid")
            for cid in order:
                x, y = next(c["at"] for c in doc["combatants"] if c["id"] == cid)
                self.click(f'#b-place button[data-x="{x}"][data-y="{y}"]', f"at {cid}")
        usual = {name: p.default for name, p in
                 inspect.signature(self.rs.fighter.__init__).parameters.items()}
        for c in doc["combatants"]:
            for name, value in c.items():
                if name in ("id", "side", "at") or usual.get(name) == value:
                    continue            # as usual: nothing to choose
                css = f'#b-combatants li[data-combatant="{c["id"]}"] [data-field="{name}"]'
                if value is True:
                    self.click(css, f"{c['id']} {name}")
                else:
                    self.select(css, str(value), f"{c['id']} {name}")

    # -- the steps -----------------------------------------------------------------------

    def canon(self, step, target, ids) -> dict:
        out = {k: v for k, v in step.items() if k not in DROPPED}
        kind = out.get("do")
        if kind in self.rs.stack_moves or kind == "end-turn":
            out.pop("actor", None)
        costly = kind in [s.kind for s in self.rs.step_specs if s.cost_field]
        for count in ("squares", "attacks", "parts"):
            if out.get(count) == 1 and not (count == "parts" and costly):
                out.pop(count)        # one: as if not given
        if kind in self.rs.answer_kinds:
            moment = str(target or "").split("@")[0]
            out["to"] = ids.get(target) if target in ids else moment
        return out

    def gallery_canon(self, i) -> dict:
        step, result = self.doc["steps"][i], self.rep.results[i]
        target = result.verdict.target_id or step.get("to")
        return self.canon(step, target, self.ids)

    def step(self, i, upto) -> int:
        """Add gallery step i (and as many after it, before ``upto``, as one
        choice adds)."""
        offered, text = self.b.execute_script(_OFFERED)
        built = json.loads(text)["steps"]
        ids = {s.get("id") or f"s{n}": n for n, s in enumerate(built, 1)}
        if self.walk(i, built) or self.strike(i):
            return 1
        best = None
        for index, steps, edits, verdict, folded, disabled, form, closed in offered:
            steps, edits = json.loads(steps), json.loads(edits)
            k = len(steps)
            if i + k > upto:
                continue
            mine = [self.canon(s, s.get("to"), ids) for s in steps]
            theirs = [self.gallery_canon(i + n) for n in range(k)]
            # an event's actor is chosen in its form, unless the choice names one
            base = ("do", "to") if theirs[-1].get("do") == "event" and "actor" not in mine[-1] \
                else ("do", "actor", "to")
            if mine[:-1] != theirs[:-1] or any(mine[-1].get(f) != theirs[-1].get(f) for f in base):
                continue
            extra = {f: v for f, v in theirs[-1].items() if mine[-1].get(f) != v}
            if any(f not in theirs[-1] for f in mine[-1]):
                continue
            if (verdict != self.want[i + k - 1][0] and not extra) or any(
                    e["provokes"] not in (self.doc["steps"][e["index"] - 1].get("provokes") or ())
                    for e in edits):
                continue
            cost = 1 + closed + (self.form_cost(extra) if extra else 0)
            if best is None or (cost - k, -k) < (best[1] - best[0], -best[0]):
                best = (k, cost, index, steps, extra, closed, disabled, form)
        assert best is not None, f"step {i + 1}: nothing offered adds {self.gallery_canon(i)}"
        k, _, index, steps, extra, closed, disabled, form = best
        why = f"step {i + 1}: {steps[-1].get('do')}"
        if closed:
            self.click(None, "not now", index, "summary")
        if disabled:
            self.click(None, why, index, "more" if extra else "anyway")
        elif extra and not form:           # else the button opens its form
            self.click(None, why, index, "more")
        else:
            self.click(None, why, index)
        if extra:
            self.fill(i + k - 1, extra)
        elif self.b.execute_script("return !document.getElementById('b-form').hidden"):
            self.click("#b-add", "add")        # a form that opens by itself
        return k

    def walk(self, i, built) -> bool:
        """Step i is a walk in a straight line by the one whose turn it is:
        one click on the builder's grid of where everyone stands, if it
        offers that."""
        step = self.doc["steps"][i]
        if not isinstance(step.get("path"), list) or step.get("do") not in (
                *(s.kind for s in self.rs.step_specs if s.moving), *self.rs.words.walks):
            return False
        extra = set(self.canon(step, None, {})) - {"actor", "do", "path"}
        before = replay({**self.doc, "steps": self.doc["steps"][:i]}, "g").encounter
        mover = step.get("actor")
        if extra or line(list(before.fighters[mover].at), step["path"][-1]) != step["path"] \
                or self.b.execute_script("var g = document.getElementById('b-scene-grid');"
                                         " return g ? g.dataset.walker : ''") != mover:
            return False
        x, y = step["path"][-1]
        self.click(f'#b-scene-grid button[data-x="{x}"][data-y="{y}"]', f"step {i + 1}: walk")
        return True

    def strike(self, i) -> bool:
        """Step i is the attack the grid of where everyone stands makes by a
        click on its target: one click on that combatant, if it does."""
        grid = self.b.execute_script("var g = document.getElementById('b-scene-grid');"
                                     " return g ? g.dataset.strikes : ''")
        step = self.canon(self.doc["steps"][i], None, {})
        for who, made in json.loads(grid or "{}").items():
            if self.canon(made, None, {}) == step:
                before = replay({**self.doc, "steps": self.doc["steps"][:i]}, "g").encounter
                x, y = before.fighters[who].at
                self.click(f'#b-scene-grid button[data-x="{x}"][data-y="{y}"]',
                           f"step {i + 1}: attack {who}")
                return True
        return False

    def form_cost(self, extra) -> int:
        extra = {k: v for k, v in extra.items() if not isinstance(v, (str, list))
                 or k in ("path", "targets", "attack", "forced")}
        if not extra:
            return 1
        if len(extra) == 1 and next(iter(extra)) in QUICK:
            return 1
        if set(extra) <= {"attack", "targets"} and len(extra.get("targets", [1])) == 1:
            return 1
        if len(extra) == 1 and extra.get(next(iter(extra))) is True:
            return 1
        return 1 + len(extra)

    def fill(self, i, extra):
        """The form of step i's choice, filled with what the choice lacks:
        what is typed first, then the fields no quick button gives, then the
        quick button that gives the most of the rest (it adds the step with
        what the form holds), else Add."""
        for name, value in list(extra.items()):
            box = self.b.execute_script(
                f"return Boolean(document.querySelector('#b-form input[type=text]#b-field-{name}'))")
            if box and isinstance(value, (str, list)):
                self.type(f"#b-field-{name}", value if isinstance(value, str) else ", ".join(value))
                del extra[name]
        if not extra:
            self.click("#b-add", "add")
            return
        quick = self.b.execute_script(
            "return [...document.querySelectorAll('#b-form [data-quick]')].map(b => b.dataset.quick)")
        quick = [(n, json.loads(v)) for n, v in enumerate(quick)]
        covering = [(len(q), n, q) for n, q in quick
                    if all(extra.get(k) == v for k, v in q.items()) and "by" not in extra]
        last = max(covering, key=lambda c: c[:1]) if covering else None
        rest = {k: v for k, v in extra.items() if last is None or k not in last[2]}
        step = self.doc["steps"][i]
        if "by" in rest:            # the readied action's trigger: who, then does what
            self.choose("#b-form [data-when-who]", "id", rest.pop("by"), "who")
            self.choose("#b-form [data-when-what]", "code", rest.pop("when"), "does what")
        for name, value in rest.items():
            if name == "path":
                continue
            css = f"#b-field-{name}"
            if name == "targets":
                for t in value:
                    self.click(f'#b-form [data-target="{t}"]', "target")
            elif value is True and not (name == "shift" and last is None):
                self.click(css, name)
            elif value is not True:
                self.select(css, json.dumps(value), name)
        if "path" in rest:
            before = replay({**self.doc, "steps": self.doc["steps"][:i]}, "g").encounter
            mover = step.get("actor")
            start = list(before.fighters[mover].at) if mover else None
            jump = step.get("forced") == self.rs.scene.jump
            for x, y in path_clicks(start, step["path"], jump):
                self.click(f'#b-form .path-grid button[data-x="{x}"][data-y="{y}"]', "square")
            if jump and last is None:
                return          # a teleport done to someone: its square's click added it
        if last is not None:          # a quick button adds the step with what the form holds
            self.click(None, "quick", last[1], "quick")
        else:
            self.click("#b-add-shift" if extra.get("shift") else "#b-add", "add")

    def play(self, upto=None) -> int:
        """Build the scenario (its first ``upto`` steps); the number of clicks
        it took. A click is judged before it returns: each one that adds
        steps has checked the scenario once more."""
        self.setup()
        i, upto = 0, len(self.doc["steps"]) if upto is None else upto
        checked = "return Number(document.body.dataset.checked || 0)"
        while i < upto:
            before = self.b.execute_script(checked)
            i += self.step(i, upto)
            assert self.b.execute_script(checked) > before, f"step {i}: not checked"
        return self.clicks
