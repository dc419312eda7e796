"""The rulesets: each is one value holding everything the engine and the
tools need to know of it, and one module that builds that value.

The engine names no ruleset. It takes a :class:`Ruleset` (or its name, looked
up in :data:`RULESETS`) and reads from it: the table of rows and refusals,
the classes of its step kinds, the fields each kind takes, its options, the
budgets it keeps on each combatant and how it shows them. The tools read the
rest: how the explorer walks it and what it checks, the mutants that test
the suite, which texts' readings a divergence must give.

Adding a ruleset is one package here (``common.py`` holds the guards and
effects every ruleset shares, ``shared.py`` the rows and the guard book a
table is written with), named in :data:`RULESETS` at the end of this module
(it is imported when first asked for), plus its spec
data and tests; :func:`register` checks what the engine takes for granted.
A package outside the project adds one through the entry-point group
``fsm.rulesets``: each entry names a :class:`Ruleset` value (or a module that
calls :func:`register` as it is imported). They are looked for the first time
a name is asked for that no ruleset here has (:func:`get`), and when the
reference says which rulesets it serves: reading every installed package's
metadata costs a cold start more than the rest of ``import fsm``.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module

from ..engine.rows import (CONTINUE, ENGINE_STEPS, MACHINE_STEPS, PLAYER, RESOLVE, Table,
                           check_names)
from ..errors import TableError
from .words import Words


@dataclass(frozen=True, eq=False)
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
        if isinstance(value, (str, int, type(None))) and value in self.choices:
            return None
        return f"option {self.name} takes one of {', '.join(map(str, self.choices))}, not {value!r}"


@dataclass(frozen=True, eq=False)
class SceneWords:
    """What a ruleset's steps may say of the scene, beyond its geometry (which
    is the engine's, :mod:`fsm.engine.scene`): the values of a step's
    ``attack`` (and which of them is made at one within reach, which from
    further) and of an event's ``forced``, which forced kind jumps to the
    one square of its path instead of walking it, and whether a path may be
    a shift (a step's ``shift`` changes something), and which flag says a
    step attacks after its path."""

    attack_kinds: tuple = ()
    melee: str | None = None         # the attack kind made at one within reach, and the one
    ranged: str | None = None        # made from further (the builder's click on an enemy)
    forced_kinds: tuple = ()
    jump: str | None = None          # the forced kind whose path is the square arrived at
    shifts: bool = False             # a path may be a shift, which provokes nobody
    after: str | None = None         # the flag that makes a step's attack a part of its own,
                                     # made after its path from the path's last square


@dataclass(frozen=True, eq=False)
class StepSpec:
    """What one step kind takes beyond the fields every step has."""

    kind: str
    cost: int = 0                    # actions it costs, when fixed
    cost_field: bool = False         # it needs a `cost` of 1 to 3 (its parts by default)
    moving: bool = False             # a move: a reaction may break into it
    text_fields: tuple = ()          # free-text fields it takes (e.g. what is readied)
    flags: tuple = ()                # true/false fields it takes (e.g. a spell cast with a slot)
    choices: tuple = ()              # (text field, its words): a text field with a closed list


EACH_TURN = "each-turn"    # a tally zeroed for everyone when a turn starts
OWN_TURN = "own-turn"      # zeroed for a combatant when its own turn starts


@dataclass(frozen=True, eq=False)
class Tally:
    """One count the explorer keeps per combatant, beside the engine's own
    budgets, for a ruleset's invariants: when it is zeroed by the explorer
    (``reset``; None: only the ruleset's ``watch`` zeroes it)."""

    name: str
    reset: str | None = None


GRID_STEPS = "steps"     # the field of a grid move's path, as steps from its actor


def walk_path(here, steps) -> list:
    """The squares entered by ``steps`` ((dx, dy), ...) from ``here``."""
    path = []
    for dx, dy in steps:
        here = (here[0] + dx, here[1] + dy)
        path.append([here[0], here[1]])
    return path


@dataclass(frozen=True, eq=False, repr=False)
class Explore:
    """How the explorer walks a ruleset and what it checks after each step."""

    turn_moves: object               # (actor, others) -> [(kind, ((field, value), ...))]
    frame_class: object              # (kind) -> the class of frame the guards tell apart
    fighter_key: object              # (enc, fighter, exact, answers) -> tuple
    watch: object                    # (watch, enc, data, verdict, tallies, answers) -> ...
    tallies: tuple = ()              # the Tally values of its record book; ``watch`` gets
                                     # {name: [count per combatant]}
    combatants: object = None        # (list of {id, side}) -> list, adjusted
    labelled: bool = False           # frames present several trigger labels
    costless: frozenset = frozenset()  # frame kinds that spend no budget
    parented: frozenset = frozenset()  # frame classes whose parent frame the guards read
    reads_uses: bool = False         # guards read who answered which occurrence (enc.uses)
    void_rules: tuple = ()           # rules broken when a lost or disrupted frame resolves
    # Grid mode (``fsm explore --grid``): combatants on a line, turn moves and
    # answers with paths (``("steps", ((dx, dy), ...))``, relative to the actor)
    grid_moves: object = None        # (actor, others) -> [(kind, fields)], or None: no grid mode
    grid_answers: tuple = ()         # ((kind, fields), ...) answers tried on every trigger
    # Answers with fields of their own (a flag, say), tried on every trigger in both modes
    answer_variants: tuple = ()      # ((kind, fields), ...)
    # Steps that show a budget's exact remainder in verdicts: (enc, actor) -> [step]
    limit_probes: object = None


@dataclass(frozen=True, eq=False, repr=False)
class Ruleset:
    """Everything of one ruleset, as one value (see the module docstring)."""

    name: str
    title: str                       # short, for pictures: "D&D 4e"
    rule_prefix: str                 # its rule ids start with this and a dash: "4E"
    long_title: str                  # the full name, for `fsm --help`
    options: tuple
    fighter: type                    # a Fighter subclass with the ruleset's budgets
    rows: tuple
    refusals: tuple
    turn_actions: frozenset          # spec/TIMING.md, T-STEP-CLASSES
    answers: tuple
    stack_moves: frozenset
    turn_changes: frozenset = frozenset()   # turn steps that change whose turn it is
                                            # and make no frame (4e: delay, return)
    step_specs: tuple = ()           # StepSpec per kind that needs one
    budgets: object = None           # (enc, fighter) -> {budget: value}
    explore: Explore | None = None
    mutants: object = None           # (rows, refusals) -> [(id, why, rows, refusals)]
    mistakes: object = None          # (rows, refusals, kit) -> the same, engine-author bugs
    zoo: object = None               # (rows, refusals, kit) -> {zoo id: (rows, refusals)}:
                                     # the trackers' mistakes of fsm.conformance.mistakes.ZOO
    zoo_rules: dict = field(default_factory=dict)   # zoo id -> the rule ids it breaks here
    readings: tuple = ()             # source ids a divergence must give a reading of
    notes: object = None             # (step) -> notes a verdict carries
    attribution: str = ""            # what a work using its text must carry (a licence's notice)
    scene: SceneWords = SceneWords()  # the words its steps may use of the scene
    words: Words = Words()            # what players call its steps and budgets (the site's)

    def __repr__(self) -> str:
        return f"Ruleset({self.name!r})"

    @cached_property
    def table(self) -> Table:
        return Table(self.rows, self.refusals)

    @cached_property
    def answer_kinds(self) -> frozenset:
        return frozenset(self.answers)

    @cached_property
    def spec_of(self) -> dict:
        return {s.kind: s for s in self.step_specs}

    @cached_property
    def flag_fields(self) -> frozenset:
        """The true/false fields some step kind of this ruleset takes."""
        return frozenset(name for s in self.step_specs for name in s.flags)

    def option(self, name: str) -> Option | None:
        for opt in self.options:
            if opt.name == name:
                return opt
        return None

    def defaults(self) -> dict:
        return {opt.name: opt.default for opt in self.options}

    @property
    def player_steps(self) -> tuple:
        return self.table.player_steps

    def with_table(self, rows=None, refusals=None) -> "Ruleset":
        """The same ruleset on another table (a mutant of it, say)."""
        from dataclasses import replace
        return replace(self, rows=tuple(rows if rows is not None else self.rows),
                       refusals=tuple(refusals if refusals is not None else self.refusals))


class Registry(MutableMapping):
    """The rulesets by name (:data:`RULESETS`). The project's own are named
    from the start and each is imported the first time its value is asked
    for, so that a check of one ruleset does not load the others; the names
    keep the order they were given in, a ruleset registered later after them."""

    def __init__(self, own: dict[str, str]):
        self._modules = dict(own)                      # name: its module, not imported yet
        self._all: dict[str, Ruleset | None] = dict.fromkeys(own)

    def __getitem__(self, name: str) -> Ruleset:
        if self._all[name] is None:
            import_module(f".{self._modules.pop(name)}", __name__)   # it registers itself
        return self._all[name]

    def __setitem__(self, name: str, ruleset: Ruleset) -> None:
        self._modules.pop(name, None)
        self._all[name] = ruleset

    def __delitem__(self, name: str) -> None:
        self._modules.pop(name, None)
        del self._all[name]

    def __contains__(self, name) -> bool:
        return name in self._all

    def __iter__(self):
        return iter(self._all)

    def __len__(self) -> int:
        return len(self._all)

    def __repr__(self) -> str:
        return f"Registry({list(self._all)})"


RULESETS = Registry({"dnd4e": "dnd4e", "dnd5e": "dnd5e", "pf2e": "pf2e"})


def register(ruleset: Ruleset) -> Ruleset:
    """Add ``ruleset`` under its name, once :func:`check_contract` holds."""
    check_contract(ruleset)
    RULESETS[ruleset.name] = ruleset
    return ruleset


def check_contract(rs: Ruleset) -> None:
    """What the engine takes for granted of a ruleset, checked when it is
    registered (a :class:`fsm.errors.TableError` names what is wrong): one
    guard per name in its table; rows for the step names the engine knows
    (``end-turn``, ``event``, ``resolve``, ``continue``) and for its own
    machine rows (``close``, ``next-turn``); every turn action, answer and
    stack move it declares is a step of its rows, the stack moves include
    ``resolve`` and ``continue``, and each answer's rows check first that
    there is a trigger and that it is still open (T-ANSWER)."""
    from .shared import answer_needs
    check_names(rs.rows, rs.refusals)
    table = rs.table
    steps, machine = set(table.player_steps), set(table.machine_steps)
    broken = [f"no {k} row" for k in ENGINE_STEPS if k not in steps] + \
        [f"no {k} row of the machine" for k in MACHINE_STEPS if k not in machine]
    for what, kinds in (("turn action", rs.turn_actions), ("answer", rs.answers),
                        ("stack move", rs.stack_moves)):
        broken += [f"{k} (a {what}) has no row" for k in sorted(kinds) if k not in steps]
    broken += [f"{k} is not among its stack moves" for k in (RESOLVE, CONTINUE)
               if k not in rs.stack_moves]
    broken += [f"its scene's {k} attack {v!r} is not among its attack kinds"
               for k, v in (("melee", rs.scene.melee), ("ranged", rs.scene.ranged))
               if v is not None and v not in rs.scene.attack_kinds]
    if broken:
        raise TableError(f"ruleset {rs.name} breaks the engine's contract: "
                         f"{'; '.join(broken)}")
    for r in table.rows:
        if r.by == PLAYER and r.step in rs.answer_kinds:
            answer_needs(r)


def get(ruleset) -> Ruleset | None:
    """A ruleset by value or registered name (None when unknown); a name not
    registered yet is looked for among the installed packages' entry points."""
    if isinstance(ruleset, Ruleset):
        return ruleset
    if isinstance(ruleset, str):
        if ruleset not in RULESETS:
            discover()
        return RULESETS.get(ruleset)
    return None


ENTRY_POINTS = "fsm.rulesets"


_DISCOVERED: list = []      # the names found, once discover() has looked


def discover() -> list[str]:
    """Register the rulesets installed packages declare under the entry-point
    group ``fsm.rulesets`` (once: later calls return the same names); one
    warning line for an entry that cannot be loaded, none of which stops the
    others. Returns the names registered."""
    if _DISCOVERED:
        return _DISCOVERED[0]
    import warnings
    from importlib.metadata import entry_points
    found: list = []
    _DISCOVERED.append(found)
    for ep in entry_points(group=ENTRY_POINTS):
        try:
            value = ep.load()
        except Exception as exc:       # a broken plugin must not break fsm
            warnings.warn(f"ruleset entry point {ep.name!r} ({ep.value}) cannot be "
                          f"loaded: {type(exc).__name__}: {exc}", stacklevel=2)
            continue
        if isinstance(value, Ruleset) and value.name not in RULESETS:
            register(value)
        found.append(getattr(value, "name", ep.name))
    return found
