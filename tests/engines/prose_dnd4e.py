#!/usr/bin/env python3
"""A D&D 4e engine written from the prose of spec/ alone: TIMING.md, FORMAT.md,
PRECEDENCE.md, PROTOCOL.md, rules.yaml and divergences.yaml, without the
reference's code and without the vectors. It shares no code with fsm.

It is kept to hold the written rules to their promise that they are enough
to build an engine: tests/test_prose_engines.py runs it on every vector and
fuzzes it against the reference. When the reference's behaviour changes, the
prose changes first and this engine follows the prose.

Speaks the JSON-lines protocol of spec/PROTOCOL.md on stdin/stdout; ruleset
dnd4e only, with the scene (FORMAT.md, The scene; TIMING.md, T-SCENE).
Standard library only.
"""
import copy
import pickle
import json
import re
import sys

ENGINE = "prose-dnd4e 0.1"

UNTRIGGERED = {"standard", "move", "minor", "ready", "free", "delay", "return"}
# T-4E-DELAY: untriggered steps that make no frame; the actions that make a delay come too late
DELAY_KINDS = {"delay", "return"}
OWN_ACTIONS = {"standard", "move", "minor", "ready", "free"}
ANSWERS = {"free-response", "no-action", "opportunity", "interrupt", "reaction", "readied"}
STACK_MOVES = {"resolve", "continue", "lose"}
ALL_KINDS = UNTRIGGERED | ANSWERS | STACK_MOVES | {"event", "end-turn"}
NEEDS_ACTOR = UNTRIGGERED | ANSWERS
NO_FRAME = STACK_MOVES | {"end-turn"} | DELAY_KINDS
# T-ERRORS: a frame's fields, `forced` among them, are errors on a step that makes no frame.
FRAME_FIELDS = ("squares", "attacks", "parts", "provokes", "triggers", "path", "shift",
                "forced", "attack", "targets")

STEP_FIELDS = {"actor", "attack", "attack_after", "attacks", "by", "comment", "do", "expect",
               "forced", "id", "name", "on", "own_trigger", "parts", "path", "provokes", "readies",
               "ruling", "shift", "squares", "targets", "teleport", "to", "triggers", "when"}
# FORMAT.md: the true/false fields and the kinds that take them, in T-ERRORS's order
# (its lists are in name order; `attack_after`, which it does not name, goes by its name).
FLAGS = (("attack_after", {"standard", "move", "minor", "interrupt", "reaction", "readied"}),
         ("own_trigger", {"opportunity"}),
         ("teleport", {"standard", "move", "minor", "interrupt", "reaction", "readied"}))
# T-ERRORS: these fields given as null are read as absent; any other null is bad-value.
NULL_IS_ABSENT = ("actor", "to", "name", "triggers", "by", "readies", "when")
# T-4E-READY: the circumstances a `ready` may name with `when`.
READY_WHEN = ("moves", "enters-reach", "leaves-reach", "attacks")
MOMENT_ID = re.compile(r"^turn-(start|end)@\d+$")    # FORMAT.md: always taken
ATTACKS = ("melee", "ranged", "area", "close")
FORCED = ("push", "pull", "slide", "teleport")

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
        ((TA,), ["4E-ACTION-TYPES", "4E-STANDARD-OWN-TURN", "4E-SURPRISE", "4E-ONE-AT-A-TIME", "4E-STANDARD",
                 "4E-SCENE-STATED"],
         [_c("own_turn", "not-your-turn", "4E-STANDARD-OWN-TURN"),
          _c("not_surprised", "surprised", "4E-SURPRISE"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME"),
          _c("standard_slot", "standard-action-used", "4E-STANDARD"),
          _c("one_action_in_surprise_round", "surprise-round-one-action", "4E-SURPRISE"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
        (NON_ACTING, None,
         [_c("own_turn", "not-your-turn", "4E-STANDARD-OWN-TURN"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME")]),
    ],
    "move": [
        ((TA,), ["4E-ACTION-TYPES", "4E-MOVE", "4E-SURPRISE", "4E-ONE-AT-A-TIME", "4E-MOVE-ONE", "4E-SUBSTITUTE",
                 "4E-SCENE-STATED"],
         [_c("own_turn", "not-your-turn", "4E-MOVE"),
          _c("not_surprised", "surprised", "4E-SURPRISE"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME"),
          _c("move_slot", "move-action-used", "4E-MOVE-ONE", "4E-SUBSTITUTE"),
          _c("one_action_in_surprise_round", "surprise-round-one-action", "4E-SURPRISE"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
        (NON_ACTING, None,
         [_c("own_turn", "not-your-turn", "4E-MOVE"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME")]),
    ],
    "minor": [
        ((TA,), ["4E-ACTION-TYPES", "4E-MINOR", "4E-SURPRISE", "4E-ONE-AT-A-TIME", "4E-MINOR-ONE", "4E-SUBSTITUTE",
                 "4E-SCENE-STATED"],
         [_c("own_turn", "not-your-turn", "4E-MINOR"),
          _c("not_surprised", "surprised", "4E-SURPRISE"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME"),
          _c("minor_slot", "minor-action-used", "4E-MINOR-ONE", "4E-SUBSTITUTE"),
          _c("one_action_in_surprise_round", "surprise-round-one-action", "4E-SURPRISE"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
        (NON_ACTING, None,
         [_c("own_turn", "not-your-turn", "4E-MINOR"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME")]),
    ],
    "ready": [
        ((TA,), ["4E-READY", "4E-READY-COST", "4E-SURPRISE", "4E-ONE-AT-A-TIME"],
         [_c("own_turn", "not-your-turn", "4E-READY-COST"),
          _c("not_surprised", "surprised", "4E-SURPRISE"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME"),
          _c("standard_slot", "standard-action-used", "4E-READY-COST"),
          _c("one_action_in_surprise_round", "surprise-round-one-action", "4E-SURPRISE")]),
        (NON_ACTING, None,
         [_c("own_turn", "not-your-turn", "4E-READY-COST"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME")]),
    ],
    "free": [
        ((TS, TA, WI, WR, TE), ["4E-ACTION-TYPES", "4E-FREE", "4E-SURPRISE", "4E-ONE-AT-A-TIME", "4E-FREE-LIMIT",
                                "4E-SCENE-STATED"],
         [_c("not_surprised", "surprised", "4E-SURPRISE"),
          _c("no_own_action_pending", "own-action-in-progress", "4E-ONE-AT-A-TIME"),
          _c("free_within_limit", "free-action-limit", "4E-FREE-LIMIT"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
    ],
    "free-response": [
        (ANSWER_PHASES, ["4E-TRIGGERED-FREE", "4E-FREE", "4E-TRIGGER", "4E-STACK", "4E-SURPRISE",
                         "4E-FREE-LIMIT", "4E-SCENE-STATED"],
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-STACK"),
          _c("nothing_unresolved_above", "unresolved-above", "4E-STACK"),
          _c("not_surprised", "surprised", "4E-SURPRISE"),
          _c("free_within_limit", "free-action-limit", "4E-FREE-LIMIT"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
        ((TA,), None,
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-STACK")]),
    ],
    "no-action": [
        (ANSWER_PHASES, ["4E-TRIGGERED-FREE", "4E-NO-ACTION", "4E-TRIGGER", "4E-STACK", "4E-SURPRISE",
                         "4E-SCENE-STATED"],
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-STACK"),
          _c("nothing_unresolved_above", "unresolved-above", "4E-STACK"),
          _c("not_surprised", "surprised", "4E-SURPRISE"),
          _c("provocation_fits_scene", "provocation-contradicts-scene", "4E-SCENE-STATED")]),
        ((TA,), None,
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-STACK")]),
    ],
    "opportunity": [
        (ANSWER_PHASES, ["4E-OPP-ANYONE", "4E-TRIGGER", "4E-STACK", "4E-SURPRISE", "4E-OPP-OWN-TURN",
                         "4E-OPP-INTERRUPTS", "4E-OPP-TRIGGER", "4E-SCENE-GRID", "4E-OPP-ONCE",
                         "4E-SCENE-STATED"],
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-STACK"),
          _c("nothing_unresolved_above", "unresolved-above", "4E-STACK"),
          _c("not_surprised", "surprised", "4E-SURPRISE"),
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
        (ANSWER_PHASES, ["4E-IMM-KINDS", "4E-IMM-TRIGGER", "4E-STACK", "4E-SURPRISE", "4E-IMM-OWN-TURN",
                         "4E-INTERRUPT", "4E-IMM-ONCE", "4E-SCENE-STATED"],
         [_c("has_trigger", "no-trigger", "4E-IMM-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-STACK"),
          _c("nothing_unresolved_above", "unresolved-above", "4E-STACK"),
          _c("not_surprised", "surprised", "4E-SURPRISE"),
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
                         "4E-SURPRISE", "4E-IMM-OWN-TURN", "4E-REACTION", "4E-REACTION-MOVE", "4E-SCENE-GRID",
                         "4E-INTERRUPT-LOST", "4E-IMM-ONCE", "4E-SCENE-STATED"],
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-REACTION-NEXT", "4E-REACTION-WINDOW"),
          _c("nothing_unresolved_above", "unresolved-above", "4E-STACK"),
          _c("not_surprised", "surprised", "4E-SURPRISE"),
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
                         "4E-REACTION-WINDOW", "4E-STACK", "4E-SURPRISE", "4E-IMM-OWN-TURN",
                         "4E-READY-TIMING", "4E-REACTION-MOVE", "4E-SCENE-GRID", "4E-INTERRUPT-LOST",
                         "4E-IMM-ONCE", "4E-SCENE-STATED"],
         [_c("has_trigger", "no-trigger", "4E-TRIGGER"),
          _c("trigger_still_open", "trigger-passed", "4E-REACTION-NEXT", "4E-REACTION-WINDOW"),
          _c("nothing_unresolved_above", "unresolved-above", "4E-STACK"),
          _c("not_surprised", "surprised", "4E-SURPRISE"),
          _c("immediate_not_own_turn", "immediate-on-own-turn", "4E-IMM-OWN-TURN"),
          _c("has_readied", "no-readied-action", "4E-READY"),
          _c("readied_timing", "readied-timing", "4E-READY-TIMING"),
          _c("readied_trigger_met", "readied-trigger-not-met", "4E-READY"),
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
    "delay": [
        ((TA,), ["4E-DELAY", "4E-SURPRISE", "4E-ONE-AT-A-TIME"],
         [_c("own_turn", "not-your-turn", "4E-DELAY"),
          _c("not_surprised", "surprised", "4E-SURPRISE"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME"),
          _c("not_yet_acted", "delay-after-acting", "4E-DELAY")]),
        (NON_ACTING, None,
         [_c("own_turn", "not-your-turn", "4E-DELAY"),
          _c("no_action_pending", "action-in-progress", "4E-ONE-AT-A-TIME")]),
    ],
    "return": [
        ((TE,), ["4E-DELAY"],
         [_c("delaying", "not-delaying", "4E-DELAY")]),
        ((TS, TA, WI, WR), None,
         [_c("delaying", "not-delaying", "4E-DELAY"),
          _c("between_turns", "not-between-turns", "4E-DELAY")]),
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
        self.cuts_in = False        # an immediate reaction (reaction, readied-as-reaction)
        self.interrupted_part = None
        self.readies = None
        self.when = None            # a ready's circumstance (T-4E-READY)
        self.by = None
        # the scene (FORMAT.md, The scene)
        self.path = None            # the squares entered, one per part
        self.start = None           # where the owner stood when the step was declared
        self.shift = False
        self.forced = None
        self.teleport = False       # the actor's own teleport (FORMAT.md, The scene)
        self.attack_after = False   # with a path: the attack is one more part, after it
        self.attack = None
        self.targets = []


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
        self.readied_trigger = {}   # {combatant: (when, by)} of what it readied (T-4E-READY)
        # T-4E-SURPRISE: who is surprised, and the actions (standard, move, minor,
        # ready) the active combatant has taken on this turn
        self.surprised = {c["id"] for c in combatants if c.get("surprised") is True}
        self.turn_actions = 0
        # T-4E-DELAY: whether the active combatant took an action of its own on
        # this turn (a delay then comes too late), and who is delaying
        self.own_acted = False
        self.delaying = set()
        self.positions = None       # {combatant: (x, y)} when the encounter has a scene
        self.reach = {}
        if all("at" in c for c in combatants):
            self.positions = {c["id"]: tuple(c["at"]) for c in combatants}
            self.reach = {c["id"]: c.get("reach", 1) for c in combatants}
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

    def surprise_round(self):
        """T-4E-SURPRISE: round 1, when some combatant is surprised; only the round decides."""
        return self.round == 1 and bool(self.surprised)

    def turn_ended(self):
        return any(f.moment == "turn-end" for f in self.stack)

    def next_start_id(self):
        """The next turn's turn-start moment, which an answer may name once
        the turn has ended (T-NEXT-TURN)."""
        return "turn-start@%d" % (self.turn + 1)

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
        self.close_all_windows()
        n = len(self.initiative)
        idx = self.initiative.index(self.active) if self.active in self.initiative else -1
        if idx >= n - 1:
            self.round += 1
        nxt = self.initiative[(idx + 1) % n]
        b = self.budgets[nxt]
        if nxt in self.delaying:
            # T-4E-DELAY: its delayed turn, not taken, is lost: that turn is over
            self.delaying.discard(nxt)
            b["immediate"] = 1
        self.begin_turn(nxt)
        b["readied"] = None
        self._push_moment("turn-start")

    def close_all_windows(self):
        while self.stack:
            self.pop()
        for f in self.frames.values():
            f.win = False
            f.kept = False

    def begin_turn(self, who):
        """A new turn, numbered next: its owner active, the budgets of a turn back."""
        self.turn += 1
        self.active = who
        self.turn_actions = 0
        self.own_acted = False
        for cid, b in self.budgets.items():
            b["opportunity"] = 1
            b["free_used"] = 0
        b = self.budgets[who]
        b["standard"] = b["move"] = b["minor"] = 1

    def take_delayed_turn(self, who):
        """T-4E-DELAY: `return` between two turns: the turn-end moment leaves,
        every window closes, `who` moves to just after the combatant whose turn
        ended and its delayed turn begins there, with no turn-start moment."""
        self.close_all_windows()
        self.delaying.discard(who)
        self.initiative.remove(who)
        self.initiative.insert(self.initiative.index(self.active) + 1, who)
        self.begin_turn(who)

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
        """T-SETTLE 3: T-CUT-IN, T-LEAVE or T-TURN-START, T-NEXT-TURN, until
        none applies."""
        while self.stack:
            top = self.stack[-1]
            if top.moment == "turn-start":
                if (kind in UNTRIGGERED or kind == "end-turn") and actor == self.active:
                    self.pop()
                    continue
                break
            if top.moment == "turn-end":
                if kind == "return":    # T-4E-DELAY: it starts a turn in place of the next
                    break
                if kind not in ANSWERS or trigger_id == self.next_start_id():
                    self.next_turn()
                    continue
                break
            if not top.finished or not self.leaves(top, kind, actor, trigger_id):
                break
            self.pop(keep=self.kept_by_cut_in(top, kind, actor))

    def leaves(self, top, kind, actor, trigger_id):
        """T-LEAVE: does the finished frame on top leave before this step?"""
        untrig = kind in UNTRIGGERED or kind == "end-turn"
        return (kind in STACK_MOVES
                or (kind in ANSWERS and trigger_id != top.id)
                or (untrig and actor is not None and actor == top.owner)
                or (untrig and actor is not None and actor == self.active)
                or (kind not in ANSWERS and self.turn_ended()))

    def kept_by_cut_in(self, top, kind, actor):
        """T-CUT-IN (4e, reaction_window: interrupts-next)."""
        untrig = kind in UNTRIGGERED or kind == "end-turn"
        return (self.options["reaction_window"] == "interrupts-next" and not top.lost
                and top.kind != "event" and top.win and untrig
                and actor is not None and actor == top.owner)

    # -- facts
    def facts(self):
        out = {
            "state": self.phase(),
            "round": self.round,
            "active": self.active,
            "initiative": list(self.initiative),
            "budgets": copy.deepcopy(self.budgets),
            "resolved": list(self.resolved),
            "lost": list(self.lost),
            "stack": [f.id for f in self.stack if not f.moment],
        }
        if self.positions is not None:
            out["positions"] = {c: list(q) for c, q in self.positions.items()}
        return out


# ---------------------------------------------------------------- the grid
# ASM-SCENE-GRID: the eight squares around a square are next to it; distance
# and reach count a diagonal step as one.


def distance(a, b):
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def next_to(a, b):
    return distance(a, b) == 1


def enemies(st, who):
    return [c for c in st.sides if st.sides[c] != st.sides[who]]


def move_provokes(path, shift, forced, teleport=False):
    """A path's movement provokes unless it is a shift, forced or the actor's
    own teleport (ASM-FORCED-MOVE); a step without a path moves nobody."""
    return bool(path) and not shift and not forced and not teleport


def provokes_now(st, f, c):
    """T-SCENE: does frame f, its part pending, provoke combatant c as they
    stand now? Its owner stands on the square it is leaving."""
    if f.moment or f.owner is None or c not in enemies(st, f.owner):
        return False
    near = next_to(st.positions[f.owner], st.positions[c])
    if f.attack_after:   # ASM-POWER-ORDER: the squares' parts make no attack, the last moves nobody
        if f.cur == len(f.path):
            return near and f.attack in ("ranged", "area")
        return near and move_provokes(f.path, f.shift, f.forced, f.teleport)
    by_attack = f.attack in ("ranged", "area")
    return near and (by_attack or move_provokes(f.path, f.shift, f.forced, f.teleport))


def declared_provokes(st, actor, step):
    """T-SCENE: a stated `provokes` is compared with the positions when the
    step is declared: every enemy next to every square its path leaves
    (where the actor stands, then each square but the last), not a shift
    nor a `forced` path nor a `teleport`, and for a ranged or area attack every enemy next to
    where the actor stands (next to the path's last square for an attack after its path)."""
    if actor is None:
        return set()
    here = st.positions[actor]
    foes = enemies(st, actor)
    path = [tuple(q) for q in step["path"]] if step.get("path") else []
    left = []
    if move_provokes(path, step.get("shift") is True, step.get("forced"),
                     step.get("teleport") is True):
        left = [here] + path[:-1]
    if step.get("attack") in ("ranged", "area"):
        left.append(path[-1] if path and step.get("attack_after") is True else here)
    return {c for c in foes for q in left if next_to(q, st.positions[c])}


def entry_part(st, f, c):
    """ASM-SCENE-GRID: the part whose square is the first within c's reach
    after one outside it; None when the path never enters it."""
    if not f.path:
        return None
    here, r = st.positions[c], st.reach[c]
    prev = f.start
    for i, q in enumerate(f.path):
        if distance(q, here) <= r < distance(prev, here):
            return i
        prev = q
    return None


def scene_loss(st, f):
    """T-SCENE, ASM-SCENE-LOSS: interrupting frame f (or an immediate reaction
    to an attack with parts to come) resolved wholly; the melee attack it
    answered, still unresolved, is lost when none of its targets is within
    its attacker's reach."""
    if st.positions is None or not (f.interrupting or f.cuts_in) or f.trigger is None:
        return
    t = st.frames[f.trigger]
    if t.moment or t.finished or t.attack != "melee" or not t.targets or t.owner is None:
        return
    # the reach of an attack after its path is measured from the path's last square
    here = t.path[-1] if t.attack_after else st.positions[t.owner]
    r = st.reach[t.owner]
    if not any(distance(here, st.positions[x]) <= r for x in t.targets):
        mark_lost(st, t)


def mark_lost(st, f):
    f.lost = True
    f.finished = True
    f.win = True                       # keeps the window of the part in play
    st.lost.append(f.id)
    st.close_owner_windows(f)


# ---------------------------------------------------------------- reading
# T-ERRORS: the first error in this order is reported: an unknown field, `do`,
# a frame's field on a step that makes no frame, `actor`, `id`, `to` on a step
# that answers nothing, `on`, two part counts, a part count's value,
# `provokes`, `triggers`, `attack`, `targets`, `shift`, `forced`, `path`
# (_read_path gives its own order), `ruling`, `name`, the true/false fields
# (`attack_after`, `own_trigger`, `teleport`), the free-text fields in name
# order (`by`, `readies`, `when`); a `to` naming no frame comes last (find_trigger).


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _strings(v, nonempty=False):
    return isinstance(v, list) and all(isinstance(x, str) for x in v) and (v or not nonempty)


def _is_square(q):
    return isinstance(q, list) and len(q) == 2 and all(
        _is_int(c) and -10000 <= c <= 10000 for c in q)


def err(code, msg):
    raise StepError(code, msg)


def read_step(st, step, n):
    """Validate; return (kind, actor, frame id, the step with its nulls read
    as absent). Raises StepError."""
    if not isinstance(step, dict):
        err("not-an-object", "step is not an object")
    for k in step:
        if k not in STEP_FIELDS:
            err("unknown-field", "unknown field %r" % k)
    step = {k: v for k, v in step.items() if not (v is None and k in NULL_IS_ABSENT)}
    kind = _read_kind(step)
    actor = _read_actor(st, step, kind)
    fid = _read_id(st, step, n)
    _read_answer_fields(step, kind)
    _read_counts(step)
    _read_lists(st, step)
    _read_shift_forced(step, kind)
    _read_path(st, step, actor, kind)
    _read_texts(st, step, kind)
    return kind, actor, fid, step


def _read_kind(step):
    if step.get("do") is None:      # T-ERRORS: missing or null
        err("missing-kind", "a step without 'do'")
    kind = step["do"]
    if not isinstance(kind, str) or kind not in ALL_KINDS:
        err("unknown-kind", "unknown step kind %r" % (kind,))
    if kind in NO_FRAME:
        for k in FRAME_FIELDS:
            if k in step:
                err("field-of-another-kind", "%r on %s, which makes no frame" % (k, kind))
    return kind


def _read_actor(st, step, kind):
    if "actor" not in step:
        if kind in NEEDS_ACTOR:
            err("missing-actor", "%s needs an actor" % kind)
        return None
    actor = step["actor"]
    if not isinstance(actor, str):
        err("bad-value", "actor must be a string")
    if actor not in st.sides:
        err("unknown-combatant", "unknown combatant %r" % actor)
    return actor


def _read_id(st, step, n):
    if "id" in step:
        fid = step["id"]
        if not isinstance(fid, str) or not fid or fid in ("turn-start", "turn-end"):
            err("bad-value", "bad id")
        if fid in st.frames or MOMENT_ID.match(fid):
            err("id-taken", "id %r is taken" % fid)
        return fid
    fid = "s%d" % n
    k = 2
    while fid in st.frames:
        fid = "s%d#%d" % (n, k)
        k += 1
    return fid


def _read_answer_fields(step, kind):
    for k in ("to", "on"):
        if k in step:
            if kind not in ANSWERS:
                err("field-of-another-kind", "%r on a step that answers nothing" % k)
            if not isinstance(step[k], str):
                err("bad-value", "%s must be a string" % k)


def _read_counts(step):
    given = [k for k in ("squares", "attacks", "parts") if k in step]
    if len(given) > 1:
        err("two-part-counts", "at most one of squares, attacks, parts")
    for k in given:
        if not _is_int(step[k]) or not 1 <= step[k] <= 100:
            err("bad-value", "%s out of range" % k)


def _read_combatants(st, step, key, nonempty):
    if key not in step:
        return
    if not _strings(step[key], nonempty):
        err("bad-value", "%s must be a list of combatant ids" % key)
    for x in step[key]:
        if x not in st.sides:
            err("unknown-combatant", "unknown combatant %r in %s" % (x, key))


def _read_lists(st, step):
    _read_combatants(st, step, "provokes", False)
    if "triggers" in step and not _strings(step["triggers"], nonempty=True):
        err("bad-value", "triggers must be a non-empty list of strings")
    if "attack" in step and step["attack"] not in ATTACKS:
        err("bad-value", "bad attack")
    _read_combatants(st, step, "targets", True)


def _read_shift_forced(step, kind):
    if "shift" in step:
        if not isinstance(step["shift"], bool):
            err("bad-value", "shift must be a boolean")
        if "path" not in step:
            err("shift-without-path", "shift needs a path")
    if "forced" in step:
        if kind != "event":
            err("field-of-another-kind", "'forced' belongs to an event")
        if step["forced"] not in FORCED:
            err("bad-value", "bad forced")
        if "path" not in step:
            err("forced-without-path", "forced needs a path")


def _read_path(st, step, actor, kind):
    """T-ERRORS, in this order: path-without-scene, a path without an actor
    (missing-actor), its list and squares (bad-value), a teleport of more
    than one square, a square not next to the last, the last square on
    another combatant (bad-path), then a part count beside it. A step whose
    kind takes `teleport` and says `"teleport": true` has its path read as a
    teleport's, before the flag itself is read."""
    if "path" not in step:
        return
    if st.positions is None:
        err("path-without-scene", "path needs a scene")
    if actor is None:
        err("missing-actor", "a path needs an actor to walk it")
    path = step["path"]
    if not isinstance(path, list) or not 1 <= len(path) <= 100 or not all(
            _is_square(q) for q in path):
        err("bad-value", "path must be a list of squares")
    teleport = step.get("forced") == "teleport" or (
        step.get("teleport") is True and kind in dict(FLAGS)["teleport"])
    _walk(st, [tuple(q) for q in path], actor, teleport)
    given = [k for k in ("squares", "attacks", "parts") if k in step]
    if given and (given != ["squares"] or step["squares"] != len(path)):
        err("two-part-counts", "beside a path, only squares equal to its length")


def _walk(st, squares, actor, teleport):
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


def _read_texts(st, step, kind):
    if "ruling" in step and step["ruling"] not in ("allow", "deny"):
        err("bad-value", "bad ruling")
    if "name" in step and not isinstance(step["name"], str):
        err("bad-value", "name must be a string")
    for k, kinds in FLAGS:      # each: a kind that does not take it, then its value
        if k in step:
            if kind not in kinds:
                err("field-of-another-kind", "%r does not belong to %s" % (k, kind))
            if not isinstance(step[k], bool):
                err("bad-value", "%s must be true or false" % k)
    for k in ("by", "readies", "when"):     # each: its kind, its value, then its meaning
        if k in step:
            if kind != "ready":
                err("field-of-another-kind", "%r belongs to a ready step" % k)
            if not isinstance(step[k], str):
                err("bad-value", "%s must be a string" % k)
            if k == "by" and step[k] not in st.sides:
                err("unknown-combatant", "unknown combatant %r in by" % step[k])
            if k == "when" and step[k] not in READY_WHEN:
                err("bad-value", "when must be one of %s" % ", ".join(READY_WHEN))
    # T-ERRORS: `comment` is never read, whatever its value.


# ---------------------------------------------------------------- judging


class Ctx:
    pass


def run_check(name, st, cx):
    if name in ACTION_CHECKS:
        return ACTION_CHECKS[name](st, cx)
    if name in TRIGGER_CHECKS:
        return TRIGGER_CHECKS[name](st, cx, cx.trigger)
    if name in STACK_CHECKS:
        return STACK_CHECKS[name](cx.top)
    raise RuntimeError("unknown check " + name)


def _free_within_limit(st, cx):
    lim = st.options["free_actions_per_turn"]
    return lim is None or st.budgets[cx.actor]["free_used"] < lim


def _minor_slot(st, cx):
    b = st.budgets[cx.actor]
    return b["minor"] > 0 or b["move"] > 0 or b["standard"] > 0


def _provocation_fits_scene(st, cx):
    """ASM-SCENE-STATED: a stated `provokes` equals what the positions show."""
    if st.positions is None or "provokes" not in cx.step:
        return True
    return set(cx.step["provokes"]) == declared_provokes(st, cx.actor, cx.step)


ACTION_CHECKS = {
    "own_turn": lambda st, cx: cx.actor == st.active,
    "no_action_pending": lambda st, cx: not any(not g.finished for g in st.stack),
    "standard_slot": lambda st, cx: st.budgets[cx.actor]["standard"] > 0,
    "move_slot": lambda st, cx: (st.budgets[cx.actor]["move"] > 0
                                 or st.budgets[cx.actor]["standard"] > 0),
    "minor_slot": _minor_slot,
    "provocation_fits_scene": _provocation_fits_scene,
    "no_own_action_pending": lambda st, cx: not any(
        (not g.finished) and g.owner == cx.actor for g in st.stack),
    "free_within_limit": _free_within_limit,
    "not_surprised": lambda st, cx: not (st.surprise_round() and cx.actor in st.surprised),
    "one_action_in_surprise_round": lambda st, cx: not st.surprise_round() or st.turn_actions == 0,
    "opportunity_not_own_turn": lambda st, cx: cx.actor != st.active,
    "immediate_not_own_turn": lambda st, cx: cx.actor != st.active,
    "immediate_unused": lambda st, cx: st.budgets[cx.actor]["immediate"] > 0,
    "has_readied": lambda st, cx: st.budgets[cx.actor]["readied"] is not None,
    "not_yet_acted": lambda st, cx: not st.own_acted,
    "delaying": lambda st, cx: cx.actor in st.delaying,
    "between_turns": lambda st, cx: st.phase() == TE,
    "something_pending": lambda st, cx: cx.top is not None,
    "actor_on_top": lambda st, cx: cx.actor is None or cx.actor == cx.top.owner,
}


def _nothing_unresolved_above(st, cx, f):
    if not f.on_stack or f not in st.stack:
        return True
    i = st.stack.index(f)
    return not any(not g.finished for g in st.stack[i + 1:])


def _provoked(st, cx, f):
    """T-SCENE: an opportunity action with its own trigger (`own_trigger`)
    needs no provocation, positions or none; a turn moment is still no one's
    action (not-provoked)."""
    if cx.step.get("own_trigger") is True:
        return f.moment is None
    if st.positions is None:
        return cx.actor in f.provokes
    return provokes_now(st, f, cx.actor)


def _opportunity_unused(st, cx, f):
    if st.budgets[cx.actor]["opportunity"] > 0:
        return True
    return (st.options["opportunity_limit_turns"] == "enemy"
            and st.sides.get(st.active) == st.sides[cx.actor])


def _readied_timing(st, cx, f):
    if st.options["readied_as"] == "interrupt":
        return trigger_pending(f)
    return trigger_resolved(f) and moved_one_square(f)


def _readied_trigger_met(st, cx, f):
    """T-4E-READY: the trigger is the doing of the combatant `by` names and the
    circumstance `when` names, read on its part that resolved last, or, under
    `readied_as: interrupt`, on its part pending. Without either, not checked."""
    when, by = st.readied_trigger.get(cx.actor, (None, None))
    if by is not None and f.owner != by:
        return False
    if when is None:
        return True
    if f.moment is not None:       # a turn moment is none of the circumstances
        return False
    if when == "attacks":
        return f.attack is not None or f.kind == "opportunity"
    if when == "moves" or st.positions is None:
        return f.is_move
    part = f.cur if st.options["readied_as"] == "interrupt" or not f.cur_pending else f.cur - 1
    if not f.path or not 0 <= part < len(f.path):
        return False               # no path, or the attack after it, crosses no square
    here, r = st.positions[cx.actor], st.reach[cx.actor]
    before = f.path[part - 1] if part > 0 else f.start
    inside, was = distance(f.path[part], here) <= r, distance(before, here) <= r
    return inside and not was if when == "enters-reach" else was and not inside


def _movement_in_progress(st, cx, f):
    """not-mid-move: an answer `on: enters-reach` comes while the move is under
    way; with a scene, also after a move that entered the reach on its last
    square resolved (T-SCENE). A lost move is not under way (T-PARTS)."""
    if cx.step.get("on") != "enters-reach":
        return True
    if f.moment is not None or not f.is_move or f.lost:
        return False
    if not f.finished:
        return True
    # the move's last part: for an attack after its path, that attack (T-SCENE)
    return (st.positions is not None and f.path is not None
            and entry_part(st, f, cx.actor) == f.parts - 1)


def _reach_entered(st, cx, f):
    """reach-not-entered: the part entering the answerer's reach has resolved."""
    if st.positions is None or cx.step.get("on") != "enters-reach":
        return True
    i = entry_part(st, f, cx.actor)
    if i is None:
        return False
    return f.cur > i or (f.cur == i and not f.cur_pending)


TRIGGER_CHECKS = {
    "has_trigger": lambda st, cx, f: f is not None,
    "trigger_still_open": lambda st, cx, f: trigger_open(f),
    "nothing_unresolved_above": _nothing_unresolved_above,
    "trigger_pending": lambda st, cx, f: trigger_pending(f),
    "triggered_by_enemy": lambda st, cx, f: (f.owner is not None
                                             and st.sides.get(f.owner) != st.sides[cx.actor]),
    "provoked": _provoked,
    "opportunity_unused": _opportunity_unused,
    "trigger_resolved": lambda st, cx, f: trigger_resolved(f),
    "moved_one_square": lambda st, cx, f: moved_one_square(f),
    "movement_in_progress": _movement_in_progress,
    "reach_entered": _reach_entered,
    "trigger_took_effect": lambda st, cx, f: not f.lost,
    "readied_timing": _readied_timing,
    "readied_trigger_met": _readied_trigger_met,
}

STACK_CHECKS = {
    "part_pending": lambda top: top.cur_pending,
    "part_resolved": lambda top: not top.cur_pending,
    "interrupted": lambda top: top.cur_pending and top.interrupted_part == top.cur,
}


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
    """T-ANSWER: the id of the trigger named by `to`, before settling; it may
    be a moment not yet on the stack (then has_trigger fails) or, once the
    turn has ended, the next turn's turn-start (T-NEXT-TURN). Raises StepError."""
    to = step.get("to")
    if to is None:
        return st.stack[-1].id if st.stack else None
    if to in ("turn-start", "turn-end"):
        return "%s@%d" % (to, st.turn)
    if to in st.frames or (st.turn_ended() and to == st.next_start_id()):
        return to
    raise StepError("unknown-trigger", "to names no frame: %r" % to)


def default_end_turn_actor(st):
    """T-NEXT-TURN: the active combatant, or the next one once the turn ended."""
    if st.turn_ended() and st.initiative:
        i = st.initiative.index(st.active) if st.active in st.initiative else -1
        return st.initiative[(i + 1) % len(st.initiative)]
    return st.active


def checks_for(kind, ph):
    for phases, allowed_rules, checks in TABLE[kind]:
        if ph in phases:
            return allowed_rules, checks
    raise RuntimeError("no line for %s in %s" % (kind, ph))


def judge(st, step, n):
    kind, actor, fid, step = read_step(st, step, n)
    tid = find_trigger(st, step) if kind in ANSWERS else None
    if kind == "end-turn" and actor is None:
        actor = default_end_turn_actor(st)
    work = pickle.loads(pickle.dumps(st, -1))   # T-REFUSED: a refused step changes nothing
    work.settle(kind, actor, tid)
    cx = Ctx()
    cx.actor = actor
    cx.step = step
    cx.trigger = work.frames.get(tid) if tid is not None else None
    cx.top = work.top_unresolved() if kind in STACK_MOVES else None
    allowed_rules, checks = checks_for(kind, work.phase())
    for name, reason, rules in checks:
        if not run_check(name, work, cx):
            return st, {"verdict": "rejected", "reason": reason, "rules": list(rules)}
    if allowed_rules is None:
        # a refused line whose checks all passed: should not happen
        return st, {"verdict": "rejected", "reason": checks[-1][1], "rules": list(checks[-1][2]),
                    "notes": ["engine: refused phase %s with no failing check" % work.phase()]}
    apply_effect(work, kind, actor, fid, step, cx)
    return work, {"verdict": "allowed", "reason": None, "rules": list(allowed_rules)}


# ---------------------------------------------------------------- effects


def spend_action(b, kind):
    order = {"standard": ["standard"], "move": ["move", "standard"],
             "minor": ["minor", "move", "standard"]}[kind]
    for k in order:
        if b[k] > 0:
            b[k] -= 1
            return


def spend(st, kind, actor, step):
    o = st.options
    b = st.budgets[actor] if actor is not None else None
    if kind in ("standard", "move", "minor", "ready"):
        st.turn_actions += 1            # T-4E-SURPRISE: free actions are not counted
    if kind in ("standard", "move", "minor"):
        spend_action(b, kind)
    elif kind == "ready":
        b["standard"] -= 1
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


def new_frame(st, kind, actor, fid, step):
    path = [tuple(q) for q in step["path"]] if "path" in step else None
    # FORMAT.md: with `attack_after` and a path, the attack is one part more than its squares
    after = bool(path) and step.get("attack_after") is True
    parts = len(path) + after if path else (step.get("squares") or step.get("attacks")
                                            or step.get("parts") or 1)
    is_move = kind == "move" or "squares" in step or path is not None
    f = Frame(fid, kind, actor, parts=parts, is_move=is_move, provokes=step.get("provokes") or ())
    f.path = path
    f.start = st.positions[actor] if st.positions is not None and actor is not None else None
    f.shift = step.get("shift") is True
    f.forced = step.get("forced")
    f.teleport = step.get("teleport") is True
    f.attack_after = after
    f.attack = step.get("attack")
    f.targets = list(step.get("targets") or [])
    if kind == "ready":
        f.readies = step.get("readies", "standard")
        f.when, f.by = step.get("when"), step.get("by")
    return f


def mark_answer(st, f, t):
    f.trigger = t.id
    if f.kind in ("interrupt", "opportunity") or (
            f.kind == "readied" and st.options["readied_as"] == "interrupt"):
        f.interrupting = True
    # T-STACK-MOVES: an immediate reaction comes before the rest of its trigger
    f.cuts_in = f.kind == "reaction" or (f.kind == "readied"
                                         and st.options["readied_as"] == "reaction")
    if t.moment is None and not t.finished and t.cur_pending:
        f.trigger_part = t.cur


def apply_effect(st, kind, actor, fid, step, cx):
    if kind in OWN_ACTIONS and actor == st.active:
        st.own_acted = True              # T-4E-DELAY: a delay now comes too late
    if kind == "delay":
        # T-4E-DELAY: no turn-end moment, no immediate action back; the next turn starts
        st.delaying.add(actor)
        st.next_turn()
    elif kind == "return":
        st.take_delayed_turn(actor)
    elif kind in UNTRIGGERED or kind in ANSWERS or kind == "event":
        f = new_frame(st, kind, actor, fid, step)   # an event's actor owns it (T-EVENT)
        spend(st, kind, actor, step)
        if kind in ANSWERS:
            mark_answer(st, f, cx.trigger)
        st.frames[fid] = f
        st.stack.append(f)
    elif kind == "end-turn":
        st.budgets[actor]["immediate"] = 1
        st._push_moment("turn-end")   # its id is turn-end@N; the step's own id names nothing
    elif kind == "resolve":
        resolve_part(st, cx.top)
    elif kind == "continue":
        f = cx.top
        f.cur += 1
        f.cur_pending = True
        if st.options["reaction_window"] != "interrupts-next":
            f.win = False
    elif kind == "lose":
        mark_lost(st, cx.top)


def resolve_part(st, f):
    """T-PARTS; T-SCENE: when a part of a path resolves, its owner stands on
    that part's square."""
    f.cur_pending = False
    f.win = True                       # T-PARTS: this part's window opens, earlier one closed
    if f.path is not None and f.owner is not None and f.cur < len(f.path):
        st.positions[f.owner] = f.path[f.cur]   # an attack after the path moves nobody
    st.close_owner_windows(f)          # T-OWNER: the part resolved ...
    if f.cur == f.parts - 1:
        f.finished = True
        st.resolved.append(f.id)
        on_finish(st, f)               # ... then a scene loss it causes (T-SCENE)


def on_finish(st, f):
    if f.kind == "ready" and f.owner is not None:
        st.budgets[f.owner]["readied"] = f.readies or "standard"
        st.readied_trigger[f.owner] = (f.when, f.by)
    if f.trigger is None:
        return
    t = st.frames[f.trigger]
    if f.interrupting and t.moment is None and f.trigger_part is not None \
            and not t.finished and t.cur_pending and t.cur == f.trigger_part:
        t.interrupted_part = t.cur
    if f.cuts_in and t.moment is None and not t.finished:
        # T-STACK-MOVES: the part pending, or the next one if between parts,
        # may be lost until a part of the frame resolves
        t.interrupted_part = t.cur if t.cur_pending else t.cur + 1
    if f.kind == "readied":
        who = t.owner
        if who is not None and who != f.owner and who in st.initiative and f.owner in st.initiative:
            st.initiative.remove(f.owner)
            st.initiative.insert(st.initiative.index(who), f.owner)
    scene_loss(st, f)


# ---------------------------------------------------------------- protocol


def hello():
    return {"type": "hello", "format": 1, "protocol": 1, "engine": ENGINE,
            "rulesets": {"dnd4e": {"options": {
                "free_actions_per_turn": "integer-or-null",
                "readied_as": OPTION_VALUES["readied_as"],
                "opportunity_limit_turns": OPTION_VALUES["opportunity_limit_turns"],
                "reaction_window": OPTION_VALUES["reaction_window"]}}},
            "facts": ["budgets", "resolved", "lost", "state", "round", "active", "initiative", "stack",
                      "positions"],
            "features": ["scene"]}


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
    return (combatants_error(vector.get("combatants")) or initiative_error(vector)
            or options_error(vector.get("options"))
            or (None if isinstance(vector.get("steps"), list) else "steps missing"))


def combatants_error(cs):
    if not isinstance(cs, list) or not cs or not all(
            isinstance(c, dict) and isinstance(c.get("id"), str) and isinstance(c.get("side"), str)
            for c in cs):
        return "combatants need an id and a side"
    ids = [c["id"] for c in cs]
    if len(set(ids)) != len(ids):
        return "two combatants with one id"
    if any("surprised" in c and not isinstance(c["surprised"], bool) for c in cs):
        return "surprised is true or false"
    if any("at" in c and not _is_square(c["at"]) for c in cs):
        return "a square is two integers"
    at = [tuple(c["at"]) for c in cs if "at" in c]
    if at and len(at) != len(cs):
        return "positions are all or none"
    if len(set(at)) != len(at):
        return "two combatants on one square"
    if any("reach" in c for c in cs) and not at:
        return "reach without positions"
    if any("reach" in c and not (_is_int(c["reach"]) and 1 <= c["reach"] <= 20) for c in cs):
        return "reach is an integer from 1 to 20"
    return None


def initiative_error(vector):
    ini = vector.get("initiative")
    ids = [c["id"] for c in vector["combatants"]]
    if ini is not None and (not isinstance(ini, list) or not all(isinstance(x, str) for x in ini)
                            or sorted(ini) != sorted(ids)):
        return "initiative must list every combatant exactly once"
    return None


def options_error(opts):
    if opts is None:
        return None
    if not isinstance(opts, dict):
        return "options must be an object"
    for k, v in opts.items():
        if k not in OPTION_DEFAULTS:
            return "unknown option %r" % k
        if k == "free_actions_per_turn":
            if v is not None and not (_is_int(v) and v >= 0):
                return "free_actions_per_turn is null or a number"
        elif v not in OPTION_VALUES[k]:
            return "bad value %r for option %s" % (v, k)
    return None


def run_vector(vector):
    vid = vector.get("id", "")
    bad = document_error(vector)
    if bad:   # PROTOCOL.md: one step answer, bad-document
        return {"type": "result", "id": vid, "steps": [
            {"verdict": "error", "error": "bad-document", "message": "bad vector: %s" % bad}]}
    st = State(vector)
    out = []
    for n, step in enumerate(vector["steps"], 1):
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
