"""What the tools need of Pathfinder 2e: the budgets a scenario may expect,
how the explorer walks an encounter and what it checks after every step, and
the mutants that measure the conformance suite."""

from __future__ import annotations

from ...engine.rows import rewrite
from .. import EACH_TURN, OWN_TURN, Explore, Tally
from . import limits as fx

COSTLESS = frozenset({"free", "free-response", "event"})


def budgets(enc, fighter) -> dict:
    """actions (left this turn), reactions (left until your next turn starts)."""
    return {"actions": fighter.actions, "reactions": fighter.reactions}


def turn_moves(actor, others) -> list:
    """An action, one with the manipulate trait within everyone's reach (it
    provokes a Reactive Strike), a two-action activity, a free action."""
    return [("action", ()), ("action", (("manipulate", True), ("provokes", tuple(others)))),
            ("activity", (("cost", 2), ("triggers", ("a", "b")))), ("free", ())]


def grid_moves(actor, others) -> list:
    """Grid mode: a Stride a square either way along the line, a two-action
    activity moving two squares, a Strike at the one beside (PF2 derives
    only positions from the scene: ASM-PF2-SCENE)."""
    return [("action", (("steps", ((1, 0),)),)), ("action", (("steps", ((-1, 0),)),)),
            ("action", (("steps", ((0, 1),)), ("step", True))),
            ("activity", (("cost", 2), ("steps", ((1, 0), (1, 0))))),
            ("action", (("attack", "melee"), ("targets", others[:1])))]


def frame_class(kind: str) -> str:
    return "costless" if kind in COSTLESS else "action"


def fighter_key(enc, f, exact, answers) -> tuple:
    key = ((f.actions,) if f.id == enc.active else None, 0, min(f.turns_started, 1))
    if answers:
        key += (f.reactions,)
    return key + (f.actions_max, f.reactions_max)


def combatants(out: list) -> list:
    """The last creature has two reactions, so one-reaction-per-trigger is reachable."""
    out[-1]["reactions"] = 2
    return out


def watch(w, enc, data, verdict, tallies, answers):
    """The explorer's own count of reactions and actions, and of answers per
    trigger; the first invariant the step breaks, or None."""
    react, spent = tallies["reactions"], tallies["actions"]
    kind, actor = data["do"], data.get("actor")
    problem = None
    i = w.index.get(actor)
    budgeted = fx.reactions_budgeted(enc.options)
    if kind in fx.REACTIONS and budgeted:
        react[i] += 1
        most = enc.fighters[actor].reactions_max
        if react[i] > most:
            problem = ("too-many-reactions", f"{actor} took {react[i]} reactions since the "
                       f"start of its last turn (budget {most})", ("PF2-REACTION-ONE",))
    if kind in (*fx.REACTIONS, "free-response"):
        target = enc.find(verdict.target_id) or enc.past.get(verdict.target_id)
        key = ((verdict.target_id, target.occurrence if target is not None else 0),
               actor, "reaction" if kind in fx.REACTIONS else "free", data.get("on", ""))
        if key in answers and problem is None:
            problem = ("two-answers-on-one-trigger",
                       f"{actor} gave a second {key[2]} answer to {key[0]}"
                       + (f" on {key[3]}" if key[3] else ""),
                       ("PF2-EXTRA-REACTIONS",) if kind in fx.REACTIONS
                       else ("PF2-FREE-ONE-PER-TRIGGER",))
        answers = answers | {key}
    if kind in ("action", "activity"):
        spent[i] += data.get("cost", 1)
        most = enc.fighters[actor].actions_max
        if spent[i] > most and problem is None:
            problem = ("too-many-actions", f"{actor} spent {spent[i]} actions in one turn "
                       f"(budget {most})", ("PF2-THREE-ACTIONS",))
    return problem, answers


# reactions since the start of one's last turn, actions this turn
TALLIES = (Tally("reactions", OWN_TURN), Tally("actions", EACH_TURN))

explore = Explore(turn_moves=turn_moves, frame_class=frame_class, fighter_key=fighter_key,
                  watch=watch, tallies=TALLIES, combatants=combatants, labelled=True,
                  costless=COSTLESS, reads_uses=True, void_rules=("PF2-DISRUPT",),
                  grid_moves=grid_moves)


def reactions_back_at_turn_end(enc, st):
    f = enc.fighters[enc.active]
    f.reactions = f.reactions_max


def actions_back_only(enc, st):
    f = enc.fighters[enc.active]
    f.actions = f.actions_max


def mutants(rows, refusals) -> list:
    """Timing choices of this ruleset flipped: (id, description, rows, refusals)."""
    moved = rewrite(rows, effects=lambda r: (actions_back_only if e is fx.refresh_budgets
                                             else e for e in r.effects),
                    where=lambda r: r.step == "next-turn")
    moved = rewrite(moved, effects=lambda r: (reactions_back_at_turn_end,) + r.effects,
                    where=lambda r: r.step == "end-turn")
    return [("reaction-refresh-at-turn-end", "the reaction comes back at the end of your "
             "turn, not its start", moved, refusals)]


def reactions_back_every_turn(enc, st):
    for f in enc.fighters.values():
        f.reactions = f.reactions_max


def spend_reaction_by_side(enc, st):
    side = enc.fighters[st.actor].side
    for f in enc.fighters.values():
        if f.side == side and f.reactions > 0:
            f.reactions -= 1


def note_use_for_everyone(enc, st):
    for actor in enc.fighters:
        key = (st.target.id, st.target.occurrence, actor)
        enc.uses[key] = enc.uses.get(key, ()) + ((st.kind, st.on),)


def mark_disrupted_refunded(enc, st):
    top = enc.stack[-1]
    fx.mark_disrupted(enc, st)
    f = enc.fighters.get(top.owner)
    if f is not None:
        f.actions += top.cost
        if top.kind == "reaction":
            f.reactions += 1


def mistakes(rows, refusals, kit) -> list:
    """Engine-author mistakes in this ruleset: (id, description, rows, refusals)."""
    from .. import common as c
    return [
        ("reactions-back-every-turn", "every creature's reactions come back at every turn",
         kit.add_effect(rows, "next-turn", reactions_back_every_turn), refusals),
        ("reaction-shared-by-side", "one reaction per side, not per creature",
         kit.swap_effect(rows, fx.spend_reaction, spend_reaction_by_side), refusals),
        ("one-answer-per-trigger-for-all", "one reaction or free action per trigger for "
         "everyone, not per creature", kit.swap_effect(rows, c.note_use, note_use_for_everyone),
         refusals),
        ("disruption-refunded", "a disrupted action gives its actions back",
         kit.swap_effect(rows, fx.mark_disrupted, mark_disrupted_refunded), refusals),
        ("answers-resolve-at-once", "answers take effect at once, never on the stack",
         kit.answers_at_once(rows), refusals),
    ]


# -- the trackers' mistakes (fsm.conformance.mistakes.ZOO) -------------------------------

def refresh_actions_only(enc, st):
    """The new turn's actions; the reaction is left where it was."""
    f = enc.fighters[enc.active]
    f.actions = f.actions_max


def reactions_back_at_round_start(enc, st):
    """Every creature's reactions come back as the first turn of a round starts."""
    if enc.turn_index == 0:
        for f in enc.fighters.values():
            f.reactions = f.reactions_max


def reaction_on_own_turn_only(enc, st):
    return fx.reaction_available(enc, st) if st.actor == enc.active else False


def free_once_per_turn(enc, st):
    """One triggered free action per turn (counted on the log of this turn)."""
    for entry in reversed(enc.events()):
        if entry["turn"] != enc.turn_serial:
            break
        if entry["actor"] == st.actor and entry["kind"] == "free-response":
            return False
    return True


# the rules each mistake breaks here (the mistakes: fsm.conformance.mistakes.ZOO)
ZOO_RULES = {
    "reactions-reset-per-round": ("PF2-REACTION-ONE",),
    "reactions-only-on-own-turn": ("PF2-TRIGGER", "PF2-REACTION-ONE"),   # refused as if spent
    "reactions-before-the-first-turn": ("PF2-FIRST-TURN",),
    "two-reactions-on-one-trigger": ("PF2-EXTRA-REACTIONS",),
    "free-action-per-turn": ("PF2-FREE-ONE-PER-TRIGGER", "PF2-FREE-UNLIMITED"),
}


def zoo(rows, refusals, kit) -> dict:
    """The trackers' mistakes in Pathfinder terms: {zoo id: (rows, refusals)}."""
    return {
        "reactions-reset-per-round": (
            kit.add_effect(kit.swap_effect(rows, fx.refresh_budgets, refresh_actions_only),
                           "next-turn", reactions_back_at_round_start), refusals),
        "reactions-only-on-own-turn": (
            kit.swap_guard(rows, fx.reaction_available,
                           kit.as_guard(reaction_on_own_turn_only, fx.reaction_available)),
            refusals),
        "reactions-before-the-first-turn": kit.forced(rows, refusals, "first_turn_policy"),
        "two-reactions-on-one-trigger": kit.forced(rows, refusals, "one_reaction_per_trigger"),
        "free-action-per-turn": (
            kit.swap_guard(rows, fx.one_free_per_trigger,
                           kit.as_guard(free_once_per_turn, fx.one_free_per_trigger)),
            refusals),
    }
