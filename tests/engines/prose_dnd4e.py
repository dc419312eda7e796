#!/usr/bin/env python3
"""A D&D 4e engine written from the prose of spec/ alone: TIMING.md, FORMAT.md,
PRECEDENCE.md, PROTOCOL.md, rules.yaml and divergences.yaml, without the
reference's code and without the vectors. It shares no code with fsm.

It is kept to hold the written rules to their promise that they are enough
to build an engine: tests/test_prose_engines.py runs it on every vector and
fuzzes it against the reference. When the reference's behaviour changes, the
prose changes first and this engine follows the prose.

Speaks the JSON-lines protocol of spec/PROTOCOL.md on stdin/stdout; ruleset
dnd4e only, no scene. Standard library only.
"""
import copy
import json
import sys

ENGINE = "prose-dnd4e 0.1"

UNTRIGGERED = {"standard", "move", "minor", "ready", "free"}
ANSWERS = {"free-response", "no-action", "opportunity", "interrupt", "reaction", "readied"}
STACK_MOVES = {"resolve", "continue", "lose"}
ALL_KINDS = UNTRIGGERED | ANSWERS | STACK_MOVES | {"event", "end-turn"}
NEEDS_ACTOR = UNTRIGGERED | ANSWERS
NO_FRAME = STACK_MOVES | {"end-turn"}
FRAME_FIELDS = ("squares", "attacks", "parts", "provokes", "triggers", "path", "shift",
                "attack", "targets")

STEP_FIELDS = {"actor", "attack", "attacks", "comment", "do", "expect", "id", "name", "on",
               "parts", "path", "provokes", "readies", "ruling", "shift", "squares",
               "targets", "to", "triggers"}

OPTION_DEFAULTS = {
    "free_actions_per_turn": None,
    "readied_as": "reaction",
    "opportunity_limit_turns": "every-other",
    "reaction_window": "interrupts-next",
}
OPTION_VALUES = {
    "readied_as": ["reaction", "interrupt"],
    "opportunity_limit_turns": ["every-other", "enemy"],
    "reaction_window": ["interrupts-next", "before-next"],
}

TS, TA, WI, WR, TE = "turn_start", "turn_acting", "window_interrupt", "window_reaction", "turn_end"
ANSWER_PHASES = (TS, WI, WR, TE)
NON_ACTING = (TS, WI, WR, TE)

# ---------------------------------------------------------------- precedence
# For each kind: list of (phases, allowed_rules or None, [(check, reason, rules)])


def _c(check, reason, *rules):
    return (check, reason, list(rules))


TABLE = {
    "standard": [
        ((TA,), ["4E-ACTION-TYPES", "4E-STANDARD-OWN-TURN", "4E-ONE-AT-A-TIME", "4E-STANDARD", "4E-SCENE-STATED"],
         [_c("own_turn", "not-your-turn", "4E-STANDARD-OWN-TURN"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME"),
          _c("standard_slot", "standard-action-used", "4E-STANDARD"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
        (NON_ACTING, None,
         [_c("own_turn", "not-your-turn", "4E-STANDARD-OWN-TURN"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME")]),
    ],
    "move": [
        ((TA,), ["4E-ACTION-TYPES", "4E-MOVE", "4E-ONE-AT-A-TIME", "4E-MOVE-ONE", "4E-SUBSTITUTE", "4E-SCENE-STATED"],
         [_c("own_turn", "not-your-turn", "4E-MOVE"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME"),
          _c("move_slot", "move-action-used", "4E-MOVE-ONE", "4E-SUBSTITUTE"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
        (NON_ACTING, None,
         [_c("own_turn", "not-your-turn", "4E-MOVE"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME")]),
    ],
    "minor": [
        ((TA,), ["4E-ACTION-TYPES", "4E-MINOR", "4E-ONE-AT-A-TIME", "4E-MINOR-ONE", "4E-SUBSTITUTE", "4E-SCENE-STATED"],
         [_c("own_turn", "not-your-turn", "4E-MINOR"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME"),
          _c("minor_slot", "minor-action-used", "4E-MINOR-ONE", "4E-SUBSTITUTE"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
        (NON_ACTING, None,
         [_c("own_turn", "not-your-turn", "4E-MINOR"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME")]),
    ],
    "ready": [
        ((TA,), ["4E-READY", "4E-READY-COST", "4E-ONE-AT-A-TIME"],
         [_c("own_turn", "not-your-turn", "4E-READY-COST"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME"),
          _c("standard_slot", "standard-action-used", "4E-READY-COST")]),
        (NON_ACTING, None,
         [_c("own_turn", "not-your-turn", "4E-READY-COST"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME")]),
    ],
    "free": [
        ((TS, TA, WI, WR, TE), ["4E-ACTION-TYPES", "4E-FREE", "4E-ONE-AT-A-TIME", "4E-FREE-LIMIT", "4E-SCENE-STATED"],
         [_c("no_own_action_pending", "own-action-in-progress", "4E-ONE-AT-A-TIME"),
          _c("free_within_limit", "free-action-limit", "4E-FREE-LIMIT"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
    ],
    "free-response": [
        (ANSWER_PHASES, ["4E-TRIGGERED-FREE", "4E-FREE", "4E-TRIGGER", "4E-STACK", "4E-FREE-LIMIT", "4E-SCENE-STATED"],
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-STACK"),
          _c("nothing_unresolved_above", "unresolved-above", "4E-STACK"),
          _c("free_within_limit", "free-action-limit", "4E-FREE-LIMIT"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
        ((TA,), None,
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-STACK")]),
    ],
    "no-action": [
        (ANSWER_PHASES, ["4E-TRIGGERED-FREE", "4E-NO-ACTION", "4E-TRIGGER", "4E-STACK", "4E-SCENE-STATED"],
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-STACK"),
          _c("nothing_unresolved_above", "unresolved-above", "4E-STACK"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
        ((TA,), None,
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-STACK")]),
    ],
    "opportunity": [
        (ANSWER_PHASES, ["4E-OPP-ANYONE", "4E-TRIGGER", "4E-STACK", "4E-OPP-OWN-TURN", "4E-OPP-INTERRUPTS",
                         "4E-OPP-TRIGGER", "4E-SCENE-GRID", "4E-OPP-ONCE", "4E-SCENE-STATED"],
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-STACK"),
          _c("nothing_unresolved_above", "unresolved-above", "4E-STACK"),
          _c("opportunity_not_own_turn", "opportunity-on-own-turn", "4E-OPP-OWN-TURN"),
          _c("trigger_pending", "trigger-already-resolved", "4E-OPP-INTERRUPTS"),
          _c("triggered_by_enemy", "trigger-not-by-enemy", "4E-OPP-TRIGGER"),
          _c("provoked", "not-provoked", "4E-OPP-TRIGGER", "4E-SCENE-GRID"),
          _c("opportunity_unused", "opportunity-used-this-turn", "4E-OPP-ONCE"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
        ((TA,), None,
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-STACK")]),
    ],
    "interrupt": [
        (ANSWER_PHASES, ["4E-IMM-KINDS", "4E-IMM-TRIGGER", "4E-STACK", "4E-IMM-OWN-TURN", "4E-INTERRUPT",
                         "4E-IMM-ONCE", "4E-SCENE-STATED"],
         [_c("has_trigger", "no-trigger", "4E-IMM-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-STACK"),
          _c("nothing_unresolved_above", "unresolved-above", "4E-STACK"),
          _c("immediate_not_own_turn", "immediate-on-own-turn", "4E-IMM-OWN-TURN"),
          _c("trigger_pending", "trigger-already-resolved", "4E-INTERRUPT"),
          _c("immediate_unused", "immediate-used-this-round", "4E-IMM-ONCE"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
        ((TA,), None,
         [_c("has_trigger", "no-trigger", "4E-IMM-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-STACK")]),
    ],
    "reaction": [
        (ANSWER_PHASES, ["4E-IMM-KINDS", "4E-TRIGGER", "4E-REACTION-NEXT", "4E-REACTION-WINDOW", "4E-STACK",
                         "4E-IMM-OWN-TURN", "4E-REACTION", "4E-REACTION-MOVE", "4E-SCENE-GRID",
                         "4E-INTERRUPT-LOST", "4E-IMM-ONCE", "4E-SCENE-STATED"],
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-REACTION-NEXT", "4E-REACTION-WINDOW"),
          _c("nothing_unresolved_above", "unresolved-above", "4E-STACK"),
          _c("immediate_not_own_turn", "immediate-on-own-turn", "4E-IMM-OWN-TURN"),
          _c("trigger_resolved", "trigger-not-resolved", "4E-REACTION"),
          _c("moved_one_square", "moved-less-than-one-square", "4E-REACTION-MOVE"),
          _c("movement_in_progress", "not-mid-move", "4E-REACTION-MOVE"),
          _c("reach_entered", "reach-not-entered", "4E-REACTION-MOVE", "4E-SCENE-GRID"),
          _c("trigger_took_effect", "trigger-cancelled", "4E-INTERRUPT-LOST"),
          _c("immediate_unused", "immediate-used-this-round", "4E-IMM-ONCE"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
        ((TA,), None,
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-REACTION-NEXT", "4E-REACTION-WINDOW")]),
    ],
    "readied": [
        (ANSWER_PHASES, ["4E-READY", "4E-READY-INITIATIVE", "4E-TRIGGER", "4E-REACTION-NEXT",
                         "4E-REACTION-WINDOW", "4E-STACK", "4E-IMM-OWN-TURN", "4E-READY-TIMING",
                         "4E-REACTION-MOVE", "4E-SCENE-GRID", "4E-INTERRUPT-LOST", "4E-IMM-ONCE",
                         "4E-SCENE-STATED"],
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-REACTION-NEXT", "4E-REACTION-WINDOW"),
          _c("nothing_unresolved_above", "unresolved-above", "4E-STACK"),
          _c("immediate_not_own_turn", "immediate-on-own-turn", "4E-IMM-OWN-TURN"),
          _c("has_readied", "no-readied-action", "4E-READY"),
          _c("readied_timing", "readied-timing", "4E-READY-TIMING"),
          _c("movement_in_progress", "not-mid-move", "4E-REACTION-MOVE"),
          _c("reach_entered", "reach-not-entered", "4E-REACTION-MOVE", "4E-SCENE-GRID"),
          _c("trigger_took_effect", "trigger-cancelled", "4E-INTERRUPT-LOST"),
          _c("immediate_unused", "immediate-used-this-round", "4E-IMM-ONCE"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
        ((TA,), None,
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-REACTION-NEXT", "4E-REACTION-WINDOW")]),
    ],
    "lose": [
        ((WI,), ["4E-STACK", "4E-INTERRUPT-LOST", "4E-OPP-LOST"],
         [_c("actor_on_top", "not-on-top", "4E-STACK"),
          _c("interrupted", "not-interrupted", "4E-INTERRUPT-LOST", "4E-OPP-LOST")]),
        ((WR,), None,
         [_c("actor_on_top", "not-on-top", "4E-STACK"),
          _c("part_pending", "between-parts", "4E-STACK")]),
        ((TS, TA, TE), None,
         [_c("something_pending", "nothing-pending", "4E-STACK")]),
    ],
    "end-turn": [
        ((TA,), ["4E-IMM-ONCE", "4E-SEQUENCE", "4E-ONE-AT-A-TIME"],
         [_c("own_turn", "not-your-turn", "4E-ONE-AT-A-TIME")]),
        (NON_ACTING, None,
         [_c("own_turn", "not-your-turn", "4E-ONE-AT-A-TIME"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME")]),
    ],
    "resolve": [
        ((WI,), ["4E-STACK", "4E-SCENE-LOSS"],
         [_c("actor_on_top", "not-on-top", "4E-STACK")]),
        ((WR,), None,
         [_c("actor_on_top", "not-on-top", "4E-STACK"),
          _c("part_pending", "between-parts", "4E-STACK")]),
        ((TS, TA, TE), None,
         [_c("something_pending", "nothing-pending", "4E-STACK")]),
    ],
    "continue": [
        ((WR,), ["4E-STACK"],
         [_c("actor_on_top", "not-on-top", "4E-STACK")]),
        ((WI,), None,
         [_c("actor_on_top", "not-on-top", "4E-STACK"),
          _c("part_resolved", "no-part-resolved", "4E-STACK")]),
        ((TS, TA, TE), None,
         [_c("something_pending", "nothing-pending", "4E-STACK")]),
    ],
    "event": [
        ((TS, TA, WI, WR, TE), ["4E-TRIGGER"], []),
    ],
}


# ---------------------------------------------------------------- state


class StepError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code            # FORMAT.md, Errors and verdicts


class Frame:
    def __init__(self, fid, kind, owner, parts=1, is_move=False, provokes=(), moment=None):
        self.id = fid
        self.kind = kind            # step kind, or "turn-start"/"turn-end" for moments
        self.owner = owner          # combatant id, None for events
        self.parts = parts
        self.cur = 0                # index of the current part
        self.cur_pending = moment is None
        self.finished = moment is not None
        self.lost = False
        self.is_move = is_move
        self.provokes = list(provokes)
        self.moment = moment        # None, "turn-start", "turn-end"
        self.on_stack = True
        self.win = False            # window of the last resolved (or lost) part is open
        self.kept = False           # left the stack by T-CUT-IN, window open
        self.trigger = None         # for answers: id of the frame answered
        self.trigger_part = None    # part of the trigger in play when answered (if pending)
        self.interrupting = False   # interrupt, opportunity, readied-as-interrupt
        self.interrupted_part = None
        self.readies = None


class State:
    def __init__(self, vector):
        self.options = dict(OPTION_DEFAULTS)
        self.options.update(vector.get("options") or {})
        combatants = vector.get("combatants") or []
        self.sides = {}
        for c in combatants:
            self.sides[c["id"]] = c["side"]
        ini = vector.get("initiative")
        self.initiative = list(ini) if ini else [c["id"] for c in combatants]
        self.budgets = {cid: {"standard": 1, "move": 1, "minor": 1, "immediate": 1,
                              "opportunity": 1, "free_used": 0, "readied": None}
                        for cid in self.sides}
        self.round = 1
        self.turn = 1
        self.active = self.initiative[0] if self.initiative else None
        self.frames = {}
        self.stack = []
        self.resolved = []
        self.lost = []
        self._push_moment("turn-start")

    # -- helpers
    def _push_moment(self, which):
        fid = "%s@%d" % (which, self.turn)
        f = Frame(fid, which, self.active, moment=which)
        self.frames[fid] = f
        self.stack.append(f)
        return f

    def turn_ended(self):
        return any(f.moment == "turn-end" for f in self.stack)

    def phase(self):
        if not self.stack:
            return TA
        top = self.stack[-1]
        if top.moment == "turn-start":
            return TS
        if top.moment == "turn-end":
            return TE
        if top.finished:
            return WR
        return WI if top.cur_pending else WR

    def top_unresolved(self):
        for f in reversed(self.stack):
            if f.moment:
                return None
            if not f.finished:
                return f
        return None

    def pop(self, keep=False):
        f = self.stack.pop()
        f.on_stack = False
        if keep:
            f.kept = True
        else:
            f.win = False
            f.kept = False
        return f

    def next_turn(self):
        # the turn-end moment leaves; every window still open closes
        while self.stack:
            self.pop()
        for f in self.frames.values():
            f.win = False
            f.kept = False
        n = len(self.initiative)
        idx = self.initiative.index(self.active) if self.active in self.initiative else -1
        if idx >= n - 1:
            self.round += 1
        nxt = self.initiative[(idx + 1) % n]
        self.turn += 1
        self.active = nxt
        for cid, b in self.budgets.items():
            b["opportunity"] = 1
            b["free_used"] = 0
        b = self.budgets[nxt]
        b["standard"] = b["move"] = b["minor"] = 1
        b["readied"] = None
        self._push_moment("turn-start")

    def close_owner_windows(self, frame):
        """T-OWNER: a frame resolved a part or was lost."""
        if frame.owner is None or frame.moment or frame.kind == "event":
            return
        for g in self.frames.values():
            if g is frame or g.moment or g.kind == "event" or g.owner != frame.owner:
                continue
            if g.on_stack or g.kept:
                g.win = False
                g.kept = False

    def settle(self, kind, actor, trigger_id):
        cut_in = self.options["reaction_window"] == "interrupts-next"
        while self.stack:
            top = self.stack[-1]
            if top.moment == "turn-start":
                if (kind in UNTRIGGERED or kind == "end-turn") and actor == self.active:
                    self.pop()
                    continue
                break
            if top.moment == "turn-end":
                if kind not in ANSWERS:
                    self.next_turn()
                    continue
                break
            if not top.finished:
                break
            untrig = kind in UNTRIGGERED or kind == "end-turn"
            leave = (kind in STACK_MOVES
                     or (kind in ANSWERS and trigger_id != top.id)
                     or (untrig and actor is not None and actor == top.owner)
                     or (untrig and actor is not None and actor == self.active)
                     or (kind not in ANSWERS and self.turn_ended()))
            if not leave:
                break
            keep = (cut_in and not top.lost and top.kind != "event" and top.win
                    and untrig and actor is not None and actor == top.owner)
            self.pop(keep=keep)

    # -- facts
    def facts(self):
        return {
            "state": self.phase(),
            "round": self.round,
            "active": self.active,
            "initiative": list(self.initiative),
            "budgets": copy.deepcopy(self.budgets),
            "resolved": list(self.resolved),
            "lost": list(self.lost),
            "stack": [f.id for f in self.stack if not f.moment],
        }


# ---------------------------------------------------------------- reading


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _strings(v, nonempty=False):
    return isinstance(v, list) and all(isinstance(x, str) for x in v) and (v or not nonempty)


def read_step(st, step, n):
    """Validate; return (kind, actor, default_id). Raises StepError.

    The first error in T-ERRORS' order is reported: an unknown field, `do`,
    a frame's field on a step that makes no frame, `actor`, `id`, `to` on a
    step that answers nothing, `on`, the part counts, `provokes`, `triggers`,
    `attack`, `targets`, `shift`, `path`, `cost` (here `readies`), `ruling`,
    `name`, the free-text fields; a `to` naming no frame comes last
    (find_trigger)."""
    def err(code, msg):
        raise StepError(code, msg)

    if not isinstance(step, dict):
        err("not-an-object", "step is not an object")
    for k in step:
        if k not in STEP_FIELDS:
            err("unknown-field", "unknown field %r" % k)
    if "do" not in step:
        err("missing-kind", "a step without 'do'")
    kind = step["do"]
    if not isinstance(kind, str) or kind not in ALL_KINDS:
        err("unknown-kind", "unknown step kind %r" % (kind,))
    if kind in NO_FRAME:
        for k in FRAME_FIELDS:
            if k in step:
                err("field-of-another-kind", "%r on %s, which makes no frame" % (k, kind))
    actor = step.get("actor")
    if "actor" in step:
        if not isinstance(actor, str):
            err("bad-value", "actor must be a string")
        if actor not in st.sides:
            err("unknown-combatant", "unknown combatant %r" % actor)
    elif kind in NEEDS_ACTOR:
        err("missing-actor", "%s needs an actor" % kind)
    if "id" in step:
        fid = step["id"]
        if not isinstance(fid, str) or not fid or fid in ("turn-start", "turn-end"):
            err("bad-value", "bad id")
        if fid in st.frames:
            err("id-taken", "id %r already used" % fid)
    else:
        fid = "s%d" % n
        k = 2
        while fid in st.frames:
            fid = "s%d#%d" % (n, k)
            k += 1
    for k in ("to", "on"):
        if k in step:
            if kind not in ANSWERS:
                err("field-of-another-kind", "%r on a step that answers nothing" % k)
            if not isinstance(step[k], str):
                err("bad-value", "%s must be a string" % k)
    given = [k for k in ("squares", "attacks", "parts") if k in step]
    for k in given:
        if not _is_int(step[k]) or not 1 <= step[k] <= 100:
            err("bad-value", "%s out of range" % k)
    if len(given) > 1:
        err("two-part-counts", "at most one of squares, attacks, parts")
    if given and "path" in step:
        path = step["path"]
        if given != ["squares"] or not isinstance(path, list) or step["squares"] != len(path):
            err("two-part-counts", "beside a path, only squares equal to its length")
    if "provokes" in step:
        if not _strings(step["provokes"]):
            err("bad-value", "provokes must be a list of strings")
        for x in step["provokes"]:
            if x not in st.sides:
                err("unknown-combatant", "unknown combatant %r in provokes" % x)
    if "triggers" in step and not _strings(step["triggers"], nonempty=True):
        err("bad-value", "triggers must be a non-empty list of strings")
    if "attack" in step and step["attack"] not in ("melee", "ranged", "area", "close"):
        err("bad-value", "bad attack")
    if "targets" in step:
        if not _strings(step["targets"], nonempty=True):
            err("bad-value", "targets must be a non-empty list of strings")
        for x in step["targets"]:
            if x not in st.sides:
                err("unknown-combatant", "unknown combatant %r in targets" % x)
    if "shift" in step:
        if not isinstance(step["shift"], bool):
            err("bad-value", "shift must be a boolean")
        if "path" not in step:
            err("shift-without-path", "shift needs a path")
    if "path" in step:
        path = step["path"]
        if not isinstance(path, list) or not 1 <= len(path) <= 100 or not all(
                isinstance(q, list) and len(q) == 2 and all(_is_int(c) for c in q) for q in path):
            err("bad-value", "path must be a list of squares")
        err("path-without-scene", "path needs a scene")   # no scene here
    if "readies" in step:
        if kind != "ready":
            err("field-of-another-kind", "'readies' belongs to a ready step")
        if not isinstance(step["readies"], str):
            err("bad-value", "readies must be a string")
    if "ruling" in step and step["ruling"] not in ("allow", "deny"):
        err("bad-value", "bad ruling")
    for k in ("name", "comment"):
        if k in step and not isinstance(step[k], str):
            err("bad-value", "%s must be a string" % k)
    if "expect" in step and not isinstance(step["expect"], dict):
        err("bad-value", "expect must be an object")
    return kind, actor, fid


# ---------------------------------------------------------------- judging


class Ctx:
    pass


def run_check(name, st, cx):
    f = cx.trigger
    o = st.options
    if name == "own_turn":
        return cx.actor == st.active
    if name == "no_action_pending":
        return not any(not g.finished for g in st.stack)
    if name == "standard_slot":
        return st.budgets[cx.actor]["standard"] > 0
    if name == "move_slot":
        b = st.budgets[cx.actor]
        return b["move"] > 0 or b["standard"] > 0
    if name == "minor_slot":
        b = st.budgets[cx.actor]
        return b["minor"] > 0 or b["move"] > 0 or b["standard"] > 0
    if name in ("provocation_fits_scene", "reach_entered"):
        return True  # no scene
    if name == "no_own_action_pending":
        return not any((not g.finished) and g.owner == cx.actor for g in st.stack)
    if name == "free_within_limit":
        lim = o["free_actions_per_turn"]
        return lim is None or st.budgets[cx.actor]["free_used"] < lim
    if name == "has_trigger":
        return f is not None
    if name == "trigger_still_open":
        return trigger_open(f)
    if name == "nothing_unresolved_above":
        if not f.on_stack or f not in st.stack:
            return True
        i = st.stack.index(f)
        return not any(not g.finished for g in st.stack[i + 1:])
    if name in ("opportunity_not_own_turn", "immediate_not_own_turn"):
        return cx.actor != st.active
    if name == "trigger_pending":
        return trigger_pending(f)
    if name == "triggered_by_enemy":
        return f.owner is not None and st.sides.get(f.owner) != st.sides[cx.actor]
    if name == "provoked":
        return cx.actor in f.provokes
    if name == "opportunity_unused":
        if st.budgets[cx.actor]["opportunity"] > 0:
            return True
        if o["opportunity_limit_turns"] == "enemy" and st.sides.get(st.active) == st.sides[cx.actor]:
            return True
        return False
    if name == "trigger_resolved":
        return trigger_resolved(f)
    if name == "moved_one_square":
        return moved_one_square(f)
    if name == "movement_in_progress":
        if cx.step.get("on") != "enters-reach":
            return True
        return f.moment is None and f.is_move and not f.finished
    if name == "trigger_took_effect":
        return not f.lost
    if name == "immediate_unused":
        return st.budgets[cx.actor]["immediate"] > 0
    if name == "has_readied":
        return st.budgets[cx.actor]["readied"] is not None
    if name == "readied_timing":
        if o["readied_as"] == "interrupt":
            return trigger_pending(f)
        return trigger_resolved(f) and moved_one_square(f)
    top = cx.top
    if name == "something_pending":
        return top is not None
    if name == "actor_on_top":
        return cx.actor is None or cx.actor == top.owner
    if name == "part_pending":
        return top.cur_pending
    if name == "part_resolved":
        return not top.cur_pending
    if name == "interrupted":
        return top.cur_pending and top.interrupted_part == top.cur
    raise RuntimeError("unknown check " + name)


def trigger_open(f):
    if f.moment:
        return f.on_stack
    if not f.finished and f.cur_pending:
        return True
    return f.win


def trigger_pending(f):
    if f.moment:
        return True
    return (not f.finished) and f.cur_pending


def trigger_resolved(f):
    if f.moment or f.finished or f.is_move:
        return True
    if not f.cur_pending:
        return True
    return f.win  # interrupts-next: previous part's window still open


def moved_one_square(f):
    # a lost move is answered as T-WINDOW says, a square resolved or not (T-PARTS)
    if f.moment or not f.is_move or f.finished:
        return True
    return f.cur > 0 or not f.cur_pending


def find_trigger(st, step):
    """T-ANSWER: the trigger named by `to`, before settling. Raises StepError."""
    to = step.get("to")
    if to is None:
        return st.stack[-1] if st.stack else None
    if to == "turn-start":
        return st.frames["turn-start@%d" % st.turn]
    if to == "turn-end":
        return st.frames.get("turn-end@%d" % st.turn)
    if to in st.frames:
        return st.frames[to]
    raise StepError("unknown-trigger", "to names no frame: %r" % to)


def judge(st, step, n):
    kind, actor, fid = read_step(st, step, n)
    trigger = None
    if kind in ANSWERS:
        trigger = find_trigger(st, step)
    if kind == "end-turn" and actor is None:
        if st.turn_ended() and st.initiative:
            i = st.initiative.index(st.active) if st.active in st.initiative else -1
            actor = st.initiative[(i + 1) % len(st.initiative)]
        else:
            actor = st.active
    work = copy.deepcopy(st)
    wtrig = work.frames[trigger.id] if trigger is not None else None
    work.settle(kind, actor, wtrig.id if wtrig is not None else None)
    ph = work.phase()
    cx = Ctx()
    cx.actor = actor
    cx.step = step
    cx.trigger = wtrig
    cx.top = work.top_unresolved() if kind in STACK_MOVES else None
    rows = TABLE[kind]
    allowed_rules, checks = None, None
    for phases, ar, ch in rows:
        if ph in phases:
            allowed_rules, checks = ar, ch
            break
    for name, reason, rules in checks:
        if not run_check(name, work, cx):
            return st, {"verdict": "rejected", "reason": reason, "rules": list(rules)}
    if allowed_rules is None:
        # a refused line whose checks all passed: should not happen
        return st, {"verdict": "rejected", "reason": checks[-1][1], "rules": list(checks[-1][2]),
                    "notes": ["engine: refused phase %s with no failing check" % ph]}
    apply_effect(work, kind, actor, fid, step, cx)
    return work, {"verdict": "allowed", "reason": None, "rules": list(allowed_rules)}


def spend_action(b, kind):
    order = {"standard": ["standard"], "move": ["move", "standard"],
             "minor": ["minor", "move", "standard"]}[kind]
    for k in order:
        if b[k] > 0:
            b[k] -= 1
            return


def apply_effect(st, kind, actor, fid, step, cx):
    o = st.options
    if kind in UNTRIGGERED or kind in ANSWERS or kind == "event":
        parts = step.get("squares") or step.get("attacks") or step.get("parts") or 1
        is_move = kind == "move" or "squares" in step
        owner = actor   # an event with an actor is owned by it (T-EVENT)
        f = Frame(fid, kind, owner, parts=parts, is_move=is_move, provokes=step.get("provokes") or ())
        b = st.budgets[actor] if actor is not None else None
        if kind in ("standard", "move", "minor"):
            spend_action(b, kind)
        elif kind == "ready":
            b["standard"] -= 1
            f.readies = step.get("readies", "standard")
        elif kind in ("free", "free-response"):
            b["free_used"] += 1
        elif kind == "opportunity":
            on_ally_turn = (o["opportunity_limit_turns"] == "enemy"
                            and st.sides.get(st.active) == st.sides[actor])
            if not on_ally_turn:
                b["opportunity"] = 0
        elif kind in ("interrupt", "reaction"):
            b["immediate"] = 0
        elif kind == "readied":
            b["immediate"] = 0
            b["readied"] = None
        if kind in ANSWERS:
            t = cx.trigger
            f.trigger = t.id
            if kind in ("interrupt", "opportunity") or (kind == "readied" and o["readied_as"] == "interrupt"):
                f.interrupting = True
            if t.moment is None and not t.finished and t.cur_pending:
                f.trigger_part = t.cur
        st.frames[fid] = f
        st.stack.append(f)
        return
    if kind == "end-turn":
        st.budgets[actor]["immediate"] = 1
        st._push_moment("turn-end")   # its id is turn-end@N; the step's own id names nothing
        return
    f = cx.top
    if kind == "resolve":
        f.cur_pending = False
        f.win = True                       # T-PARTS: this part's window opens, earlier one closed
        if f.cur == f.parts - 1:
            f.finished = True
            st.resolved.append(f.id)
            on_finish(st, f)
        st.close_owner_windows(f)
    elif kind == "continue":
        f.cur += 1
        f.cur_pending = True
        if o["reaction_window"] != "interrupts-next":
            f.win = False
    elif kind == "lose":
        f.lost = True
        f.finished = True
        f.win = True                       # keeps the window of the part in play
        st.lost.append(f.id)
        st.close_owner_windows(f)


def on_finish(st, f):
    if f.kind == "ready" and f.owner is not None:
        st.budgets[f.owner]["readied"] = f.readies or "standard"
    if f.trigger is not None:
        t = st.frames[f.trigger]
        if f.interrupting and t.moment is None and f.trigger_part is not None \
                and not t.finished and t.cur_pending and t.cur == f.trigger_part:
            t.interrupted_part = t.cur
        if f.kind == "readied":
            who = t.owner
            if who is not None and who != f.owner and who in st.initiative and f.owner in st.initiative:
                st.initiative.remove(f.owner)
                st.initiative.insert(st.initiative.index(who), f.owner)


# ---------------------------------------------------------------- protocol


def hello():
    return {"type": "hello", "format": 1, "protocol": 1, "engine": ENGINE,
            "rulesets": {"dnd4e": {"options": {
                "free_actions_per_turn": "integer-or-null",
                "readied_as": OPTION_VALUES["readied_as"],
                "opportunity_limit_turns": OPTION_VALUES["opportunity_limit_turns"],
                "reaction_window": OPTION_VALUES["reaction_window"]}}},
            "facts": ["budgets", "resolved", "lost", "state", "round", "active", "initiative", "stack"]}


DOC_FIELDS = {"format", "id", "ruleset", "description", "question", "answer", "comment",
              "tags", "rules", "options", "combatants", "initiative", "steps"}


def document_error(vector):
    """FORMAT.md, Errors and verdicts: a document that cannot be read is
    refused whole, before any step. None when it can be read."""
    unknown = [k for k in vector if k not in DOC_FIELDS]
    if unknown:
        return "unknown top-level field %r" % unknown[0]
    if not _is_int(vector.get("format")) or vector["format"] != 1:
        return "format must be the integer 1"
    cs = vector.get("combatants")
    if not isinstance(cs, list) or not cs or not all(
            isinstance(c, dict) and isinstance(c.get("id"), str) and isinstance(c.get("side"), str)
            for c in cs):
        return "combatants need an id and a side"
    ids = [c["id"] for c in cs]
    if len(set(ids)) != len(ids):
        return "two combatants with one id"
    at = [tuple(c["at"]) for c in cs if isinstance(c.get("at"), list)]
    if at and len(at) != len(cs):
        return "positions are all or none"
    if len(set(at)) != len(at):
        return "two combatants on one square"
    if not at and any("reach" in c for c in cs):
        return "reach without positions"
    ini = vector.get("initiative")
    if ini is not None and (not isinstance(ini, list) or not all(isinstance(x, str) for x in ini)
                            or sorted(ini) != sorted(ids)):
        return "initiative must list every combatant exactly once"
    if not isinstance(vector.get("steps"), list):
        return "steps missing"
    return None


def run_vector(vector):
    vid = vector.get("id", "")
    steps = vector.get("steps") if isinstance(vector.get("steps"), list) else []
    out = []
    bad = document_error(vector)
    if bad:
        return {"type": "result", "id": vid,
                "steps": [{"verdict": "error", "message": "bad vector: %s" % bad} for _ in steps]}
    st = State(vector)
    for n, step in enumerate(steps, 1):
        try:
            st, ans = judge(st, step, n)
            ans["facts"] = st.facts()
        except StepError as e:
            ans = {"verdict": "error", "error": e.code, "message": str(e)}
        out.append(ans)
    return {"type": "result", "id": vid, "steps": out}


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
            v = msg.get("vector") or {}
            try:
                reply = run_vector(v)
            except Exception as e:  # never die
                reply = {"type": "result", "id": v.get("id", ""),
                         "steps": [{"verdict": "error", "message": "engine failure: %s" % e}
                                   for _ in (v.get("steps") or [])]}
        else:
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
