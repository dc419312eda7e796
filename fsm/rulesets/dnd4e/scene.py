"""D&D 4e on a grid: what the scene decides once combatants have positions
(spec/TIMING.md, T-SCENE).

Who an action provokes (an enemy leaving a square next to you by a move that
is not a shift; an adjacent enemy making a ranged or area attack), when a
move enters a combatant's reach, and when a melee attack can no longer reach
any of its targets. Without positions the scenario's own statements
(``provokes``, ``lose``) keep their meaning; with them, a statement the
positions contradict is refused.
"""

from __future__ import annotations

from ...engine.frames import LOST, RESOLVED, TURN_KINDS
from ...engine.guard import guard
from ...engine.scene import adjacent, attacks_after, distance, on_path, show, within_reach
from ...engine.steps import with_article
from .. import common as c
from .effects import took_effect
from .limits import OWN_TRIGGER, resolves_ahead

PROVOKING_ATTACKS = frozenset({"ranged", "area"})
ENTERS_REACH = "enters-reach"   # the `on` of an answer to a move entering the answerer's reach


def _enemies_next_to(enc, who, square) -> list:
    side = enc.fighters[who].side
    return [f.id for f in enc.fighters.values()
            if f.id != who and f.side != side and adjacent(f.at, square)]


def declared_provokes(enc, st) -> tuple:
    """Whom the declared step provokes, by the positions now: every enemy next
    to a square its path leaves (not a shift), or next to the attacker of a
    ranged or area attack: where it stands, or the path's last square when
    it attacks after its path."""
    if st.actor is None:
        return ()
    here = enc.fighters[st.actor].at
    provoked = []
    if st.path and not st.shift and not st.forced:
        for sq in (here, *st.path[:-1]):
            provoked += _enemies_next_to(enc, st.actor, sq)
    if st.attack in PROVOKING_ATTACKS:       # a shift does not stop the attack provoking
        provoked += _enemies_next_to(enc, st.actor, attack_square(enc, st, here))
    return tuple(dict.fromkeys(provoked))


def attack_square(enc, frame, here):
    """Where ``frame``'s (or a step's) attack is made from: the last square of
    its path when it attacks after it, else ``here``, where its owner stands."""
    return frame.path[-1] if attacks_after(enc, frame) else here


def provoked_now(enc, actor, frame) -> bool:
    """Whether ``frame``, pending, provokes ``actor`` where everyone stands now:
    the part in play leaves the square its owner stands on, or makes a ranged
    or area attack from it (each part, or only the attack after the path)."""
    if frame.owner is None:
        return False
    mover, me = enc.fighters[frame.owner], enc.fighters[actor]
    if mover.side == me.side:
        return False
    return (_moving_now(enc, frame) or _attacking_now(enc, frame)) and adjacent(mover.at, me.at)


def _on_squares(enc, frame) -> bool:
    """The part in play is one of the path's squares (not the attack after it)."""
    return bool(frame.path) and (on_path(frame) or not attacks_after(enc, frame))


def _moving_now(enc, frame) -> bool:
    """The part in play is a square its owner walks, not a shift nor forced."""
    return _on_squares(enc, frame) and not frame.shift and not frame.forced


def _attacking_now(enc, frame) -> bool:
    """The part in play makes a ranged or area attack: any part, or only the
    attack after the path."""
    return frame.attack in PROVOKING_ATTACKS and not (attacks_after(enc, frame)
                                                      and on_path(frame))


def why_provoked(enc, actor, frame) -> str:
    """What the positions show about ``frame`` provoking ``actor``, in words."""
    if frame.owner is None or frame.owner not in enc.fighters:
        return "nobody's action provokes"
    mover, me = enc.fighters[frame.owner], enc.fighters[actor]
    where = f"{mover.id} at {show(mover.at)}, {me.id} at {show(me.at)}"
    later = ""
    if attacks_after(enc, frame) and frame.attack and on_path(frame):
        later = f"; its {frame.attack} attack comes after the path, from {show(frame.path[-1])}"
    moving, attacking = _moving_now(enc, frame), _attacking_now(enc, frame)
    walked = _on_squares(enc, frame)
    if not moving and not attacking:
        if walked and frame.forced == enc.ruleset.scene.jump:
            return f"teleportation crosses no square and provokes nobody ({where}{later})"
        if walked and frame.forced:
            return f"a {frame.forced} is no movement of {mover.id}'s own and provokes nobody " \
                   f"({where})"
        if walked:
            return f"a shift provokes nobody ({where}{later})"
        what = with_article(f"{frame.attack} attack" if frame.attack else
                            f"{frame.kind}'s part after its path" if frame.path else
                            f"{frame.kind} without a path")
        return f"{what} provokes nobody ({where})"
    step = "leaves a square" if moving else "attacks from a square"
    return f"{mover.id} {step} {'next to' if adjacent(mover.at, me.at) else 'not next to'} " \
           f"{me.id} ({where})"


def reach_entry(enc, actor, frame) -> int | None:
    """The square (1-based part) at which ``frame``'s path enters ``actor``'s
    reach from outside it, or None when it never does."""
    me = enc.fighters[actor]
    here = frame.start
    for n, sq in enumerate(frame.path, 1):
        if not within_reach(me, here) and within_reach(me, sq):
            return n
        here = sq
    return None


def _reaching(enc, frame) -> list:
    """The targets within the attacker's reach from where it attacks (the path's
    last square, for an attack after its path)."""
    attacker = enc.fighters[frame.owner]
    here = attack_square(enc, frame, attacker.at)
    return [t for t in frame.targets if distance(here, enc.fighters[t].at) <= attacker.reach]


def _melee_on_scene(enc, frame) -> bool:
    return enc.scene and frame.attack == "melee" and bool(frame.targets) \
        and frame.owner is not None


# -- guards ----------------------------------------------------------------------------

def _provoked_seen(enc, st):
    seen = c.target_seen(enc, st)
    seen["scene"] = ""
    if enc.scene and st.target is not None and st.actor in enc.fighters:
        seen["scene"] = ": " + why_provoked(enc, st.actor, st.target)
    seen["verb"] = "provokes"          # the actor stays a value of its own (crowd.reword)
    if OWN_TRIGGER in st.flags and st.target is not None and st.target.kind in TURN_KINDS:
        seen["scene"] = (": the start or end of a turn is no one's action, and an "
                         "opportunity action answers an enemy's")
    elif OWN_TRIGGER in st.flags:
        seen["verb"] = "need not provoke"
        seen["scene"] = (": the power states its own trigger, which the rules do not "
                         "check; it is no opportunity attack")
    return seen


@guard("not-provoked", "trigger {trigger} does not provoke {actor}{scene}",
       seen=_provoked_seen, ok="{trigger} {verb} {actor}{scene}")
def provoked(enc, st):
    """The trigger provokes this combatant (it leaves an adjacent square, or
    makes a ranged or area attack while adjacent): as the positions show when
    the encounter has them (T-SCENE), as the step stated otherwise. An
    opportunity action whose power states its own trigger (``own_trigger``)
    is no opportunity attack and needs no provocation, but answers an
    action or an event, not a turn's start or end."""
    if OWN_TRIGGER in st.flags:
        return st.target.kind not in TURN_KINDS
    if enc.scene:
        return provoked_now(enc, st.actor, st.target)
    return st.actor in st.target.provokes



def _stated_seen(enc, st):
    return {"actor": st.actor, "kind": st.kind, "stated": list(st.provokes),
            "derived": list(declared_provokes(enc, st))}


@guard("provocation-contradicts-scene",
       "{actor}'s {kind} provokes {derived} where everyone stands, not {stated} as stated",
       seen=_stated_seen)
def provocation_fits_scene(enc, st):
    """With positions, a stated ``provokes`` must be what the positions show."""
    if not enc.scene or not st.provokes_stated:
        return True
    return set(st.provokes) == set(declared_provokes(enc, st))


def _entry_seen(enc, st):
    seen = c.target_seen(enc, st)
    t = st.target
    if t is not None and t.path and st.actor in enc.fighters:
        n = reach_entry(enc, st.actor, t)
        seen["entry"] = (f"at square {n}, {show(t.path[n - 1])}" if n else
                         "nowhere on its path")
    elif t is not None:
        seen["entry"] = "nowhere: its step has no path, and moves nobody on the grid"
    return seen


@guard("not-mid-move",
       "{trigger} is not a move under way ({done}/{parts} squares done): an answer to "
       "a creature's movement comes before it finishes moving", seen=c.target_seen)
def movement_in_progress(enc, st):
    """An answer to a move entering your reach comes before the move ends;
    with positions, one whose last square entered the reach comes after it,
    as any reaction after its trigger (T-SCENE)."""
    if st.on != ENTERS_REACH:
        return True
    t = st.target
    if t.moving and t.outcome is None and t.done < t.parts:
        return True
    return enc.scene and bool(t.path) and t.outcome == RESOLVED \
        and reach_entry(enc, st.actor, t) == t.parts


@guard("reach-not-entered",
       "{trigger_owner} enters {actor}'s reach {entry}; {done} square(s) done so far",
       seen=_entry_seen)
def reach_entered(enc, st):
    """With positions, the move has entered the answerer's reach: the square
    where it did has resolved (a step without a path enters no reach)."""
    t = st.target
    if st.on != ENTERS_REACH or not enc.scene:
        return True
    n = reach_entry(enc, st.actor, t) if t.path else None
    return n is not None and t.done >= n


# -- effects ---------------------------------------------------------------------------

def scene_makes_lost(enc, st):
    """An interrupt, an opportunity action or a readied action taken as an
    interrupt that resolved ahead of a melee attack, or an immediate reaction
    that resolved before the attack's next part, and left none of its targets
    within the attacker's reach makes it lost."""
    top = enc.stack[-1]
    if not resolves_ahead(enc, top) or top.outcome is None or top.parent is None:
        return
    attack = enc.find(top.parent)
    if attack is None or attack.outcome is not None or not _melee_on_scene(enc, attack):
        return
    if not _reaching(enc, attack):
        attack.outcome = LOST
        attack.phase = RESOLVED
        attack.window_part = attack.done
        enc.note(st, attack, LOST)
        took_effect(enc, st, attack)
