#!/usr/bin/env python3
"""A Pathfinder 2e engine written from the prose of spec/ alone: TIMING.md, FORMAT.md,
PRECEDENCE.md, PROTOCOL.md, rules.yaml and divergences.yaml, without the
reference's code and without the vectors. It shares no code with fsm.

It is kept to hold the written rules to their promise that they are enough
to build an engine: tests/test_prose_engines.py runs it on every vector and
fuzzes it against the reference. When the reference's behaviour changes, the
prose changes first and this engine follows the prose.

Speaks the JSON-lines protocol of spec/PROTOCOL.md on stdin/stdout; ruleset
pf2e only, no scene. Standard library only.
"""
import copy
import json
import re
import sys

ENGINE = "prose-pf2e 0.1"

OPTIONS = {
    "mode": ["encounter", "exploration"],
    "exploration_reactions": ["gm", "encounter", "unlimited"],
    "react_before_first_turn": ["gm", "allow", "forbid"],
    "similar_triggers": ["gm", "same", "distinct"],
}
FACTS = ["state", "round", "active", "initiative", "budgets",
         "resolved", "lost", "disrupted", "stack"]

UNTRIGGERED = {"action", "activity", "free"}
ANSWERS = {"reaction", "free-response"}
STACK_MOVES = {"resolve", "continue", "disrupt"}
KINDS = UNTRIGGERED | ANSWERS | STACK_MOVES | {"event", "end-turn"}

STEP_FIELDS = {"actor", "attack", "attacks", "comment", "cost", "do", "expect",
               "id", "name", "on", "parts", "path", "provokes", "ruling",
               "shift", "squares", "targets", "to", "triggers"}

NO_FRAME = STACK_MOVES | {"end-turn"}
FRAME_FIELDS = ("squares", "attacks", "parts", "provokes", "triggers", "path", "shift",
                "attack", "targets")

MOMENT_RE = re.compile(r"^turn-(start|end)@(\d+)$")

# Rule ids cited by an allowed step, per step kind (PRECEDENCE.md, pf2e).
ALLOWED_RULES = {
    "action": ["PF2-OWN-TURN", "PF2-SEQUENCE", "PF2-THREE-ACTIONS"],
    "activity": ["PF2-ACTIVITY", "PF2-OWN-TURN", "PF2-SEQUENCE", "PF2-THREE-ACTIONS"],
    "free": ["PF2-FREE-UNLIMITED", "PF2-UNTRIGGERED-FREE", "PF2-SEQUENCE"],
    "reaction": ["PF2-OPTIONAL", "PF2-PER-CREATURE", "PF2-OWN-TURN-REACTION",
                 "PF2-FREE-AND-REACTION", "PF2-TRIGGER", "PF2-STACK",
                 "PF2-FIRST-TURN", "PF2-REACTION-ONE", "PF2-EXPLORATION",
                 "PF2-EXTRA-REACTIONS", "PF2-SIMILAR-TRIGGERS"],
    "free-response": ["PF2-OPTIONAL", "PF2-PER-CREATURE", "PF2-FREE-UNLIMITED",
                      "PF2-FREE-AND-REACTION", "PF2-TURN-TRIGGERS", "PF2-TRIGGER",
                      "PF2-STACK", "PF2-FREE-ONE-PER-TRIGGER", "PF2-SIMILAR-TRIGGERS"],
    "disrupt": ["PF2-DISRUPT", "PF2-DISRUPT-ACTIVITY", "PF2-DISRUPT-GM", "PF2-STACK"],
    "end-turn": ["PF2-TURN-TRIGGERS", "PF2-SEQUENCE"],
    "resolve": ["PF2-STACK"],
    "continue": ["PF2-STACK"],
    "event": ["PF2-TRIGGER"],
}


class ReadError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code            # FORMAT.md, Errors and verdicts


class Refuse(Exception):
    def __init__(self, reason, rules):
        super().__init__(reason)
        self.reason = reason
        self.rules = rules


# --------------------------------------------------------------- frames ----

class Frame:
    def __init__(self, fid, kind, owner, parts=1, triggers=None, moment=False, is_move=False):
        self.id = fid
        self.kind = kind            # step kind, or "turn-start"/"turn-end"
        self.owner = owner          # None for events
        self.parts = parts
        self.cur = 0                # index of the part in play
        self.cur_resolved = moment  # is the current part resolved?
        self.moment = moment
        self.finished = moment
        self.disrupted = False
        self.triggers = triggers or [""]
        self.is_move = is_move      # `squares` or a `path`: one occurrence (ASM-PF2-MOVE-ONCE)

    def occurrence(self):
        """T-OCCURRENCE: the part in play, or the whole frame for a move."""
        return None if self.is_move else self.cur


# ---------------------------------------------------------------- state ----

class State:
    def __init__(self, vec):
        self.combatants = {}
        self.order = []
        for c in vec["combatants"]:
            self.combatants[c["id"]] = c
        self.initiative = list(vec.get("initiative") or [c["id"] for c in vec["combatants"]])
        self.budgets = {cid: {"actions": c.get("actions", 3), "reactions": c.get("reactions", 1)}
                        for cid, c in self.combatants.items()}
        self.round = 1
        self.turn = 1
        self.active_idx = 0
        self.stack = []            # list of Frame
        self.frames = {}           # every frame ever declared, by id
        self.resolved = []
        self.disrupted = []
        self.had_turn = set()
        self.uses = []             # (actor, kind, frame id, part, label)
        self.turn_ended = False
        self.active = self.initiative[0] if self.initiative else None
        self._start_turn_moment()

    def _start_turn_moment(self):
        if self.active is not None:
            self.had_turn.add(self.active)
            b = self.budgets[self.active]
            c = self.combatants[self.active]
            b["actions"] = c.get("actions", 3)
            b["reactions"] = c.get("reactions", 1)
        f = Frame("turn-start@%d" % self.turn, "turn-start", self.active, moment=True)
        self.frames[f.id] = f
        self.stack.append(f)
        self.turn_ended = False

    # -- reading the state
    def top(self):
        return self.stack[-1] if self.stack else None

    def phase(self):
        t = self.top()
        if t is None:
            return "turn_acting"
        if t.kind == "turn-start":
            return "turn_start"
        if t.kind == "turn-end":
            return "turn_end"
        if not t.finished and not t.cur_resolved:
            return "window_interrupt"
        return "window_reaction"

    def next_combatant(self):
        if not self.initiative:
            return None
        return self.initiative[(self.active_idx + 1) % len(self.initiative)]

    def facts(self):
        return {
            "state": self.phase(),
            "round": self.round,
            "active": self.active,
            "initiative": list(self.initiative),
            "budgets": copy.deepcopy(self.budgets),
            "resolved": list(self.resolved),
            "lost": [],
            "disrupted": list(self.disrupted),
            "stack": [f.id for f in self.stack if not f.moment],
        }


# -------------------------------------------------------------- engine ----

class Vector:
    def __init__(self, vec):
        self.vec = vec
        self.opts = {"mode": "encounter", "exploration_reactions": "gm",
                     "react_before_first_turn": "gm", "similar_triggers": "gm"}
        self.opts.update(vec.get("options") or {})
        self.st = State(vec)
        self.default_taken = set()

    # ------------------------------------------------------ reading a step
    def read(self, n, step):
        """The first error in T-ERRORS' order is reported: an unknown field,
        `do`, a frame's field on a step that makes no frame, `actor`, `id`,
        `to` on a step that answers nothing, `on`, the part counts,
        `provokes`, `triggers`, `attack`, `targets`, `shift`, `path`, `cost`,
        `ruling`, `name`, the free-text fields, last a `to` naming no frame."""
        st = self.st

        def err(code, msg):
            raise ReadError(code, msg)

        def check(key, ok, msg=None):
            if key in step and not ok(step[key]):
                err("bad-value", msg or "bad value for %r" % key)

        def is_int(v):
            return isinstance(v, int) and not isinstance(v, bool)

        def strings(v, nonempty):
            return isinstance(v, list) and all(isinstance(x, str) for x in v) and (v or not nonempty)

        if not isinstance(step, dict):
            err("not-an-object", "a step is not an object")
        for k in step:
            if k not in STEP_FIELDS:
                err("unknown-field", "unknown field %r" % k)
        if "do" not in step:
            err("missing-kind", "a step without 'do'")
        do = step["do"]
        if not isinstance(do, str) or do not in KINDS:
            err("unknown-kind", "unknown step kind %r for pf2e" % (do,))
        if do in NO_FRAME:
            for k in FRAME_FIELDS:
                if k in step:
                    err("field-of-another-kind", "%r on %s, which makes no frame" % (k, do))
        actor = step.get("actor")
        if "actor" in step:
            check("actor", lambda v: isinstance(v, str))
            if actor not in st.combatants:
                err("unknown-combatant", "unknown combatant %r" % actor)
        elif do in UNTRIGGERED or do in ANSWERS:
            err("missing-actor", "%s needs an actor" % do)
        if "id" in step:
            fid = step["id"]
            check("id", lambda v: isinstance(v, str) and v not in ("", "turn-start", "turn-end"))
            if fid in st.frames or MOMENT_RE.match(fid):
                err("id-taken", "id %r already used" % fid)
        else:
            fid = "s%d" % n
            k = 1
            while fid in st.frames:
                k += 1
                fid = "s%d#%d" % (n, k)
        for key in ("to", "on"):
            if key in step and do not in ANSWERS:
                err("field-of-another-kind", "%r on a step that answers nothing" % key)
            check(key, lambda v: isinstance(v, str))
        counts = [k for k in ("squares", "attacks", "parts") if k in step]
        for key in counts:
            check(key, lambda v: is_int(v) and 1 <= v <= 100)
        if len(counts) > 1:
            err("two-part-counts", "give at most one of squares, attacks, parts")
        if counts and "path" in step:
            path = step["path"]
            if counts != ["squares"] or not isinstance(path, list) or step["squares"] != len(path):
                err("two-part-counts", "beside a path, only squares equal to its length")
        check("provokes", lambda v: strings(v, False))
        for p in step.get("provokes", []):
            if p not in st.combatants:
                err("unknown-combatant", "unknown combatant %r in provokes" % p)
        check("triggers", lambda v: strings(v, True))
        check("attack", lambda v: v in ("melee", "ranged", "area", "close"))
        check("targets", lambda v: strings(v, True))
        for p in step.get("targets", []):
            if p not in st.combatants:
                err("unknown-combatant", "unknown combatant %r in targets" % p)
        check("shift", lambda v: isinstance(v, bool))
        if "shift" in step and "path" not in step:
            err("shift-without-path", "`shift` needs a `path`")
        check("path", lambda v: isinstance(v, list) and 1 <= len(v) <= 100 and all(
            isinstance(q, list) and len(q) == 2 and all(is_int(c) for c in q) for q in v))
        if "path" in step:
            # The scene feature is not implemented: a path needs a scene.
            err("path-without-scene", "`path` needs a scene")
        if "cost" in step:
            if do != "activity":
                err("field-of-another-kind", "'cost' belongs to an activity")
            check("cost", lambda v: is_int(v) and 1 <= v <= 3)
        elif do == "activity":
            err("missing-cost", "activity needs a cost")
        check("ruling", lambda v: v in ("allow", "deny"))
        check("name", lambda v: isinstance(v, str))
        check("comment", lambda v: isinstance(v, str))
        check("expect", lambda v: isinstance(v, dict))

        # trigger of an answer
        trig = None
        if do in ANSWERS:
            to = step.get("to")
            if to is None:
                trig = st.top()          # may be None: no-trigger
            elif to == "turn-start":
                trig = st.frames["turn-start@%d" % st.turn]
            elif to == "turn-end":
                trig = st.frames.get("turn-end@%d" % st.turn)  # None: no-trigger
            elif to in st.frames:
                trig = st.frames[to]
            else:
                err("unknown-trigger", "`to` names no frame ever declared: %r" % to)

        # end-turn's actor
        if do == "end-turn" and actor is None:
            actor = st.next_combatant() if st.turn_ended else st.active
        return do, actor, fid, trig

    # ---------------------------------------------------------- settling
    def settle(self, do, actor, trig):
        st = self.st
        while True:
            top = st.top()
            if top is None:
                return
            # T-CUT-IN never keeps a frame in Pathfinder.
            if top.kind == "turn-start":
                if (do in UNTRIGGERED or do == "end-turn") and actor == st.active:
                    st.stack.pop()
                    continue
            elif top.kind != "turn-end" and top.finished:
                leave = False
                if do in STACK_MOVES:
                    leave = True
                elif do in ANSWERS and trig is not top:
                    leave = True
                elif (do in UNTRIGGERED or do == "end-turn") and actor == top.owner:
                    leave = True
                elif (do in UNTRIGGERED or do == "end-turn") and actor == st.active:
                    leave = True
                elif st.turn_ended and do not in ANSWERS:
                    leave = True
                if leave:
                    st.stack.pop()
                    continue
            # T-NEXT-TURN
            if top.kind == "turn-end" and do not in ANSWERS:
                st.stack.pop()
                st.active_idx += 1
                if st.active_idx >= len(st.initiative):
                    st.active_idx = 0
                    st.round += 1
                st.active = st.initiative[st.active_idx]
                st.turn += 1
                st._start_turn_moment()
                continue
            return

    # ---------------------------------------------------------- checks
    def top_unresolved(self):
        t = self.st.top()
        if t is None or t.moment:
            return None
        return t

    def occurrence_uses(self, actor, kind, trig):
        return [u for u in self.st.uses
                if u[0] == actor and u[1] == kind and u[2] == trig.id and u[3] == trig.occurrence()]

    def judge(self, do, actor, step, trig):
        """Return (verdict, reason, rules, notes). Raises Refuse."""
        st = self.st
        ph = st.phase()
        gm = None  # (reason, rules) of the first check that leaves it to the GM

        def fail(reason, rules):
            raise Refuse(reason, rules)

        if do in ("action", "activity", "free"):
            own_rule = "PF2-UNTRIGGERED-FREE" if do == "free" else "PF2-OWN-TURN"
            if actor != st.active:
                fail("not-your-turn", [own_rule])
            if ph != "turn_acting":
                # anything on the stack is unresolved after settling
                fail("action-in-progress", ["PF2-SEQUENCE"])
            cost = 0 if do == "free" else (step["cost"] if do == "activity" else 1)
            if st.budgets[actor]["actions"] < cost:
                fail("no-actions-left", ["PF2-THREE-ACTIONS"])

        elif do == "end-turn":
            if actor != st.active:
                fail("not-your-turn", ["PF2-SEQUENCE"])
            if ph != "turn_acting":
                fail("action-in-progress", ["PF2-SEQUENCE"])

        elif do in ANSWERS:
            if trig is None:
                fail("no-trigger", ["PF2-TRIGGER"])
            if trig not in st.stack:
                fail("trigger-passed", ["PF2-STACK"])
            i = st.stack.index(trig)
            if any(not f.finished for f in st.stack[i + 1:]):
                fail("unresolved-above", ["PF2-STACK"])
            label = step.get("on", "")
            if do == "reaction":
                if self.opts["mode"] != "exploration" and actor not in st.had_turn:
                    pol = self.opts["react_before_first_turn"]
                    if pol == "forbid":
                        fail("before-first-turn", ["PF2-FIRST-TURN"])
                    if pol == "gm" and gm is None:
                        gm = ("gm-before-first-turn", ["PF2-FIRST-TURN"])
                if st.budgets[actor]["reactions"] < 1:
                    rr = ["PF2-REACTION-ONE", "PF2-EXPLORATION"]
                    if self.opts["mode"] == "exploration":
                        pol = self.opts["exploration_reactions"]
                        if pol == "encounter":
                            fail("reaction-used-this-round", rr)
                        if pol == "gm" and gm is None:
                            gm = ("gm-exploration", rr)
                    else:
                        fail("reaction-used-this-round", rr)
                uses = self.occurrence_uses(actor, "reaction", trig)
                if any(u[4] == label for u in uses):
                    fail("one-reaction-per-trigger", ["PF2-EXTRA-REACTIONS"])
            else:
                uses = self.occurrence_uses(actor, "free-response", trig)
                if any(u[4] == label for u in uses):
                    fail("one-free-action-per-trigger", ["PF2-FREE-ONE-PER-TRIGGER"])
            if uses:  # same occurrence, another label
                pol = self.opts["similar_triggers"]
                if pol == "same":
                    fail("similar-trigger-same", ["PF2-SIMILAR-TRIGGERS"])
                if pol == "gm" and gm is None:
                    gm = ("gm-similar-trigger", ["PF2-SIMILAR-TRIGGERS"])

        elif do in STACK_MOVES:
            f = self.top_unresolved()
            if f is None:
                fail("nothing-pending", ["PF2-STACK"])
            if "actor" in step and step["actor"] != f.owner:
                fail("not-on-top", ["PF2-STACK"])
            if do == "resolve" and f.cur_resolved:
                fail("between-parts", ["PF2-STACK"])
            if do == "continue" and not f.cur_resolved:
                fail("no-part-resolved", ["PF2-STACK"])
            if do == "disrupt" and f.kind == "event":
                fail("not-disruptable", ["PF2-DISRUPT"])

        elif do == "event":
            pass

        notes = []
        if do == "disrupt":
            f = self.top_unresolved()
            notes.append("gm: what the disruption of %s does beyond cancelling its effects "
                         "is the GM's call; its costs stay spent" % f.id)
            if f.kind == "activity":
                notes.append("the actions committed to activity %s are lost" % f.id)
        if gm:
            return "gm", gm[0], gm[1], notes
        return "allowed", None, list(ALLOWED_RULES[do]), notes

    # ---------------------------------------------------------- effects
    def apply(self, do, actor, fid, step, trig):
        st = self.st
        if do in UNTRIGGERED or do in ANSWERS or do == "event":
            if do == "activity":
                parts = step["cost"]
            else:
                parts = 1
            for k in ("squares", "attacks", "parts"):
                if k in step:
                    parts = step[k]
            if "path" in step:      # one part per square, an activity's cost included
                parts = len(step["path"])
            owner = actor   # an event with an actor is owned by it (T-EVENT)
            f = Frame(fid, do, owner, parts, step.get("triggers"),
                      is_move="squares" in step or "path" in step)
            st.frames[fid] = f
            st.stack.append(f)
            if do == "action":
                st.budgets[actor]["actions"] -= 1
            elif do == "activity":
                st.budgets[actor]["actions"] -= step["cost"]
            elif do == "reaction":
                st.budgets[actor]["reactions"] = max(0, st.budgets[actor]["reactions"] - 1)
            if do in ANSWERS:
                st.uses.append((actor, do, trig.id, trig.occurrence(), step.get("on", "")))
        elif do == "resolve":
            f = self.top_unresolved()
            f.cur_resolved = True
            if f.cur == f.parts - 1:
                f.finished = True
                st.resolved.append(f.id)
        elif do == "continue":
            f = self.top_unresolved()
            f.cur += 1
            f.cur_resolved = False
        elif do == "disrupt":
            f = self.top_unresolved()
            f.finished = True
            f.disrupted = True
            st.disrupted.append(f.id)
        elif do == "end-turn":
            f = Frame("turn-end@%d" % st.turn, "turn-end", st.active, moment=True)
            st.frames[f.id] = f
            st.stack.append(f)
            st.turn_ended = True

    # ---------------------------------------------------------- a step
    def step(self, n, step):
        try:
            do, actor, fid, trig = self.read(n, step)
        except ReadError as e:
            return {"verdict": "error", "error": e.code, "message": str(e)}
        saved = copy.deepcopy(self.st)
        # re-find the trigger in the copy kept as the live state
        self.settle(do, actor, trig)
        try:
            verdict, reason, rules, notes = self.judge(do, actor, step, trig)
        except Refuse as r:
            self.st = saved
            return {"verdict": "rejected", "reason": r.reason, "rules": r.rules,
                    "facts": self.st.facts()}
        if verdict == "gm" and step.get("ruling") == "deny":
            self.st = saved
        else:
            self.apply(do, actor, fid, step, trig)
        out = {"verdict": verdict, "reason": reason, "rules": rules, "facts": self.st.facts()}
        if notes:
            out["notes"] = notes
        return out


DOC_FIELDS = {"format", "id", "ruleset", "description", "question", "answer", "comment",
              "tags", "rules", "options", "combatants", "initiative", "steps"}


def validate_vector(vec):
    """FORMAT.md, Errors and verdicts: a document that cannot be read is
    refused whole, before any step. None when it can be read."""
    if not isinstance(vec, dict):
        return "vector is not an object"
    unknown = [k for k in vec if k not in DOC_FIELDS]
    if unknown:
        return "unknown top-level field %r" % unknown[0]
    fmt = vec.get("format")
    if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt != 1:
        return "format must be the integer 1"
    if vec.get("ruleset") != "pf2e":
        return "ruleset not supported"
    cs = vec.get("combatants")
    if not isinstance(cs, list) or not cs:
        return "combatants missing"
    ids = set()
    for c in cs:
        if not isinstance(c, dict) or not isinstance(c.get("id"), str) or not isinstance(c.get("side"), str):
            return "bad combatant"
        if c["id"] in ids:
            return "duplicate combatant"
        ids.add(c["id"])
        for k in c:
            if k not in ("id", "side", "name", "at", "reach", "actions", "reactions"):
                return "unknown combatant field %r" % k
        for k, lo, hi in (("actions", 0, 100), ("reactions", 0, 100), ("reach", 1, 20)):
            if k in c and (not isinstance(c[k], int) or isinstance(c[k], bool) or not lo <= c[k] <= hi):
                return "bad %s" % k
    at = [tuple(c["at"]) for c in cs if isinstance(c.get("at"), list)]
    if at and len(at) != len(cs):
        return "positions are all or none"
    if len(set(at)) != len(at):
        return "two combatants on one square"
    if not at and any("reach" in c for c in cs):
        return "reach without positions"
    ini = vec.get("initiative")
    if ini is not None:
        if not isinstance(ini, list) or not all(isinstance(i, str) for i in ini) \
                or sorted(ini) != sorted(ids):
            return "initiative must list every combatant exactly once"
    opts = vec.get("options") or {}
    if not isinstance(opts, dict):
        return "bad options"
    for k, v in opts.items():
        if k not in OPTIONS or v not in OPTIONS[k]:
            return "unsupported option %s=%r" % (k, v)
    if not isinstance(vec.get("steps"), list):
        return "steps missing"
    return None


def run_vector(vec):
    vid = vec.get("id", "") if isinstance(vec, dict) else ""
    steps = vec.get("steps") if isinstance(vec, dict) and isinstance(vec.get("steps"), list) else []
    err = validate_vector(vec)
    if err:
        return {"type": "result", "id": vid,
                "steps": [{"verdict": "error", "message": err} for _ in steps]}
    v = Vector(vec)
    out = []
    for n, s in enumerate(steps, 1):
        out.append(v.step(n, s))
    return {"type": "result", "id": vid, "steps": out}


def hello():
    return {"type": "hello", "format": 1, "protocol": 1, "engine": ENGINE,
            "rulesets": {"pf2e": {"options": OPTIONS}},
            "facts": FACTS}


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict):
            continue
        if msg.get("type") == "hello":
            reply = hello()
        elif msg.get("type") == "vector":
            try:
                reply = run_vector(msg.get("vector"))
            except Exception as e:  # never die mid-run
                vec = msg.get("vector") or {}
                reply = {"type": "result", "id": vec.get("id", "") if isinstance(vec, dict) else "",
                         "steps": [{"verdict": "error", "message": "internal: %s" % e}]}
        else:
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
