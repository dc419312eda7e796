"""spec/statements.json, read: each rule's statement on one line, by rule
id. ``fsm spec map`` writes it from spec/rules.yaml and ``fsm spec check``
holds it fresh (:mod:`fsm.spec.statements`); a verdict's citations read it
(:class:`fsm.report.Citations`): JSON a check parses in a millisecond, where
rules.yaml would cost PyYAML's import and parse. Nothing here imports YAML."""

from __future__ import annotations

import json
import os

NAME = "statements.json"


def one_line(text) -> str:
    return " ".join(str(text or "").split())


def from_rules(rules) -> dict:
    """Rule id -> statement on one line, from rules.yaml's entries."""
    return {r.get("id"): one_line(r.get("statement")) for r in rules or ()
            if isinstance(r, dict)}


def read(root) -> dict | None:
    """The statements of the spec under ``root`` (None when the file is
    missing or is not one fsm writes)."""
    try:
        with open(os.path.join(root, "spec", NAME), encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        return None
    statements = doc.get("statements") if isinstance(doc, dict) else None
    return statements if isinstance(statements, dict) else None
