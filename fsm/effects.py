"""Effects: what a transition of the table does to the encounter once its
guards have passed. Each is named in the table row that runs it; none decides
whether a step is allowed.
"""

from __future__ import annotations

from .frames import (DONE, DISRUPTED, EVENT, LOST, PENDING, RESOLVED, TURN_END, TURN_KINDS,
                     TURN_START, Frame)
from .kinds import RESPONSES, STACK_MOVES

# Response kinds whose resolution gets ahead of their trigger (they can make it lost).
INTERRUPTING = frozenset({"interrupt", "opportunity"})


def _fighter(enc, st):
    return enc.fighters[st.actor]


# -- D&D 4e spending -------------------------------------------------------

def spend_standard(enc, st):
    """Spend the turn's standard action."""
    _fighter(enc, st).standard -= 1


def spend_move(enc, st):
    """Spend the move action, or the standard action taken in its place."""
    f = _fighter(enc, st)
    if f.move > 0:
        f.move -= 1
    else:
        f.standard -= 1


def spend_minor(enc, st):
    """Spend the minor action, or a move or standard action taken in its place."""
    f = _fighter(enc, st)
    if f.minor > 0:
        f.minor -= 1
    elif f.move > 0:
        f.move -= 1
    else:
        f.standard -= 1


def count_free(enc, st):
    """Count a free action against the (optional) per-turn limit."""
    f = _fighter(enc, st)
    if f.free_turn != enc.turn_serial:
        f.free_turn = enc.turn_serial
        f.free_count = 0
    f.free_count += 1


def spend_immediate(enc, st):
    """Spend the round's immediate action."""
    f = _fighter(enc, st)
    f.immediate_used = True
    f.immediate_turn = enc.turn_serial


def spend_opportunity(enc, st):
    """Spend the opportunity action of this combatant's turn."""
    _fighter(enc, st).opportunity_turn = enc.turn_serial


def use_readied(enc, st):
    """Take the readied action as the round's immediate action."""
    f = _fighter(enc, st)
    st.ready = f.readied
    f.readied = None
    f.immediate_used = True
    f.immediate_turn = enc.turn_serial


# -- Pathfinder 2e spending ------------------------------------------------

def spend_actions(enc, st):
    """Spend the action cost (an activity commits all its actions at once)."""
    _fighter(enc, st).actions -= st.cost


def spend_reaction(enc, st):
    """Spend a reaction (none left becomes none, never below zero)."""
    f = _fighter(enc, st)
    if f.reactions > 0:
        f.reactions -= 1


def note_use(enc, st):
    """Remember which kind of response this creature used on this occurrence
    of the trigger (each part of an action is an occurrence of its own)."""
    kind = "reaction" if st.kind == "reaction" else "free"
    key = (st.target.id, st.target.occurrence, st.actor)
    enc.uses[key] = enc.uses.get(key, ()) + ((kind, st.on),)


# -- the stack -------------------------------------------------------------

def push_frame(enc, st):
    """Put the declared action (or response, or event) on the stack, pending."""
    enc.push(Frame(
        st.fid, st.actor, st.kind,
        response=st.target is not None and st.responding,
        parts=st.parts, provokes=st.provokes, labels=st.labels,
        parent=st.target.id if (st.responding and st.target is not None) else None,
        turn=enc.turn_serial, cost=st.cost, moving=st.moving, name=st.name,
        step=st.index,
    ))
    if st.kind == "readied":
        enc.stack[-1].name = st.name or f"readied {st.ready}"
    if st.kind == "ready":
        enc.stack[-1].readies = st.ready_type or "standard"
    enc.note(st, enc.stack[-1], "declared")


def resolve_part(enc, st):
    """The top frame's current part resolves; the whole frame when it was the
    last. The window of that part opens (T-WINDOW)."""
    top = enc.stack[-1]
    top.done += 1
    top.phase = RESOLVED
    top.window_part = top.done
    top.interrupted = False
    if top.done >= top.parts:
        top.outcome = DONE
        enc.note(st, top, DONE)
        if top.kind in INTERRUPTING or (top.kind == "readied"
                                       and enc.options.get("readied_as") == "interrupt"):
            parent = enc.find(top.parent)
            if parent is not None and parent.outcome is None:
                parent.interrupted = True
        if top.kind == "ready":
            enc.fighters[top.owner].readied = top.readies or "standard"
            enc.fighters[top.owner].readied_turn = enc.turn_serial
        if top.kind == "readied":
            enc.move_before(top.owner, top.parent)
    else:
        enc.note(st, top, f"part {top.done}/{top.parts}")


def next_part(enc, st):
    """The top frame goes on with its next part, pending again. The window of
    the part before stays open only under 4e ``reaction_window:
    interrupts-next`` (T-CUT-IN), until the new part takes effect."""
    top = enc.stack[-1]
    top.phase = PENDING
    if enc.options.get("reaction_window") != "interrupts-next" and top.window_part:
        top.window_part = 0
        top.closed_by = (st.index, f"when {top.id} went on with part {top.done + 1}")


def mark_lost(enc, st):
    """The top frame is lost: it has no effect and its cost stays spent."""
    top = enc.stack[-1]
    top.outcome = LOST
    top.phase = RESOLVED
    top.window_part = top.done      # the voided part stays answerable (and refused)
    enc.note(st, top, LOST)


def mark_disrupted(enc, st):
    """The top frame is disrupted: no effect; actions and reactions stay spent."""
    top = enc.stack[-1]
    top.outcome = DISRUPTED
    top.phase = RESOLVED
    top.window_part = top.done      # the disrupted part stays answerable
    enc.note(st, top, DISRUPTED)


def pop_frame(enc, st):
    """The top frame leaves the stack; its window closes, unless it was kept
    open (T-CUT-IN)."""
    top = enc.pop()
    if top.kept:
        enc.kept[top.id] = top
    else:
        close_window(enc, top, st, _moved_past(enc, st))
    enc.remember_past(top)


def _moved_past(enc, st) -> str:
    """How play moved past a frame that leaves the stack, in words."""
    below = next((f for f in reversed(enc.stack)
                  if f.outcome is None and f.kind not in TURN_KINDS), None)
    if st.kind in STACK_MOVES and below is not None:
        return f"when {below.id} ({below.owner}'s {below.kind}) went on"
    if st.kind in RESPONSES:
        return f"when {st.actor} answered {st.to or 'an earlier trigger'}"
    if st.actor:
        return f"when {st.actor} went on with a {st.kind}"
    return f"when play went on (a {st.kind} step)"


def keep_window(enc, st):
    """Mark the top frame to keep its window open once it leaves the stack."""
    enc.stack[-1].kept = True


def close_window(enc, frame, st, words) -> None:
    """Close ``frame``'s window, remembering which step closed it and how."""
    if frame.closed:
        return
    frame.closed = True
    frame.kept = False
    frame.closed_by = (st.index, words)
    if frame.id in enc.past:
        enc.forget_uses(frame.id)


def _close_owner_windows(enc, st, owner, spare, words) -> None:
    """Close the after-windows of ``owner``'s frames other than ``spare``."""
    if owner is None:
        return
    for frame in enc.stack:
        if frame is not spare and frame.owner == owner and frame.window_part \
                and frame.kind not in TURN_KINDS and frame.kind != EVENT:
            frame.window_part = 0
            frame.closed_by = (st.index, words)
    for fid in [fid for fid, f in enc.kept.items() if f.owner == owner and f is not spare]:
        close_window(enc, enc.kept.pop(fid), st, words)


def owner_moves_on(enc, st):
    """4e, T-OWNER: once a combatant's step takes effect (a part resolves, or
    it is lost), the windows of that combatant's earlier triggers close."""
    top = enc.stack[-1]
    if top.kind == EVENT:
        return
    _close_owner_windows(enc, st, top.owner, top, f"when {top.owner}'s {top.id} took effect")


# -- turns -----------------------------------------------------------------

def close_turn(enc, st):
    """The turn's owner ends its turn: the turn-end moment opens."""
    enc.push(Frame(f"turn-end@{enc.turn_serial}", enc.active, TURN_END,
                           turn=enc.turn_serial, phase=RESOLVED, step=st.index))
    enc.note(st, enc.stack[-1], "turn ends")


def reset_immediate(enc, st):
    """4e: the immediate action comes back at the end of your own turn."""
    enc.fighters[enc.active].immediate_used = False


def open_next_turn(enc, st):
    """The next combatant in initiative order starts its turn; every window
    still open closes (T-NEXT-TURN)."""
    words = f"when {enc.order[(enc.turn_index + 1) % len(enc.order)]}'s turn started"
    moment = enc.pop()
    close_window(enc, moment, st, words)
    enc.remember_past(moment)
    for fid in list(enc.kept):
        close_window(enc, enc.kept.pop(fid), st, words)
    enc.advance()
    enc.push(Frame(f"turn-start@{enc.turn_serial}", enc.active, TURN_START,
                           turn=enc.turn_serial, phase=RESOLVED, step=st.index))
    enc.note(st, enc.stack[-1], "turn starts")


def refresh_4e_actions(enc, st):
    """4e: a standard, a move and a minor action for the new turn; an unused
    readied action lapses."""
    f = enc.fighters[enc.active]
    f.standard = f.move = f.minor = 1
    f.readied = None


def refresh_pf2_budgets(enc, st):
    """PF2: three actions for the new turn, and the reaction comes back."""
    f = enc.fighters[enc.active]
    f.actions = f.actions_max
    f.reactions = f.reactions_max
