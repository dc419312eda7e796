"""YAML for hand-written scenarios, with limits against hostile documents.

The document is composed into nodes first; before anything is constructed,
the expanded size (aliases counted every time they are used) and the depth
are bounded, so an alias bomb or a deeply nested file is refused with one
line instead of eating memory. The limit on values is JSON's
(:data:`fsm.io.jsonsafe.MAX_VALUES`), counted alike, so one scenario is
accepted or refused whatever its syntax. Line and column of every step are
kept for error messages.
"""

from __future__ import annotations

import yaml

from . import jsonsafe

MAX_DEPTH = 64
# what counts as a value: each one composes a node (an alias, once per use)
_VALUE_EVENTS = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent,
                 yaml.AliasEvent)

# The project's own files (spec/*.yaml) are trusted and read on every run of
# fsm check: parse them with libyaml when PyYAML was built with it.
_PROJECT_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def project_yaml(stream):
    """Parse one of the project's own YAML files (text or open file)."""
    return yaml.load(stream, Loader=_PROJECT_LOADER)


def _measure(node, path):
    from ..errors import InputError

    sizes = {}
    stack = [(node, 1, False)]
    while stack:
        current, depth, children_done = stack.pop()
        if depth > MAX_DEPTH:
            raise InputError(path, f"document nested deeper than {MAX_DEPTH} levels",
                             line=current.start_mark.line + 1)
        key = id(current)
        if isinstance(current, yaml.ScalarNode):
            sizes[key] = 1
            continue
        if isinstance(current, yaml.SequenceNode):
            kids = list(current.value)
        else:
            kids = [k for pair in current.value for k in pair]
        if children_done:
            total = 1 + sum(sizes[id(k)] for k in kids)
            if total > jsonsafe.MAX_VALUES:
                raise InputError(path, f"document expands to more than {jsonsafe.MAX_VALUES} "
                                       f"values "
                                       f"(aliases included); refused",
                                 line=current.start_mark.line + 1)
            sizes[key] = total
            continue
        if key in sizes:
            continue
        stack.append((current, depth, True))
        for k in kids:
            if id(k) not in sizes:
                stack.append((k, depth + 1, False))
    return sizes[id(node)]


class TooLarge(yaml.YAMLError):
    """Raised while composing, as soon as the document has too many nodes."""


class _CountingLoader(yaml.SafeLoader):
    """A safe loader that counts nodes as it composes them, and the depth, so
    that a huge or deep document is refused before it is built in memory."""

    def __init__(self, stream):
        super().__init__(stream)
        self._nodes = 0
        self._depth = 0

    def compose_node(self, parent, index):
        self._nodes += 1
        if self._nodes > jsonsafe.MAX_VALUES:
            raise TooLarge(f"of more than {jsonsafe.MAX_VALUES} values")
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise TooLarge(f"nested deeper than {MAX_DEPTH} levels")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def load_yaml(text: str, path, lines: dict | None = None):
    """Parse ``text``; fill ``lines`` with step index -> (line, column) when given."""
    from ..errors import InputError

    if _too_many_values(text):
        raise InputError(path, f"document of more than {jsonsafe.MAX_VALUES} values; refused")
    try:
        node = yaml.compose(text, Loader=_CountingLoader)
    except TooLarge as exc:
        raise InputError(path, f"document {exc}; refused") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise InputError(path, f"invalid YAML: {exc.problem}",
                         line=mark.line + 1 if mark else None,
                         column=mark.column + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise InputError(path, f"invalid YAML: {exc}") from None
    except RecursionError:
        raise InputError(path, f"document nested deeper than {MAX_DEPTH} levels") from None
    if node is None:
        raise InputError(path, "the file is empty")
    _measure(node, path)
    _keys_as_written(node)
    if lines is not None and isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if key.value == "steps" and isinstance(value, yaml.SequenceNode):
                for i, item in enumerate(value.value, 1):
                    lines[i] = (item.start_mark.line + 1, item.start_mark.column + 1)
    try:
        return _construct(node)
    except yaml.YAMLError as exc:
        raise InputError(path, f"invalid YAML: {exc}") from None


def _too_many_values(text: str) -> bool:
    """Whether libyaml's parser (when PyYAML has it) counts more values than
    the limit: a quick refusal of what composing would refuse after seconds.
    Anything else it finds, an error included, is left to the composer."""
    parser = getattr(yaml, "CBaseLoader", None)
    if parser is None:
        return False
    counted, limit = 0, jsonsafe.MAX_VALUES
    events = parser(text)
    try:
        while True:
            event = events.get_event()
            if event is None or isinstance(event, yaml.StreamEndEvent):
                return False
            if isinstance(event, _VALUE_EVENTS):
                counted += 1
                if counted > limit:
                    return True
    except yaml.YAMLError:
        return False
    finally:
        events.dispose()


_BOOL = "tag:yaml.org,2002:bool"
_STR = "tag:yaml.org,2002:str"


def _keys_as_written(root) -> None:
    """A mapping key written ``on``, ``off``, ``yes`` or ``no`` is that word, not
    a boolean (YAML 1.1 reads ``on:`` as ``true:``): a step's ``on`` field, say.
    Values keep YAML's reading (``shift: true``)."""
    todo = [root]
    while todo:
        node = todo.pop()
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.tag == _BOOL and key.style is None \
                        and key.value.lower() not in ("true", "false"):
                    key.tag = _STR
                todo.append(value)
        elif isinstance(node, yaml.SequenceNode):
            todo.extend(node.value)


def _construct(node):
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_document(node)
    finally:
        loader.dispose()
