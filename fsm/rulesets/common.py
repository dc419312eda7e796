"""What every ruleset shares: the turn, the triggers and the stack.

Guards of the order of play and of trigger windows, the timing guards of
the machine's own rows, and the effects that move the stack and the turn
(spec/TIMING.md names each clause beside the rows that implement it); the
rows built from them are in :mod:`fsm.rulesets.shared`. A ruleset module
adds its own rows, budgets and limits.
"""

from __future__ import annotations

from ..engine.frames import (PENDING, RESOLVED, TURN_END, TURN_KINDS, TURN_START, Frame,
                             carried_of, moment_id)
from ..engine.guard import guard, routing, timing
from ..engine.rows import END_TURN
from ..engine.steps import with_article
from ..engine.turn import next_in_order, turn_ended

# 4e: a delaying combatant takes its delayed turn between two turns, in place of
# the next one (T-4E-DELAY): no answer, yet the next turn waits for it
RETURN = "return"

# -- what guards see, for explanations -----------------------------------------------


def option_hint(name: str, value, what: str = "would allow it") -> str:
    """Words naming the option whose other value reverses a refusal, for the
    end of a guard's explanation: ' (option NAME: VALUE would allow it)'."""
    shown = "null" if value is None else value
    return f" (option {name}: {shown} {what})"


def turn_seen(enc, st):
    return {"actor": st.actor, "active": enc.active, "round": enc.round}


def unresolved_above(enc, target):
    """The first unresolved frame above ``target`` on the stack, or None
    (also None when ``target`` is not on the stack)."""
    stack = enc.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is target:
            for frame in stack[i + 1:]:
                if frame.outcome is None:
                    return frame
            return None
    return None


def target_seen(enc, st):
    t = st.target
    seen = {"actor": st.actor, "kind": st.kind, "to": st.to or "on the stack",
            "trigger": None, "trigger_owner": None, "phase": None, "done": 0, "parts": 0,
            "outcome": "none yet", "label": st.on, "closed_by": "its window closed",
            "above": None}
    if t is None:
        return seen
    seen.update(trigger=t.id, trigger_owner=t.owner, phase=t.phase, done=t.done,
                parts=t.parts, outcome=t.outcome or "none yet")
    if t.closed_by is not None:
        number, words = t.closed_by
        seen["closed_by"] = f"its window closed at step {number}, {words}"
    above = unresolved_above(enc, t)
    if above is not None:
        seen["above"] = f"{above.id} ({above.owner or 'nobody'}'s {above.kind})"
    return seen


# -- the turn and the order of play -------------------------------------------------

@guard("not-your-turn", "{actor} may do this only on its own turn; it is {active}'s turn",
       seen=turn_seen,
       ok="it is {actor}'s own turn")
def own_turn(enc, st):
    """The actor is the combatant whose turn it is."""
    return st.actor == enc.active


@guard("action-in-progress", "an action is still unresolved on the stack", seen=target_seen,
       ok='nothing is unresolved on the stack')
def no_action_pending(enc, st):
    """No unresolved action is open: actions of a turn come one after another."""
    for frame in enc.stack:
        if frame.outcome is None and frame.kind not in TURN_KINDS:
            return False
    return True


@guard("no-trigger", "there is no trigger {to} to answer now", seen=target_seen,
       ok='{trigger} is there to answer')
def has_trigger(enc, st):
    """An answer names a trigger that exists: a frame, or a turn moment that is open."""
    return st.target is not None


@guard("unresolved-above",
       "{above} is still unresolved above {trigger}; it resolves before anything "
       "answers {trigger} again", seen=target_seen,
       ok='nothing unresolved sits above {trigger}')
def nothing_unresolved_above(enc, st):
    """Answers come one at a time: a trigger beneath an unresolved frame waits
    until that frame is resolved (T-ANSWER)."""
    return unresolved_above(enc, st.target) is None


@guard("nothing-pending", "nothing is unresolved: there is no action to {kind}",
       seen=target_seen,
       ok='{trigger} is unresolved')
def something_pending(enc, st):
    """Resolve, continue, lose and disrupt act on the top unresolved frame."""
    return st.target is not None


@guard("not-on-top",
       "{actor} has no frame on top of the stack: {trigger} ({trigger_owner}'s) is the "
       "top unresolved one", seen=target_seen,
       ok="{trigger} is the top unresolved frame")
def actor_on_top(enc, st):
    """A stack move that names its actor names the owner of the top unresolved frame."""
    return st.target is not None and (st.actor is None or st.actor == st.target.owner)


@guard("between-parts",
       "{trigger} is between parts ({done}/{parts} resolved); it must continue first",
       seen=target_seen,
       ok='a part of {trigger} is pending')
def part_pending(enc, st):
    """Resolving or losing needs a declared part; between parts the frame continues first."""
    return st.target.phase == PENDING


@guard("no-part-resolved",
       "{trigger}'s part {done_next} is still pending; it resolves before the next begins",
       seen=lambda enc, st: dict(target_seen(enc, st), done_next=st.target.done + 1),
       ok='part {done} of {trigger} has resolved and parts remain')
def part_resolved(enc, st):
    """Continuing needs a resolved part with more parts to come."""
    return st.target.between_parts


@guard("trigger-passed", "trigger {trigger} has passed: {closed_by}", seen=target_seen,
       ok='the window of {trigger} is still open')
def trigger_still_open(enc, st):
    """A triggered action answers a trigger that is happening now: a part that
    is pending, or a resolved part whose window has not closed (T-WINDOW)."""
    t = st.target
    if t is None or t.closed:
        return False
    if t.kind in TURN_KINDS or t.pending:
        return True
    return t.window_part == t.done


# -- timing: when the machine moves by itself (spec/TIMING.md) ------------------------

def _untriggered(enc, st) -> bool:
    return st.kind in enc.ruleset.turn_actions or st.kind == END_TURN


@timing("play moves past the finished frame")
def play_moves_past(enc, st):
    """T-LEAVE: a finished frame leaves the top of the stack before a step that
    acts beneath it (resolve, continue, lose, disrupt), answers a trigger other
    than it, is an untriggered step of its owner, is the turn owner's next
    action or end of turn, or comes after the turn has ended."""
    top = enc.stack[-1]
    if top.outcome is None or top.kind in TURN_KINDS:
        return False
    if st.next_turn:             # an answer to the next turn's start: off the stack
        return True
    if st.responding:
        return st.target is not None and st.target is not top
    if st.kind in enc.ruleset.stack_moves:
        return True
    if _untriggered(enc, st) and st.actor in (top.owner, enc.active):
        return True
    return turn_ended(enc)


@timing("its owner moves on from the turn's start")
def turn_start_passes(enc, st):
    """T-TURN-START: the turn-start moment passes when the turn's owner takes
    its first untriggered action or ends its turn."""
    return _untriggered(enc, st) and st.actor == enc.active


@timing("the coming step answers nothing, or the next turn's start")
def turn_end_passes(enc, st):
    """T-NEXT-TURN: after the turn has ended, the first step that is not an
    answer to a trigger, or that answers the next turn's turn-start moment,
    starts the next turn; a ``return`` (4e) starts the delayed turn instead."""
    return (not st.responding and st.kind != RETURN) or st.next_turn


@routing
def parent_is_turn(enc, st):
    """After popping, no frame remains: the turn goes on."""
    return len(enc.stack) == 1


@routing
def parent_pending(enc, st):
    """After popping, the frame below is still pending."""
    return len(enc.stack) > 1 and enc.stack[-2].kind not in TURN_KINDS \
        and enc.stack[-2].phase == PENDING and enc.stack[-2].outcome is None


@routing
def parent_resolved(enc, st):
    """After popping, the frame below has resolved (wholly or a part)."""
    return len(enc.stack) > 1 and enc.stack[-2].kind not in TURN_KINDS \
        and (enc.stack[-2].phase == RESOLVED or enc.stack[-2].outcome is not None)


@routing
def parent_turn_start(enc, st):
    """After popping, the turn-start moment is below."""
    return len(enc.stack) > 1 and enc.stack[-2].kind == TURN_START


@routing
def parent_turn_end(enc, st):
    """After popping, the turn-end moment is below."""
    return len(enc.stack) > 1 and enc.stack[-2].kind == TURN_END


# -- effects: the stack and the turn ------------------------------------------------

def push_frame(enc, st):
    """Put the declared action (or answer, or event) on the stack, pending."""
    enc.push(Frame(st.fid, st.actor, st.kind,
                   response=st.target is not None and st.responding,
                   parent=st.target.id if (st.responding and st.target is not None) else None,
                   turn=enc.turn_serial, step=st.index,
                   start=enc.fighters[st.actor].at if st.path else None,
                   carried=carried_of(st)))
    enc.note(st, enc.stack[-1], "declared")


def resolve_part(enc, st):
    """The top frame's current part resolves; the whole frame when it was the
    last. The window of that part opens (T-WINDOW)."""
    top = enc.stack[-1]
    top.done += 1
    top.phase = RESOLVED
    top.window_part = top.done
    top.interrupted = False
    where = {}
    if top.path and top.done <= len(top.path):      # an attack after the path moves nobody
        enc.fighters[top.owner].at = top.path[top.done - 1]
        where = {"square": top.path[top.done - 1]}
    if top.done >= top.parts:
        top.outcome = RESOLVED
        enc.note(st, top, RESOLVED, **where)
    else:
        enc.note(st, top, f"part {top.done}/{top.parts}", **where)


def next_part(enc, st):
    """The top frame goes on with its next part, pending again."""
    enc.stack[-1].phase = PENDING


def close_part_window(enc, st):
    """T-PARTS: as the next part begins, the window of the part before closes."""
    top = enc.stack[-1]
    if top.window_part:
        top.window_part = 0
        top.closed_by = (st.index, f"when {top.id} went on with part {top.done + 1}")


def void(enc, st, outcome):
    """The top frame comes to nothing (lost, disrupted); its cost stays spent
    and the part that was in play stays answerable (T-WINDOW)."""
    top = enc.stack[-1]
    top.outcome = outcome
    top.phase = RESOLVED
    top.window_part = top.done
    enc.note(st, top, outcome)


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
    if st.kind in enc.ruleset.stack_moves and below is not None:
        return f"when {below.id} ({below.owner}'s {below.kind}) went on"
    if st.responding:
        return f"when {st.actor} answered {st.to or 'an earlier trigger'}"
    if st.actor:
        return f"when {st.actor} went on with {with_article(st.kind)}"
    return f"when play went on (a {st.kind} step)"


def close_window(enc, frame, st, words) -> None:
    """Close ``frame``'s window, remembering which step closed it and how."""
    if frame.closed:
        return
    frame.closed = True
    frame.kept = False
    frame.closed_by = (st.index, words)
    if frame.id in enc.past:
        enc.forget_uses(frame.id)


def note_use(enc, st):
    """Remember which kind of answer this creature gave on this occurrence of
    the trigger (each part of an action is an occurrence of its own), and on
    which of its labels."""
    key = (st.target.id, st.target.occurrence, st.actor)
    enc.uses[key] = enc.uses.get(key, ()) + ((st.kind, st.on),)


def close_turn(enc, st):
    """The turn's owner ends its turn: the turn-end moment opens."""
    enc.push(Frame(moment_id(TURN_END, enc.turn_serial), enc.active, TURN_END,
                   turn=enc.turn_serial, phase=RESOLVED, step=st.index))
    enc.note(st, enc.stack[-1], "turn ends")


def open_next_turn(enc, st):
    """The next combatant in initiative order starts its turn; every window
    still open closes (T-NEXT-TURN)."""
    words = f"when {next_in_order(enc)}'s turn started"
    leave_ended_turn(enc, st, words)
    start_next_turn(enc, st, words)


def leave_ended_turn(enc, st, words) -> None:
    """The turn-end moment leaves the stack, its window closed (``words``: when)."""
    moment = enc.pop()
    close_window(enc, moment, st, words)
    enc.remember_past(moment)


def close_kept_windows(enc, st, words) -> None:
    """Every window still open off the stack closes (``words``: when)."""
    for fid in list(enc.kept):
        close_window(enc, enc.kept.pop(fid), st, words)


def start_next_turn(enc, st, words) -> None:
    """Every window still open closes (``words``: when); the next combatant in
    initiative order starts its turn, its turn-start moment on the stack."""
    close_kept_windows(enc, st, words)
    enc.advance()
    enc.push(Frame(moment_id(TURN_START, enc.turn_serial), enc.active, TURN_START,
                   turn=enc.turn_serial, phase=RESOLVED, step=st.index))
    enc.note(st, enc.stack[-1], "turn starts")
