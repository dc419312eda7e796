"""What the tools need of D&D 5e: the budgets a scenario may expect, how the
explorer walks an encounter and what it checks after every step, and the
mutants that measure the conformance suite."""

from __future__ import annotations

from ...engine.frames import DISRUPTED
from ...engine.rows import rewrite
from .. import EACH_TURN, OWN_TURN, Explore, Tally
from .. import common as c
from . import limits as fx
from . import scene as sc
from .squares import FEET_PER_SQUARE

COSTLESS = frozenset({"interact", "event"})
REACTIONS = frozenset({"reaction", "opportunity", "readied"})


def budgets(enc, fighter) -> dict:
    """action, bonus (1 while one is left this turn), movement (feet left this
    turn), interaction (the free object interaction, 1 while unused this turn),
    reaction (1 while unused since the start of its last turn), slot (1 while
    it may expend a spell slot on this turn), readied (what it has readied)."""
    return {
        "action": 0 if fighter.action_used else 1,
        "bonus": 1 if fighter.bonus and not fighter.bonus_used else 0,
        "movement": fighter.movement,
        "interaction": 0 if fighter.interaction_used else 1,
        "reaction": 0 if fighter.reaction_used else 1,
        "slot": 0 if fighter.slot_turn == enc.turn_serial else 1,
        "readied": fighter.readied,
    }


# -- the explorer ---------------------------------------------------------------------

def turn_moves(actor, others) -> list:
    """The turn's steps the explorer tries for each creature."""
    return [("action", (("provokes", others),)), ("action", (("attacks", 2),)),
            ("action", (("slot", True),)), ("bonus", (("slot", True),)),
            ("move", (("squares", 2), ("provokes", others[:1]))), ("dash", ()),
            ("disengage", ()), ("ready", ()), ("interact", ()),
            ("dash", (("bonus", True),)), ("action", (("additional", True),))]


def grid_moves(actor, others) -> list:
    """Grid mode: moves a square either way along the line, two squares
    right, a melee attack and Disengage."""
    return [("action", (("attack", "melee"), ("targets", others[:1]))),
            ("move", (("steps", ((1, 0),)),)), ("move", (("steps", ((-1, 0),)),)),
            ("move", (("steps", ((1, 0), (1, 0))),)), ("disengage", ())]


def limit_probes(enc, actor) -> list:
    """A move one square longer than the movement left (refused), then one
    of all of it: the verdicts show exactly how much movement is left."""
    left = enc.budgets(actor)["movement"] // FEET_PER_SQUARE
    return [{"actor": actor, "do": "move", "squares": n} for n in (left + 1, left) if n > 0]


ANSWER_VARIANTS = (("reaction", (("before", True), ("slot", True))),)
GRID_ANSWERS = ()


def frame_class(kind: str) -> str:
    """Every kind is told apart (the guards read most of them)."""
    return kind


def fighter_key(enc, f, exact, answers) -> tuple:
    """A creature as the rules can still tell it apart: its turn's budgets only
    while it is active (movement only up to the 10 feet the longest move the
    walker tries covers), its Reaction and what it readied only if it answers."""
    key = ((f.action_used, f.bonus_used, min(f.movement, 10), f.interaction_used,
            f.disengaged, f.additional_used)
           if f.id == enc.active else None, f.slot_turn == enc.turn_serial)
    if answers:
        key += (f.reaction_used, f.readied if exact else f.readied is not None)
    return key + (f.at,)


def combatants(out: list) -> list:
    """The first creature has a Bonus Action to take."""
    out[0]["bonus"] = True
    return out


def watch(w, enc, data, verdict, tallies, answers):
    """The explorer's own count of Reactions since each creature's last turn
    started, and of actions and Bonus Actions this turn; the first invariant
    the step breaks, or None."""
    bonus, react, spent = tallies["bonus"], tallies["reactions"], tallies["actions"]
    kind, actor = data["do"], data.get("actor")
    i = w.index.get(actor)
    problem = None
    if kind in REACTIONS:
        react[i] += 1
        if react[i] > 1:
            problem = ("two-reactions", f"{actor} took a second Reaction before the start "
                       "of its next turn", ("5E-REACTION-ONE",))
    paid = data.get("bonus") is True or data.get("additional") is True   # by a feature
    if kind in fx.ACTIONS and not paid:
        spent[i] += 1
        if spent[i] > 1 and problem is None:
            problem = ("two-actions", f"{actor} took a second action this turn",
                       ("5E-ACTION",))
    if kind == "bonus" or (kind in fx.ACTIONS and data.get("bonus") is True):
        bonus[i] += 1
        if bonus[i] > 1 and problem is None:
            problem = ("two-bonus-actions", f"{actor} took a second Bonus Action this turn",
                       ("5E-BONUS-ONE",))
    if kind in fx.TURN_ACTIONS and actor != enc.active and problem is None:
        problem = ("off-turn-action", f"{actor} took a {kind} on {enc.active}'s turn",
                   ("5E-OWN-TURN",))
    if kind == "opportunity" and enc.scene and problem is None:
        problem = _grid_problem(enc, actor, verdict)
    return problem, answers


def _apart(a, b) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _grid_problem(enc, actor, verdict):
    """The explorer's own reading of the grid (no code shared with the rules):
    an allowed Opportunity Attack answers a path whose next square takes its
    mover from within the answerer's reach to outside it."""
    trigger = enc.find(verdict.target_id) or enc.past.get(verdict.target_id)
    me = enc.fighters[actor]
    ok = trigger is not None and trigger.path and trigger.forced is None \
        and trigger.done < len(trigger.path) and trigger.owner in enc.fighters
    if ok:
        here = enc.fighters[trigger.owner].at
        ok = _apart(here, me.at) <= me.reach < _apart(trigger.path[trigger.done], me.at)
    if not ok:
        return ("opportunity-without-leaving", f"{actor} made an Opportunity Attack against "
                f"{verdict.target_id}, which is not leaving its reach there",
                ("5E-OA", "5E-REACH"))
    return None


# Bonus Actions this turn, Reactions since the start of one's last turn, actions this turn
TALLIES = (Tally("bonus", EACH_TURN), Tally("reactions", OWN_TURN),
           Tally("actions", EACH_TURN))

explore = Explore(turn_moves=turn_moves, frame_class=frame_class, fighter_key=fighter_key,
                  watch=watch, tallies=TALLIES, combatants=combatants, costless=COSTLESS,
                  reads_uses=True, void_rules=("5E-COUNTERSPELL",),
                  answer_variants=ANSWER_VARIANTS, grid_moves=grid_moves,
                  grid_answers=GRID_ANSWERS, limit_probes=limit_probes)


# -- mutants ----------------------------------------------------------------------------

def reaction_back_at_turn_end(enc, st):
    enc.fighters[enc.active].reaction_used = False


def mutants(rows, refusals) -> list:
    """Timing choices of this ruleset flipped: (id, description, rows, refusals)."""
    moved = rewrite(rows, effects=lambda r: (reaction_back_at_turn_end,) + r.effects,
                    where=lambda r: r.step == "end-turn")
    return [("reaction-back-at-turn-end", "the Reaction also comes back at the end of your "
             "turn, not only at its start", moved, refusals)]


def reaction_back_every_turn(enc, st):
    for f in enc.fighters.values():
        f.reaction_used = False


def spend_reaction_at_ready(enc, st):
    fx.note_readied(enc, st)
    enc.fighters[st.actor].reaction_used = True


def counter_spends_slot(enc, st):
    c.void(enc, st, DISRUPTED)


def mistakes(rows, refusals, kit) -> list:
    """Engine-author mistakes in this ruleset: (id, description, rows, refusals)."""
    return [
        ("reaction-back-every-turn", "every creature's Reaction comes back at every turn "
         "(a marker reset each turn)", kit.add_effect(rows, "next-turn",
                                                      reaction_back_every_turn), refusals),
        ("ready-spends-the-reaction", "taking the Ready action spends the Reaction at once",
         kit.swap_effect(rows, fx.note_readied, spend_reaction_at_ready), refusals),
        ("countered-slot-expended", "a countered spell's slot stays expended",
         kit.swap_effect(rows, fx.counter, counter_spends_slot), refusals),
        ("answers-resolve-at-once", "answers take effect at once, never on the stack",
         kit.answers_at_once(rows), refusals),
    ]


# -- the trackers' mistakes (fsm.conformance.mistakes.ZOO) -------------------------------

def refresh_keeping_the_reaction(enc, st):
    """The new turn's budgets; the Reaction is left where it was."""
    f = enc.fighters[enc.active]
    used = f.reaction_used
    fx.refresh(enc, st)
    f.reaction_used = used


def reactions_back_at_round_start(enc, st):
    """Every creature's Reaction comes back as the first turn of a round starts."""
    if enc.turn_index == 0:
        for f in enc.fighters.values():
            f.reaction_used = False


def reaction_on_own_turn_only(enc, st):
    return st.actor == enc.active and fx.reaction_left(enc, st)


def readied_kept(enc, st):
    """The readied response is taken, stays readied and spends nothing."""


def refresh_keeping_disengage(enc, st):
    f = enc.fighters[enc.active]
    kept = f.disengaged
    fx.refresh(enc, st)
    f.disengaged = kept


def disengaged_whenever(enc, st):
    mover = enc.fighters.get(st.target.owner)
    return mover is None or not mover.disengaged


def entering_reach(enc, st):
    """The pending square brings the mover into the answerer's reach."""
    t = st.target
    if not enc.scene:
        return st.actor in t.provokes
    if not t.path or t.owner is None or t.done >= len(t.path):
        return False
    me, mover = enc.fighters[st.actor], enc.fighters[t.owner]
    return not sc.within_reach(me, mover.at) and sc.within_reach(me, t.path[t.done])


def after_the_trigger(enc, st):
    """The Opportunity Attack once its trigger has resolved."""
    return fx.after_its_trigger(enc, st) if st.kind == "opportunity" else \
        fx.before_its_trigger(enc, st)


# the rules each mistake breaks here (the mistakes: fsm.conformance.mistakes.ZOO)
ZOO_RULES = {
    "reactions-reset-per-round": ("5E-REACTION-ONE",),
    "reactions-only-on-own-turn": ("5E-REACTION-ANY-TURN",),
    "ready-spends-the-reaction-at-once": ("5E-READY",),
    "readied-fires-twice": ("5E-READY", "5E-REACTION-ONE"),
    "opportunity-on-entering-reach": ("5E-OA", "5E-REACH"),
    "opportunity-after-the-move": ("5E-OA",),
    "forced-movement-provokes": ("5E-OA-OWN-MOVEMENT", "5E-TELEPORT"),
    "disengage-outlasts-the-turn": ("5E-DISENGAGE",),
    "incapacitated-reacts": ("5E-INCAPACITATED",),
    "no-slot-limit": ("5E-SLOT-ONE",),
}


def zoo(rows, refusals, kit) -> dict:
    """The trackers' mistakes in D&D 5e terms: {zoo id: (rows, refusals)}."""
    answers = frozenset(fx.ANSWERS)
    return {
        "reactions-reset-per-round": (
            kit.add_effect(kit.swap_effect(rows, fx.refresh, refresh_keeping_the_reaction),
                           "next-turn", reactions_back_at_round_start), refusals),
        "reactions-only-on-own-turn": (
            kit.swap_guard(rows, fx.reaction_left,
                           kit.as_guard(reaction_on_own_turn_only, fx.reaction_left)),
            refusals),
        "ready-spends-the-reaction-at-once": (
            kit.swap_effect(rows, fx.note_readied, spend_reaction_at_ready), refusals),
        "readied-fires-twice": (
            rewrite(kit.swap_effect(rows, fx.use_readied, readied_kept),
                    effects=lambda r: (e for e in r.effects if e is not fx.spend_reaction),
                    where=lambda r: r.step == "readied"), refusals),
        "opportunity-on-entering-reach": (
            kit.swap_guard(rows, sc.leaves_reach, kit.as_guard(entering_reach, sc.leaves_reach)),
            refusals),
        "opportunity-after-the-move": (
            rewrite(rows, guard=lambda g: kit.as_guard(after_the_trigger, g)
                    if g is fx.before_its_trigger else g,
                    where=lambda r: r.step == "opportunity"), refusals),
        "forced-movement-provokes": kit.forced(rows, refusals, "moves_by_itself"),
        "disengage-outlasts-the-turn": (
            kit.swap_guard(kit.swap_effect(rows, fx.refresh, refresh_keeping_disengage),
                           sc.not_disengaged,
                           kit.as_guard(disengaged_whenever, sc.not_disengaged)), refusals),
        "incapacitated-reacts": kit.forced(rows, refusals, "able_to_act",
                                           where=lambda r: r.step in answers),
        "no-slot-limit": kit.forced(rows, refusals, "slot_left"),
    }
