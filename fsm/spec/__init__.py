"""The spec map: every sentence of the texts, traced to rules, transitions,
guards, tests and vectors, and checked.

:mod:`.model` (the files loaded as one :class:`Spec`, the table's links,
the user's copies of the texts), :mod:`.check` (``fsm spec check``),
:mod:`.render` (MAP.md, the JSON, ``fsm spec show``), :mod:`.timing`
(spec/TIMING.md's clauses checked against the table, PRECEDENCE.md).
"""

from ..errors import SpecError
from ..paths import DATA_NAME, default_root, installed_roots
from .check import check
from .model import (HEX64, ID_RE, KINDS, RULE_KINDS, Spec, collect_cases, collect_tests,
                    coverage, find_sources, load, table_links)
from .render import render_map, sentence_json, show

__all__ = [
    "DATA_NAME", "HEX64", "ID_RE", "KINDS", "RULE_KINDS", "Spec", "SpecError", "check",
    "collect_cases", "collect_tests", "coverage", "default_root", "find_sources",
    "installed_roots", "load", "render_map", "sentence_json", "show", "table_links",
]
