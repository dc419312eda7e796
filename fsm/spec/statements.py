"""spec/statements.json, written and checked: generated from spec/rules.yaml
by ``fsm spec map``, reported stale or missing by ``fsm spec check``. It is
read by :mod:`fsm.io.statements`."""

from __future__ import annotations

import json

from ..io.statements import NAME, from_rules, read  # noqa: F401  (read: re-exported)


def render(spec) -> str:
    doc = {"generated": "by fsm spec map from spec/rules.yaml; do not edit by hand",
           "statements": from_rules(spec.rules)}
    return json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def problems(spec) -> list:
    """A stale or missing spec/statements.json, as check problems."""
    path = spec.root / "spec" / NAME
    if not path.exists():
        return [f"{path}: missing (run fsm spec map)"]
    if path.read_text(encoding="utf-8") != render(spec):
        return [f"{path}: stale, a rule's statement changed (run fsm spec map)"]
    return []
