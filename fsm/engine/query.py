"""Questions asked of an encounter without changing it."""

from __future__ import annotations

from ..errors import StepError
from .rows import EVENT


def possible(enc) -> dict:
    """What may happen now: for each combatant, each step kind it could take,
    with the verdict it would get (allowed, gm, or rejected with its reason);
    under ``"*"``, the stack moves, which nobody in particular takes."""
    rs = enc.ruleset
    out: dict = {}
    for cid in enc.fighters:
        out[cid] = {}
        for kind in rs.player_steps:
            spec = rs.spec_of.get(kind)
            data = {"do": kind, "actor": cid, **({"cost": 1} if spec is not None
                                                and spec.cost_field else {})}
            if kind not in rs.stack_moves and kind != EVENT:
                try:
                    out[cid][kind] = enc.try_step(data)
                except StepError:
                    pass
    out["*"] = {kind: enc.try_step({"do": kind})
                for kind in rs.player_steps if kind in rs.stack_moves}
    return out
