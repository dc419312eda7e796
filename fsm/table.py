"""The transition table: everything that moves the machine lives here.

One list of rows per ruleset, and nothing else: the ``transitions`` machine,
the diagrams, the spec coverage and the explorer are all built from these
rows. A row says which step, from which phases, to which phase, under which
guards (each guard with the rule ids it enforces on that row), and which
effects it runs once the guards pass.

Phases (the machine's states) are those of the top frame of the action
stack::

    turn_start        a turn has begun; start-of-turn triggers may be answered
    turn_acting       the turn's owner may start an action; nothing is pending
    window_interrupt  a trigger is pending: declared, not yet resolved
    window_reaction   a trigger has resolved (wholly, or one of its parts)
    turn_end          the turn's owner has ended it; end-of-turn triggers open

A *refusal* row lists phases where a step can never be allowed and the
guards that say why, so that every (phase, step) pair a player can reach is
decided by exactly one row. Machine-driven rows (``close``, ``next_turn``)
are fired by the engine itself, never by a scenario.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import effects as fx
from .guards import GUARDS
from . import guards as g
from .kinds import RESPONSES as ANSWERS

TURN_START = "turn_start"
ACTING = "turn_acting"
BEFORE = "window_interrupt"
AFTER = "window_reaction"
TURN_END = "turn_end"

STATES = (TURN_START, ACTING, BEFORE, AFTER, TURN_END)
ANY = STATES
TRIGGERED = (TURN_START, BEFORE, AFTER, TURN_END)   # phases where some trigger is open
NOT_ACTING = (TURN_START, BEFORE, AFTER, TURN_END)

PLAYER = "player"
MACHINE = "machine"


class _Cites:
    """What a row or refusal cites: its own rules, then its guards' rules."""

    def rule_ids(self) -> tuple:
        """The row's own rules, then its guards' rules, each once (computed once)."""
        ids = self.__dict__.get("_rule_ids")
        if ids is None:
            ids = tuple(dict.fromkeys(
                [*self.rules, *(r for _, rules in self.guards for r in rules)]))
            object.__setattr__(self, "_rule_ids", ids)
        return ids


@dataclass(frozen=True)
class Row(_Cites):
    """One transition: ``step`` from each of ``sources`` to ``dest``."""

    step: str
    sources: tuple
    dest: str
    guards: tuple = ()        # ((guard function, (rule ids, ...)), ...)
    effects: tuple = ()
    rules: tuple = ()         # rules the transition itself implements
    by: str = PLAYER

    @property
    def trigger(self) -> str:
        return self.step.replace("-", "_")


@dataclass(frozen=True)
class Refusal(_Cites):
    """Phases where ``step`` is always refused; the first failing guard names
    the reason. One of them must fail: a refusal whose guards all pass is a
    gap in the table (the engine raises :class:`TableGap`)."""

    step: str
    sources: tuple
    guards: tuple = ()
    rules: tuple = ()
    reason: None = None

    @property
    def trigger(self) -> str:
        return self.step.replace("-", "_")


def _guards(named: dict) -> tuple:
    out = []
    for name, rules in named.items():
        fn = GUARDS.get(name) or getattr(g, name)
        out.append((fn, (rules,) if isinstance(rules, str) else tuple(rules)))
    return tuple(out)


def row(step, sources, dest, *effects, rules=(), by=PLAYER, **guards) -> Row:
    return Row(step, tuple(sources), dest, _guards(guards), tuple(effects),
               (rules,) if isinstance(rules, str) else tuple(rules), by)


def refuse(step, sources, rules=(), **guards) -> Refusal:
    return Refusal(step, tuple(sources), _guards(guards),
                   (rules,) if isinstance(rules, str) else tuple(rules))


# -- rows shared by both rulesets: the frame stack and the turn --------------
#
# spec/TIMING.md states these rows in prose; each clause id (T-...) is named
# beside the rows that implement it.

def _stack_rows(stack: str, moments: str, trigger: str, *, owner=()) -> list:
    """The stack moves a player declares, and the machine rows that settle the
    stack before each step. ``owner``: effects run when a frame takes effect
    (4e: T-OWNER)."""
    return [
        # T-STACK-MOVES: resolve, continue, lose and disrupt act on the top
        # unresolved frame (lose and disrupt are each ruleset's own rows).
        row("resolve", [BEFORE], AFTER, fx.resolve_part, *owner, rules=stack,
            actor_on_top=stack),
        row("continue", [AFTER], BEFORE, fx.next_part, rules=stack, actor_on_top=stack),
        refuse("resolve", [AFTER], actor_on_top=stack, part_pending=stack),
        refuse("continue", [BEFORE], actor_on_top=stack, part_resolved=stack),
        *(refuse(kind, [ACTING, TURN_START, TURN_END], something_pending=stack)
          for kind in ("resolve", "continue")),
        # T-EVENT: something that is nobody's action
        row("event", ANY, BEFORE, fx.push_frame, rules=trigger),
        # machine-driven, T-LEAVE: a finished frame leaves the stack once play
        # moves past it, back to the phase of the frame below
        row("close", [AFTER], ACTING, fx.pop_frame, by=MACHINE,
            play_moves_past=stack, parent_is_turn=()),
        row("close", [AFTER], BEFORE, fx.pop_frame, by=MACHINE,
            play_moves_past=stack, parent_pending=()),
        row("close", [AFTER], AFTER, fx.pop_frame, by=MACHINE,
            play_moves_past=stack, parent_resolved=()),
        row("close", [AFTER], TURN_START, fx.pop_frame, by=MACHINE,
            play_moves_past=stack, parent_turn_start=()),
        row("close", [AFTER], TURN_END, fx.pop_frame, by=MACHINE,
            play_moves_past=stack, parent_turn_end=()),
        # machine-driven, T-TURN-START and T-NEXT-TURN: the turn's moments
        row("close", [TURN_START], ACTING, fx.pop_frame, by=MACHINE, rules=moments,
            turn_start_passes=moments),
    ]


def _nothing_to_answer(rows) -> list:
    """T-ANSWER: in turn_acting the stack is empty and nothing is kept open, so
    an answer is refused there by the first checks of its own row."""
    out = []
    for r in rows:
        if isinstance(r, Row) and r.step in ANSWERS and r.by == PLAYER:
            out.append(Refusal(r.step, (ACTING,), r.guards[:2]))
    return out


# -- D&D 4th edition -----------------------------------------------------------

_4E_OPEN = dict(has_trigger="4E-TRIGGER", trigger_still_open="4E-STACK",
                nothing_unresolved_above="4E-STACK")
_4E_REACT = dict(has_trigger="4E-TRIGGER",
                 trigger_still_open=("4E-REACTION-NEXT", "4E-REACTION-WINDOW"),
                 nothing_unresolved_above="4E-STACK")

DND4E: tuple = tuple([
    # Actions of the turn (4E-ACTION-TYPES, 4E-STANDARD, 4E-MOVE, 4E-MINOR);
    # one at a time (4E-ONE-AT-A-TIME)
    row("standard", [ACTING], BEFORE, fx.spend_standard, fx.push_frame,
        rules="4E-ACTION-TYPES",
        own_turn="4E-STANDARD-OWN-TURN", no_action_pending="4E-ONE-AT-A-TIME",
        standard_slot="4E-STANDARD"),
    row("move", [ACTING], BEFORE, fx.spend_move, fx.push_frame,
        rules="4E-ACTION-TYPES",
        own_turn="4E-MOVE", no_action_pending="4E-ONE-AT-A-TIME",
        move_slot=("4E-MOVE-ONE", "4E-SUBSTITUTE")),
    row("minor", [ACTING], BEFORE, fx.spend_minor, fx.push_frame,
        rules="4E-ACTION-TYPES",
        own_turn="4E-MINOR", no_action_pending="4E-ONE-AT-A-TIME",
        minor_slot=("4E-MINOR-ONE", "4E-SUBSTITUTE")),
    row("ready", [ACTING], BEFORE, fx.spend_standard, fx.push_frame,
        rules="4E-READY",
        own_turn="4E-READY-COST", no_action_pending="4E-ONE-AT-A-TIME",
        standard_slot="4E-READY-COST"),
    row("free", ANY, BEFORE, fx.count_free, fx.push_frame,
        rules=("4E-ACTION-TYPES", "4E-FREE"),
        no_own_action_pending="4E-ONE-AT-A-TIME", free_within_limit="4E-FREE-LIMIT"),
    # Triggered actions (4E-TRIGGER): free or no action at all (4E-TRIGGERED-FREE)
    row("free-response", TRIGGERED, BEFORE, fx.count_free, fx.note_use, fx.push_frame,
        rules=("4E-TRIGGERED-FREE", "4E-FREE"),
        **_4E_OPEN, free_within_limit="4E-FREE-LIMIT"),
    row("no-action", TRIGGERED, BEFORE, fx.push_frame,
        rules=("4E-TRIGGERED-FREE", "4E-NO-ACTION"), **_4E_OPEN),
    # Opportunity actions (4E-OPP-*)
    row("opportunity", TRIGGERED, BEFORE, fx.spend_opportunity, fx.push_frame,
        rules="4E-OPP-ANYONE",
        **_4E_OPEN,
        opportunity_not_own_turn="4E-OPP-OWN-TURN", trigger_pending="4E-OPP-INTERRUPTS",
        triggered_by_enemy="4E-OPP-TRIGGER", provoked="4E-OPP-TRIGGER",
        opportunity_unused="4E-OPP-ONCE"),
    # Immediate actions (4E-IMM-*): interrupts before, reactions after the trigger
    row("interrupt", TRIGGERED, BEFORE, fx.spend_immediate, fx.push_frame,
        rules="4E-IMM-KINDS",
        has_trigger="4E-IMM-TRIGGER", trigger_still_open="4E-STACK",
        nothing_unresolved_above="4E-STACK",
        immediate_not_own_turn="4E-IMM-OWN-TURN", trigger_pending="4E-INTERRUPT",
        immediate_unused="4E-IMM-ONCE"),
    row("reaction", TRIGGERED, BEFORE, fx.spend_immediate, fx.push_frame,
        rules="4E-IMM-KINDS",
        **_4E_REACT,
        immediate_not_own_turn="4E-IMM-OWN-TURN", trigger_resolved="4E-REACTION",
        moved_one_square="4E-REACTION-MOVE", trigger_took_effect="4E-INTERRUPT-LOST",
        immediate_unused="4E-IMM-ONCE"),
    row("readied", TRIGGERED, BEFORE, fx.use_readied, fx.push_frame,
        rules=("4E-READY", "4E-READY-INITIATIVE"),
        **_4E_REACT,
        immediate_not_own_turn="4E-IMM-OWN-TURN", has_readied="4E-READY",
        readied_timing="4E-READY-TIMING", trigger_took_effect="4E-INTERRUPT-LOST",
        immediate_unused="4E-IMM-ONCE"),
    # An interrupted action can be lost (4E-INTERRUPT-LOST, 4E-OPP-INTERRUPTS)
    row("lose", [BEFORE], AFTER, fx.mark_lost, fx.owner_moves_on, rules="4E-STACK",
        actor_on_top="4E-STACK",
        interrupted=("4E-INTERRUPT-LOST", "4E-OPP-LOST")),
    refuse("lose", [AFTER], actor_on_top="4E-STACK", part_pending="4E-STACK"),
    refuse("lose", [ACTING, TURN_START, TURN_END], something_pending="4E-STACK"),
    # The turn: the immediate action comes back at the end of your own turn
    row("end-turn", [ACTING], TURN_END, fx.reset_immediate, fx.close_turn,
        rules=("4E-IMM-ONCE", "4E-SEQUENCE"), own_turn="4E-ONE-AT-A-TIME"),
    # machine-driven, T-CUT-IN: the reaction window of the triggering
    # combatant's finished frame survives its next step (4E-REACTION-NEXT)
    row("keep-open", [AFTER], AFTER, fx.keep_window, by=MACHINE,
        rules="4E-REACTION-NEXT", not_kept=(),
        window_survives=("4E-REACTION-NEXT", "4E-REACTION-WINDOW")),
    *_stack_rows("4E-STACK", "4E-TURN-MOMENTS", "4E-TRIGGER", owner=(fx.owner_moves_on,)),
    row("next-turn", [TURN_END], TURN_START, fx.open_next_turn, fx.refresh_4e_actions,
        by=MACHINE, rules=("4E-SEQUENCE", "4E-STANDARD-OWN-TURN", "4E-READY-LAPSE"),
        turn_end_passes="4E-TURN-MOMENTS"),
])

DND4E_REFUSALS: tuple = tuple(
    r for r in DND4E if isinstance(r, Refusal)) + (
    *_nothing_to_answer(DND4E),
    *(refuse(kind, NOT_ACTING,
             own_turn=rule, no_action_pending="4E-ONE-AT-A-TIME")
      for kind, rule in (("standard", "4E-STANDARD-OWN-TURN"), ("move", "4E-MOVE"),
                         ("minor", "4E-MINOR"), ("ready", "4E-READY-COST"))),
    refuse("end-turn", NOT_ACTING,
           own_turn="4E-ONE-AT-A-TIME", no_action_pending="4E-ONE-AT-A-TIME"),
)
DND4E = tuple(r for r in DND4E if isinstance(r, Row))


# -- Pathfinder 2nd edition ----------------------------------------------------

_PF2_RESPONSE = dict(has_trigger="PF2-TRIGGER", trigger_still_open="PF2-STACK",
                     nothing_unresolved_above="PF2-STACK")

PF2E: tuple = tuple([
    # Actions of the turn (assumptions from the published rules: PF2-THREE-ACTIONS,
    # PF2-OWN-TURN, PF2-ACTIVITY)
    row("action", [ACTING], BEFORE, fx.spend_actions, fx.push_frame,
        own_turn="PF2-OWN-TURN", no_action_pending="PF2-SEQUENCE",
        actions_available="PF2-THREE-ACTIONS"),
    row("activity", [ACTING], BEFORE, fx.spend_actions, fx.push_frame,
        rules="PF2-ACTIVITY",
        own_turn="PF2-OWN-TURN", no_action_pending="PF2-SEQUENCE",
        actions_available="PF2-THREE-ACTIONS"),
    row("free", [ACTING], BEFORE, fx.push_frame,
        rules=("PF2-FREE-UNLIMITED", "PF2-UNTRIGGERED-FREE"),
        own_turn="PF2-UNTRIGGERED-FREE", no_action_pending="PF2-SEQUENCE"),
    # Reactions: one per round, refreshed at the start of your turn; one per trigger
    row("reaction", TRIGGERED, BEFORE, fx.spend_reaction, fx.note_use, fx.push_frame,
        rules=("PF2-OPTIONAL", "PF2-PER-CREATURE", "PF2-OWN-TURN-REACTION",
               "PF2-FREE-AND-REACTION"),
        **_PF2_RESPONSE,
        first_turn_policy="PF2-FIRST-TURN",
        reaction_available=("PF2-REACTION-ONE", "PF2-EXPLORATION"),
        one_reaction_per_trigger="PF2-EXTRA-REACTIONS",
        similar_trigger="PF2-SIMILAR-TRIGGERS"),
    # Free actions with a trigger: any number, one per trigger
    row("free-response", TRIGGERED, BEFORE, fx.note_use, fx.push_frame,
        rules=("PF2-OPTIONAL", "PF2-PER-CREATURE", "PF2-FREE-UNLIMITED",
               "PF2-FREE-AND-REACTION", "PF2-TURN-TRIGGERS"),
        **_PF2_RESPONSE,
        one_free_per_trigger="PF2-FREE-ONE-PER-TRIGGER",
        similar_trigger="PF2-SIMILAR-TRIGGERS"),
    # Disruption: no effect, costs stay spent, an activity loses all its actions;
    # an activity can be disrupted between its parts too
    row("disrupt", [BEFORE, AFTER], AFTER, fx.mark_disrupted,
        rules=("PF2-DISRUPT", "PF2-DISRUPT-ACTIVITY", "PF2-DISRUPT-GM", "PF2-STACK"),
        actor_on_top="PF2-STACK", disruptable="PF2-DISRUPT"),
    refuse("disrupt", [ACTING, TURN_START, TURN_END], something_pending="PF2-STACK"),
    # The turn: actions and the reaction come back at the start of your turn
    row("end-turn", [ACTING], TURN_END, fx.close_turn,
        rules="PF2-TURN-TRIGGERS", own_turn="PF2-SEQUENCE"),
    *_stack_rows("PF2-STACK", "PF2-TURN-MOMENTS", "PF2-TRIGGER"),
    row("next-turn", [TURN_END], TURN_START, fx.open_next_turn, fx.refresh_pf2_budgets,
        by=MACHINE, rules=("PF2-THREE-ACTIONS", "PF2-REACTION-ONE", "PF2-TURN-TRIGGERS"),
        turn_end_passes="PF2-TURN-MOMENTS"),
])

PF2E_REFUSALS: tuple = tuple(
    r for r in PF2E if isinstance(r, Refusal)) + (
    *_nothing_to_answer(PF2E),
    *(refuse(kind, NOT_ACTING,
             own_turn=rule, no_action_pending="PF2-SEQUENCE")
      for kind, rule in (("action", "PF2-OWN-TURN"), ("activity", "PF2-OWN-TURN"),
                         ("free", "PF2-UNTRIGGERED-FREE"))),
    refuse("end-turn", NOT_ACTING,
           own_turn="PF2-SEQUENCE", no_action_pending="PF2-SEQUENCE"),
)
PF2E = tuple(r for r in PF2E if isinstance(r, Row))

TABLES = {"dnd4e": (DND4E, DND4E_REFUSALS), "pf2e": (PF2E, PF2E_REFUSALS)}


def machine_steps(ruleset: str) -> tuple:
    """The step names the machine fires itself, in the order it tries them."""
    rows, _ = TABLES[ruleset]
    return tuple(dict.fromkeys(r.step for r in rows if r.by == MACHINE))


def player_steps(ruleset: str) -> tuple:
    """The step kinds a scenario may use, in table order."""
    rows, _ = TABLES[ruleset]
    return tuple(dict.fromkeys(r.step for r in rows if r.by == PLAYER))


def guard_names(ruleset: str) -> set:
    rows, refusals = TABLES[ruleset]
    return {fn.__name__ for r in (*rows, *refusals) for fn, _ in r.guards}
