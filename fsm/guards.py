"""Named guards: every rule limit of both rulesets is one function here.

A guard reads the encounter and the step and answers ``True`` (the limit
holds), ``False`` (the step breaks it) or :data:`GM` (the text leaves the
decision to the game master and no option settles it). Guards never change
anything. Each carries the stable reason code reported when it fails; the
rule ids it enforces are attached per transition in :mod:`fsm.table`, since
one guard (say, "on your own turn") serves several rules.

The order of guards in a table row is part of the contract: when several
limits are broken, the verdict reports the first one.
"""

from __future__ import annotations

from .frames import DONE, EVENT, PENDING, RESOLVED, TURN_KINDS, LOST, DISRUPTED
from .kinds import RESPONSES, STACK_MOVES, TURN_ACTIONS

GM = "gm"  # a guard's answer when the rules leave the step to the GM


class GuardInfo:
    __slots__ = ("name", "reason", "gm_reason", "says", "seen")

    def __init__(self, name, reason, gm_reason, says, seen):
        self.name = name
        self.reason = reason
        self.gm_reason = gm_reason
        self.says = says
        self.seen = seen


GUARDS: dict[str, object] = {}


def guard(reason: str, says: str, *, gm: str | None = None, seen=None):
    """Register a guard with its reason code and a one-line explanation.

    ``says`` is formatted with the values returned by ``seen(enc, step)``
    when a verdict is explained.
    """

    def register(fn):
        fn.info = GuardInfo(fn.__name__, reason, gm, says, seen)
        GUARDS[fn.__name__] = fn
        return fn

    return register


# -- what a guard sees, for explanations ---------------------------------

def _turn_seen(enc, st):
    return {"actor": st.actor, "active": enc.active, "round": enc.round}


def _fighter_seen(enc, st):
    f = enc.fighters[st.actor]
    seen = {"actor": st.actor, "active": enc.active, "round": enc.round}
    for slot in ("standard", "move", "minor", "actions", "reactions", "free_count",
                 "immediate_turn", "opportunity_turn", "readied"):
        seen[slot] = getattr(f, slot)
    seen["immediate_when"] = enc.describe_turn(f.immediate_turn)
    seen["opportunity_when"] = enc.describe_turn(f.opportunity_turn)
    return seen


def _target_seen(enc, st):
    t = st.target
    seen = {
        "actor": st.actor,
        "kind": st.kind,
        "to": st.to or "on the stack",
        "trigger": t.id if t is not None else None,
        "trigger_owner": t.owner if t is not None else None,
        "phase": t.phase if t is not None else None,
        "done": t.done if t is not None else 0,
        "parts": t.parts if t is not None else 0,
        "outcome": (t.outcome if t is not None else None) or "none yet",
        "label": st.on,
        "closed_by": "its window closed",
        "above": None,
    }
    if t is not None and t.closed_by is not None:
        number, words = t.closed_by
        seen["closed_by"] = f"its window closed at step {number}, {words}"
    if t is not None:
        above = _unresolved_above(enc, t)
        if above is not None:
            seen["above"] = f"{above.id} ({above.owner or 'nobody'}'s {above.kind})"
    return seen


# -- turn and sequence ---------------------------------------------------

@guard("not-your-turn", "{actor} may do this only on its own turn; it is {active}'s turn",
       seen=_turn_seen)
def own_turn(enc, st):
    """The actor is the combatant whose turn it is."""
    return st.actor == enc.active


@guard("action-in-progress", "an action is still unresolved on the stack", seen=_target_seen)
def no_action_pending(enc, st):
    """No unresolved action is open: actions of a turn come one after another."""
    for frame in enc.stack:
        if frame.outcome is None and frame.kind not in TURN_KINDS:
            return False
    return True


def _own_unresolved(enc, actor):
    for frame in enc.stack:
        if frame.owner == actor and frame.outcome is None and frame.kind not in TURN_KINDS:
            return frame
    return None


def _own_seen(enc, st):
    frame = _own_unresolved(enc, st.actor)
    return {"actor": st.actor, "own": frame.id if frame is not None else None}


@guard("own-action-in-progress",
       "{actor}'s own {own} is still unresolved; its actions come one after another",
       seen=_own_seen)
def no_own_action_pending(enc, st):
    """The actor has no unresolved action of its own on the stack."""
    return _own_unresolved(enc, st.actor) is None


# -- the order of play (spec/TIMING.md) ------------------------------------

def _unresolved_above(enc, target):
    """The first unresolved frame above ``target`` on the stack, or None
    (also None when ``target`` is not on the stack)."""
    stack = enc.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is target:
            for frame in stack[i + 1:]:
                if frame.outcome is None:
                    return frame
            return None
    return None


@guard("no-trigger", "there is no trigger {to} to answer now", seen=_target_seen)
def has_trigger(enc, st):
    """An answer names a trigger that exists: a frame, or a turn moment that is open."""
    return st.target is not None


@guard("unresolved-above",
       "{above} is still unresolved above {trigger}; it resolves before anything "
       "answers {trigger} again", seen=_target_seen)
def nothing_unresolved_above(enc, st):
    """Answers come one at a time: a trigger beneath an unresolved frame waits
    until that frame is resolved (T-ONE-AT-A-TIME)."""
    return _unresolved_above(enc, st.target) is None


@guard("nothing-pending", "nothing is unresolved: there is no action to {kind}",
       seen=_target_seen)
def something_pending(enc, st):
    """Resolve, continue, lose and disrupt act on the top unresolved frame."""
    return st.target is not None


@guard("not-on-top",
       "{actor} has no frame on top of the stack: {trigger} ({trigger_owner}'s) is the "
       "top unresolved one", seen=_target_seen)
def actor_on_top(enc, st):
    """A stack move that names its actor names the owner of the top unresolved frame."""
    return st.target is not None and (st.actor is None or st.actor == st.target.owner)


@guard("between-parts",
       "{trigger} is between parts ({done}/{parts} resolved); it must continue first",
       seen=_target_seen)
def part_pending(enc, st):
    """Resolving or losing needs a declared part; between parts the frame continues first."""
    return st.target.phase == PENDING


@guard("no-part-resolved",
       "{trigger}'s part {done_next} is still pending; it resolves before the next begins",
       seen=lambda enc, st: dict(_target_seen(enc, st), done_next=st.target.done + 1))
def part_resolved(enc, st):
    """Continuing needs a resolved part with more parts to come."""
    return st.target.between_parts


# -- triggers ------------------------------------------------------------

@guard("trigger-passed", "trigger {trigger} has passed: {closed_by}",
       seen=_target_seen)
def trigger_still_open(enc, st):
    """A triggered action answers a trigger that is happening now: a part that
    is pending, or a resolved part whose window has not closed (T-WINDOW)."""
    t = st.target
    if t is None or t.closed:
        return False
    if t.kind in TURN_KINDS or t.pending:
        return True
    return t.window_part == t.done


@guard("trigger-cancelled", "trigger {trigger} never took effect (outcome: {outcome})",
       seen=_target_seen)
def trigger_took_effect(enc, st):
    """A lost or disrupted action never resolved, so there is nothing to react to."""
    return st.target.outcome not in (LOST, DISRUPTED)


@guard("trigger-already-resolved",
       "trigger {trigger} has already resolved ({done}/{parts} parts); an interrupt comes before",
       seen=_target_seen)
def trigger_pending(enc, st):
    """An interrupting response acts while its trigger is still pending."""
    t = st.target
    return t.kind in TURN_KINDS or (t.phase == PENDING and t.outcome is None)


@guard("trigger-not-resolved",
       "trigger {trigger} has not resolved yet ({done}/{parts} parts); a reaction comes after",
       seen=_target_seen)
def trigger_resolved(enc, st):
    """A reaction answers a resolved part whose window is open (it may come
    while the next part is pending, T-CUT-IN), unless it breaks into movement."""
    t = st.target
    return t.kind in TURN_KINDS or t.phase == RESOLVED or t.after_open or t.moving


@guard("moved-less-than-one-square",
       "{trigger_owner} has moved {done} square(s); a reaction breaks into movement only after 1",
       seen=_target_seen)
def moved_one_square(enc, st):
    """Breaking into a move needs the mover to have covered at least one square."""
    t = st.target
    return not (t.moving and t.phase == PENDING and t.done < 1)


@guard("trigger-not-by-enemy", "trigger {trigger} is not an enemy's doing", seen=_target_seen)
def triggered_by_enemy(enc, st):
    """The trigger is an enemy's action."""
    t = st.target
    if t.owner is None:
        return False
    return enc.fighters[t.owner].side != enc.fighters[st.actor].side


@guard("not-provoked", "trigger {trigger} does not provoke {actor}", seen=_target_seen)
def provoked(enc, st):
    """The trigger provokes this combatant (it leaves an adjacent square, or
    makes a ranged or area attack while adjacent)."""
    return st.actor in st.target.provokes


# -- D&D 4e budgets ------------------------------------------------------

@guard("standard-action-used", "{actor} has no standard action left this turn (standard={standard})",
       seen=_fighter_seen)
def standard_slot(enc, st):
    """The standard action of this turn is unspent."""
    return enc.fighters[st.actor].standard > 0


@guard("move-action-used",
       "{actor} has no move action left, nor a standard to take as one (move={move}, standard={standard})",
       seen=_fighter_seen)
def move_slot(enc, st):
    """A move action is left, or a standard action to take in its place."""
    f = enc.fighters[st.actor]
    return f.move > 0 or f.standard > 0


@guard("minor-action-used",
       "{actor} has no minor action left, nor a move or standard to take as one",
       seen=_fighter_seen)
def minor_slot(enc, st):
    """A minor action is left, or a move or standard action to take in its place."""
    f = enc.fighters[st.actor]
    return f.minor > 0 or f.move > 0 or f.standard > 0


@guard("free-action-limit",
       "{actor} has taken {free_count} free action(s) this turn, the limit the DM set",
       seen=_fighter_seen)
def free_within_limit(enc, st):
    """The DM's per-turn limit on free actions, when one is set, is not reached."""
    limit = enc.options.get("free_actions_per_turn")
    if limit is None:
        return True
    f = enc.fighters[st.actor]
    used = f.free_count if f.free_turn == enc.turn_serial else 0
    return used < limit


@guard("immediate-on-own-turn", "{actor} cannot take an immediate action on its own turn",
       seen=_turn_seen)
def immediate_not_own_turn(enc, st):
    """No immediate action on your own turn."""
    return st.actor != enc.active


@guard("immediate-used-this-round",
       "{actor} already took an immediate action {immediate_when}, since the end of its last turn",
       seen=_fighter_seen)
def immediate_unused(enc, st):
    """No immediate action since the end of your last turn (one per round)."""
    return not enc.fighters[st.actor].immediate_used


@guard("opportunity-on-own-turn", "{actor} cannot take an opportunity action on its own turn",
       seen=_turn_seen)
def opportunity_not_own_turn(enc, st):
    """No opportunity action on your own turn."""
    return st.actor != enc.active


def opportunity_left(enc, fighter) -> bool:
    """Whether the once-per-turn limit leaves ``fighter`` an opportunity action now."""
    if fighter.opportunity_turn != enc.turn_serial:
        return True
    if enc.options.get("opportunity_limit_turns") == "enemy":
        return enc.fighters[enc.active].side == fighter.side
    return False


@guard("opportunity-used-this-turn",
       "{actor} already took an opportunity action {opportunity_when}",
       seen=_fighter_seen)
def opportunity_unused(enc, st):
    """At most one opportunity action during each other combatant's turn
    (option ``opportunity_limit_turns: enemy`` counts enemies' turns only)."""
    return opportunity_left(enc, enc.fighters[st.actor])


@guard("no-readied-action", "{actor} has no readied action", seen=_fighter_seen)
def has_readied(enc, st):
    """A readied action is waiting for its trigger."""
    return enc.fighters[st.actor].readied is not None


@guard("readied-timing", "the readied action's timing does not fit trigger {trigger} ({phase})",
       seen=_target_seen)
def readied_timing(enc, st):
    """A readied action comes after its trigger (as an immediate reaction), or
    before it when the ``readied_as`` option says ``interrupt``."""
    t = st.target
    if t.kind in TURN_KINDS:
        return True
    if enc.options.get("readied_as", "reaction") == "interrupt":
        return t.pending
    return t.phase == RESOLVED or t.after_open or (t.moving and t.done >= 1)


@guard("not-interrupted",
       "{trigger} can be lost only to an interrupt or opportunity action that resolved before it",
       seen=_target_seen)
def interrupted(enc, st):
    """Only an action an interrupt (or opportunity action) got ahead of can be lost."""
    return st.target.interrupted


# -- Pathfinder 2e budgets -----------------------------------------------

@guard("no-actions-left", "{actor} has {actions} action(s) left this turn", seen=_fighter_seen)
def actions_available(enc, st):
    """The turn's actions cover the cost."""
    return enc.fighters[st.actor].actions >= st.cost


@guard("reaction-used-this-round",
       "{actor} has {reactions} reaction(s) left until the start of its next turn",
       gm="gm-exploration", seen=_fighter_seen)
def reaction_available(enc, st):
    """A reaction is left since the start of your last turn; outside encounters
    the GM decides (option ``exploration_reactions``)."""
    if enc.fighters[st.actor].reactions > 0:
        return True
    if enc.options.get("mode", "encounter") == "exploration":
        policy = enc.options.get("exploration_reactions", "gm")
        if policy == "gm":
            return GM
        return policy == "unlimited"
    return False


@guard("before-first-turn", "{actor} has not had a turn yet in this encounter",
       gm="gm-before-first-turn", seen=_turn_seen)
def first_turn_policy(enc, st):
    """Reacting before your first turn is the GM's call (option ``react_before_first_turn``)."""
    if enc.fighters[st.actor].turns_started > 0:
        return True
    if enc.options.get("mode", "encounter") == "exploration":
        return True
    policy = enc.options.get("react_before_first_turn", "gm")
    if policy == "gm":
        return GM
    return policy == "allow"


def _used(enc, st):
    return enc.uses.get((st.target.id, st.target.occurrence, st.actor), ())


@guard("one-reaction-per-trigger", "{actor} already reacted to trigger {trigger}",
       seen=_target_seen)
def one_reaction_per_trigger(enc, st):
    """However many reactions you have, one per trigger."""
    return ("reaction", st.on) not in _used(enc, st)


@guard("one-free-action-per-trigger",
       "{actor} already used a free action on trigger {trigger}", seen=_target_seen)
def one_free_per_trigger(enc, st):
    """Free actions are unlimited, but one per trigger."""
    return ("free", st.on) not in _used(enc, st)


@guard("similar-trigger-same",
       "trigger {label} of {trigger} is similar to one {actor} already answered",
       gm="gm-similar-trigger", seen=_target_seen)
def similar_trigger(enc, st):
    """Similar but not identical triggers: the GM decides whether they count as one
    (option ``similar_triggers``)."""
    kind = "reaction" if st.kind == "reaction" else "free"
    for used_kind, label in _used(enc, st):
        if used_kind == kind and label != st.on:
            policy = enc.options.get("similar_triggers", "gm")
            if policy == "gm":
                return GM
            return policy == "distinct"
    return True


@guard("not-disruptable", "{trigger} is not an action and cannot be disrupted",
       seen=_target_seen)
def disruptable(enc, st):
    """Actions, reactions, free actions and activities can be disrupted; events cannot."""
    return st.target.kind != EVENT and st.target.kind not in TURN_KINDS


# -- timing guards of machine-driven rows (spec/TIMING.md) -----------------
#
# They decide when the machine moves by itself before a step is judged: a
# finished frame leaves the stack, a window stays open off the stack, the
# turn-start moment passes, the next turn starts. A False is not a refusal.

def timing(says: str):
    """Register a timing guard of a machine row, with what it decides."""

    def register(fn):
        fn.info = GuardInfo(fn.__name__, None, None, says, None)
        fn.routing = True
        GUARDS[fn.__name__] = fn
        return fn

    return register


def _ends_turn_action(enc, st) -> bool:
    """The step is an untriggered action of the turn's owner, or ends the turn."""
    return (st.kind in TURN_ACTIONS or st.kind == "end-turn") and st.actor == enc.active


def _turn_ended(enc) -> bool:
    return bool(enc.stack) and enc.stack[0].kind == "turn-end"


@timing("the step moves play past the finished frame on top")
def play_moves_past(enc, st):
    """T-LEAVE: a finished frame leaves the top of the stack before a step that
    acts beneath it (resolve, continue, lose, disrupt), answers a trigger other
    than it, is an untriggered step of its owner, is the turn owner's next
    action or end of turn, or comes after the turn has ended."""
    top = enc.stack[-1]
    if top.outcome is None or top.kind in TURN_KINDS:
        return False
    if st.kind in RESPONSES:
        return st.target is not None and st.target is not top
    if st.kind in STACK_MOVES:
        return True
    if (st.kind in TURN_ACTIONS or st.kind == "end-turn") and st.actor == top.owner:
        return True
    return _ends_turn_action(enc, st) or _turn_ended(enc)


@timing("the finished frame's window stays open off the stack")
def window_survives(enc, st):
    """T-CUT-IN (4e, option reaction_window: interrupts-next): when the
    triggering combatant goes on with an untriggered step, its finished
    frame leaves the stack with its reaction window still open."""
    if enc.options.get("reaction_window", "interrupts-next") != "interrupts-next":
        return False
    top = enc.stack[-1]
    return (top.outcome == DONE and top.kind not in TURN_KINDS and top.after_open
            and top.owner is not None and top.owner == st.actor and top.kind != EVENT
            and (st.kind in TURN_ACTIONS or st.kind == "end-turn"))


def not_kept(enc, st):
    """The top frame is not already marked to stay open."""
    return not enc.stack[-1].kept


not_kept.info = GuardInfo("not_kept", None, None, "", None)
not_kept.routing = True
GUARDS["not_kept"] = not_kept


@timing("the turn's owner moves on from the turn-start moment")
def turn_start_passes(enc, st):
    """T-TURN-START: the turn-start moment passes when the turn's owner takes
    its first untriggered action or ends its turn."""
    return _ends_turn_action(enc, st)


@timing("a step that answers nothing starts the next turn")
def turn_end_passes(enc, st):
    """T-NEXT-TURN: after the turn has ended, the first step that is not an
    answer to a trigger starts the next turn."""
    return st.kind not in RESPONSES


# -- routing guards for machine-driven rows (no rule, no reason) ---------

def _routing(fn):
    fn.info = GuardInfo(fn.__name__, None, None, "", None)
    fn.routing = True
    fn.structural = True     # picks the destination; decides nothing
    return fn


@_routing
def parent_is_turn(enc, st):
    """After popping, no frame remains: the turn goes on."""
    return len(enc.stack) == 1


@_routing
def parent_pending(enc, st):
    """After popping, the frame below is still pending."""
    return len(enc.stack) > 1 and enc.stack[-2].kind not in TURN_KINDS \
        and enc.stack[-2].phase == PENDING and enc.stack[-2].outcome is None


@_routing
def parent_resolved(enc, st):
    """After popping, the frame below has resolved (wholly or a part)."""
    return len(enc.stack) > 1 and enc.stack[-2].kind not in TURN_KINDS \
        and (enc.stack[-2].phase == RESOLVED or enc.stack[-2].outcome is not None)


@_routing
def parent_turn_start(enc, st):
    """After popping, the turn-start moment is below."""
    return len(enc.stack) > 1 and enc.stack[-2].kind == "turn-start"


@_routing
def parent_turn_end(enc, st):
    """After popping, the turn-end moment is below."""
    return len(enc.stack) > 1 and enc.stack[-2].kind == "turn-end"
