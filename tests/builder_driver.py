"""A player who knows the answer, rebuilding a gallery question in the live
checker's builder by clicking: the question typed, the ruleset clicked, the
combatants typed on one line ("orc vs ayla, bob") and added, their fields and
the options chosen, the grid clicked, then for each step of the gallery's file
the choice the builder offers that adds it (the longest, when one click adds
several), its details given in its form: quick buttons where one does, else
each field and "Add". Every click and every Enter is counted; typing is not.

The builder's buttons carry the steps they add (``data-steps``): a step is
compared with the gallery's once both are made canonical (no name, id,
comment or expectation; a trigger named by the number of the step that made
it; an answer's default trigger made explicit; a stack move's actor left
out), and among those that match, the one whose verdict is the gallery's.
"""

from __future__ import annotations

import json
import math

from fsm.rulesets import RULESETS
from fsm.scenario import replay

DROPPED = ("name", "id", "comment", "expect", "to", "provokes")
QUICK = ("attacks", "squares", "parts", "cost")        # counts with a button per value


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

    def click(self, element, why=""):
        element.click()
        self.clicks += 1
        self.log.append(why)
        self.b.execute_script("return 0")     # the click's work is done (it runs at once)

    def css(self, css):
        found = self.b.find_elements("css selector", css)
        assert found, f"nothing on the page matches {css}"
        return found[0]

    def select(self, css, value, why):
        from selenium.webdriver.support.ui import Select
        Select(self.css(css)).select_by_value(value)
        self.clicks += 1
        self.log.append(why)

    def error(self):
        return self.b.execute_script(
            "var e = document.getElementById('b-error'); return e.hidden ? '' : e.textContent")

    # -- the setup ---------------------------------------------------------------------

    def setup(self):
        doc = self.doc
        if doc.get("question"):
            self.css("#b-question").send_keys(doc["question"])
        self.click(self.css(f'#b-rulesets button[data-ruleset="{doc["ruleset"]}"]'), "ruleset")
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
        self.css("#b-who").send_keys(" vs ".join(", ".join(g) for g in groups))
        self.click(self.css("#b-add-who"), "combatants")
        if doc.get("options"):
            if not self.css("#b-options-box").get_attribute("open"):
                self.click(self.css("#b-options-box summary"), "options")
            for name, value in doc["options"].items():
                self.select(f'[data-option="{name}"]', json.dumps(value), f"option {name}")
        if all("at" in c for c in doc["combatants"]):
            self.click(self.css("#b-grid"), "grid")
            for cid in order:
                x, y = next(c["at"] for c in doc["combatants"] if c["id"] == cid)
                self.click(self.css(f'#b-place button[data-x="{x}"][data-y="{y}"]'), f"at {cid}")
        for c in doc["combatants"]:
            for name, value in c.items():
                if name in ("id", "side", "at"):
                    continue
                css = f'#b-combatants li[data-combatant="{c["id"]}"] [data-field="{name}"]'
                if value is True:
                    self.click(self.css(css), f"{c['id']} {name}")
                else:
                    self.select(css, str(value), f"{c['id']} {name}")
        assert not self.error(), self.error()

    # -- the steps -----------------------------------------------------------------------

    def canon(self, step, target, ids) -> dict:
        out = {k: v for k, v in step.items() if k not in DROPPED}
        kind = out.get("do")
        if kind in self.rs.stack_moves or kind == "end-turn":
            out.pop("actor", None)
        costly = kind in [s.kind for s in self.rs.steps if s.cost_field]
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

    def offered(self) -> list:
        """Every button that adds steps now: (element, its steps, edits,
        verdict, how it is reached)."""
        rows = self.b.execute_script("""
          return [...document.querySelectorAll('#b-choices button[data-steps]')].map(b => [b,
            b.dataset.steps, b.dataset.edits, b.dataset.verdict, b.className,
            Boolean(b.closest('details[data-group]')), b.disabled]);""")
        return [r for r in rows]

    def built_ids(self) -> dict:
        text = self.b.execute_script("return document.getElementById('source').value")
        steps = json.loads(text)["steps"]
        return {s.get("id") or f"s{i}": i for i, s in enumerate(steps, 1)}

    def step(self, i, upto) -> int:
        """Add gallery step i (and as many after it, before ``upto``, as one
        choice adds)."""
        ids = self.built_ids()
        best = None
        for element, steps, edits, verdict, cls, folded, disabled in self.offered():
            steps, edits = json.loads(steps), json.loads(edits)
            k = len(steps)
            if i + k > upto:
                continue
            mine = [self.canon(s, s.get("to"), ids) for s in steps]
            theirs = [self.gallery_canon(i + n) for n in range(k)]
            base = ("do", "to") if theirs[-1].get("do") == "event" else ("do", "actor", "to")
            if mine[:-1] != theirs[:-1] or any(mine[-1].get(f) != theirs[-1].get(f) for f in base):
                continue
            extra = {f: v for f, v in theirs[-1].items() if mine[-1].get(f) != v}
            if any(f not in theirs[-1] for f in mine[-1]):
                continue
            if (verdict != self.want[i + k - 1][0] and not extra) or any(
                    e["provokes"] not in (self.doc["steps"][e["index"] - 1].get("provokes") or ())
                    for e in edits):
                continue
            cost = 1 + (1 if folded else 0) + (self.form_cost(extra) if extra else 0)
            if best is None or (k, -cost) > (best[0], -best[1]):
                best = (k, cost, element, steps, extra, folded, disabled)
        assert best is not None, f"step {i + 1}: nothing offered adds {self.gallery_canon(i)}"
        k, _, element, steps, extra, folded, disabled = best
        if folded:
            self.click(element.find_element("xpath", "ancestor::details[1]/summary"), "not now")
        if disabled:
            li = element.find_element("xpath", "ancestor::li[1]")
            element = li.find_element("css selector", "button.anyway" if not extra
                                      else "button.more")
        elif extra and not element.get_attribute("data-form"):     # else it opens its form
            element = element.find_element("xpath", "following-sibling::button[1]")
        self.click(element, f"step {i + 1}: {steps[-1].get('do')}")
        if extra:
            self.fill(i + k - 1, extra)
        elif self.b.execute_script("return !document.getElementById('b-form').hidden"):
            self.click(self.css("#b-add"), "add")        # a form that opens by itself
        assert not self.error(), (i, self.error())
        return k

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
        what is typed first, then one quick button when one does the rest."""
        for name, value in list(extra.items()):
            box = self.b.find_elements("css selector", f"#b-form input[type=text]#b-field-{name}")
            if box and isinstance(value, (str, list)):
                box[0].send_keys(value if isinstance(value, str) else ", ".join(value))
                del extra[name]
        if not extra:
            self.click(self.css("#b-add"), "add")
            return
        quick = self.b.execute_script(
            "return [...document.querySelectorAll('#b-form [data-quick]')]"
            ".map(b => [b, b.dataset.quick])")
        for element, value in quick:
            if json.loads(value) == extra:
                self.click(element, "quick")
                return
        step = self.doc["steps"][i]
        for name, value in extra.items():
            if name in ("path", "shift"):
                continue
            css = f"#b-field-{name}"
            if name == "targets":
                for t in value:
                    self.click(self.css(f'#b-form [data-target="{t}"]'), "target")
            elif value is True:
                self.click(self.css(css), name)
            elif isinstance(value, str) and self.css(css).tag_name == "input":
                self.css(css).send_keys(value)
            elif isinstance(value, list) and self.css(css).tag_name == "input":
                self.css(css).send_keys(", ".join(value))
            else:
                self.select(css, json.dumps(value), name)
        if "path" in extra:
            before = replay({**self.doc, "steps": self.doc["steps"][:i]}, "g").encounter
            mover = step.get("actor")
            start = list(before.fighters[mover].at) if mover else None
            jump = step.get("forced") == self.rs.scene.jump
            for x, y in path_clicks(start, step["path"], jump):
                self.click(self.css(f'#b-form .path-grid button[data-x="{x}"][data-y="{y}"]'),
                           "square")
        self.click(self.css("#b-add-shift" if extra.get("shift") else "#b-add"), "add")

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
