"""D&D 4e: the combatant's budgets, and the guards only this ruleset has
(its effects are in ``effects``). The rows hold these guards through the
table's guard book (``table.GUARDS``), which names them by keyword."""

from __future__ import annotations

from ...engine.frames import EVENT, LOST, PENDING, RESOLVED, TURN_KINDS, Fighter
from ...engine.guard import guard, timing
from .. import common as c
from ..readying import WHEN as _WHEN, readied_guard

# delay and return (T-4E-DELAY) are the turn's own steps, though neither is an action
TURN_ACTIONS = frozenset({"standard", "move", "minor", "ready", "free", "delay", "return"})
ANSWERS = ("free-response", "no-action", "opportunity", "interrupt", "reaction", "readied")
STACK_MOVES = frozenset({"resolve", "continue", "lose"})
INTERRUPTING = frozenset({"interrupt", "opportunity"})
OWN_TRIGGER = "own_trigger"     # an opportunity action whose power states its own trigger


def readied_first(enc) -> bool:
    """Whether a readied action is taken before its trigger (``readied_as:
    interrupt``) rather than after it (T-4E-READY)."""
    return enc.options["readied_as"] == "interrupt"


def gets_ahead(enc, frame) -> bool:
    """Whether ``frame`` resolves ahead of what it answers: an interrupt, an
    opportunity action, or the readied action under ``readied_as: interrupt``."""
    return frame.kind in INTERRUPTING or (frame.kind == "readied" and readied_first(enc))


def cuts_in(enc, frame) -> bool:
    """Whether ``frame`` is an immediate reaction (a reaction, or the readied
    action taken as one): it may interrupt what its trigger's owner does
    after the trigger, the rest of the triggering action included."""
    return frame.kind == "reaction" or (frame.kind == "readied" and not readied_first(enc))


def resolves_ahead(enc, frame) -> bool:
    """Whether ``frame``, once resolved, is ahead of the unresolved part of
    what it answers: an interrupting answer, or an immediate reaction to an
    action with parts still to come (4E-REACTION-NEXT)."""
    return gets_ahead(enc, frame) or cuts_in(enc, frame)


# What a Ready may name as its circumstance (T-4E-READY): 4e's steps say no spell
READY_WHEN = tuple(w for w in _WHEN if w != "casts")
readied_trigger_met = readied_guard(ahead=readied_first)


class Fighter4e(Fighter):
    """A combatant's action slots of its current (or next) own turn, its
    immediate, opportunity and free actions, what it has readied."""

    __slots__ = ("standard", "move", "minor", "immediate_used", "immediate_turn",
                 "opportunity_turn", "free_turn", "free_count", "readied", "readied_when",
                 "surprised", "delaying", "turns_ended")
    FIELDS = {"surprised": bool}

    def __init__(self, id, side, *, surprised: bool = False):
        super().__init__(id, side)
        self.surprised = surprised         # it acts not at all in the surprise round
        self.standard = self.move = self.minor = 1
        self.immediate_used = False
        self.immediate_turn = self.opportunity_turn = self.free_turn = -1
        self.free_count = 0
        self.readied = None
        self.readied_when = (None, None)   # the circumstance it fires on, and whose
        self.delaying = False              # it put its turn off and has not taken it
        self.turns_ended = 0


# -- guards of this ruleset -------------------------------------------------------------

def _fighter_seen(enc, st):
    f = enc.fighters[st.actor]
    seen = {"actor": st.actor, "active": enc.active, "round": enc.round}
    for slot in ("standard", "move", "minor", "free_count", "immediate_turn",
                 "opportunity_turn", "readied"):
        seen[slot] = getattr(f, slot)
    seen["immediate_when"] = enc.describe_turn(f.immediate_turn)
    seen["opportunity_when"] = enc.describe_turn(f.opportunity_turn)
    # the immediate action comes back at the end of one's turn: before one's
    # first turn has ended, it is counted from the start of the encounter
    seen["since"] = ("since the end of its last turn" if _turn_ended_once(enc, st.actor)
                     else "in this encounter (it has not ended a turn yet)")
    return seen


def _turn_ended_once(enc, actor) -> bool:
    return enc.fighters[actor].turns_ended > 0


def _own_unresolved(enc, actor):
    for frame in enc.stack:
        if frame.owner == actor and frame.outcome is None and frame.kind not in TURN_KINDS:
            return frame
    return None


@guard("own-action-in-progress",
       "{actor}'s own {own} is still unresolved; its actions come one after another",
       seen=lambda enc, st: {"actor": st.actor,
                             "own": getattr(_own_unresolved(enc, st.actor), "id", None)},
       ok='{actor} has no action of its own unresolved')
def no_own_action_pending(enc, st):
    """The actor has no unresolved action of its own on the stack."""
    return _own_unresolved(enc, st.actor) is None


@guard("trigger-cancelled", "trigger {trigger} never took effect (outcome: {outcome})",
       seen=c.target_seen,
       ok='{trigger} was not lost')
def trigger_took_effect(enc, st):
    """A lost action never resolved, so there is nothing to react to."""
    return st.target.outcome != LOST


@guard("trigger-already-resolved",
       "trigger {trigger} has already resolved ({done}/{parts} parts); this answer comes before it",
       seen=c.target_seen,
       ok='{trigger} has not resolved yet ({done}/{parts} parts done)')
def trigger_pending(enc, st):
    """An interrupting answer acts while its trigger is still pending."""
    t = st.target
    return t.kind in TURN_KINDS or t.pending


@guard("trigger-not-resolved",
       "trigger {trigger} has not resolved yet ({done}/{parts} parts); a reaction comes after",
       seen=c.target_seen,
       ok='{trigger} has resolved as far as a reaction needs ({done}/{parts} parts)')
def trigger_resolved(enc, st):
    """A reaction answers a resolved part whose window is open (it may come
    while the next part is pending, T-CUT-IN), unless it breaks into movement."""
    t = st.target
    return t.kind in TURN_KINDS or t.phase == RESOLVED or t.after_open or t.moving


@guard("moved-less-than-one-square",
       "{trigger_owner} has moved {done} square(s); a reaction breaks into movement only after 1",
       seen=c.target_seen)
def moved_one_square(enc, st):
    """Breaking into a move needs the mover to have covered at least one square."""
    t = st.target
    return not (t.moving and t.phase == PENDING and t.done < 1)


@guard("trigger-not-by-enemy", "trigger {trigger} is not an enemy's doing", seen=c.target_seen,
       ok="{trigger} is an enemy's doing")
def triggered_by_enemy(enc, st):
    """The trigger is an enemy's action."""
    t = st.target
    return t.owner is not None and enc.fighters[t.owner].side != enc.fighters[st.actor].side


# 4E-SUBSTITUTE: an action may be taken in place of a lesser one, tried in this order
SUBSTITUTES = {"move": ("move", "standard"), "minor": ("minor", "move", "standard")}


def slot_of(f, kind) -> str | None:
    """The action a ``kind`` action is taken with: its own, or the first
    greater one left (None: none is)."""
    return next((slot for slot in SUBSTITUTES[kind] if getattr(f, slot) > 0), None)


@guard("standard-action-used",
       "{actor} has no standard action left this turn (standard={standard})", seen=_fighter_seen,
       ok='{actor} still has its standard action this turn')
def standard_slot(enc, st):
    """The standard action of this turn is unspent."""
    return enc.fighters[st.actor].standard > 0


@guard("move-action-used",
       "{actor} has no move action left, nor a standard to take as one (move={move}, "
       "standard={standard})", seen=_fighter_seen,
       ok='{actor} still has a move action this turn, or a standard to take as one')
def move_slot(enc, st):
    """A move action is left, or a standard action to take in its place."""
    return slot_of(enc.fighters[st.actor], "move") is not None


@guard("minor-action-used",
       "{actor} has no minor action left, nor a move or standard to take as one",
       seen=_fighter_seen,
       ok='{actor} still has a minor action this turn, or an action to take as one')
def minor_slot(enc, st):
    """A minor action is left, or a move or standard action to take in its place."""
    return slot_of(enc.fighters[st.actor], "minor") is not None


def _free_seen(enc, st):
    return dict(_fighter_seen(enc, st), hint=c.option_hint(
        "free_actions_per_turn", None, "(no limit) would allow it"))


@guard("free-action-limit",
       "{actor} has taken {free_count} free action(s) this turn, the limit the DM set{hint}",
       seen=_free_seen,
       ok='{actor} is within the free-action limit')
def free_within_limit(enc, st):
    """The DM's per-turn limit on free actions, when one is set, is not reached."""
    limit = enc.options["free_actions_per_turn"]
    if limit is None:
        return True
    f = enc.fighters[st.actor]
    return (f.free_count if f.free_turn == enc.turn_serial else 0) < limit


@guard("immediate-on-own-turn", "{actor} cannot take an immediate action on its own turn",
       seen=c.turn_seen,
       ok="it is {active}'s turn, not {actor}'s")
def immediate_not_own_turn(enc, st):
    """No immediate action on your own turn."""
    return st.actor != enc.active


@guard("immediate-used-this-round",
       "{actor} already took an immediate action {immediate_when}, {since}",
       seen=_fighter_seen,
       ok='{actor} has taken no immediate action {since}')
def immediate_unused(enc, st):
    """No immediate action since the end of your last turn (one per round)."""
    return not enc.fighters[st.actor].immediate_used


@guard("opportunity-on-own-turn", "{actor} cannot take an opportunity action on its own turn",
       seen=c.turn_seen,
       ok="it is {active}'s turn, not {actor}'s")
def opportunity_not_own_turn(enc, st):
    """No opportunity action on your own turn."""
    return st.actor != enc.active


def opportunity_left(enc, fighter) -> bool:
    """Whether the once-per-turn limit leaves ``fighter`` an opportunity action now."""
    if fighter.opportunity_turn != enc.turn_serial:
        return True
    if enc.options["opportunity_limit_turns"] == "enemy":
        return enc.fighters[enc.active].side == fighter.side
    return False


def _opportunity_seen(enc, st):
    seen = _fighter_seen(enc, st)
    ally_turn = enc.fighters[enc.active].side == enc.fighters[st.actor].side
    seen["hint"] = c.option_hint("opportunity_limit_turns", "enemy",
                                 "would allow it on an ally's turn") \
        if ally_turn and enc.options["opportunity_limit_turns"] == "every-other" else ""
    return seen


@guard("opportunity-used-this-turn", "{actor} already took an opportunity action "
       "{opportunity_when}{hint}", seen=_opportunity_seen,
       ok='{actor} has taken no opportunity action this turn')
def opportunity_unused(enc, st):
    """At most one opportunity action during each other combatant's turn
    (option ``opportunity_limit_turns: enemy`` counts enemies' turns only)."""
    return opportunity_left(enc, enc.fighters[st.actor])


@guard("no-readied-action", "{actor} has no readied action", seen=_fighter_seen,
       ok='{actor} has readied a {readied} action')
def has_readied(enc, st):
    """A readied action is waiting for its trigger."""
    return enc.fighters[st.actor].readied is not None


def _readied_timing_seen(enc, st):
    seen = c.target_seen(enc, st)
    seen["hint"] = ""
    t = st.target
    if t is not None and t.kind not in TURN_KINDS:
        as_interrupt = readied_first(enc)
        other = _fits_as_reaction(t) if as_interrupt else t.pending
        if other:
            seen["hint"] = c.option_hint("readied_as",
                                         "reaction" if as_interrupt else "interrupt",
                                         "would fit it")
    return seen


def _fits_as_reaction(t) -> bool:
    return t.phase == RESOLVED or t.after_open or (t.moving and t.done >= 1)


@guard("readied-timing", "the readied action's timing does not fit trigger {trigger} "
       "({phase}){hint}", seen=_readied_timing_seen,
       ok="the readied action's timing fits {trigger}")
def readied_timing(enc, st):
    """A readied action comes after its trigger (as an immediate reaction), or
    before it when the ``readied_as`` option says ``interrupt``."""
    t = st.target
    if t.kind in TURN_KINDS:
        return True
    if readied_first(enc):
        return t.pending
    return _fits_as_reaction(t)


_AHEAD_WORDS = {"interrupt": "immediate interrupt", "opportunity": "opportunity action",
                "reaction": "immediate reaction", "readied": "readied action"}


def _ahead_seen(enc, st):
    seen = c.target_seen(enc, st)
    t = st.target
    # the latest, on the stack or off it (it left as the stack moved on, T-LEAVE)
    later = (*reversed(enc.stack), *enc.left_stack())
    ahead = next((f for f in later if t is not None and f is not None and f.parent == t.id
                  and f.outcome == RESOLVED and resolves_ahead(enc, f)), None)
    seen["ahead"] = (f"{ahead.owner}'s {_AHEAD_WORDS[ahead.kind]} {ahead.id}"
                     if ahead is not None else "an interrupt")
    return seen


@guard("not-interrupted",
       "{trigger} can be lost only to an interrupt, an opportunity action or an immediate "
       "reaction that resolved ahead of its pending part",
       seen=_ahead_seen,
       ok="{ahead} resolved ahead of {trigger}'s pending part")
def interrupted(enc, st):
    """Only an action an interrupt (or opportunity action) got ahead of can be
    lost, or the rest of one an immediate reaction came before."""
    return st.target.interrupted


@timing("its window stays open off the stack")
def window_survives(enc, st):
    """T-CUT-IN (option reaction_window: interrupts-next): when the triggering
    combatant goes on with an untriggered step, its finished frame leaves the
    stack with its reaction window still open."""
    if enc.options["reaction_window"] != "interrupts-next":
        return False
    top = enc.stack[-1]
    return (top.outcome == RESOLVED and top.kind not in TURN_KINDS and top.after_open
            and top.owner is not None and top.owner == st.actor and top.kind != EVENT
            and (st.kind in TURN_ACTIONS or st.kind == "end-turn"))


@timing("the top frame is not already marked to stay open", once=True)
def not_kept(enc, st):
    """The top frame is not already marked to stay open."""
    return not enc.stack[-1].kept


# -- surprise (T-4E-SURPRISE) -----------------------------------------------------------

def surprise_round(enc) -> bool:
    """The first round is a surprise round when some combatant is surprised."""
    return enc.round == 1 and any(f.surprised for f in enc.fighters.values())


def _surprise_seen(enc, st):
    seen = _fighter_seen(enc, st)
    in_it = surprise_round(enc)
    seen["not_surprised"] = f"{st.actor} is not surprised" if in_it else ""
    seen["none_yet"] = f"{st.actor} has taken no action yet in the surprise round" \
        if in_it else ""
    return seen


def _in_surprise_round(enc, st, rules) -> tuple:
    """Surprise bears on a step only in a surprise round."""
    return rules if surprise_round(enc) else ()


@guard("surprised", "{actor} is surprised: it takes no action of any kind in the surprise "
       "round (round 1)", seen=_surprise_seen, ok="{not_surprised}", bears=_in_surprise_round)
def not_surprised(enc, st):
    """A surprised combatant takes no action, not even a free, opportunity or
    immediate one, until the surprise round ends."""
    return not (enc.fighters[st.actor].surprised and surprise_round(enc))


@guard("surprise-round-one-action", "{actor} has taken its one action of the surprise "
       "round: a standard, a move or a minor action, not two", seen=_surprise_seen,
       ok="{none_yet}", bears=_in_surprise_round)
def one_action_in_surprise_round(enc, st):
    """In the surprise round each combatant who is not surprised takes one
    action on its turn: a standard, a move or a minor action (free actions
    besides)."""
    f = enc.fighters[st.actor]
    return not surprise_round(enc) or (f.standard, f.move, f.minor) == (1, 1, 1)
