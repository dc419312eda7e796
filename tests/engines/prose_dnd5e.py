#!/usr/bin/env python3
"""A D&D 5e engine written from the prose of spec/ alone: TIMING.md, FORMAT.md,
PRECEDENCE.md, PROTOCOL.md, rules.yaml and divergences.yaml, without the
reference's code and without the vectors. It shares no code with fsm.

It is kept to hold the written rules to their promise that they are enough
to build an engine: it can be run on every vector and fuzzed against the
reference. When the reference's behaviour changes, the prose changes first
and this engine follows the prose.

Speaks the JSON-lines protocol of spec/PROTOCOL.md on stdin/stdout; ruleset
dnd5e only (TIMING.md T-5E-*), with the scene (FORMAT.md, The scene; the
general parts of TIMING.md T-SCENE; T-5E-OPPORTUNITY). Standard library only.
"""
import copy
import pickle
import json
import re
import sys

ENGINE = "prose-dnd5e 0.1"

# T-STEP-CLASSES, the D&D 5e column.
UNTRIGGERED = {"action", "dash", "disengage", "ready", "bonus", "move", "interact"}
ANSWERS = {"reaction", "opportunity", "readied"}
STACK_MOVES = {"resolve", "continue", "counter"}
ALL_KINDS = UNTRIGGERED | ANSWERS | STACK_MOVES | {"event", "end-turn"}
NEEDS_ACTOR = UNTRIGGERED | ANSWERS
NO_FRAME = STACK_MOVES | {"end-turn"}
# T-ERRORS: a frame's fields, `forced` among them, are errors on a step that makes no frame.
FRAME_FIELDS = ("squares", "attacks", "parts", "provokes", "triggers", "path", "shift",
                "forced", "attack", "targets")
# FORMAT.md: 5e's `spell` and `slot` only on action, bonus, ready and reaction; `before`
# only on reaction; `readies` only on ready; `concentration` and the conditions
# (`incapacitated`, `unseen`, `blinded`, `prone`: T-5E-CONDITIONS) only on event;
# `stand` only on move (T-5E-PRONE: "a `move` with `stand: true`"); `difficult`
# only on move and readied (T-5E-SPACES: Difficult Terrain said by the step).
TAKES = {
    "additional": {"action", "dash", "disengage", "ready"},   # T-5E-TURN, *Features*
    "before": {"reaction"},
    "blinded": {"event"},
    "bonus": {"dash", "disengage"},
    "concentration": {"event"},
    "difficult": {"move", "readied"},
    "incapacitated": {"event"},
    "prone": {"event"},
    "slot": {"action", "bonus", "ready", "reaction"},
    "spell": {"action", "bonus", "ready", "reaction"},
    "stand": {"move"},
    # FORMAT.md, The scene: the actor's own teleport (Misty Step, say)
    "teleport": {"action", "bonus", "reaction", "readied"},
    "unseen": {"event"},
}
# T-ERRORS: the true/false fields, checked in this order.
BOOL_FIELDS = ("additional", "before", "blinded", "bonus", "concentration", "difficult",
               "incapacitated", "prone", "slot", "spell", "stand", "teleport", "unseen")
# T-5E-CONDITIONS: the conditions a combatant object gives, which an event may change.
CONDITIONS = ("incapacitated", "unseen", "blinded", "prone")
# FORMAT.md, `combatants`; T-5E-SPACES, ASM-5E-SIZES: the sizes, in order.
SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")

STEP_FIELDS = {"actor", "additional", "attack", "attacks", "before", "blinded", "bonus",
               "comment", "difficult", "do", "expect", "forced", "id", "incapacitated",
               "name", "on", "parts", "path", "prone", "provokes", "readies", "ruling",
               "shift", "concentration", "slot", "spell", "squares", "stand", "targets",
               "teleport", "to", "triggers", "unseen", "when", "by"}
# T-ERRORS: these fields given as null are read as absent; any other null is bad-value.
NULL_IS_ABSENT = ("actor", "to", "name", "triggers", "readies", "when", "by")
# FORMAT.md, `ready` (5e): the circumstances `when` may name (T-5E-READY).
WHEN_WORDS = ("moves", "enters-reach", "leaves-reach", "attacks", "casts")
MOMENT_ID = re.compile(r"^turn-(start|end)@\d+$")    # FORMAT.md: always taken
ATTACKS = ("melee", "ranged", "area", "close")
FORCED = ("push", "pull", "slide", "teleport")

OPTION_DEFAULTS = {"slot_reactions": "counted"}
OPTION_VALUES = {"slot_reactions": ["counted", "exempt"]}

FACTS = ["state", "round", "active", "initiative", "budgets", "resolved", "lost",
         "disrupted", "stack", "positions"]

# T-OWNER opens with "D&D 4e."; T-5E-REACTION still names it among the clauses
# that close 5e windows. Read by its own heading: no 5e frame closes its
# owner's other windows when it resolves a part (the reference agrees).
T_OWNER = False

READY_DEFAULT = "an action"  # FORMAT.md: `readies` ... (default: an action)

TS, TA, WI, WR, TE = "turn_start", "turn_acting", "window_interrupt", "window_reaction", "turn_end"
NON_ACTING = (TS, WI, WR, TE)
ANSWER_PHASES = (TS, WI, WR, TE)

# ---------------------------------------------------------------- precedence
# PRECEDENCE.md, dnd5e. For each kind: [(phases, allowed rules or None for a
# refused line, [(check, reason, rules)])].


def _c(check, reason, *rules):
    return (check, reason, list(rules))


OWN = _c("own_turn", "not-your-turn", "5E-OWN-TURN")
NOT_PENDING = _c("no_action_pending", "action-in-progress", "5E-ONE-AT-A-TIME")
ABLE = _c("able_to_act", "incapacitated", "5E-INCAPACITATED")
ACTION_LEFT = _c("action_left", "action-used", "5E-ACTION")
# T-5E-TURN, *Features*: a Dash or Disengage as the Bonus Action; the additional action
BONUS_GRANTED = _c("bonus_granted", "no-bonus-action", "5E-BONUS-GRANTED", "5E-BONUS-DASH")
BONUS_LEFT = _c("bonus_left", "bonus-action-used", "5E-BONUS-ONE")
ADDITIONAL = [_c("additional_left", "additional-action-used", "5E-ADDITIONAL-ACTION"),
              _c("additional_not_magic", "additional-action-magic", "5E-ADDITIONAL-ACTION")]
SLOT = _c("slot_left", "spell-slot-used", "5E-SLOT-ONE")
PLACED = _c("provokes_as_placed", "provocation-contradicts-scene", "5E-OA")
HAS_TRIGGER = _c("has_trigger", "no-trigger", "5E-TRIGGER")
STILL_OPEN = _c("trigger_still_open", "trigger-passed", "5E-REACTION-AFTER")
ABOVE = _c("nothing_unresolved_above", "unresolved-above", "5E-STACK")
REACTION_LEFT = _c("reaction_left", "reaction-used", "5E-REACTION-ONE")
ON_TOP = _c("actor_on_top", "not-on-top", "5E-STACK")
PART_PENDING = _c("part_pending", "between-parts", "5E-STACK")
PART_RESOLVED = _c("part_resolved", "no-part-resolved", "5E-STACK")
SOMETHING = _c("something_pending", "nothing-pending", "5E-STACK")
# T-5E-TURN, Breaking up a move: nothing unresolved but the actor's own move
# between two squares (which the step then stops)
PAUSED = _c("only_own_move_paused", "action-in-progress", "5E-ONE-AT-A-TIME",
            "5E-MOVE-BREAK-UP")
PAUSES = _c("only_own_pauses_open", "action-in-progress", "5E-ONE-AT-A-TIME",
            "5E-EXTRA-ATTACK-MOVE", "5E-MOVE-BREAK-UP")
SPACES = _c("passes_only_open_spaces", "enemy-space", "5E-SPACES")     # T-5E-SPACES
BETWEEN_SQUARES = (TA, WR)
STILL_REFUSED = (TS, WI, TE)

TABLE = {
    "action": [
        (BETWEEN_SQUARES, ["5E-ACTION", "5E-CASTING-TIME", "5E-OWN-TURN", "5E-ONE-AT-A-TIME",
                           "5E-MOVE-BREAK-UP", "5E-INCAPACITATED", "5E-ADDITIONAL-ACTION",
                           "5E-SLOT-ONE", "5E-SPACES", "5E-OA"],
         [OWN, PAUSED, ABLE, ACTION_LEFT, *ADDITIONAL, SLOT, SPACES, PLACED]),
        (STILL_REFUSED, None, [OWN, NOT_PENDING]),
    ],
    "dash": [
        (BETWEEN_SQUARES, ["5E-DASH", "5E-OWN-TURN", "5E-ONE-AT-A-TIME", "5E-MOVE-BREAK-UP",
                           "5E-INCAPACITATED", "5E-BONUS-GRANTED", "5E-BONUS-DASH",
                           "5E-BONUS-ONE", "5E-ACTION", "5E-ADDITIONAL-ACTION"],
         [OWN, PAUSED, ABLE, BONUS_GRANTED, BONUS_LEFT, ACTION_LEFT, *ADDITIONAL]),
        (STILL_REFUSED, None, [OWN, NOT_PENDING]),
    ],
    "disengage": [
        (BETWEEN_SQUARES, ["5E-DISENGAGE", "5E-OWN-TURN", "5E-ONE-AT-A-TIME",
                           "5E-MOVE-BREAK-UP", "5E-INCAPACITATED", "5E-BONUS-GRANTED",
                           "5E-BONUS-DASH", "5E-BONUS-ONE", "5E-ACTION",
                           "5E-ADDITIONAL-ACTION"],
         [OWN, PAUSED, ABLE, BONUS_GRANTED, BONUS_LEFT, ACTION_LEFT, *ADDITIONAL]),
        (STILL_REFUSED, None, [OWN, NOT_PENDING]),
    ],
    "ready": [
        (BETWEEN_SQUARES, ["5E-READY", "5E-READY-SPELL", "5E-OWN-TURN", "5E-ONE-AT-A-TIME",
                           "5E-MOVE-BREAK-UP", "5E-INCAPACITATED", "5E-ACTION",
                           "5E-ADDITIONAL-ACTION", "5E-SLOT-ONE"],
         [OWN, PAUSED, ABLE, ACTION_LEFT, *ADDITIONAL, SLOT]),
        (STILL_REFUSED, None, [OWN, NOT_PENDING]),
    ],
    "bonus": [
        (BETWEEN_SQUARES, ["5E-BONUS-ONE", "5E-CASTING-TIME", "5E-OWN-TURN", "5E-ONE-AT-A-TIME",
                           "5E-MOVE-BREAK-UP", "5E-INCAPACITATED", "5E-BONUS-GRANTED",
                           "5E-SLOT-ONE", "5E-SPACES", "5E-OA"],
         [OWN, PAUSED, ABLE,
          _c("bonus_granted", "no-bonus-action", "5E-BONUS-GRANTED"),
          _c("bonus_left", "bonus-action-used", "5E-BONUS-ONE"),
          SLOT, SPACES, PLACED]),
        (STILL_REFUSED, None, [OWN, NOT_PENDING]),
    ],
    "move": [
        ((TA, WR), ["5E-MOVE-BREAK-UP", "5E-OWN-TURN", "5E-ONE-AT-A-TIME",
                    "5E-EXTRA-ATTACK-MOVE", "5E-PRONE", "5E-MOVE-SPEED", "5E-SPACES", "5E-OA"],
         [OWN, PAUSES,
          _c("prone_to_stand", "not-prone", "5E-PRONE"),          # T-5E-PRONE
          _c("movement_left", "not-enough-movement", "5E-MOVE-SPEED", "5E-PRONE",
             "5E-SPACES"),
          SPACES, PLACED]),
        ((TS, WI, TE), None, [OWN, PAUSES]),
    ],
    "interact": [
        ((WI, WR), ["5E-INTERACT", "5E-OWN-TURN", "5E-INTERACT-DURING"],
         [OWN,
          _c("during_own_move_or_action", "not-during-move-or-action", "5E-INTERACT-DURING"),
          _c("interaction_left", "interaction-used", "5E-INTERACT")]),
        ((TS, TA, TE), None,
         [OWN,
          _c("during_own_move_or_action", "not-during-move-or-action", "5E-INTERACT-DURING")]),
    ],
    "reaction": [
        (ANSWER_PHASES, ["5E-REACTION-ANY-TURN", "5E-CASTING-TIME", "5E-SURPRISE", "5E-TRIGGER",
                         "5E-REACTION-AFTER", "5E-STACK", "5E-INCAPACITATED",
                         "5E-REACTION-ONE", "5E-REACTION-BEFORE", "5E-SHIELD",
                         "5E-COUNTERSPELL", "5E-SLOT-ONE", "5E-SPACES", "5E-OA"],
         [HAS_TRIGGER, STILL_OPEN, ABOVE, ABLE, REACTION_LEFT,
          _c("before_its_trigger", "trigger-already-resolved", "5E-REACTION-BEFORE",
             "5E-SHIELD", "5E-COUNTERSPELL"),
          _c("after_its_trigger", "trigger-not-resolved", "5E-REACTION-AFTER"),
          SLOT, SPACES, PLACED]),
        ((TA,), None, [HAS_TRIGGER, STILL_OPEN]),
    ],
    "opportunity": [
        (ANSWER_PHASES, ["5E-OA", "5E-SURPRISE", "5E-TRIGGER", "5E-REACTION-AFTER", "5E-STACK",
                         "5E-INCAPACITATED", "5E-REACTION-ONE", "5E-OA-OWN-MOVEMENT",
                         "5E-TELEPORT", "5E-DISENGAGE", "5E-REACH", "5E-OA-SEE"],
         [HAS_TRIGGER, STILL_OPEN, ABOVE, ABLE, REACTION_LEFT,
          _c("oa_before_its_trigger", "trigger-already-resolved", "5E-OA"),
          _c("moves_by_itself", "not-own-movement", "5E-OA-OWN-MOVEMENT", "5E-TELEPORT"),
          _c("not_disengaged", "disengaged", "5E-DISENGAGE"),
          _c("leaves_reach", "not-provoked", "5E-OA", "5E-REACH"),
          _c("sees_the_mover", "cannot-see", "5E-OA-SEE"),
          _c("one_melee_attack", "one-melee-attack", "5E-OA")]),
        ((TA,), None, [HAS_TRIGGER, STILL_OPEN]),
    ],
    "readied": [
        (ANSWER_PHASES, ["5E-READY", "5E-TRIGGER", "5E-REACTION-AFTER", "5E-STACK",
                         "5E-INCAPACITATED", "5E-REACTION-ONE", "5E-READY-AFTER",
                         "5E-EXTRA-ATTACK-OWN-TURN", "5E-SPACES", "5E-OA"],
         [HAS_TRIGGER, STILL_OPEN, ABOVE, ABLE, REACTION_LEFT,
          _c("something_readied", "nothing-readied", "5E-READY"),
          _c("after_its_trigger", "trigger-not-resolved", "5E-READY-AFTER"),
          _c("readied_trigger_met", "readied-trigger-not-met", "5E-READY"),
          _c("readied_one_attack", "extra-attack-on-your-turn", "5E-EXTRA-ATTACK-OWN-TURN"),
          _c("readied_move_within_speed", "not-enough-movement", "5E-READY", "5E-SPACES"),
          SPACES, PLACED]),
        ((TA,), None, [HAS_TRIGGER, STILL_OPEN]),
    ],
    "counter": [
        ((WI,), ["5E-COUNTERSPELL", "5E-STACK"],
         [ON_TOP,
          _c("casting_a_spell", "not-a-spell", "5E-COUNTERSPELL"),
          _c("counterspelled", "not-counterspelled", "5E-COUNTERSPELL")]),
        ((WR,), None, [ON_TOP, PART_PENDING]),
        ((TS, TA, TE), None, [SOMETHING]),
    ],
    "end-turn": [
        (BETWEEN_SQUARES, ["5E-INITIATIVE", "5E-OWN-TURN", "5E-ONE-AT-A-TIME",
                           "5E-MOVE-BREAK-UP"], [OWN, PAUSED]),
        (STILL_REFUSED, None, [OWN, NOT_PENDING]),
    ],
    "resolve": [
        ((WI,), ["5E-STACK", "5E-CONTINUE-TURN"], [ON_TOP]),
        ((WR,), None, [ON_TOP, PART_PENDING]),
        ((TS, TA, TE), None, [SOMETHING]),
    ],
    "continue": [
        ((WR,), ["5E-STACK"], [ON_TOP]),
        ((WI,), None, [ON_TOP, PART_RESOLVED]),
        ((TS, TA, TE), None, [SOMETHING]),
    ],
    "event": [
        ((TS, TA, WI, WR, TE), ["5E-TRIGGER", "5E-READY-SPELL",
                                "5E-INCAPACITATED-CONCENTRATION"], []),
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
        self.owner = owner          # combatant id, None for an event without actor
        self.parts = parts
        self.cur = 0                # index of the current part
        self.cur_pending = moment is None
        self.finished = moment is not None
        self.disrupted = False      # countered (T-5E-SPELLS)
        self.is_move = is_move      # a move (Terms; T-5E-SPACES: a `readied` with `difficult`)
        self.provokes = list(provokes)
        self.moment = moment        # None, "turn-start", "turn-end"
        self.on_stack = True
        self.win = False            # window of the last resolved (or countered) part is open
        self.turn = None            # the turn it was declared on
        self.trigger = None         # for answers: id of the frame answered
        self.spell = False
        self.slot = False
        self.slot_spent = False     # its slot counts toward the turn's one slot
        self.readies = None
        self.when = None            # a `ready`'s `when` (T-5E-READY)
        self.by = None              # a `ready`'s `by` (T-5E-READY)
        self.start = None           # where its owner stood when it was declared
        # the scene (FORMAT.md, The scene)
        self.path = None            # the squares entered, one per part
        self.forced = None
        self.teleport = False       # `teleport: true`: the actor's own teleport
        self.attack = None          # melee, ranged, area or close
        self.feet = None            # a move: the feet of each part, as declared


class State:
    def __init__(self, vector):
        self.options = dict(OPTION_DEFAULTS)
        self.options.update(vector.get("options") or {})
        combatants = vector.get("combatants") or []
        self.cs = {c["id"]: c for c in combatants}
        ini = vector.get("initiative")
        self.initiative = list(ini) if ini else [c["id"] for c in combatants]
        self.budgets = {}
        for cid, c in self.cs.items():
            self.budgets[cid] = {"action": 1, "bonus": 1 if c.get("bonus") else 0,
                                 "movement": self.speed(cid), "interaction": 1,
                                 "reaction": 1, "slot": 1, "readied": None}
        self.disengaged = set()     # took Disengage this turn (T-5E-TURN)
        self.additional = set()     # took a feature's additional action this turn
        # T-5E-TURN: took its Bonus Action this turn (a Bonus Action spell takes one
        # even without `bonus: true`, whose reported budget stays 0)
        self.bonus_used = set()
        self.positions = None       # {combatant: (x, y)} when the encounter has a scene
        self.reach = {}
        if combatants and all("at" in c for c in combatants):
            self.positions = {c["id"]: tuple(c["at"]) for c in combatants}
            self.reach = {c["id"]: c.get("reach", 1) for c in combatants}
        self.round = 1
        self.turn = 1
        self.active = self.initiative[0] if self.initiative else None
        self.frames = {}
        self.stack = []
        self.resolved = []
        self.disrupted = []
        self.counterspells = set()  # ids of the frames a reaction spell was cast against
        self.readied_spell = {}     # combatant -> what it readied is a spell (T-5E-READY)
        self.readied_when = {}      # combatant -> the `when` of its ready, or None
        self.readied_by = {}        # combatant -> the `by` of its ready, or None
        # T-5E-CONDITIONS: the current conditions, from the combatant objects,
        # changed by events; every check reads these.
        self.conditions = {cid: {k: c.get(k) is True for k in CONDITIONS}
                           for cid, c in self.cs.items()}
        self._push_moment("turn-start")

    def speed(self, cid):
        return self.cs[cid].get("speed", 30)

    def size(self, cid):
        """T-5E-SPACES: a combatant without `size` is medium."""
        return self.cs[cid].get("size", "medium")

    def flag(self, cid, key):
        return self.cs[cid].get(key) is True

    def has(self, cid, cond):
        """T-5E-CONDITIONS: the condition as it is now (events change it)."""
        return self.conditions[cid][cond]

    # -- helpers
    def _push_moment(self, which):
        fid = "%s@%d" % (which, self.turn)
        f = Frame(fid, which, self.active, moment=which)
        f.turn = self.turn
        self.frames[fid] = f
        self.stack.append(f)
        return f

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

    def pop(self):
        f = self.stack.pop()
        f.on_stack = False
        f.win = False               # T-LEAVE: no 5e window outlives its frame on the stack
        return f

    def next_turn(self):
        """T-NEXT-TURN, T-5E-TURN: the turn-end moment leaves, every window
        closes, the next combatant's turn starts and its budgets come back."""
        while self.stack:
            self.pop()
        for f in self.frames.values():
            f.win = False
        n = len(self.initiative)
        idx = self.initiative.index(self.active) if self.active in self.initiative else -1
        if idx >= n - 1:
            self.round += 1
        nxt = self.initiative[(idx + 1) % n]
        self.turn += 1
        self.active = nxt
        for b in self.budgets.values():
            b["slot"] = 1           # one slot per turn, whoever's turn it is
        b = self.budgets[nxt]
        b["action"] = 1
        b["bonus"] = 1 if self.flag(nxt, "bonus") else 0
        b["movement"] = self.speed(nxt)
        b["interaction"] = 1
        b["reaction"] = 1
        b["readied"] = None         # 5E-READY-LAPSE
        self.disengaged.discard(nxt)
        self.additional.discard(nxt)
        self.bonus_used.discard(nxt)
        self._push_moment("turn-start")

    def close_owner_windows(self, frame):
        """T-OWNER: a frame resolved a part; its owner's other windows close."""
        if frame.owner is None or frame.moment or frame.kind == "event":
            return
        for g in self.stack:
            if g is frame or g.moment or g.kind == "event" or g.owner != frame.owner:
                continue
            g.win = False

    def settle(self, kind, actor, trigger_id):
        """T-SETTLE 3: T-LEAVE or T-TURN-START, then T-NEXT-TURN, until none
        applies (T-CUT-IN is 4e's)."""
        while self.stack:
            top = self.stack[-1]
            if top.moment == "turn-start":
                if (kind in UNTRIGGERED or kind == "end-turn") and actor == self.active:
                    self.pop()
                    continue
                break
            if top.moment == "turn-end":
                if kind not in ANSWERS or trigger_id == self.next_start_id():
                    self.next_turn()
                    continue
                break
            if not top.finished or not self.leaves(top, kind, actor, trigger_id):
                break
            self.pop()

    def leaves(self, top, kind, actor, trigger_id):
        """T-LEAVE: does the finished frame on top leave before this step?"""
        untrig = kind in UNTRIGGERED or kind == "end-turn"
        return (kind in STACK_MOVES
                or (kind in ANSWERS and trigger_id != top.id)
                or (untrig and actor is not None and actor == top.owner)
                or (untrig and actor is not None and actor == self.active)
                or (kind not in ANSWERS and self.turn_ended()))

    # -- facts
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


# ---------------------------------------------------------------- the grid
# ASM-SCENE-GRID, ASM-5E-SQUARES: the eight squares around a square are next
# to it; distance and reach count a diagonal step as one square (5 feet).


def distance(a, b):
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def next_to(a, b):
    return distance(a, b) == 1


def leaves_reach_of(st, frm, to, c):
    """A step from square frm to square to leaves c's reach."""
    here, r = st.positions[c], st.reach[c]
    return distance(frm, here) <= r < distance(to, here)


def declared_provokes(st, actor, step):
    """T-5E-OPPORTUNITY: every creature whose reach one of the path's squares
    leaves, from where the actor stands; none for a creature that took the
    Disengage action this turn, on its turn."""
    if actor is None or not step.get("path") or own_teleport(step):
        return set()        # T-SCENE: a teleport's movement provokes nobody
    if actor in st.disengaged and actor == st.active:
        return set()
    squares = [st.positions[actor]] + [tuple(q) for q in step["path"]]
    out = set()
    for c in st.cs:
        if c == actor:
            continue
        if any(leaves_reach_of(st, squares[i], squares[i + 1], c)
               for i in range(len(squares) - 1)):
            out.add(c)
    return out


# ---------------------------------------------------------------- reading
# T-ERRORS: the first error in this order is reported: an unknown field, `do`,
# a frame's field on a step that makes no frame, `actor`, `id`, `to` on a step
# that answers nothing, `on`, two part counts, a part count's value,
# `provokes`, `triggers`, `attack`, `targets`, `shift`, `forced`, `path`
# (_read_path gives its own order), `ruling`, `name`, the true/false fields
# (BOOL_FIELDS), the free-text fields in name order (`by`, then `readies`, then `when`); a `to`
# naming no frame comes last (find_trigger).


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
    _read_path(st, step, kind, actor)
    _read_texts(st, step, kind)
    return kind, actor, fid, step


def _read_kind(step):
    if step.get("do") is None:      # T-ERRORS: missing or null
        err("missing-kind", "a step without 'do'")
    kind = step["do"]
    if not isinstance(kind, str) or kind not in ALL_KINDS:
        err("unknown-kind", "unknown step kind %r for dnd5e" % (kind,))
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
    if actor not in st.cs:
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
        if x not in st.cs:
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


def _read_path(st, step, kind, actor):
    """T-ERRORS, in this order: path-without-scene, a path without an actor
    (missing-actor), its list and squares (bad-value), a teleport of more
    than one square, a square not next to the last, the last square on
    another combatant (bad-path), then a part count beside it. A step whose
    kind takes `teleport` and that says `"teleport": true` has its path read
    as a teleport's here, before the flag itself is read."""
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
        kind in TAKES["teleport"] and step.get("teleport") is True)
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
    for k in BOOL_FIELDS:   # T-ERRORS: in this order
        if k in step:
            if kind not in TAKES[k]:
                err("field-of-another-kind", "%r does not belong on %s" % (k, kind))
            if not isinstance(step[k], bool):
                err("bad-value", "%s must be true or false" % k)
    if "by" in step:        # T-ERRORS: free text in name order, `by` first; an id no combatant has is unknown-combatant
        if kind != "ready":
            err("field-of-another-kind", "'by' belongs to a ready step")
        if not isinstance(step["by"], str):
            err("bad-value", "by must be a string")
        if step["by"] not in st.cs:
            err("unknown-combatant", "unknown combatant %r in by" % step["by"])
    if "readies" in step:
        if kind != "ready":
            err("field-of-another-kind", "'readies' belongs to a ready step")
        if not isinstance(step["readies"], str):
            err("bad-value", "readies must be a string")
    if "when" in step:      # T-ERRORS: after `readies`; a word not on the list is bad-value
        if kind != "ready":
            err("field-of-another-kind", "'when' belongs to a ready step")
        if not isinstance(step["when"], str):
            err("bad-value", "when must be a string")
        if step["when"] not in WHEN_WORDS:
            err("bad-value", "when must be one of %s" % ", ".join(WHEN_WORDS))
    # T-ERRORS: `comment` is never read, whatever its value.


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


# ---------------------------------------------------------------- checks


class Ctx:
    pass


def paid_by(step):
    """T-5E-TURN, *Features*: what pays for the step's action instead of it."""
    return {k for k in ("bonus", "additional") if step.get(k) is True}


def as_bonus(cx):
    return cx.kind == "bonus" or "bonus" in paid_by(cx.step)


def own_teleport(step):
    """FORMAT.md, The scene: `teleport: true` (read once the step is read, so
    on a kind that takes it): the actor's own teleport, whose movement
    provokes nobody, passes no one's space and spends no movement."""
    return step.get("teleport") is True


def casts_spell(step):
    return step.get("spell") is True or step.get("slot") is True


def slot_checked(st, cx):
    """T-5E-SPELLS: a step with `slot` is checked, but a `reaction` not under
    `slot_reactions: exempt`."""
    if cx.step.get("slot") is not True:
        return False
    return not (cx.kind == "reaction" and st.options["slot_reactions"] == "exempt")


def trigger_open(f):
    """T-WINDOW."""
    if f.moment:
        return f.on_stack
    if not f.on_stack:
        return False
    if not f.finished and f.cur_pending:
        return True
    return f.win


def trigger_pending(f):
    """A turn moment is both pending and resolved to an answer's checks."""
    if f.moment:
        return True
    return (not f.finished) and f.cur_pending


def trigger_resolved(f):
    if f.moment or f.finished:
        return True
    return not f.cur_pending


def _nothing_unresolved_above(st, cx):
    f = cx.trigger
    if f not in st.stack:
        return True
    i = st.stack.index(f)
    return not any(not g.finished for g in st.stack[i + 1:])


def _between_parts(g):
    return not g.finished and not g.cur_pending and g.cur < g.parts - 1


def _only_own_pauses(st, cx, kinds):
    """T-5E-TURN: every unresolved frame is the actor's own frame of one of
    ``kinds`` between two of its parts."""
    for g in st.stack:
        if g.moment or g.finished:
            continue
        if not (g.kind in kinds and g.owner == cx.actor and _between_parts(g)):
            return False
    return True


def may_pass(st, mover, c):
    """T-5E-SPACES, ASM-5E-SIZES: the mover passes the space of an ally (same
    side), of a creature Incapacitated as it stands now, of a Tiny creature,
    and of one whose size is two or more steps from the mover's own."""
    if st.cs[c]["side"] == st.cs[mover]["side"] or st.has(c, "incapacitated"):
        return True
    if st.size(c) == "tiny":
        return True
    return abs(SIZES.index(st.size(c)) - SIZES.index(st.size(mover))) >= 2


def _passes_only_open_spaces(st, cx):
    """T-5E-SPACES: an own path enters no square of a creature it may not pass
    (where everyone stands when it is declared); a `forced` path is not the
    creature's own move and is not checked (no step that takes this check
    takes `forced`: it belongs to an event), nor is a `teleport`, which
    crosses no space."""
    if st.positions is None or "path" not in cx.step or cx.actor is None \
            or cx.step.get("forced") is not None or own_teleport(cx.step):
        return True
    for q in cx.step["path"]:
        for c, where in st.positions.items():
            if c != cx.actor and where == tuple(q) and not may_pass(st, cx.actor, c):
                return False
    return True


def difficult_for(st, mover, c):
    """T-5E-SPACES, ASM-5E-SQUARES: another creature's space is Difficult
    Terrain for the mover unless that creature is Tiny or its ally (same
    side); an Incapacitated creature's, or one two sizes apart, is passable
    yet still Difficult Terrain."""
    return c != mover and st.cs[c]["side"] != st.cs[mover]["side"] \
        and st.size(c) != "tiny"


def stand_feet(st, actor):
    """T-5E-PRONE: standing up covers half the creature's `speed`, rounded
    down, at least 1 foot."""
    return max(1, st.speed(actor) // 2)


def only_stands(step):
    """T-5E-PRONE: a `move` with `stand` and neither `path` nor `squares` (nor
    `parts` or `attacks`) covers no square: it only stands up."""
    return step.get("stand") is True and not any(
        k in step for k in ("path", "squares", "parts", "attacks"))


def square_feet(st, actor, step):
    """T-5E-TURN, T-5E-SPACES, T-5E-PRONE: the feet each part of a move (or
    readied move) covers, counted when the step is declared (where everyone
    stands then, and as the creature is Prone then): 5 per part, 10 for a
    square of Difficult Terrain: every square of a step that says
    `difficult: true`, or one of its (own) path where a creature stands for
    which that space is Difficult Terrain (counted once a square); 5 more a
    square when a Prone creature crawls; with `stand`, half its Speed more on
    the first part, its squares walked."""
    own = actor is not None and step.get("forced") is None
    stand = step.get("stand") is True
    said = step.get("difficult") is True      # T-5E-SPACES: said by the step
    if only_stands(step):
        return [stand_feet(st, actor)]
    if "path" not in step:
        feet = [10 if said else 5] * (step.get("squares") or step.get("attacks")
                                      or step.get("parts") or 1)
    else:
        feet = []
        for q in step["path"]:
            hard = said or (st.positions is not None and own and any(
                where == tuple(q) and difficult_for(st, actor, c)
                for c, where in st.positions.items()))
            feet.append(10 if hard else 5)
    if own and stand:
        feet[0] += stand_feet(st, actor)
    elif own and st.has(actor, "prone"):
        feet = [x + 5 for x in feet]
    return feet


def move_feet(st, actor, step):
    """T-5E-TURN: `move` covers 5 feet per part (a square of its path, one of
    its `squares`, or one part of `parts`/`attacks`; one without any), 10 for
    a square of Difficult Terrain (T-5E-SPACES)."""
    return sum(square_feet(st, actor, step))


def step_parts(step):
    """FORMAT.md: a path's squares, or `squares`, `attacks` or `parts`; one by default."""
    if "path" in step:
        return len(step["path"])
    return step.get("squares") or step.get("attacks") or step.get("parts") or 1


def _a_move(step):
    """T-5E-READY, T-5E-SPACES: a readied move is one with `squares`, a `path`
    or `difficult: true` (`difficult: false` says nothing more than its absence)."""
    return "squares" in step or "path" in step or step.get("difficult") is True


def _one_melee_attack(st, cx):
    """T-5E-OPPORTUNITY: one melee attack: one part, no `attack` but `melee`."""
    return step_parts(cx.step) == 1 and cx.step.get("attack") in (None, "melee")


def _readied_one_attack(st, cx):
    """T-5E-READY: more than one part only for a move or a readied spell."""
    return _a_move(cx.step) or bool(st.readied_spell.get(cx.actor)) \
        or step_parts(cx.step) == 1


def _readied_move_within_speed(st, cx):
    """T-5E-READY: a readied move up to the creature's Speed, not farther; a
    teleport covers no feet (T-5E-SPACES: it crosses no space)."""
    return (not _a_move(cx.step) or own_teleport(cx.step)
            or move_feet(st, cx.actor, cx.step) <= st.speed(cx.actor))


def _readied_trigger_met(st, cx):
    """T-5E-READY: with `when`, the trigger, its part just resolved, is the
    circumstance named; a turn moment is none of them. `moves`: a move (Terms:
    a `move`, or any step with `squares` or a `path`, forced or not; T-5E-SPACES:
    a `readied` with `difficult` too); `enters-reach`, `leaves-reach`: with a
    scene, a step whose `path` square just resolved took its owner into, or
    out of, the readier's reach (where the readier stands now; from the square
    before, or where the owner stood when it was declared; a move without a
    `path` enters and leaves no reach), without a scene any move; `attacks`:
    an `attack`, or an `opportunity`; `casts`: `spell` or `slot`. With `by`,
    the trigger's owner is the combatant it names (a turn moment belongs to
    the turn's owner)."""
    f = cx.trigger
    by = st.readied_by.get(cx.actor)
    if by is not None and f.owner != by:
        return False
    when = st.readied_when.get(cx.actor)
    if when is None:
        return True
    if f.moment:
        return False
    if when == "attacks":
        return f.attack is not None or f.kind == "opportunity"
    if when == "casts":
        return f.spell or f.slot
    if when == "moves" or not f.is_move:
        return f.is_move
    if st.positions is None:
        return True                 # without a scene, any move
    if not f.path or f.owner is None:
        return False                # crosses no square of the grid
    before = f.path[f.cur - 1] if f.cur > 0 else f.start
    now = f.path[f.cur]
    here, r = st.positions[cx.actor], st.reach[cx.actor]
    inside_before = distance(before, here) <= r
    inside_now = distance(now, here) <= r
    if when == "enters-reach":
        return inside_now and not inside_before
    return inside_before and not inside_now


def _during_own_move_or_action(st, cx):
    return any(not g.finished and not g.moment and g.owner == cx.actor
               and g.kind in ("move", "action", "dash", "disengage", "ready")
               for g in st.stack)


def _leaves_reach(st, cx):
    """T-5E-OPPORTUNITY, not-provoked: with a scene, the pending part of the
    trigger's path leaves the answerer's reach; without one, the answerer is
    in its `provokes` (taken as stated, the answerer itself included)."""
    f = cx.trigger
    if f.owner is None:
        return False
    if st.positions is None:
        return cx.actor in f.provokes
    if not f.path:
        return False
    return leaves_reach_of(st, st.positions[f.owner], f.path[f.cur], cx.actor)


def _sees_the_mover(st, cx):
    f = cx.trigger
    if f.owner is not None and st.has(f.owner, "unseen"):
        return False
    return not st.has(cx.actor, "blinded")


def _provokes_as_placed(st, cx):
    if st.positions is None or "provokes" not in cx.step:
        return True
    return set(cx.step["provokes"]) == declared_provokes(st, cx.actor, cx.step)


def _not_disengaged(st, cx):
    o = cx.trigger.owner
    return not (o is not None and o in st.disengaged and o == st.active)


CHECKS = {
    "own_turn": lambda st, cx: cx.actor == st.active,
    "no_action_pending": lambda st, cx: not any(not g.finished for g in st.stack),
    "able_to_act": lambda st, cx: not st.has(cx.actor, "incapacitated"),
    # T-5E-TURN, *Features*: a feature may pay for the action
    "action_left": lambda st, cx: paid_by(cx.step) != set() or st.budgets[cx.actor]["action"] > 0,
    # T-5E-TURN: a `bonus` that casts a spell (`spell` or `slot`) is granted by the
    # spell's casting time, `bonus: true` or not
    "bonus_granted": lambda st, cx: (not as_bonus(cx) or st.flag(cx.actor, "bonus")
                                     or (cx.kind == "bonus" and casts_spell(cx.step))),
    "bonus_left": lambda st, cx: not as_bonus(cx) or cx.actor not in st.bonus_used,
    "additional_left": lambda st, cx: ("additional" not in paid_by(cx.step)
                                       or cx.actor not in st.additional),
    "additional_not_magic": lambda st, cx: ("additional" not in paid_by(cx.step)
                                            or not casts_spell(cx.step)),
    "slot_left": lambda st, cx: not slot_checked(st, cx) or st.budgets[cx.actor]["slot"] > 0,
    "provokes_as_placed": _provokes_as_placed,
    "only_own_move_paused": lambda st, cx: _only_own_pauses(st, cx, ("move",)),
    "only_own_pauses_open": lambda st, cx: _only_own_pauses(st, cx, ("move", "action")),
    "passes_only_open_spaces": _passes_only_open_spaces,
    # T-5E-PRONE: only a Prone creature stands up
    "prone_to_stand": lambda st, cx: (cx.step.get("stand") is not True
                                      or st.has(cx.actor, "prone")),
    "movement_left": lambda st, cx: (move_feet(st, cx.actor, cx.step)
                                     <= st.budgets[cx.actor]["movement"]
                                     + feet_given_back(st, cx.actor)),
    "during_own_move_or_action": _during_own_move_or_action,
    "interaction_left": lambda st, cx: st.budgets[cx.actor]["interaction"] > 0,
    "has_trigger": lambda st, cx: cx.trigger is not None,
    "trigger_still_open": lambda st, cx: trigger_open(cx.trigger),
    "nothing_unresolved_above": _nothing_unresolved_above,
    "reaction_left": lambda st, cx: st.budgets[cx.actor]["reaction"] > 0,
    # T-5E-REACTION: `before` needs the trigger's current part pending; a turn
    # moment has no part to come before (as T-5E-OPPORTUNITY says of an
    # Opportunity Attack), though Terms call a moment both pending and resolved.
    "before_its_trigger": lambda st, cx: (cx.step.get("before") is not True
                                          or (cx.trigger.moment is None
                                              and trigger_pending(cx.trigger))),
    "after_its_trigger": lambda st, cx: (cx.step.get("before") is True
                                         or trigger_resolved(cx.trigger)),
    "oa_before_its_trigger": lambda st, cx: (cx.trigger.moment is None
                                             and trigger_pending(cx.trigger)),
    # T-5E-OPPORTUNITY: not an event, no `forced` path, no `teleport: true`
    "moves_by_itself": lambda st, cx: (cx.trigger.kind != "event" and not cx.trigger.forced
                                       and not cx.trigger.teleport),
    "not_disengaged": _not_disengaged,
    "leaves_reach": _leaves_reach,
    "sees_the_mover": _sees_the_mover,
    "one_melee_attack": _one_melee_attack,
    "readied_one_attack": _readied_one_attack,
    "readied_trigger_met": _readied_trigger_met,
    "readied_move_within_speed": _readied_move_within_speed,
    "something_readied": lambda st, cx: st.budgets[cx.actor]["readied"] is not None,
    "something_pending": lambda st, cx: cx.top is not None,
    "actor_on_top": lambda st, cx: cx.actor is None or cx.actor == cx.top.owner,
    "part_pending": lambda st, cx: cx.top.cur_pending,
    "part_resolved": lambda st, cx: not cx.top.cur_pending,
    "casting_a_spell": lambda st, cx: cx.top.spell or cx.top.slot,
    # T-5E-SPELLS: "no reaction spell was cast against it": against the frame,
    # whichever of its parts was pending then.
    "counterspelled": lambda st, cx: cx.top.id in st.counterspells,
}


def checks_for(kind, ph):
    for phases, allowed_rules, checks in TABLE[kind]:
        if ph in phases:
            return allowed_rules, checks
    raise RuntimeError("no line for %s in %s" % (kind, ph))


def examples_followed(rules, cx, step):
    """PRECEDENCE.md: of Shield and Counterspell, only the example the step
    follows is cited (TIMING.md T-5E-REACTION: a spell cast against a trigger
    that casts none or has an attack follows Shield; against a casting,
    Counterspell; a Reaction that casts no spell, neither)."""
    t = cx.trigger
    cast = casts_spell(step) and t is not None and t.moment is None
    casting = cast and (t.spell or t.slot)
    fits = {"5E-SHIELD": cast and (not casting or t.attack is not None),
            "5E-COUNTERSPELL": casting}
    return [r for r in rules if fits.get(r, True)]


def judge(st, step, n):
    kind, actor, fid, step = read_step(st, step, n)
    tid = find_trigger(st, step) if kind in ANSWERS else None
    if kind == "end-turn" and actor is None:
        actor = default_end_turn_actor(st)
    work = pickle.loads(pickle.dumps(st, -1))   # T-REFUSED: a refused step changes nothing
    work.settle(kind, actor, tid)
    cx = Ctx()
    cx.kind = kind
    cx.actor = actor
    cx.step = step
    cx.trigger = work.frames.get(tid) if tid is not None else None
    cx.top = work.top_unresolved() if kind in STACK_MOVES else None
    allowed_rules, checks = checks_for(kind, work.phase())
    for name, reason, rules in checks:
        if not CHECKS[name](work, cx):
            return st, {"verdict": "rejected", "reason": reason,
                        "rules": examples_followed(rules, cx, step)}
    if allowed_rules is None:
        # a refused line whose checks all passed: should not happen
        return st, {"verdict": "rejected", "reason": checks[-1][1], "rules": list(checks[-1][2])}
    apply_effect(work, kind, actor, fid, step, cx)
    return work, {"verdict": "allowed", "reason": None,
                  "rules": examples_followed(allowed_rules, cx, step)}


# ---------------------------------------------------------------- effects


def new_frame(st, kind, actor, fid, step):
    path = [tuple(q) for q in step["path"]] if "path" in step else None
    parts = len(path) if path else (step.get("squares") or step.get("attacks")
                                    or step.get("parts") or 1)
    is_move = kind == "move" or _a_move(step)
    f = Frame(fid, kind, actor, parts=parts, is_move=is_move, provokes=step.get("provokes") or ())
    f.path = path
    f.forced = step.get("forced")
    f.teleport = own_teleport(step)
    f.attack = step.get("attack")
    f.turn = st.turn
    f.spell = casts_spell(step)
    f.slot = step.get("slot") is True
    if kind == "ready":
        f.readies = step.get("readies", READY_DEFAULT)
        f.when = step.get("when")
        f.by = step.get("by")
    if st.positions is not None and actor is not None:
        f.start = st.positions[actor]
    # T-5E-SPACES: the feet of each square, as counted when declared (a stopped
    # move gives back those of the squares it did not walk)
    f.feet = square_feet(st, actor, step) if kind == "move" else None
    return f


def spend(st, f, cx):
    kind, actor, step = cx.kind, cx.actor, cx.step
    b = st.budgets[actor] if actor is not None else None
    if kind in ("action", "dash", "disengage", "ready"):
        paid = paid_by(step)
        if not paid:
            b["action"] = 0
        if "bonus" in paid:
            b["bonus"] = 0
            st.bonus_used.add(actor)
        if "additional" in paid:
            st.additional.add(actor)
    if kind == "bonus":
        b["bonus"] = 0
        st.bonus_used.add(actor)
    if kind == "dash":
        b["movement"] += st.speed(actor)          # T-5E-TURN
    if kind == "disengage":
        st.disengaged.add(actor)
    if kind == "ready":
        b["readied"] = f.readies                   # T-5E-READY: with the step
        st.readied_spell[actor] = f.spell or f.slot
        st.readied_when[actor] = f.when
        st.readied_by[actor] = f.by
    if kind == "move":
        b["movement"] -= sum(f.feet)               # spent when declared
        if step.get("stand") is True:
            st.conditions[actor]["prone"] = False  # T-5E-PRONE: from the declaration on
    if kind == "interact":
        b["interaction"] = 0
    if kind in ANSWERS:
        b["reaction"] = 0
    if kind == "readied":
        b["readied"] = None                        # once
    if slot_checked(st, cx):
        b["slot"] = 0                              # T-5E-SPELLS: expended on this turn
        f.slot_spent = True


def _paused_own_move(st, actor):
    top = st.stack[-1] if st.stack else None
    if top is None or top.moment or top.kind != "move" or top.owner != actor \
            or not _between_parts(top):
        return None
    return top


def feet_given_back(st, actor):
    """T-5E-TURN: the feet of the squares a move the step stops did not walk."""
    top = _paused_own_move(st, actor)
    return 0 if top is None else sum(top.feet[top.cur + 1:])


def stop_own_move(st, actor):
    """T-5E-TURN, Breaking up a move: the actor's own move between two squares
    ends on the square reached, resolved, off the stack with its window
    closed; the feet of the squares it did not walk come back."""
    top = _paused_own_move(st, actor)
    if top is None:
        return
    walked = top.cur + 1
    st.budgets[actor]["movement"] += sum(top.feet[walked:])
    top.parts = walked
    top.feet = top.feet[:walked]
    top.finished = True
    st.resolved.append(top.id)
    st.pop()


def apply_effect(st, kind, actor, fid, step, cx):
    if kind in ("action", "dash", "disengage", "ready", "bonus", "move", "end-turn"):
        stop_own_move(st, actor)
    if kind in UNTRIGGERED or kind in ANSWERS or kind == "event":
        f = new_frame(st, kind, actor, fid, step)   # an event's actor owns it (T-EVENT)
        if actor is not None and kind != "event":
            spend(st, f, cx)
        if kind == "event" and actor is not None:
            event_on_actor(st, actor, step)
        if kind in ANSWERS:
            t = cx.trigger
            f.trigger = t.id
            if kind == "reaction" and step.get("before") is True and casts_spell(step):
                st.counterspells.add(t.id)     # T-5E-SPELLS: cast against it
        st.frames[fid] = f
        st.stack.append(f)
    elif kind == "end-turn":
        st._push_moment("turn-end")   # its id is turn-end@N; the step's own id names nothing
    elif kind == "resolve":
        resolve_part(st, cx.top)
    elif kind == "continue":
        f = cx.top
        f.cur += 1
        f.cur_pending = True
        f.win = False                  # T-PARTS: outside 4e, continue closes that window
    elif kind == "counter":
        counter(st, cx.top)


def event_on_actor(st, actor, step):
    """T-5E-CONDITIONS: the event changes its actor's conditions when declared
    (a field not given leaves it as it was); T-5E-READY: Concentration breaks
    with `concentration: true` or on becoming Incapacitated, and a spell it
    readied dissipates (what it readied that is no spell stays)."""
    for k in CONDITIONS:
        if k in step:
            st.conditions[actor][k] = step[k]
    if step.get("concentration") is True or step.get("incapacitated") is True:
        if st.readied_spell.get(actor):
            st.budgets[actor]["readied"] = None
            st.readied_spell[actor] = False


def resolve_part(st, f):
    """T-PARTS; T-SCENE: when a part of a path resolves, its owner stands on
    that part's square; T-OWNER: the owner's other windows close."""
    f.cur_pending = False
    f.win = True
    if f.path is not None and f.owner is not None:
        st.positions[f.owner] = f.path[f.cur]
    if T_OWNER:
        st.close_owner_windows(f)
    if f.cur == f.parts - 1:
        f.finished = True
        st.resolved.append(f.id)


def counter(st, f):
    """T-5E-SPELLS: the casting is finished, disrupted, no effect; its slot,
    if it counted toward its owner's one slot of this turn, is not expended
    after all (an exempt Reaction's never counted: nothing comes back)."""
    f.finished = True
    f.disrupted = True
    f.win = True                       # keeps the window of the part in play (T-WINDOW)
    st.disrupted.append(f.id)
    if f.slot_spent and f.owner is not None and f.turn == st.turn:
        st.budgets[f.owner]["slot"] = 1
        f.slot_spent = False
    if f.kind == "ready" and f.owner is not None:
        st.budgets[f.owner]["readied"] = None      # a countered ready readies nothing


# ---------------------------------------------------------------- protocol


def hello():
    return {"type": "hello", "format": 1, "protocol": 1, "engine": ENGINE,
            "rulesets": {"dnd5e": {"options": {
                "slot_reactions": OPTION_VALUES["slot_reactions"]}}},
            "facts": FACTS, "reports": ["rules"], "features": ["scene"]}


DOC_FIELDS = {"format", "id", "ruleset", "description", "question", "answer", "comment",
              "tags", "rules", "options", "combatants", "initiative", "steps"}
FLAGS = ("bonus", "incapacitated", "unseen", "blinded", "prone")


def document_error(vector):
    """FORMAT.md, Errors and verdicts: a document that cannot be read is
    refused whole, before any step. None when it can be read."""
    if not isinstance(vector, dict):
        return "vector is not an object"
    unknown = [k for k in vector if k not in DOC_FIELDS]
    if unknown:
        return "unknown top-level field %r" % unknown[0]
    if not _is_int(vector.get("format")) or vector["format"] != 1:
        return "format must be the integer 1"
    if vector.get("ruleset") != "dnd5e":
        return "ruleset not supported"
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
    if any("speed" in c and not (_is_int(c["speed"]) and c["speed"] >= 0) for c in cs):
        return "speed is a number of feet"
    if any(k in c and not isinstance(c[k], bool) for c in cs for k in FLAGS):
        return "bonus, incapacitated, unseen, blinded and prone are true or false"
    if any("size" in c and c["size"] not in SIZES for c in cs):
        return "size is tiny, small, medium, large, huge or gargantuan"
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
        if k not in OPTION_VALUES:
            return "unknown option %r" % k
        if v not in OPTION_VALUES[k]:
            return "bad value %r for option %s" % (v, k)
    return None


def run_vector(vector):
    vid = vector.get("id", "") if isinstance(vector, dict) else ""
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
            v = msg.get("vector")
            vid = v.get("id", "") if isinstance(v, dict) else ""
            try:
                reply = run_vector(v)
            except Exception as e:  # never die
                reply = {"type": "result", "id": vid,
                         "steps": [{"verdict": "error", "error": "bad-document",
                                    "message": "engine failure: %s" % e}]}
        else:
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
