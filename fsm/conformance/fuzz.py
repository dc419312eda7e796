"""Differential fuzzing: random timelines, the engine's verdicts against the
reference's, step by step, and the shortest disagreement as a vector.

A timeline is decoded from a list of integers that Hypothesis draws: each
integer picks one step among those the explorer's alphabet offers in the
reference's current situation (every turn action of every combatant, every
answer to every trigger on or off the stack, resolve, continue, lose or
disrupt, an event, the end of the turn), each kind of step as likely as
another, mostly among the steps the reference allows, sometimes among those
it refuses, out of order included. Now and then the turn is brought to its
end, and when a turn begins the last answers spent are tried again: every
budget meets the moments it should, or should not, come back at. A step
like one taken before may also be one of another kind with one of its
fields (a budget two kinds share), and once someone was moved (forced
movement), the answers the reference refuses are tried: whether it provoked
shows.
Because the decoding runs on the reference, a shorter or smaller list still
decodes to a valid timeline, and Hypothesis's shrinking finds the shortest
one the engine gets wrong. It is written as a vector with every expectation
the reference gives, which ``fsm check`` replays and ``fsm conformance`` runs.

The timelines cover the whole step language, not only the explorer's: 2 to 5
combatants, with positions (a scene: paths, shifts, attack kinds and targets)
when the engine's hello lists the ``scene`` feature, and each step may be
dressed (see :func:`dress`) with an explicit or colliding ``id``, a
``ruling``, an ``actor`` on a stack move or an event, ``parts`` or
``attacks``, what a ``ready`` readies, or made unreadable, which ends the
timeline with an error expected. :class:`Language` counts what a run touched.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from dataclasses import dataclass

from ..errors import ERROR_CODES, StepError
from .engine import Engine
from .dressing import BREAKS, alike, dress, forced, refused_answers, turn_probes
from .hello import beyond_support
from .probe import Probe
from .vectors import SCENE, unsupported
from ..engine import Encounter
from ..engine.frames import field_kind
from ..engine.rows import CONTINUE, END_TURN, EVENT, RESOLVE
from ..explore import Alphabet, Config, combatants_for
from ..io.scenario import FORMAT
from ..rulesets import RULESETS

MAX_STEPS = 40
ALLOWED_SHARE = 4      # one choice in ALLOWED_SHARE asks for a refused step
MOVING_ON = (END_TURN, RESOLVE, CONTINUE)
TURN_SHARE = 5         # of TURN_SHARE choices, one brings the turn to its end (over the steps
                       # it takes: what is pending resolved first),
                       # one for a step like one taken before (its actor and kind again,
                       # or, half the time, one of the last few's actor and a field on
                       # another kind: a budget two kinds share, such as 5e's spell slot)
DRESS_SHARE = 3        # one step in DRESS_SHARE is dressed with fields the alphabet never sets
ERROR_SHARE = 40       # one step in ERROR_SHARE is made unreadable (and ends the timeline)
TRIES = 12             # candidates judged, at most, in the search for a step of the kind wanted
PROBES = 2             # when the turn moves on, steps like those last taken (turn_probes) are
                       # tried at once, one a choice, whatever the verdict (those not offered
                       # lapse): a budget back too soon, or a readied action firing again, shows


@dataclass
class Disagreement:
    vector: dict
    problems: list
    examples: int


def _options(ruleset: str, hello: dict, picks) -> dict:
    """Options for a timeline: each left at its default most of the time, else
    a value the engine says it supports."""
    supported = ((hello.get("rulesets") or {}).get(ruleset) or {}).get("options") or {}
    out = {}
    for opt in RULESETS[ruleset].options:
        pick = next(picks)
        if pick % 3 == 0 or opt.name not in supported:
            continue
        accepted = supported[opt.name]
        values = list(accepted) if isinstance(accepted, list) else [None, 0, 1, 2]
        values = [v for v in values if v != opt.default] or values
        out[opt.name] = values[(pick - 1) // 3 % len(values)]
    return out


def head_length() -> int:
    """How many choices a timeline's set-up may read before its steps (the
    ruleset, the combatants, the scene, the conditions, the length and the seed
    of the steps beyond those drawn, each option)."""
    return HEAD + max(len(r.options) for r in RULESETS.values())


HEAD = 6               # the ruleset, the combatants, the scene, the conditions, the length
                       # and the seed of the steps beyond those drawn


def _conditions(rs, combatants: list, choice: int) -> list:
    """A third of the time, one combatant with one of the ruleset's own
    combatant fields set (a condition true, a count), as a vector may."""
    pick = random.Random(choice)
    fields = sorted(rs.fighter.FIELDS.items()) if rs.fighter is not None else []
    if not fields or pick.randrange(3):
        return combatants
    name, kind = pick.choice(fields)
    value = True if kind is bool else pick.choice(kind) if field_kind(kind) == "choice" \
        else pick.randint(kind[0], min(kind[1], 60))
    who = pick.randrange(len(combatants))
    return [dict(c, **{name: value}) if i == who else c for i, c in enumerate(combatants)]


def decode(choices: list[int], hello: dict, language: "Language | None" = None) -> dict:
    """The timeline (a vector with every expectation) that ``choices`` stand for."""
    rulesets = [r for r in RULESETS if not unsupported({"ruleset": r}, hello)]
    ruleset = rulesets[choices[0] % len(rulesets)] if choices else rulesets[0]
    rs = RULESETS[ruleset]
    setup = HEAD + len(rs.options)
    head = choices[1:setup] + [0] * setup
    options = _options(ruleset, hello, iter(head[HEAD - 1:]))
    # the steps drawn, then as many more as the length asks, from their own
    # seed (drawn lists stay short; a shrunk length keeps the first of them)
    drawn = choices[setup:][:MAX_STEPS]
    more = random.Random(head[4])
    drawn += [more.randrange(10_001) for _ in range(head[3] % (MAX_STEPS + 1) - len(drawn))]
    scene = SCENE in (hello.get("features") or ()) and head[1] % 3 == 0 \
        and rs.explore.grid_moves is not None
    combatants = combatants_for(Config(ruleset, combatants=2 + head[0] % 4, grid=scene))
    combatants = _conditions(rs, combatants, head[2])
    enc = Encounter(ruleset, combatants, options=options)
    enc.wording = False         # the expectations are verdicts, reasons and facts
    # the search for a step of the kind wanted tries many: the lean walker
    # answers those, the machine judges the step taken (its expectations)
    probe = Encounter(ruleset, combatants, options=options, dispatcher="lean")
    probe.wording = False       # only its verdicts are read
    ids = [c["id"] for c in combatants]
    entry = (hello.get("rulesets") or {}).get(ruleset) or {}

    def modelled(data) -> bool:
        """Whether the engine's hello declares the step's kind and fields."""
        return beyond_support({"steps": [data]}, entry) is None

    kinds = {k for k in rs.table.kinds if modelled({"do": k})}    # the kinds it models
    alphabet = Alphabet(ruleset, ids, grid=scene, kinds=kinds, turn_changes=True)
    steps, taken = [], []         # taken: (actor, kind, fields) of each step that happened
    probes: list = []             # (actor, kind) to try again, the turn having moved on
    ending = False                # the turn is being brought to its end

    def record(data, verdict):
        if language is not None:
            language.saw(data, verdict.verdict, ruleset)
        expect = {"verdict": verdict.verdict, "reason": verdict.reason, **enc.facts()}
        steps.append(dict(data, expect=expect))

    for choice in drawn:
        moves = alphabet.moves(enc)
        if not moves:
            break
        want_refused = choice % ALLOWED_SHARE == 0
        # each kind of step offered as likely as another (answers are many, a Ready one),
        # then one of its moves
        kinds_here = sorted({m.do for m in moves})
        pick_kind = kinds_here[(choice // ALLOWED_SHARE) % len(kinds_here)]
        of_kind = [i for i, m in enumerate(moves) if m.do == pick_kind]
        start = of_kind[(choice // ALLOWED_SHARE // len(kinds_here)) % len(of_kind)]
        # tried a stride apart: the moves of one kind or one actor sit together
        stride = next(n for n in (7, 5, 3, 1) if math.gcd(n, len(moves)) == 1)
        order = [(start + k * stride) % len(moves) for k in range(min(len(moves), TRIES))]
        at = of_kind.index(start)
        order = (of_kind[at:] + of_kind[:at])[:TRIES] + order    # that kind by anyone first
        ending = ending or choice % TURN_SHARE == 1
        if ending:      # so that timelines reach later turns and rounds: from now until
            # the turn ends, the end of the turn, or while something is pending, its resolution
            order = [i for i, m in enumerate(moves) if m.do in MOVING_ON] + order
            want_refused = False
        again = False
        wanted = None
        here = {(m.actor, m.do) for m in moves} if probes else ()
        offered = [w for w in probes if w in here]
        probes = offered[1:]              # the first offered now; those not offered lapse
        if offered:
            wanted = offered[0]
        if wanted is None and choice % TURN_SHARE == 2 and taken:
            wanted = taken[(choice // TURN_SHARE) % len(taken)][:2]
            fielded = [t for t in taken[-3:] if t[2]]
            if fielded and choice // TURN_SHARE % 2:     # a budget another kind shares
                wanted = fielded[choice // TURN_SHARE // 2 % len(fielded)]
        if wanted is not None:
            # the same combatant tries the same kind of step again, whatever the
            # verdict: whether a budget spent before has come back shows (answers
            # to the frame on top first: the alphabet lists the stack bottom up)
            same = [i for i, m in enumerate(moves) if alike(m, wanted)][::-1]
            order, again = same[:TRIES] + order, bool(same)
        pick = random.Random(choice)
        broken = pick.randrange(ERROR_SHARE) == 0
        dressing = not broken and pick.randrange(DRESS_SHARE) == 0

        def suits(verdict, plain: bool) -> bool:
            # the probe keeps the step it judged when it is the one taken, as it is
            # (not broken or dressed; an event on a grid may yet be given a forced path)
            return plain and (again or (verdict.verdict == "rejected") == want_refused)

        data = readable = None
        kept = False
        for i in order:
            candidate = moves[i].render(enc)
            if not modelled(candidate):
                continue
            plain = not broken and not dressing and not (candidate["do"] == EVENT and enc.scene)
            try:
                refused = probe.step_if(candidate, lambda v: suits(v, plain)).verdict \
                    == "rejected"
            except StepError:          # a path onto a square someone stands on, say
                continue
            readable = readable or (candidate, moves[i])
            if again or refused == want_refused:
                data, kept = (candidate, moves[i]), plain
                break
        data = data or readable
        if data is None:
            break
        data, drawn_move = data
        if broken:
            broken_data = BREAKS[pick.randrange(len(BREAKS))](data, ids)
            if modelled(broken_data):
                data = broken_data
        elif dressing:
            dressed = dress(data, enc, pick, ids)
            data = dressed if modelled(dressed) else data
        elif data["do"] == EVENT and enc.scene and pick.randrange(2):
            moved = forced(data, enc, pick, ids)
            data = moved if modelled(moved) else data
        serial = enc.turn_serial
        try:
            verdict = enc.step(data)
            if not kept:
                probe.step(data)
        except StepError as exc:
            steps.append(dict(data, expect={"error": exc.code}))
            if language is not None:
                language.saw(data, "error " + exc.code, ruleset)
            break
        record(data, verdict)
        if verdict.verdict != "rejected" and data.get("actor") is not None:
            taken.append((data["actor"], data["do"], drawn_move.fields))
            if data["do"] == EVENT and "forced" in data:
                # someone was moved: the answers to it that the reference refuses, at
                # once and beside the choices (refused, they change nothing later read)
                for extra in refused_answers(rs, alphabet, enc, probe, data["actor"],
                                              modelled):
                    record(extra, enc.step(extra))
                    probe.step(extra)
        if enc.turn_serial != serial:         # a new turn: what the last actors spent, again
            ending = False
            probes = turn_probes(rs, taken, enc.active, PROBES)
    body = repr([ruleset, options, steps]).encode()        # the same timeline, the same id
    doc = {"format": FORMAT, "id": f"fuzz-{ruleset}-{hashlib.sha256(body).hexdigest()[:10]}",
           "ruleset": ruleset, "description": "Found by fsm conformance --fuzz: the first "
           "step whose answer differs from the reference's.", "rules": [],
           "combatants": combatants, "steps": steps}
    if options:
        doc["options"] = options
    return doc


class Language:
    """What share of the step language a run's timelines touched: step kinds
    (of the rulesets they were in) with each field they were given, each
    verdict (or error) they got."""

    def __init__(self):
        self.rulesets: set = set()
        self.kinds: set = set()
        self.fields: set = set()
        self.verdicts: set = set()
        self.options: set = set()

    def saw(self, data: dict, verdict: str, ruleset: str | None = None) -> None:
        kind = data.get("do")
        if ruleset is not None:
            self.rulesets.add(ruleset)
        self.kinds.add((ruleset, kind))
        self.fields.update((kind, key) for key in data if key != "do")
        self.verdicts.add((kind, verdict))

    def summary(self) -> str:
        kinds = {(r, k) for r in self.rulesets if r in RULESETS
                 for k in RULESETS[r].player_steps}
        errors = {v for _, v in self.verdicts if v.startswith("error")}
        # bad-document is the vector's fault, never a step's; not-an-object never decoded
        codes = set(ERROR_CODES) - {"bad-document", "not-an-object"}
        return (f"{len(self.kinds & kinds)} of {len(kinds)} step kinds of "
                f"{', '.join(sorted(self.rulesets))}, {len(self.fields)} (kind, field) "
                f"pairs, {len(self.verdicts) - len(errors)} (kind, verdict) pairs, "
                f"{len(errors)} of {len(codes)} error codes")


@dataclass
class Stats:
    """Where a fuzzing run's time went, and when it first disagreed: seconds
    deciding timelines on the reference, seconds the engine took to answer
    them (the round trip, judging included), and the number of the first
    timeline the engine got wrong (None if none)."""

    decode_seconds: float = 0.0
    engine_seconds: float = 0.0
    first_found: int | None = None

    @property
    def engine_share(self) -> float:
        whole = self.decode_seconds + self.engine_seconds
        return self.engine_seconds / whole if whole else 0.0


def fuzz(command: str, examples: int, seed: int = 0, timeout: float = 10.0,
         hello: dict | None = None, language: Language | None = None,
         handshake: float | None = None,
         stats: Stats | None = None) -> tuple[Disagreement | None, int]:
    """Drive ``command`` with up to ``examples`` timelines; the shrunk
    disagreement (or None) and how many timelines were run. ``language``,
    when given, counts what the timelines touched; ``stats`` where the time
    went. However it ends, a Ctrl-C included, the engine and every process
    it started are ended."""
    engine = Engine(command, timeout, handshake)
    try:
        return _fuzz(engine, examples, seed, hello, language, stats or Stats())
    finally:
        engine.stop()


def _fuzz(engine, examples, seed, hello, language, stats):
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis import strategies as st
    from hypothesis.errors import NoSuchExample

    hello = hello or engine.start()
    probe = Probe(engine)
    probe.alive = True
    setup = head_length()
    choices = st.lists(st.integers(0, 10_000), min_size=setup + 1, max_size=setup + MAX_STEPS)

    language = language if language is not None else Language()

    def disagrees(drawn) -> bool:
        began = time.perf_counter()
        doc = decode(list(drawn), hello, language)
        decoded = time.perf_counter()
        problems = probe.problems(doc)
        stats.decode_seconds += decoded - began
        stats.engine_seconds += time.perf_counter() - decoded
        if problems:
            probe.last[id(drawn)] = problems
            if stats.first_found is None:
                stats.first_found = probe.runs
        return bool(problems)

    config = settings(max_examples=examples, database=None, deadline=None,
                      suppress_health_check=list(HealthCheck),
                      phases=[Phase.generate, Phase.shrink], report_multiple_bugs=False)
    try:
        found = find(choices, disagrees, settings=config, random=random.Random(seed))
    except NoSuchExample:
        return None, probe.runs
    doc = probe.cut(decode(list(found), hello))
    return Disagreement(doc, probe.problems(doc), probe.runs), probe.runs
