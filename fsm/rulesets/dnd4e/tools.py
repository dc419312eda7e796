"""What the tools need of D&D 4e: the budgets a scenario may expect, how the
explorer walks an encounter and what it checks after every step, and the
mutants that measure the conformance suite."""

from __future__ import annotations

from ...engine.frames import RESOLVED
from ...engine.rows import rewrite
from ...engine.scene import adjacent
from .. import EACH_TURN, Explore, Tally
from . import effects as ef
from . import limits as fx
from . import scene as sc
from .limits import INTERRUPTING, opportunity_left
from .scene import ENTERS_REACH

IMMEDIATE = frozenset({"interrupt", "reaction", "readied"})
COSTLESS = frozenset({"free", "free-response", "no-action", "event"})
READ_BY_GUARDS = frozenset({"ready", "readied"})   # frame kinds a guard tells apart


def budgets(enc, fighter) -> dict:
    """standard, move, minor (left this turn), immediate (1 while unused since
    the end of your last turn), opportunity (1 while the once-per-turn limit
    leaves one now), free_used (this turn), readied (what is readied)."""
    return {
        "standard": fighter.standard, "move": fighter.move, "minor": fighter.minor,
        "immediate": 0 if fighter.immediate_used else 1,
        "opportunity": 1 if opportunity_left(enc, fighter) else 0,
        "free_used": fighter.free_count if fighter.free_turn == enc.turn_serial else 0,
        "readied": fighter.readied,
    }


# -- the explorer ---------------------------------------------------------------------

def turn_moves(actor, others) -> list:
    """The turn's actions the explorer tries for each combatant."""
    return [("standard", ()), ("standard", (("attacks", 2),)),
            ("move", (("squares", 2), ("provokes", others))),
            ("minor", ()), ("ready", ()), ("free", ())]


def grid_moves(actor, others) -> list:
    """Grid mode: the turn's actions with positions: moves a square either way
    along the line (and two squares right), a shift, melee and ranged attacks, and
    a shift back, then a ranged attack."""
    return [("standard", (("attack", "melee"), ("targets", others[:1]))),
            ("standard", (("attack", "ranged"), ("targets", others[-1:]))),
            ("move", (("steps", ((1, 0),)),)), ("move", (("steps", ((-1, 0),)),)),
            ("move", (("steps", ((1, 0), (1, 0))),)),
            ("move", (("steps", ((0, 1),)), ("shift", True))),
            ("standard", (("steps", ((-1, 0),)), ("shift", True), ("attack", "ranged"),
                          ("targets", others[-1:]), ("attack_after", True))),
            ("minor", ()), ("free", ())]


GRID_ANSWERS = (("interrupt", (("steps", ((0, -1),)), ("shift", True))),
                ("reaction", (("on", ENTERS_REACH),)))


def frame_class(kind: str) -> str:
    """What the guards tell apart of a frame's kind."""
    if kind in READ_BY_GUARDS:
        return kind
    if kind in INTERRUPTING:
        return "interrupting"
    return "costless" if kind in COSTLESS else "action"


def fighter_key(enc, f, exact, answers) -> tuple:
    """A combatant as the rules can still tell it apart: its action slots only
    while it is active, free actions counted up to the DM's limit, and its
    answer budgets only if it answers in this walk."""
    limit = enc.options["free_actions_per_turn"]
    free_used = f.free_count if f.free_turn == enc.turn_serial else 0
    key = ((f.standard, f.move, f.minor) if f.id == enc.active else None,
           min(free_used, limit) if limit is not None else 0, min(f.turns_started, 1))
    if answers:
        key += (f.opportunity_turn == enc.turn_serial, f.immediate_used,
                f.readied if exact else f.readied is not None)
    return key + (f.at,)


def watch(w, enc, data, verdict, tallies, answers):
    """The explorer's own count of immediate and opportunity actions, and the
    first invariant the step breaks: (invariant, message, rule ids) or None."""
    imm, opp = tallies["immediates"], tallies["opportunities"]
    kind, actor = data["do"], data.get("actor")
    problem = None
    if kind in IMMEDIATE or kind == "opportunity":
        if actor == enc.active:
            name = "immediate" if kind in IMMEDIATE else "opportunity"
            problem = (f"{name}-on-own-turn", f"{actor} took a {kind} on its own turn",
                       ("4E-IMM-OWN-TURN",) if name == "immediate" else ("4E-OPP-OWN-TURN",))
    i = w.index.get(actor)
    if kind in IMMEDIATE:
        imm[i] += 1
        if imm[i] > 1 and problem is None:
            problem = ("two-immediate-actions", f"{actor} took a second immediate action "
                       f"before the end of its own turn", ("4E-IMM-ONCE",))
    enemy_only = enc.options["opportunity_limit_turns"] == "enemy"
    if kind == "opportunity" and (not enemy_only or w.side[enc.active] != w.side[actor]):
        opp[i] += 1
        if opp[i] > 1 and problem is None:
            problem = ("two-opportunity-actions", f"{actor} took a second opportunity "
                       f"action during {enc.active}'s turn", ("4E-OPP-ONCE",))
    if kind == "end-turn":
        imm[w.index[enc.active]] = 0
    if enc.scene and problem is None:
        problem = _grid_problem(enc, data, verdict)
    return problem, answers


def _apart(a, b) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _grid_problem(enc, data, verdict):
    """The explorer's own reading of the grid (no code shared with the rules):
    an allowed opportunity action needs its trigger to leave, or attack at
    range from, a square next to the answerer; an answer on entering the reach
    needs the mover to have entered it and still be moving (or to have
    entered it on its last square and finished moving); a melee attack
    is lost once an answer ahead of it leaves all its targets out of reach."""
    kind, actor = data["do"], data.get("actor")
    trigger = enc.find(verdict.target_id) or enc.past.get(verdict.target_id)
    if kind == "opportunity" and trigger is not None and trigger.owner is not None:
        mover, me = enc.fighters[trigger.owner].at, enc.fighters[actor].at
        squares_left = trigger.done < len(trigger.path)     # the attack after them not begun
        after = "attack_after" in trigger.flags and bool(trigger.path)
        walking = bool(trigger.path) and (squares_left or not after)
        provokes = (walking and not trigger.shift and not trigger.forced) \
            or (trigger.attack in ("ranged", "area") and not (after and squares_left))
        if not (provokes and _apart(mover, me) == 1):
            return ("unprovoked-opportunity", f"{actor} took an opportunity action against "
                    f"{trigger.id}, which the positions show provokes nobody there",
                    ("4E-OPP-TRIGGER", "4E-SCENE-GRID"))
    if kind == "reaction" and data.get("on") == ENTERS_REACH and trigger is not None:
        me = enc.fighters[actor]
        squares = [trigger.start, *trigger.path]
        entered = [n for n in range(1, len(squares)) if _apart(squares[n - 1], me.at) > me.reach
                   and _apart(squares[n], me.at) <= me.reach]
        on_last = bool(entered) and entered[0] == trigger.parts == trigger.done \
            and trigger.outcome == RESOLVED      # entered on the last square: after the move
        if not entered or not (entered[0] <= trigger.done < trigger.parts or on_last):
            return ("reaction-outside-the-move", f"{actor} answered {trigger.id} entering its "
                    f"reach outside the squares between entering and the end of the move",
                    ("4E-REACTION-MOVE", "4E-SCENE-GRID"))
    for entry in enc.events():
        if entry["step"] != verdict.step or entry["event"] != RESOLVED \
                or entry["kind"] not in INTERRUPTING:
            continue
        answer = enc.find(entry["frame"]) or enc.past.get(entry["frame"])
        attack = enc.find(answer.parent) if answer is not None and answer.parent else None
        if attack is not None and attack.outcome is None and attack.attack == "melee" \
                and attack.targets:
            attacker = enc.fighters[attack.owner]
            there = attack.path[-1] if "attack_after" in attack.flags and attack.path \
                else attacker.at        # an attack after its path is made from its end
            if all(_apart(there, enc.fighters[t].at) > attacker.reach
                   for t in attack.targets):
                return ("melee-attack-not-lost", f"{answer.id} resolved ahead of "
                        f"{attack.id} with none of its targets left within reach, and "
                        f"{attack.id} goes on", ("4E-SCENE-LOSS",))
    return None


# immediate actions since the end of one's last turn (watch zeroes them), opportunity
# actions this turn
TALLIES = (Tally("immediates"), Tally("opportunities", EACH_TURN))

explore = Explore(turn_moves=turn_moves, frame_class=frame_class, fighter_key=fighter_key,
                  watch=watch, tallies=TALLIES, costless=COSTLESS, grid_moves=grid_moves,
                  grid_answers=GRID_ANSWERS,
                  parented=frozenset({"interrupting", "readied"}),
                  void_rules=("4E-INTERRUPT-LOST",))


# -- mutants ----------------------------------------------------------------------------

def _swap_guard(rows, step, old, new):
    return rewrite(rows, guard=lambda g: new if g.name == old else g,
                   where=lambda r: r.step == step)


def _move_effect(rows, effect, from_step, to_step):
    rows = rewrite(rows, effects=lambda r: (e for e in r.effects if e is not effect),
                   where=lambda r: r.step == from_step)
    return rewrite(rows, effects=lambda r: r.effects + (effect,),
                   where=lambda r: r.step == to_step)


def mutants(rows, refusals) -> list:
    """Timing choices of this ruleset flipped: (id, description, rows, refusals)."""
    flipped = _swap_guard(_swap_guard(rows, "interrupt", "trigger_pending", fx.trigger_resolved),
                          "reaction", "trigger_resolved", fx.trigger_pending)
    return [("interrupt-reaction-flipped", "interrupts come after their trigger, reactions "
             "before", flipped, refusals),
            ("immediate-reset-at-turn-start", "the immediate action comes back at the start "
             "of your turn, not its end",
             _move_effect(rows, ef.reset_immediate, "end-turn", "next-turn"), refusals)]


def immediate_back_every_turn(enc, st):
    """Every combatant's immediate action comes back at every turn's start."""
    for f in enc.fighters.values():
        f.immediate_used = False


def actions_back_at_turn_end(enc, st):
    """The standard, move and minor actions come back as the turn ends."""
    f = enc.fighters[enc.active]
    f.standard = f.move = f.minor = 1


def opportunity_once_per_round(enc, st):
    """One opportunity action per round instead of per turn."""
    f = enc.fighters[st.actor]
    if f.opportunity_turn < 1:
        return True
    known = enc.turn_of(f.opportunity_turn)
    return (known[0] if known is not None else 0) != enc.round


def _side(enc, actor):
    side = enc.fighters[actor].side
    return [f for f in enc.fighters.values() if f.side == side]


def spend_immediate_by_side(enc, st):
    for f in _side(enc, st.actor):
        f.immediate_used, f.immediate_turn = True, enc.turn_serial


def spend_opportunity_by_side(enc, st):
    for f in _side(enc, st.actor):
        f.opportunity_turn = enc.turn_serial


def mark_lost_refunded(enc, st):
    top = enc.stack[-1]
    ef.mark_lost(enc, st)
    f = enc.fighters.get(top.owner)
    if f is not None and top.kind in ("standard", "ready"):
        f.standard += 1
    elif f is not None and top.kind == "move":
        f.move += 1


def mistakes(rows, refusals, kit) -> list:
    """Engine-author mistakes in this ruleset: (id, description, rows, refusals)."""
    as_guard = kit.as_guard
    return [
        ("immediate-back-every-turn", "every immediate action comes back at every turn",
         kit.add_effect(rows, "next-turn", immediate_back_every_turn), refusals),
        ("actions-back-at-turn-end", "the turn's actions come back as it ends",
         kit.add_effect(rows, "end-turn", actions_back_at_turn_end), refusals),
        ("opportunity-once-per-round", "one opportunity action per round, not per turn",
         kit.swap_guard(rows, fx.opportunity_unused,
                        as_guard(opportunity_once_per_round, fx.opportunity_unused)),
         refusals),
        ("immediate-shared-by-side", "one immediate action per side, not per creature",
         kit.swap_effect(rows, ef.spend_immediate, spend_immediate_by_side), refusals),
        ("opportunity-shared-by-side", "one opportunity action per side and turn",
         kit.swap_effect(rows, ef.spend_opportunity, spend_opportunity_by_side), refusals),
        ("lost-action-refunded", "a lost action gives its cost back",
         kit.swap_effect(rows, ef.mark_lost, mark_lost_refunded), refusals),
        ("answers-resolve-at-once", "answers take effect at once, never on the stack",
         kit.answers_at_once(rows), refusals),
        ("windows-survive-the-turn", "windows kept open survive the next turn's start",
         kit.windows_survive_the_turn(rows), refusals),
    ]





# -- the trackers' mistakes (fsm.conformance.mistakes.ZOO) -------------------------------

def immediates_back_at_round_start(enc, st):
    """Every combatant's immediate action comes back as a round's first turn starts."""
    if enc.turn_index == 0:
        for f in enc.fighters.values():
            f.immediate_used = False


def readied_kept(enc, st):
    """The readied action is taken, stays readied and spends nothing."""
    st.text["readied"] = enc.fighters[st.actor].readied


def forced_moves_provoke(enc, st):
    """Any path, forced or not, provokes from where the mover stands."""
    if not enc.scene:
        return st.actor in st.target.provokes
    frame = st.target
    if frame.owner is None:
        return False
    mover, me = enc.fighters[frame.owner], enc.fighters[st.actor]
    moving = bool(frame.path) and not frame.shift
    return mover.side != me.side and (moving or frame.attack in sc.PROVOKING_ATTACKS) \
        and adjacent(mover.at, me.at)


# the rules each mistake breaks here (the mistakes: fsm.conformance.mistakes.ZOO)
ZOO_RULES = {
    "reactions-reset-per-round": ("4E-IMM-ONCE",),
    "readied-fires-twice": ("4E-READY",),
    "forced-movement-provokes": ("4E-OPP-TRIGGER",),
    "opportunity-on-own-turn": ("4E-OPP-OWN-TURN", "4E-IMM-OWN-TURN"),
}


def zoo(rows, refusals, kit) -> dict:
    """The trackers' mistakes in D&D 4e terms: {zoo id: (rows, refusals)}. (A
    Ready that spends the immediate action at once is no mistake verdicts
    can show here: the immediate action comes back as the readying turn ends.)"""
    return {
        "reactions-reset-per-round": (
            kit.add_effect(kit.drop_effect(rows, ef.reset_immediate), "next-turn",
                           immediates_back_at_round_start), refusals),
        "readied-fires-twice": (kit.swap_effect(rows, ef.use_readied, readied_kept), refusals),
        "forced-movement-provokes": (
            kit.swap_guard(rows, sc.provoked, kit.as_guard(forced_moves_provoke, sc.provoked)),
            refusals),
        "opportunity-on-own-turn": kit.forced(rows, refusals, "opportunity_not_own_turn"),
    }
