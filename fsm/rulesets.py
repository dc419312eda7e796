"""The two rulesets: their step kinds, options and the budgets they show.

The rules themselves are in :mod:`fsm.table`; this module says what a
scenario may write for each ruleset and what "budgets left" means in it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .table import TABLES, player_steps

from .kinds import RESPONSES, STACK_MOVES, TURN_ACTIONS  # noqa: F401  (re-exported)


@dataclass(frozen=True)
class Option:
    name: str
    default: object
    choices: tuple | None   # None: a non-negative integer or null
    doc: str

    def check(self, value) -> str | None:
        """Return a problem with ``value``, or None when it is acceptable."""
        if self.choices is None:
            if value is None or (isinstance(value, int) and not isinstance(value, bool)
                                 and value >= 0):
                return None
            return f"option {self.name} takes a non-negative integer or null, not {value!r}"
        if value in self.choices:
            return None
        return f"option {self.name} takes one of {', '.join(map(str, self.choices))}, not {value!r}"


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    options: tuple
    combatant_fields: tuple   # extra combatant fields this ruleset reads

    @property
    def steps(self) -> tuple:
        return player_steps(self.name)

    @property
    def rows(self):
        return TABLES[self.name][0]

    @property
    def refusals(self):
        return TABLES[self.name][1]

    def option(self, name: str) -> Option | None:
        for opt in self.options:
            if opt.name == name:
                return opt
        return None

    def defaults(self) -> dict:
        return {opt.name: opt.default for opt in self.options}

    def budgets(self, enc, fighter) -> dict:
        if self.name == "dnd4e":
            from .guards import opportunity_left
            free_used = fighter.free_count if fighter.free_turn == enc.turn_serial else 0
            return {
                "standard": fighter.standard,
                "move": fighter.move,
                "minor": fighter.minor,
                "immediate": 0 if fighter.immediate_used else 1,
                "opportunity": 1 if opportunity_left(enc, fighter) else 0,
                "free_used": free_used,
                "readied": fighter.readied,
            }
        return {"actions": fighter.actions, "reactions": fighter.reactions}


DND4E = Ruleset(
    "dnd4e", "Dungeons & Dragons 4th edition",
    (
        Option("free_actions_per_turn", None, None,
               "the DM's limit on free actions per combatant in one turn; null: no limit"),
        Option("opportunity_limit_turns", "every-other", ("every-other", "enemy"),
               "whose turns the one-opportunity-action-per-turn limit counts: every other "
               "combatant's (Czech text, published rules) or only enemies' (French text)"),
        Option("readied_as", "reaction", ("reaction", "interrupt"),
               "when a readied action is taken: after its trigger (immediate reaction) "
               "or before it (immediate interrupt)"),
        Option("reaction_window", "interrupts-next", ("interrupts-next", "before-next"),
               "how long a trigger stays open to reactions: until the triggering "
               "combatant's next action or part takes effect, so the reaction can "
               "interrupt it (interrupts-next), or only until that combatant begins "
               "any other step, ending its turn included (before-next)"),
    ),
    (),
)

PF2E = Ruleset(
    "pf2e", "Pathfinder 2nd edition",
    (
        Option("mode", "encounter", ("encounter", "exploration"),
               "encounter: the reaction budget applies; exploration: the GM decides"),
        Option("exploration_reactions", "gm", ("gm", "encounter", "unlimited"),
               "outside encounters, a reaction beyond the budget is the GM's call (gm), "
               "refused as in an encounter, or allowed"),
        Option("react_before_first_turn", "gm", ("gm", "allow", "forbid"),
               "whether a creature may react before its first turn of the encounter"),
        Option("similar_triggers", "gm", ("gm", "same", "distinct"),
               "whether two similar but not identical triggers count as one"),
    ),
    ("actions", "reactions"),
)

RULESETS = {r.name: r for r in (DND4E, PF2E)}
