"""The rows every ruleset has, and how a ruleset's table is built.

:func:`book` gives a ruleset the guards its rows may name (the shared ones
and its own); :func:`stack_rows` and :func:`next_turn_row` are the moves of
the stack and the turn that every table shares (spec/TIMING.md, T-STACK-MOVES,
T-EVENT, T-LEAVE, T-TURN-START, T-NEXT-TURN); :func:`nothing_to_answer` is
T-ANSWER's refusal, made from each answer row's declared preconditions.
"""

from __future__ import annotations

from ..engine.rows import (ACTING, AFTER, BEFORE, CLOSE, CONTINUE, END_TURN, ENDING, EVENT,
                           MACHINE, NEXT_TURN, PLAYER, RESOLVE, STARTING, STATES,
                           TRIGGERED, Guards, Refusal, Row)
from ..errors import TableError
from . import common
from . import SceneWords
from .common import next_part, open_next_turn, pop_frame, push_frame, resolve_part

# The scene's words of the step language that every ruleset here takes
# (spec/FORMAT.md, *Positions*): the kinds of attack, and the movements an
# event forces on a combatant (a teleport jumps to the one square of its path).
SCENE = SceneWords(attack_kinds=("melee", "ranged", "area", "close"), melee="melee",
                   ranged="ranged", forced_kinds=("push", "pull", "slide", "teleport"), jump="teleport")
# what each forced kind of SCENE does to someone, in a player's words (Words.forced)
FORCED_WORDS = {"push": "pushed", "pull": "pulled", "slide": "slid", "teleport": "teleported"}
# the flag of a step of one's own that teleports (a power's, a spell's): SCENE's jump
TELEPORT = SCENE.jump
# the flag of a step whose attack comes after its path, from its last square (4e)
ATTACK_AFTER = "attack_after"


def book(*modules) -> Guards:
    """The guard book of a ruleset's table: the shared guards
    (:mod:`fsm.rulesets.common`) and those of the ruleset's own ``modules``."""
    return Guards(common, *modules)


def stack_rows(stack: str, moments: str, trigger: str, *, resolve=(), next_part_effects=(),
               keep=(), resolve_rules=(), event=(), event_rules=()) -> list:
    """The stack moves a player declares (T-STACK-MOVES), events (T-EVENT) and
    the machine rows that settle the stack before each step (T-LEAVE,
    T-TURN-START). ``resolve``: effects after a part resolves, and
    ``resolve_rules`` the rule ids those effects implement beside ``stack``;
    ``event``: effects after an event is put on the stack, implementing
    ``event_rules`` beside ``trigger``;
    ``keep``: rows to try before a finished frame leaves (T-CUT-IN)."""
    row, refuse = _OWN.row, _OWN.refuse
    return [
        row(RESOLVE, [BEFORE], AFTER, resolve_part, *resolve, rules=(stack, *resolve_rules),
            actor_on_top=stack),
        row(CONTINUE, [AFTER], BEFORE, next_part, *next_part_effects, rules=stack,
            actor_on_top=stack),
        refuse(RESOLVE, [AFTER], actor_on_top=stack, part_pending=stack),
        refuse(CONTINUE, [BEFORE], actor_on_top=stack, part_resolved=stack),
        *(refuse(kind, [ACTING, STARTING, ENDING], something_pending=stack)
          for kind in (RESOLVE, CONTINUE)),
        row(EVENT, STATES, BEFORE, push_frame, *event, rules=(trigger, *event_rules)),
        *keep,
        *(row(CLOSE, [AFTER], dest, pop_frame, by=MACHINE, play_moves_past=stack,
              **{parent: ()})
          for dest, parent in ((ACTING, "parent_is_turn"), (BEFORE, "parent_pending"),
                               (AFTER, "parent_resolved"), (STARTING, "parent_turn_start"),
                               (ENDING, "parent_turn_end"))),
        row(CLOSE, [STARTING], ACTING, pop_frame, by=MACHINE, rules=moments,
            turn_start_passes=moments),
    ]


def next_turn_row(refresh, moments: str, rules) -> Row:
    """T-NEXT-TURN: the machine starts the next turn, and ``refresh`` gives its
    owner back what the ruleset gives at the start of a turn."""
    return _OWN.row(NEXT_TURN, [ENDING], STARTING, open_next_turn, refresh, by=MACHINE,
               rules=rules, turn_end_passes=moments)


def nothing_to_answer(rows, answers) -> list:
    """T-ANSWER: in turn_acting the stack is empty and nothing is kept open, so
    an answer (each kind of ``answers``) is refused there by its row's
    preconditions, :data:`ANSWER_NEEDS`, with the rule ids the row gives them."""
    return [Refusal(r.step, (ACTING,), answer_needs(r)) for r in rows
            if isinstance(r, Row) and r.by == PLAYER and r.step in answers]


def off_turn_refusals(actions: dict, one_at_a_time: str, end_turn: str,
                      phases=TRIGGERED) -> tuple:
    """Where a trigger is open (``phases``, by default all such), a turn action
    and ``end-turn`` are refused: by ``own_turn`` (``actions``: each turn
    action's kind and the rule id it cites there; ``end_turn``: that of
    end-turn), then by ``no_action_pending`` (``one_at_a_time``)."""
    return (*(_OWN.refuse(kind, phases, own_turn=rule, no_action_pending=one_at_a_time)
              for kind, rule in actions.items()),
            _OWN.refuse(END_TURN, phases, own_turn=end_turn, no_action_pending=one_at_a_time))


def answer_needs(r: Row) -> tuple:
    """An answer row's preconditions, in their order on the row."""
    needs = tuple((g, rules) for g, rules in r.guards if g in ANSWER_NEEDS)
    if tuple(g for g, _ in needs) != ANSWER_NEEDS:
        raise TableError(f"the {r.step} row answers a trigger but does not check "
                         f"{' and '.join(g.name for g in ANSWER_NEEDS)} first")
    return needs


def split(entries) -> tuple:
    """(rows, refusals) of a list that mixes them."""
    return (tuple(e for e in entries if isinstance(e, Row)),
            tuple(e for e in entries if isinstance(e, Refusal)))


_OWN = Guards(common)   # the rows above name only the shared guards
ANSWER_NEEDS = (common.has_trigger, common.trigger_still_open)   # what an answer's row checks first
