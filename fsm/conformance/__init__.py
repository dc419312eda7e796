"""The conformance suite and what certifies it.

:mod:`.vectors` (collecting vectors, judging an answer, reports),
:mod:`.reference` (the reference machine's answers, the in-process runner,
``fsm serve``), :mod:`.engine` (an engine under test as a subprocess),
:mod:`.compat` (the compatibility report by rule id), :mod:`.covering`
(vectors generated from the reachable graph), :mod:`.fuzz` (random
timelines against an engine), :mod:`.mutation` and :mod:`.mistakes` (the
mutants the suite must kill).
"""

from ..errors import EngineError
from .engine import MAX_LINE, Engine, run_program
from .reference import reference_hello, reference_result, run_in_process, serve
from .vectors import (ENGINE_FACTS, FAIL, FEATURES, FORMAT, PASS, PROTOCOL, REFERENCE_FACTS,
                      SCENE, SKIP, Outcome, collect, default_paths, default_vectors, invalid,
                      judge, junit, public_vector, summary, unsupported, uses_scene)

__all__ = [
    "ENGINE_FACTS", "FAIL", "FEATURES", "FORMAT", "MAX_LINE", "PASS", "PROTOCOL", "REFERENCE_FACTS",
    "SCENE", "SKIP", "Engine", "EngineError", "Outcome", "collect", "default_paths",
    "default_vectors", "invalid", "judge", "junit", "public_vector", "reference_hello",
    "reference_result", "run_in_process", "run_program", "serve", "summary", "unsupported",
    "uses_scene",
]
