"""One encounter shared by two threads: a writer stepping through turns and a
reader asking what would happen (try_step, possible). Each call runs whole,
one after the other: the writer's verdicts and final state are those of the
same steps played alone, every answer the reader got is one the encounter
gave at some point of the writer's run, and nothing raises."""

import sys
import threading

import pytest

from fsm import Encounter

COMBATANTS = [("orc", "monsters"), ("ayla", "heroes")]
TURN = [{"actor": "orc", "do": "standard"}, {"actor": "ayla", "do": "interrupt"},
        {"do": "resolve"}, {"do": "resolve"}, {"actor": "orc", "do": "end-turn"},
        {"actor": "ayla", "do": "standard"}, {"do": "resolve"}, {"actor": "ayla", "do": "end-turn"}]
STEPS = [TURN[i % len(TURN)] for i in range(400)]
PROBE = {"actor": "ayla", "do": "reaction"}


def _answer(verdict):
    return verdict.verdict, verdict.reason


def _alone():
    """The writer's verdicts and final state when nobody else calls in, and
    every answer the probe gets at each point of the run."""
    enc = Encounter("dnd4e", COMBATANTS)
    verdicts, probes = [], {_answer(enc.try_step(PROBE))}
    for step in STEPS:
        verdicts.append(_answer(enc.step(step)))
        probes.add(_answer(enc.try_step(PROBE)))
    return verdicts, enc.fingerprint(), enc.steps_seen, probes


@pytest.fixture
def switching_often():
    """Let the threads switch as often as the interpreter can, so that calls
    overlap (a step is dozens of bytecodes long)."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(before)


@pytest.mark.parametrize("ask", ["try_step", "possible"])
def test_one_encounter_used_from_two_threads_stays_whole(ask, switching_often):
    verdicts, final, seen, probes = _alone()
    enc = Encounter("dnd4e", COMBATANTS)
    writer_done = threading.Event()
    calls = threading.Semaphore(0)         # released once per call the reader finished
    errors, got, answered = [], [], []

    def writer():
        try:
            for i, step in enumerate(STEPS):
                if i % 50 == 0:
                    calls.acquire()        # the reader has finished one more call
                got.append(_answer(enc.step(step)))
        except Exception as exc:           # noqa: BLE001  (what the test looks for)
            errors.append(("writer", repr(exc)))
        finally:
            writer_done.set()

    def reader():
        try:
            while not writer_done.is_set():
                if ask == "try_step":
                    answered.append(_answer(enc.try_step(PROBE)))
                else:
                    now = enc.possible()
                    answered.append(_answer(now["ayla"]["reaction"]))
                calls.release()
        except Exception as exc:           # noqa: BLE001
            errors.append(("reader", repr(exc)))
        finally:
            for _ in STEPS:                # never leave the writer waiting
                calls.release()

    threads = [threading.Thread(target=writer), threading.Thread(target=reader)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert got == verdicts
    assert enc.fingerprint() == final and enc.steps_seen == seen
    assert len(answered) >= len(STEPS) // 50
    assert set(answered) <= probes
