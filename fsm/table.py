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

def _stack_rows(seq_rule: str, turn_rule: str) -> list:
    return [
        row("resolve", [BEFORE], AFTER, fx.resolve_part, rules=seq_rule),
        row("continue", [AFTER], BEFORE, fx.next_part, rules=seq_rule),
        row("event", ANY, BEFORE, fx.push_frame, rules=turn_rule),
        # machine-driven: close the top frame's window, back to the phase below
        row("close", [AFTER], ACTING, fx.pop_frame, by=MACHINE, parent_is_turn=()),
        row("close", [AFTER], BEFORE, fx.pop_frame, by=MACHINE, parent_pending=()),
        row("close", [AFTER], AFTER, fx.pop_frame, by=MACHINE, parent_resolved=()),
        row("close", [AFTER], TURN_START, fx.pop_frame, by=MACHINE, parent_turn_start=()),
        row("close", [AFTER], TURN_END, fx.pop_frame, by=MACHINE, parent_turn_end=()),
        row("close", [TURN_START], ACTING, fx.pop_frame, by=MACHINE, rules=turn_rule),
    ]


# -- D&D 4th edition -----------------------------------------------------------

_4E_TRIGGERED = dict(trigger_still_open="4E-TRIGGER")

DND4E: tuple = tuple([
    # Actions of the turn (4E-SEQUENCE, 4E-ACTION-TYPES, 4E-STANDARD, 4E-MOVE, 4E-MINOR)
    row("standard", [ACTING], BEFORE, fx.spend_standard, fx.push_frame,
        rules="4E-ACTION-TYPES",
        own_turn="4E-STANDARD", no_action_pending="4E-SEQUENCE", standard_slot="4E-STANDARD"),
    row("move", [ACTING], BEFORE, fx.spend_move, fx.push_frame,
        rules="4E-ACTION-TYPES",
        own_turn="4E-MOVE", no_action_pending="4E-SEQUENCE",
        move_slot=("4E-MOVE-ONE", "4E-SUBSTITUTE")),
    row("minor", [ACTING], BEFORE, fx.spend_minor, fx.push_frame,
        rules="4E-ACTION-TYPES",
        own_turn="4E-MINOR", no_action_pending="4E-SEQUENCE",
        minor_slot=("4E-MINOR-ONE", "4E-SUBSTITUTE")),
    row("ready", [ACTING], BEFORE, fx.spend_standard, fx.push_frame,
        rules="4E-READY",
        own_turn="4E-READY", no_action_pending="4E-SEQUENCE", standard_slot="4E-READY"),
    row("free", ANY, BEFORE, fx.count_free, fx.push_frame,
        rules=("4E-ACTION-TYPES", "4E-FREE"),
        free_within_limit="4E-FREE-LIMIT"),
    # Triggered actions (4E-TRIGGER): free or no action at all (4E-TRIGGERED-FREE)
    row("free-response", TRIGGERED, BEFORE, fx.count_free, fx.note_use, fx.push_frame,
        rules=("4E-TRIGGERED-FREE", "4E-FREE"),
        **_4E_TRIGGERED, free_within_limit="4E-FREE-LIMIT"),
    row("no-action", TRIGGERED, BEFORE, fx.push_frame,
        rules=("4E-TRIGGERED-FREE", "4E-NO-ACTION"), **_4E_TRIGGERED),
    # Opportunity actions (4E-OPP-*)
    row("opportunity", TRIGGERED, BEFORE, fx.spend_opportunity, fx.push_frame,
        rules="4E-OPP-ANYONE",
        trigger_still_open="4E-OPP-INTERRUPTS",
        opportunity_not_own_turn="4E-OPP-OWN-TURN", trigger_pending="4E-OPP-INTERRUPTS",
        triggered_by_enemy="4E-OPP-TRIGGER", provoked="4E-OPP-TRIGGER",
        opportunity_unused="4E-OPP-ONCE"),
    # Immediate actions (4E-IMM-*): interrupts before, reactions after the trigger
    row("interrupt", TRIGGERED, BEFORE, fx.spend_immediate, fx.push_frame,
        rules="4E-IMM-KINDS",
        trigger_still_open="4E-IMM-TRIGGER",
        immediate_not_own_turn="4E-IMM-OWN-TURN", trigger_pending="4E-INTERRUPT",
        immediate_unused="4E-IMM-ONCE"),
    row("reaction", TRIGGERED, BEFORE, fx.spend_immediate, fx.push_frame,
        rules="4E-IMM-KINDS",
        trigger_still_open="4E-REACTION-NEXT",
        immediate_not_own_turn="4E-IMM-OWN-TURN", trigger_resolved="4E-REACTION",
        moved_one_square="4E-REACTION-MOVE", trigger_took_effect="4E-INTERRUPT-LOST",
        immediate_unused="4E-IMM-ONCE"),
    row("readied", TRIGGERED, BEFORE, fx.use_readied, fx.push_frame,
        rules=("4E-READY", "4E-READY-INITIATIVE"),
        trigger_still_open="4E-REACTION-NEXT",
        immediate_not_own_turn="4E-IMM-OWN-TURN", has_readied="4E-READY",
        readied_timing="4E-READY-TIMING", trigger_took_effect="4E-INTERRUPT-LOST",
        immediate_unused="4E-IMM-ONCE"),
    # An interrupted action can be lost (4E-INTERRUPT-LOST, 4E-OPP-INTERRUPTS)
    row("lose", [BEFORE], AFTER, fx.mark_lost,
        interrupted=("4E-INTERRUPT-LOST", "4E-OPP-INTERRUPTS")),
    # The turn: the immediate action comes back at the end of your own turn
    row("end-turn", [ACTING], TURN_END, fx.reset_immediate, fx.close_turn,
        rules="4E-IMM-ONCE", own_turn="4E-SEQUENCE"),
    row("next-turn", [TURN_END], TURN_START, fx.open_next_turn, fx.refresh_4e_actions,
        by=MACHINE, rules=("4E-STANDARD", "4E-READY-LAPSE")),
    *_stack_rows("4E-SEQUENCE", "4E-TRIGGER"),
])

DND4E_REFUSALS: tuple = (
    *(refuse(kind, NOT_ACTING,
             own_turn=rule, no_action_pending="4E-SEQUENCE")
      for kind, rule in (("standard", "4E-STANDARD"), ("move", "4E-MOVE"),
                         ("minor", "4E-MINOR"), ("ready", "4E-READY"))),
    refuse("end-turn", NOT_ACTING,
           own_turn="4E-SEQUENCE", no_action_pending="4E-SEQUENCE"),
)


# -- Pathfinder 2nd edition ----------------------------------------------------

_PF2_RESPONSE = dict(trigger_still_open="PF2-TRIGGER")

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
    # Disruption: no effect, costs stay spent, an activity loses all its actions
    row("disrupt", [BEFORE], AFTER, fx.mark_disrupted,
        rules=("PF2-DISRUPT", "PF2-DISRUPT-ACTIVITY", "PF2-DISRUPT-GM"),
        disruptable="PF2-DISRUPT"),
    # The turn: actions and the reaction come back at the start of your turn
    row("end-turn", [ACTING], TURN_END, fx.close_turn,
        rules="PF2-TURN-TRIGGERS", own_turn="PF2-SEQUENCE"),
    row("next-turn", [TURN_END], TURN_START, fx.open_next_turn, fx.refresh_pf2_budgets,
        by=MACHINE, rules=("PF2-THREE-ACTIONS", "PF2-REACTION-ONE", "PF2-TURN-TRIGGERS")),
    *_stack_rows("PF2-SEQUENCE", "PF2-TURN-TRIGGERS"),
])

PF2E_REFUSALS: tuple = (
    *(refuse(kind, NOT_ACTING,
             own_turn=rule, no_action_pending="PF2-SEQUENCE")
      for kind, rule in (("action", "PF2-OWN-TURN"), ("activity", "PF2-OWN-TURN"),
                         ("free", "PF2-UNTRIGGERED-FREE"))),
    refuse("end-turn", NOT_ACTING,
           own_turn="PF2-SEQUENCE", no_action_pending="PF2-SEQUENCE"),
)

TABLES = {"dnd4e": (DND4E, DND4E_REFUSALS), "pf2e": (PF2E, PF2E_REFUSALS)}


def player_steps(ruleset: str) -> tuple:
    """The step kinds a scenario may use, in table order."""
    rows, _ = TABLES[ruleset]
    return tuple(dict.fromkeys(r.step for r in rows if r.by == PLAYER))


def guard_names(ruleset: str) -> set:
    rows, refusals = TABLES[ruleset]
    return {fn.__name__ for r in (*rows, *refusals) for fn, _ in r.guards}
