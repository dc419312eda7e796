"""Setting up an encounter: options over the ruleset's defaults, the
combatants as the ruleset's fighters, the initiative order. Each raises
:class:`~fsm.errors.StepError` on what it cannot read."""

from __future__ import annotations

from ..errors import StepError

ANYONE = "*"      # the key of the stack moves in possible(): no combatant's id
from . import scene
from .frames import field_kind
from .steps import suggest

# The fields every combatant may have, as JSON Schema, in the order the schema
# lists them (spec/vector.schema.json is generated from these); a ruleset's
# fighter adds its own (``Fighter.FIELDS``): see combatant_fields().
COMBATANT_SCHEMAS = {
    "id": {"type": "string", "minLength": 1, "not": {"const": ANYONE}},
    "side": {"type": "string", "minLength": 1},
    "name": {"type": "string"},
    "at": {"$ref": "#/$defs/square"},
    "reach": {"type": "integer", "minimum": 1, "maximum": scene.MAX_REACH},
}


def combatant_fields(ruleset) -> tuple:
    """The fields a combatant of ``ruleset`` may have, every combatant's first."""
    return (*COMBATANT_SCHEMAS, *ruleset.fighter.FIELDS)


def options(ruleset, options) -> dict:
    """The ruleset's option defaults with ``options`` set over them."""
    out = ruleset.defaults()
    if options is not None and not isinstance(options, dict):
        raise StepError("options must be an object: {name: value}", "options")
    for name, value in (options or {}).items():
        opt = ruleset.option(name) if isinstance(name, str) else None
        if opt is None:
            known = [o.name for o in ruleset.options]
            raise StepError(f"unknown option {name!r} for {ruleset.name}"
                            f"{suggest(name, known)}", "options")
        problem = opt.check(value)
        if problem:
            raise StepError(problem, "options")
        out[name] = value
    return out


def fighters(ruleset, combatants) -> dict:
    """Combatant id -> the ruleset's fighter, from {id, side, ...} objects or
    (id, side) pairs."""
    cls = ruleset.fighter
    if isinstance(combatants, (str, bytes, dict)) or not hasattr(combatants, "__iter__"):
        raise StepError("combatants must be a list of {id, side} objects or "
                        "(id, side) pairs", "combatants")
    combatants = list(combatants)
    out: dict = {}
    for c in combatants:
        if isinstance(c, dict):
            cid, side = c.get("id"), c.get("side")
            extra = {k: c[k] for k in cls.FIELDS if k in c}
        elif isinstance(c, (tuple, list)) and len(c) == 2:
            cid, side, extra = c[0], c[1], {}
        else:
            raise StepError(f"a combatant is an {{id, side}} object or an (id, side) "
                            f"pair, not {c!r}", "combatants")
        if not isinstance(cid, str) or not cid:
            raise StepError(f"combatant id must be a non-empty string, not {cid!r}",
                            "combatants")
        if cid == ANYONE:
            raise StepError(f"combatant id {ANYONE!r} is reserved: it stands for anyone "
                            f"(the stack moves, in what may happen now)", "combatants")
        if not isinstance(side, str) or not side:
            raise StepError(f"combatant {cid} needs a side (a non-empty string)",
                            "combatants")
        if cid in out:
            raise StepError(f"combatant {cid} is listed twice", "combatants")
        for k, v in extra.items():
            kind = field_kind(cls.FIELDS[k])
            if kind == "flag":
                if not isinstance(v, bool):
                    raise StepError(f"combatant {cid}: {k} must be true or false",
                                    "combatants")
                continue
            if kind == "choice":
                if v not in cls.FIELDS[k] or not isinstance(v, str):
                    raise StepError(f"combatant {cid}: {k} must be one of "
                                    f"{', '.join(cls.FIELDS[k])}{suggest(v, cls.FIELDS[k])}",
                                    "combatants")
                continue
            low, high = cls.FIELDS[k]
            if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
                raise StepError(f"combatant {cid}: {k} must be an integer from {low} "
                                f"to {high}", "combatants")
        out[cid] = cls(cid, side, **extra)
    if not out:
        raise StepError("an encounter needs at least one combatant", "combatants")
    scene.place(out, combatants)
    return out


def order(fighters, initiative) -> list:
    """The initiative order: ``initiative`` if given, else the combatants' order."""
    if initiative is not None and (isinstance(initiative, (str, bytes, dict))
                                   or not hasattr(initiative, "__iter__")):
        raise StepError("initiative must be a list of combatant ids", "initiative")
    order = list(initiative) if initiative is not None else list(fighters)
    for cid in order:
        if not isinstance(cid, str) or cid not in fighters:
            raise StepError(f"initiative names unknown combatant {cid!r}"
                            f"{suggest(cid, fighters)}", "initiative")
    if sorted(order) != sorted(fighters):
        missing = sorted(set(fighters) - set(order))
        raise StepError(
            f"initiative must list every combatant exactly once (missing: {missing})"
            if missing else "initiative lists a combatant twice", "initiative")
    return order
