#!/usr/bin/env python3
"""A Pathfinder 2e engine written from the prose of spec/ alone: TIMING.md, FORMAT.md,
PRECEDENCE.md, PROTOCOL.md, rules.yaml and divergences.yaml, without the
reference's code and without the vectors. It shares no code with fsm.

It is kept to hold the written rules to their promise that they are enough
to build an engine: tests/test_prose_engines.py runs it on every vector and
fuzzes it against the reference. When the reference's behaviour changes, the
prose changes first and this engine follows the prose.

Speaks the JSON-lines protocol of spec/PROTOCOL.md on stdin/stdout; ruleset
pf2e only, with the scene, from which Pathfinder derives only positions and
whether a Reactive Strike's target is within reach (ASM-PF2-SCENE).
Standard library only.
"""
import copy
import pickle
import json
import re
import sys

ENGINE = "prose-pf2e 0.1"

OPTIONS = {
    "mode": ["encounter", "exploration"],
    "exploration_reactions": ["gm", "encounter", "unlimited"],
    "react_before_first_turn": ["gm", "allow", "forbid"],
    "similar_triggers": ["gm", "same", "distinct"],
    "disrupted_activity": ["all", "begun"],     # GM-PF2-DISRUPTED-ACTIVITY
}
FACTS = ["state", "round", "active", "initiative", "budgets",
         "resolved", "lost", "disrupted", "stack", "positions"]

UNTRIGGERED = {"action", "activity", "free"}
ANSWERS = {"reaction", "free-response", "opportunity"}   # opportunity: Reactive Strike
STACK_MOVES = {"resolve", "continue", "disrupt"}
KINDS = UNTRIGGERED | ANSWERS | STACK_MOVES | {"event", "end-turn"}

STEP_FIELDS = {"actor", "attack", "attacks", "comment", "cost", "do", "expect", "forced",
               "id", "name", "on", "parts", "path", "provokes", "ruling",
               "shift", "squares", "targets", "to", "triggers",
               "critical", "manipulate", "move", "step"}

# FORMAT.md, The turn's own actions / Answers: the true/false fields and the
# kinds that take them (T-PF2-REACTIVE-STRIKE). Read in this order (T-ERRORS
# names no order for pf2e's; alphabetical, as it lists 4e's and 5e's).
TRAITED = ("action", "activity", "free", "reaction", "free-response", "opportunity")
BOOL_FIELDS = (("critical", ("opportunity",)), ("manipulate", TRAITED),
               ("move", TRAITED), ("step", ("action",)))

NO_FRAME = STACK_MOVES | {"end-turn"}
# T-ERRORS: a frame's fields, `forced` among them, are errors on a step that makes no frame.
FRAME_FIELDS = ("squares", "attacks", "parts", "provokes", "triggers", "path", "shift",
                "forced", "attack", "targets")
# T-ERRORS: these fields given as null are read as absent; any other null is bad-value.
NULL_IS_ABSENT = ("actor", "to", "name", "triggers")
ATTACKS = ("melee", "ranged", "area", "close")
FORCED = ("push", "pull", "slide", "teleport")

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
    "opportunity": ["PF2-OPTIONAL", "PF2-PER-CREATURE", "PF2-OWN-TURN-REACTION",
                    "PF2-FREE-AND-REACTION", "PF2-TRIGGER", "PF2-STACK",
                    "PF2-FIRST-TURN", "PF2-REACTION-ONE", "PF2-EXPLORATION",
                    "PF2-EXTRA-REACTIONS", "PF2-SIMILAR-TRIGGERS", "PF2-REACTIVE-STRIKE"],
    "disrupt": ["PF2-DISRUPT", "PF2-DISRUPT-ACTIVITY", "PF2-DISRUPT-GM", "PF2-STACK"],
    "end-turn": ["PF2-TURN-TRIGGERS", "PF2-SEQUENCE"],
    "resolve": ["PF2-STACK", "PF2-STRIKE-CRITICAL"],
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


def fail(reason, rules):
    raise Refuse(reason, rules)


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
        self.path = None            # the squares entered, one per part (the scene)
        self.step = {}              # the step that declared it: traits, provokes, attack
        self.answers = None         # the trigger a Reactive Strike answered

    def provokes_strike(self):
        """T-PF2-REACTIVE-STRIKE: a manipulate action, a move action that is
        no Step, or a ranged attack (the kind and the reach checked apart)."""
        s = self.step
        moves = s.get("move") is True or self.is_move
        return (s.get("manipulate") is True or (moves and s.get("step") is not True)
                or s.get("attack") == "ranged")

    def occurrence(self):
        """T-OCCURRENCE: the part in play, or the whole frame for a move."""
        return None if self.is_move else self.cur


# ---------------------------------------------------------------- state ----

class State:
    def __init__(self, vec):
        self.combatants = {}
        for c in vec["combatants"]:
            self.combatants[c["id"]] = c
        self.initiative = list(vec.get("initiative") or [c["id"] for c in vec["combatants"]])
        self.budgets = {cid: {"actions": c.get("actions", 3), "reactions": c.get("reactions", 1)}
                        for cid, c in self.combatants.items()}
        self.positions = None      # {combatant: (x, y)} when the encounter has a scene
        if all("at" in c for c in vec["combatants"]):
            self.positions = {c["id"]: tuple(c["at"]) for c in vec["combatants"]}
        self.round = 1
        self.turn = 1
        self.active_idx = 0
        self.stack = []            # list of Frame
        self.frames = {}           # every frame ever declared, by id
        self.resolved = []
        self.disrupted = []
        self.had_turn = set()
        self.uses = []             # (actor, kind, frame id, occurrence, label)
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

    def next_start_id(self):
        """The next turn's turn-start moment, which an answer may name once
        the turn has ended (T-NEXT-TURN)."""
        return "turn-start@%d" % (self.turn + 1)

    def next_turn(self):
        """T-NEXT-TURN: the turn-end moment leaves, the next combatant's turn starts."""
        self.stack.pop()
        self.active_idx += 1
        if self.active_idx >= len(self.initiative):
            self.active_idx = 0
            self.round += 1
        self.active = self.initiative[self.active_idx]
        self.turn += 1
        self._start_turn_moment()

    # -- reading the state
    def top(self):
        return self.stack[-1] if self.stack else None

    def top_unresolved(self):
        t = self.top()
        if t is None or t.moment:
            return None
        return t

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
        out = {
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
        if self.positions is not None:
            out["positions"] = {c: list(q) for c, q in self.positions.items()}
        return out


# -------------------------------------------------------------- reading ----
# T-ERRORS: the first error in this order is reported: an unknown field, `do`,
# a frame's field on a step that makes no frame, `actor`, `id`, `to` on a step
# that answers nothing, `on`, two part counts, a part count's value,
# `provokes`, `triggers`, `attack`, `targets`, `shift`, `forced`, `path`
# (read_path gives its own order), `cost`, `ruling`, `name`, the true/false
# fields (BOOL_FIELDS); last a `to` naming no frame.

def err(code, msg):
    raise ReadError(code, msg)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def strings(v, nonempty):
    return isinstance(v, list) and all(isinstance(x, str) for x in v) and (v or not nonempty)


def is_square(q):
    return isinstance(q, list) and len(q) == 2 and all(
        is_int(c) and -10000 <= c <= 10000 for c in q)


def check(step, key, ok):
    if key in step and not ok(step[key]):
        err("bad-value", "bad value for %r" % key)


def read_step(st, n, step):
    """Return (do, actor, frame id, trigger id, the step with its nulls read
    as absent). Raises ReadError."""
    if not isinstance(step, dict):
        err("not-an-object", "a step is not an object")
    for k in step:
        if k not in STEP_FIELDS:
            err("unknown-field", "unknown field %r" % k)
    step = {k: v for k, v in step.items() if not (v is None and k in NULL_IS_ABSENT)}
    do = read_kind(step)
    actor = read_actor(st, step, do)
    fid = read_id(st, step, n)
    read_answer_fields(step, do)
    read_counts(step)
    read_lists(st, step)
    read_shift_forced(step, do)
    read_path(st, step, actor)
    read_cost(step, do)
    check(step, "ruling", lambda v: v in ("allow", "deny"))
    check(step, "name", lambda v: isinstance(v, str))
    for key, kinds in BOOL_FIELDS:   # each: a kind that does not take it, then its value
        if key in step and do not in kinds:
            err("field-of-another-kind", "%r does not go on %s" % (key, do))
        check(step, key, lambda v: isinstance(v, bool))
    # T-ERRORS: `comment` is never read, whatever its value.
    tid = find_trigger(st, step) if do in ANSWERS else None
    if do == "end-turn" and actor is None:
        actor = st.next_combatant() if st.turn_ended else st.active
    return do, actor, fid, tid, step


def read_kind(step):
    if step.get("do") is None:      # T-ERRORS: missing or null
        err("missing-kind", "a step without 'do'")
    do = step["do"]
    if not isinstance(do, str) or do not in KINDS:
        err("unknown-kind", "unknown step kind %r for pf2e" % (do,))
    if do in NO_FRAME:
        for k in FRAME_FIELDS:
            if k in step:
                err("field-of-another-kind", "%r on %s, which makes no frame" % (k, do))
    return do


def read_actor(st, step, do):
    if "actor" not in step:
        if do in UNTRIGGERED or do in ANSWERS:
            err("missing-actor", "%s needs an actor" % do)
        return None
    check(step, "actor", lambda v: isinstance(v, str))
    if step["actor"] not in st.combatants:
        err("unknown-combatant", "unknown combatant %r" % step["actor"])
    return step["actor"]


def read_id(st, step, n):
    if "id" in step:
        check(step, "id", lambda v: isinstance(v, str) and v not in ("", "turn-start", "turn-end"))
        fid = step["id"]
        if fid in st.frames or MOMENT_RE.match(fid):
            err("id-taken", "id %r is taken" % fid)
        return fid
    fid = "s%d" % n
    k = 1
    while fid in st.frames:
        k += 1
        fid = "s%d#%d" % (n, k)
    return fid


def read_answer_fields(step, do):
    for key in ("to", "on"):
        if key in step and do not in ANSWERS:
            err("field-of-another-kind", "%r on a step that answers nothing" % key)
        check(step, key, lambda v: isinstance(v, str))


def read_counts(step):
    counts = [k for k in ("squares", "attacks", "parts") if k in step]
    if len(counts) > 1:
        err("two-part-counts", "give at most one of squares, attacks, parts")
    for key in counts:
        check(step, key, lambda v: is_int(v) and 1 <= v <= 100)


def read_combatants(st, step, key, nonempty):
    check(step, key, lambda v: strings(v, nonempty))
    for p in step.get(key, []):
        if p not in st.combatants:
            err("unknown-combatant", "unknown combatant %r in %s" % (p, key))


def read_lists(st, step):
    read_combatants(st, step, "provokes", False)
    check(step, "triggers", lambda v: strings(v, True))
    check(step, "attack", lambda v: v in ATTACKS)
    read_combatants(st, step, "targets", True)


def read_shift_forced(step, do):
    check(step, "shift", lambda v: isinstance(v, bool))
    if "shift" in step and "path" not in step:
        err("shift-without-path", "`shift` needs a `path`")
    if "forced" in step:
        if do != "event":
            err("field-of-another-kind", "'forced' belongs to an event")
        check(step, "forced", lambda v: v in FORCED)
        if "path" not in step:
            err("forced-without-path", "`forced` needs a `path`")


def read_path(st, step, actor):
    """T-ERRORS, in this order: path-without-scene, a path without an actor
    (missing-actor), its list and squares (bad-value), a teleport of more
    than one square, a square not next to the last, the last square on
    another combatant (bad-path), then a part count beside it."""
    if "path" not in step:
        return
    if st.positions is None:
        err("path-without-scene", "`path` needs a scene")
    if actor is None:
        err("missing-actor", "a path needs an actor to walk it")
    check(step, "path", lambda v: isinstance(v, list) and 1 <= len(v) <= 100
          and all(is_square(q) for q in v))
    walk(st, [tuple(q) for q in step["path"]], actor, step.get("forced") == "teleport")
    counts = [k for k in ("squares", "attacks", "parts") if k in step]
    if counts and (counts != ["squares"] or step["squares"] != len(step["path"])):
        err("two-part-counts", "beside a path, only squares equal to its length")


def next_to(a, b):
    """ASM-SCENE-GRID: the eight squares around a square."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def walk(st, squares, actor, teleport):
    """FORMAT.md, The scene: each square next to the last (the first next to
    where the actor stands), not ending on another combatant; a teleport's
    path is the one square arrived at."""
    if teleport:
        if len(squares) != 1:
            err("bad-path", "a teleport's path is one square")
    else:
        prev = st.positions[actor]
        for q in squares:
            if not next_to(prev, q):
                err("bad-path", "square %r is not next to %r" % (list(q), list(prev)))
            prev = q
    for c, q in st.positions.items():
        if c != actor and q == squares[-1]:
            err("bad-path", "the path ends on %s's square" % c)


def read_cost(step, do):
    if "cost" in step:
        if do != "activity":
            err("field-of-another-kind", "'cost' belongs to an activity")
        check(step, "cost", lambda v: is_int(v) and 1 <= v <= 3)
    elif do == "activity":
        err("missing-cost", "activity needs a cost")


def find_trigger(st, step):
    """T-ANSWER: the id of the trigger named by `to`, before settling; it may
    be a moment not yet on the stack (then no-trigger) or, once the turn has
    ended, the next turn's turn-start (T-NEXT-TURN)."""
    to = step.get("to")
    if to is None:
        return st.top().id if st.top() else None
    if to in ("turn-start", "turn-end"):
        return "%s@%d" % (to, st.turn)
    if to in st.frames or (st.turn_ended and to == st.next_start_id()):
        return to
    err("unknown-trigger", "`to` names no frame ever declared: %r" % to)


# -------------------------------------------------------------- settling ----

def settle(st, do, actor, tid):
    """T-SETTLE 3: T-LEAVE or T-TURN-START, then T-NEXT-TURN, until none
    applies. T-CUT-IN never keeps a frame in Pathfinder."""
    while st.stack:
        top = st.top()
        if top.kind == "turn-start":
            if (do in UNTRIGGERED or do == "end-turn") and actor == st.active:
                st.stack.pop()
                continue
            return
        if top.kind == "turn-end":
            if do not in ANSWERS or tid == st.next_start_id():
                st.next_turn()
                continue
            return
        if not top.finished or not leaves(st, top, do, actor, tid):
            return
        st.stack.pop()


def leaves(st, top, do, actor, tid):
    """T-LEAVE: does the finished frame on top leave before this step?"""
    untrig = do in UNTRIGGERED or do == "end-turn"
    return (do in STACK_MOVES
            or (do in ANSWERS and tid != top.id)
            or (untrig and actor in (top.owner, st.active))
            or (st.turn_ended and do not in ANSWERS))


# -------------------------------------------------------------- judging ----

class Vector:
    def __init__(self, vec):
        self.vec = vec
        self.opts = {"mode": "encounter", "exploration_reactions": "gm",
                     "react_before_first_turn": "gm", "similar_triggers": "gm",
                     "disrupted_activity": "all"}
        self.opts.update(vec.get("options") or {})
        self.st = State(vec)

    def occurrence_uses(self, actor, kind, trig):
        return [u for u in self.st.uses
                if u[0] == actor and u[1] == kind and u[2] == trig.id and u[3] == trig.occurrence()]

    def judge(self, do, actor, step, trig):
        """Return (verdict, reason, rules, notes); the checks of PRECEDENCE.md
        in order. Raises Refuse."""
        gm = None
        if do in UNTRIGGERED:
            self.judge_own_action(do, actor, step)
        elif do == "end-turn":
            if actor != self.st.active:
                fail("not-your-turn", ["PF2-SEQUENCE"])
            if self.st.phase() != "turn_acting":
                fail("action-in-progress", ["PF2-SEQUENCE"])
        elif do in ANSWERS:
            gm = self.judge_answer(do, actor, step, trig)
        elif do in STACK_MOVES:
            self.judge_stack_move(do, step)
        notes = self.disrupt_notes() if do == "disrupt" else []
        if gm:
            return "gm", gm[0], gm[1], notes
        return "allowed", None, list(ALLOWED_RULES[do]), notes

    def judge_own_action(self, do, actor, step):
        st = self.st
        if actor != st.active:
            fail("not-your-turn", ["PF2-UNTRIGGERED-FREE" if do == "free" else "PF2-OWN-TURN"])
        if st.phase() != "turn_acting":
            # anything on the stack is unresolved after settling
            fail("action-in-progress", ["PF2-SEQUENCE"])
        cost = 0 if do == "free" else (step["cost"] if do == "activity" else 1)
        if st.budgets[actor]["actions"] < cost:
            fail("no-actions-left", ["PF2-THREE-ACTIONS"])

    def judge_answer(self, do, actor, step, trig):
        """Returns the first GM check's (reason, rules), or None."""
        st = self.st
        if trig is None:
            fail("no-trigger", ["PF2-TRIGGER"])
        if trig not in st.stack:
            fail("trigger-passed", ["PF2-STACK"])
        i = st.stack.index(trig)
        if any(not f.finished for f in st.stack[i + 1:]):
            fail("unresolved-above", ["PF2-STACK"])
        label = step.get("on", "")
        kind = "free-response" if do == "free-response" else "reaction"  # T-OCCURRENCE
        uses = self.occurrence_uses(actor, kind, trig)
        if kind == "reaction":
            gm = self.reaction_budget(actor)
            if any(u[4] == label for u in uses):
                fail("one-reaction-per-trigger", ["PF2-EXTRA-REACTIONS"])
        else:
            gm = None
            if any(u[4] == label for u in uses):
                fail("one-free-action-per-trigger", ["PF2-FREE-ONE-PER-TRIGGER"])
        if uses:  # same occurrence, another label
            pol = self.opts["similar_triggers"]
            if pol == "same":
                fail("similar-trigger-same", ["PF2-SIMILAR-TRIGGERS"])
            if pol == "gm" and gm is None:
                gm = ("gm-similar-trigger", ["PF2-SIMILAR-TRIGGERS"])
        if do == "opportunity":
            self.judge_strike(actor, step, trig)
        return gm

    def judge_strike(self, actor, step, trig):
        """T-PF2-REACTIVE-STRIKE, after a reaction's checks."""
        rs = ["PF2-REACTIVE-STRIKE"]
        if trig.moment or trig.finished or trig.cur_resolved:
            fail("trigger-already-resolved", rs)
        if (trig.kind not in TRAITED or trig.owner in (None, actor)
                or not trig.provokes_strike() or not self.within_reach(actor, trig)):
            fail("not-provoked", rs)
        parts = max([step.get(k, 1) for k in ("squares", "attacks", "parts")]
                    + [len(step.get("path", []))])
        if parts > 1 or step.get("attack", "melee") != "melee":
            fail("one-melee-attack", rs)

    def within_reach(self, actor, trig):
        st = self.st
        if st.positions is None:
            return actor in trig.step.get("provokes", [])
        a, b = st.positions[actor], st.positions[trig.owner]   # where the mover stands now
        reach = st.combatants[actor].get("reach", 1)
        return max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= reach

    def reaction_budget(self, actor):
        """first_turn_policy, then reaction_available; returns a GM call or None."""
        gm = None
        if self.opts["mode"] != "exploration" and actor not in self.st.had_turn:
            pol = self.opts["react_before_first_turn"]
            if pol == "forbid":
                fail("before-first-turn", ["PF2-FIRST-TURN"])
            if pol == "gm":
                gm = ("gm-before-first-turn", ["PF2-FIRST-TURN"])
        if self.st.budgets[actor]["reactions"] < 1:
            rr = ["PF2-REACTION-ONE", "PF2-EXPLORATION"]
            pol = self.opts["exploration_reactions"] if self.opts["mode"] == "exploration" else None
            if pol in (None, "encounter"):
                fail("reaction-used-this-round", rr)
            if pol == "gm" and gm is None:
                gm = ("gm-exploration", rr)
        return gm

    def judge_stack_move(self, do, step):
        f = self.st.top_unresolved()
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

    def disrupt_notes(self, f=None):
        f = f or self.st.top_unresolved()
        notes = ["gm: what the disruption of %s does beyond cancelling its effects "
                 "is the GM's call; its costs stay spent" % f.id]
        if f.kind == "activity":
            back = self.given_back(f)
            if back:
                notes.append("activity %s gives back %d action(s) of its parts not begun"
                             % (f.id, back))
            else:
                notes.append("the actions committed to activity %s are lost" % f.id)
        return notes

    def given_back(self, f):
        """T-STACK-MOVES, option disrupted_activity: under `begun`, an
        `activity` whose parts are its actions (as many parts as its `cost`,
        no `path` or `squares`) gives back its `cost` less the parts resolved,
        less one more when a part is pending. Under `all`, nothing."""
        if (self.opts["disrupted_activity"] != "begun" or f.kind != "activity"
                or f.is_move or f.parts != f.step.get("cost")):
            return 0
        # pending at part `cur`: `cur` resolved, one pending; between parts:
        # `cur + 1` resolved. Either way the parts begun are cur + 1.
        return max(0, f.parts - (f.cur + 1))

    # ---------------------------------------------------------- effects
    def apply(self, do, actor, fid, step, trig):
        st = self.st
        if do in UNTRIGGERED or do in ANSWERS or do == "event":
            self.push_frame(do, actor, fid, step, trig)
        elif do == "resolve":
            f = st.top_unresolved()
            f.cur_resolved = True
            if f.path is not None and f.owner is not None:
                st.positions[f.owner] = f.path[f.cur]   # ASM-PF2-SCENE
            if f.cur == f.parts - 1:
                f.finished = True
                st.resolved.append(f.id)
                trig = st.frames.get(f.answers)     # T-PF2-REACTIVE-STRIKE: a critical hit
                if (f.kind == "opportunity" and f.step.get("critical") is True and trig
                        and trig.step.get("manipulate") is True and not trig.finished):
                    # disrupted at once, as a `disrupt` would (and, under
                    # disrupted_activity: begun, giving back what it would);
                    # "that `resolve` carries no GM note" (T-PF2-REACTIVE-STRIKE)
                    self.mark_disrupted(trig)
        elif do == "continue":
            f = st.top_unresolved()
            f.cur += 1
            f.cur_resolved = False
        elif do == "disrupt":
            self.mark_disrupted(st.top_unresolved())
        elif do == "end-turn":
            f = Frame("turn-end@%d" % st.turn, "turn-end", st.active, moment=True)
            st.frames[f.id] = f
            st.stack.append(f)
            st.turn_ended = True
        return []

    def mark_disrupted(self, f):
        back = self.given_back(f)       # read before the frame is finished
        if back and f.owner in self.st.budgets:
            self.st.budgets[f.owner]["actions"] += back
        f.finished = True
        f.disrupted = True
        self.st.disrupted.append(f.id)

    def push_frame(self, do, actor, fid, step, trig):
        st = self.st
        parts = step["cost"] if do == "activity" else 1
        for k in ("squares", "attacks", "parts"):
            if k in step:
                parts = step[k]
        if "path" in step:      # one part per square, an activity's cost included
            parts = len(step["path"])
        # an event with an actor is owned by it (T-EVENT)
        f = Frame(fid, do, actor, parts, step.get("triggers"),
                  is_move="squares" in step or "path" in step)
        if "path" in step:
            f.path = [tuple(q) for q in step["path"]]
        f.step = step
        f.answers = trig.id if trig is not None else None
        st.frames[fid] = f
        st.stack.append(f)
        if do == "action":
            st.budgets[actor]["actions"] -= 1
        elif do == "activity":
            st.budgets[actor]["actions"] -= step["cost"]
        elif do in ("reaction", "opportunity"):
            st.budgets[actor]["reactions"] = max(0, st.budgets[actor]["reactions"] - 1)
        if do in ANSWERS:
            kind = "free-response" if do == "free-response" else "reaction"
            st.uses.append((actor, kind, trig.id, trig.occurrence(), step.get("on", "")))

    # ---------------------------------------------------------- a step
    def step(self, n, step):
        try:
            do, actor, fid, tid, step = read_step(self.st, n, step)
        except ReadError as e:
            return {"verdict": "error", "error": e.code, "message": str(e)}
        saved = pickle.loads(pickle.dumps(self.st, -1))   # T-REFUSED: a refused step changes nothing
        settle(self.st, do, actor, tid)
        trig = self.st.frames.get(tid) if tid is not None else None
        try:
            verdict, reason, rules, notes = self.judge(do, actor, step, trig)
        except Refuse as r:
            self.st = saved
            return {"verdict": "rejected", "reason": r.reason, "rules": r.rules,
                    "facts": self.st.facts()}
        if verdict == "gm" and step.get("ruling") == "deny":
            self.st = saved
        else:
            notes += self.apply(do, actor, fid, step, trig)
        out = {"verdict": verdict, "reason": reason, "rules": rules, "facts": self.st.facts()}
        if notes:
            out["notes"] = notes
        return out


# ------------------------------------------------------------- protocol ----

DOC_FIELDS = {"format", "id", "ruleset", "description", "question", "answer", "comment",
              "tags", "rules", "options", "combatants", "initiative", "steps"}
COMBATANT_FIELDS = {"id", "side", "name", "at", "reach", "actions", "reactions"}


def validate_vector(vec):
    """FORMAT.md, Errors and verdicts: a document that cannot be read is
    refused whole, before any step. None when it can be read."""
    if not isinstance(vec, dict):
        return "vector is not an object"
    unknown = [k for k in vec if k not in DOC_FIELDS]
    if unknown:
        return "unknown top-level field %r" % unknown[0]
    if not is_int(vec.get("format")) or vec["format"] != 1:
        return "format must be the integer 1"
    if vec.get("ruleset") != "pf2e":
        return "ruleset not supported"
    return (combatants_error(vec.get("combatants")) or initiative_error(vec)
            or options_error(vec.get("options"))
            or (None if isinstance(vec.get("steps"), list) else "steps missing"))


def combatant_error(c):
    if not isinstance(c, dict) or not isinstance(c.get("id"), str) or not isinstance(c.get("side"), str):
        return "bad combatant"
    for k in c:
        if k not in COMBATANT_FIELDS:
            return "unknown combatant field %r" % k
    for k, lo, hi in (("actions", 0, 100), ("reactions", 0, 100), ("reach", 1, 20)):
        if k in c and (not is_int(c[k]) or not lo <= c[k] <= hi):
            return "bad %s" % k
    if "at" in c and not is_square(c["at"]):
        return "a square is two integers"
    return None


def combatants_error(cs):
    if not isinstance(cs, list) or not cs:
        return "combatants missing"
    ids = set()
    for c in cs:
        bad = combatant_error(c)
        if bad:
            return bad
        if c["id"] in ids:
            return "duplicate combatant"
        ids.add(c["id"])
    at = [tuple(c["at"]) for c in cs if "at" in c]
    if at and len(at) != len(cs):
        return "positions are all or none"
    if len(set(at)) != len(at):
        return "two combatants on one square"
    if not at and any("reach" in c for c in cs):
        return "reach without positions"
    return None


def initiative_error(vec):
    ini = vec.get("initiative")
    ids = [c["id"] for c in vec["combatants"]]
    if ini is not None:
        if not isinstance(ini, list) or not all(isinstance(i, str) for i in ini) \
                or sorted(ini) != sorted(ids):
            return "initiative must list every combatant exactly once"
    return None


def options_error(opts):
    opts = {} if opts is None else opts
    if not isinstance(opts, dict):
        return "bad options"
    for k, v in opts.items():
        if k not in OPTIONS or v not in OPTIONS[k]:
            return "unsupported option %s=%r" % (k, v)
    return None


def run_vector(vec):
    vid = vec.get("id", "") if isinstance(vec, dict) else ""
    bad = validate_vector(vec)
    if bad:   # PROTOCOL.md: one step answer, bad-document
        return {"type": "result", "id": vid,
                "steps": [{"verdict": "error", "error": "bad-document", "message": bad}]}
    v = Vector(vec)
    out = []
    for n, s in enumerate(vec["steps"], 1):
        out.append(v.step(n, s))
    return {"type": "result", "id": vid, "steps": out}


def hello():
    return {"type": "hello", "format": 1, "protocol": 1, "engine": ENGINE,
            "rulesets": {"pf2e": {"options": OPTIONS}},
            "facts": FACTS, "features": ["scene"]}


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
