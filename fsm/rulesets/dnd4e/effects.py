"""D&D 4e: the effects only this ruleset has, each named by a row of its
table (spend an action, lose a frame, keep a window open, start a turn)."""

from __future__ import annotations

from ...engine.frames import EVENT, LOST, RESOLVED, TURN_KINDS
from .. import common as c
from .limits import gets_ahead, resolves_ahead, slot_of

def _f(enc, st):
    return enc.fighters[st.actor]


def spend_standard(enc, st):
    """Spend the turn's standard action."""
    _f(enc, st).standard -= 1


def _spend(f, kind) -> None:
    slot = slot_of(f, kind) or "standard"
    setattr(f, slot, getattr(f, slot) - 1)


def spend_move(enc, st):
    """Spend the move action, or the standard action taken in its place."""
    _spend(_f(enc, st), "move")


def spend_minor(enc, st):
    """Spend the minor action, or a move or standard action taken in its place."""
    _spend(_f(enc, st), "minor")


def count_free(enc, st):
    """Count a free action against the (optional) per-turn limit."""
    f = _f(enc, st)
    if f.free_turn != enc.turn_serial:
        f.free_turn, f.free_count = enc.turn_serial, 0
    f.free_count += 1


def spend_immediate(enc, st):
    """Spend the round's immediate action."""
    f = _f(enc, st)
    f.immediate_used, f.immediate_turn = True, enc.turn_serial


def spend_opportunity(enc, st):
    """Spend the opportunity action of this combatant's turn."""
    _f(enc, st).opportunity_turn = enc.turn_serial


def use_readied(enc, st):
    """Take the readied action as the round's immediate action; the frame is
    named after what was readied."""
    f = _f(enc, st)
    st.text["readied"] = f.readied
    f.readied = None
    f.immediate_used, f.immediate_turn = True, enc.turn_serial


def name_readied(enc, st):
    """The readied action's frame says what was readied."""
    top = enc.stack[-1]
    top.name = st.name or f"readied {st.text.get('readied')}"


def note_what_is_readied(enc, st):
    """The ready action's frame remembers what it readies (a standard action by
    default); its owner, the circumstance it waits for (T-4E-READY)."""
    enc.stack[-1].readies = st.text.get("readies") or "standard"
    _f(enc, st).readied_when = (st.text.get("when"), st.text.get("by"))


def interrupt_takes_hold(enc, st):
    """An interrupt or opportunity action that resolved ahead of its trigger
    lets that action be lost (4E-INTERRUPT-LOST, 4E-OPP-LOST); so does a
    readied action under ``readied_as: interrupt``; and so does an immediate
    reaction that resolved while its trigger still had parts to come (the
    second attack roll of a power: 4E-REACTION-NEXT)."""
    top = enc.stack[-1]
    if top.outcome == RESOLVED and resolves_ahead(enc, top):
        parent = enc.find(top.parent)
        # a turn moment has no part to come: a reaction to it interrupts nothing
        if parent is not None and parent.outcome is None and not (
                parent.kind in TURN_KINDS and not gets_ahead(enc, top)):
            parent.interrupted = True


def ready_takes_hold(enc, st):
    """Once the ready action resolves, the action is readied (4E-READY)."""
    top = enc.stack[-1]
    if top.outcome == RESOLVED and top.kind == "ready":
        f = enc.fighters[top.owner]
        f.readied = top.readies or "standard"


def readied_moves_initiative(enc, st):
    """Once a readied action resolves, its owner acts just before the
    combatant whose action triggered it (4E-READY-INITIATIVE)."""
    top = enc.stack[-1]
    if top.outcome != RESOLVED or top.kind != "readied":
        return
    trigger = enc.find(top.parent) or enc.past.get(top.parent)
    if trigger is None or trigger.owner is None or trigger.owner == top.owner:
        return
    order = [c for c in enc.order if c != top.owner]
    order.insert(order.index(trigger.owner), top.owner)
    enc.reorder(order)


def mark_lost(enc, st):
    """The top frame is lost: it has no effect and its cost stays spent."""
    c.void(enc, st, LOST)


def owner_moves_on(enc, st):
    """T-OWNER: once a combatant's step takes effect (a part resolves, or it is
    lost), the windows of that combatant's earlier triggers close."""
    took_effect(enc, st, enc.stack[-1])


def took_effect(enc, st, frame):
    """T-OWNER for ``frame``, which has just taken effect (resolved a part, or
    was lost), wherever it is on the stack."""
    owner = frame.owner
    if frame.kind == EVENT or owner is None:
        return
    words = f"when {owner}'s {frame.id} took effect"
    for other in enc.stack:
        if other is not frame and other.owner == owner and other.window_part \
                and other.kind not in TURN_KINDS and other.kind != EVENT:
            other.window_part = 0
            other.closed_by = (st.index, words)
    for fid in [fid for fid, f in enc.kept.items() if f.owner == owner]:
        c.close_window(enc, enc.kept.pop(fid), st, words)


def keep_window(enc, st):
    """Mark the top frame to keep its window open once it leaves the stack."""
    enc.stack[-1].kept = True


def close_part_window_if_strict(enc, st):
    """T-PARTS: the window of the part before closes as the next begins, unless
    ``reaction_window: interrupts-next`` keeps it until the next resolves."""
    if enc.options["reaction_window"] != "interrupts-next":
        c.close_part_window(enc, st)


def reset_immediate(enc, st):
    """The immediate action comes back at the end of your own turn."""
    f = enc.fighters[enc.active]
    f.immediate_used = False
    f.turns_ended += 1


def refresh_actions(enc, st):
    """A standard, a move and a minor action for the new turn; an unused
    readied action lapses."""
    f = enc.fighters[enc.active]
    f.standard = f.move = f.minor = 1
    f.readied = None
