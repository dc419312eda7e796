"""What players call a ruleset's steps, budgets and flags, for the pages and
the live checker's builder (:mod:`fsm.site.words` puts them together).

Every entry is optional: a step kind, budget or flag a ruleset does not name
here is shown by its own name, its dashes and underscores as spaces, so a
new kind appears in the builder before anyone words it. The sentences keyed
by reason code replace what a guard says (``Guard.says``) where that speaks
of the machine (the stack, frames) rather than of the table; their slots
are those of the guard's ``seen`` values, and ``{pending}``, the action
that has not taken effect yet.
"""

from __future__ import annotations

from dataclasses import dataclass, field

COUNT = "count"        # a budget that goes down as it is spent (1: one left)
USED = "used"          # a count of uses that goes up (free actions used this turn)
FEET = "feet"          # movement left, in feet
WHAT = "what"          # a thing held (what is readied), or nothing


@dataclass(frozen=True, eq=False, repr=False)
class Words:
    """A ruleset's words for players. ``kinds``: step kind -> its name
    ("standard action"); ``moves``: a stack move of its own -> a sentence
    with ``{frame}`` for the action it acts on; ``budgets``: budget -> (its
    name, how it counts: :data:`COUNT`, :data:`USED`, :data:`FEET` or
    :data:`WHAT`); ``flags``: a true/false field of a step -> what it adds
    to the step's name; ``unflags``: the same for the fields whose ``false``
    says something too (a condition that ends) -> what that adds; ``hints``:
    a step kind or flag -> a longer word on what it is or when it comes, for
    the builder's buttons; ``fields``: a combatant's field, or a step's
    count of squares, -> what the builder calls it; ``labels``: an ``on``
    label -> when the answer comes, with ``{actor}``; ``suggest``: a free-text field of a step -> the values
    players mostly give it (each offered as a step of its own); ``provokes``:
    how a stated provocation reads, with ``{mover}`` and ``{who}``;
    ``only_moves_provoke``: whether only a move may be said to provoke (the
    builder offers it for nothing else); ``reasons``: reason code -> the
    sentence a player would say of the refusal; ``forced``: a forced kind of
    an event (SceneWords) -> what it does to whom it concerns ("pushed"), for
    the builder's group of forced movement; ``walks``: the step kinds a click
    on a free square of the grid moves with, beside the ruleset's moves (a
    Pathfinder Stride is an action with a path); ``offers``: a step kind ->
    the fields of its variants offered as choices of their own (5e: a Bonus
    Action that casts a spell with a slot, which needs no feature)."""

    kinds: dict = field(default_factory=dict)
    moves: dict = field(default_factory=dict)
    budgets: dict = field(default_factory=dict)
    flags: dict = field(default_factory=dict)
    unflags: dict = field(default_factory=dict)
    hints: dict = field(default_factory=dict)
    labels: dict = field(default_factory=dict)
    suggest: dict = field(default_factory=dict)
    fields: dict = field(default_factory=dict)
    provokes: str = "{mover} provokes {who}"
    only_moves_provoke: bool = False
    reasons: dict = field(default_factory=dict)
    forced: dict = field(default_factory=dict)
    walks: tuple = ()
    offers: dict = field(default_factory=dict)

    def reason(self, code):
        """The player's sentence for a refusal's reason code, or None."""
        return self.reasons.get(code) or SHARED_REASONS.get(code)


# What a step's counts are counts of: field -> (one, many), in the order a step's
# name gives them (a cost counts actions, whatever a ruleset calls its steps).
COUNTED = (("squares", ("square", "squares")), ("attacks", ("attack roll", "attack rolls")),
           ("parts", ("part", "parts")), ("cost", ("action", "actions")))

# When a readied action fires, in words: its step's name says it, and where
# the ruleset's ``ready`` takes ``when``, the word of READY_CODES the rules check.
READY_WHEN = ("enters {who}'s reach", "leaves {who}'s reach", "attacks", "moves",
              "casts a spell", "speaks", "starts its turn")
READY_CODES = {"enters {who}'s reach": "enters-reach", "leaves {who}'s reach": "leaves-reach",
               "attacks": "attacks", "moves": "moves", "casts a spell": "casts"}

# The shared guards' refusals (fsm.rulesets.common) in a player's words.
SHARED_REASONS = {
    "action-in-progress": "{pending} has not taken effect yet: one thing at a time",
    "own-action-in-progress": "{own} has not taken effect yet: {actor}'s actions come one "
                              "after another",
    "unresolved-above": "{above} takes effect before anything else answers {trigger}",
    "not-on-top": "{trigger} is what waits to take effect, and it is not {actor}'s",
    "nothing-pending": "nothing is waiting to take effect",
    "between-parts": "{trigger} is between two parts: it goes on before anything takes "
                     "effect",
    "no-part-resolved": "{trigger} has not finished its current part",
    "no-trigger": "there is nothing for it to answer now",
    "trigger-passed": "it is too late: {trigger} can no longer be answered",
}
