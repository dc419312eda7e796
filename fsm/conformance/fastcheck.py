"""A JSON Schema compiled once into plain Python checks, for the keywords
``spec/result.schema.json`` uses: it says whether a message is valid, quickly.
Only a message it refuses goes to ``jsonschema``, for the words of the
refusal (:func:`fsm.conformance.vectors.invalid`); a test holds the two to the
same answers. A keyword it does not know makes :func:`compile_schema` raise
:class:`Unsupported`, and the caller keeps to ``jsonschema`` alone.
"""

from __future__ import annotations

from numbers import Number

from ..errors import FsmError

IGNORED = frozenset({"$schema", "$id", "title", "description", "$comment", "$defs"})


class Unsupported(FsmError):
    """The schema uses a keyword this module does not compile."""


def _is_type(name, value) -> bool:
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if isinstance(value, bool) or not isinstance(value, Number):
        return False
    if name == "number":
        return True
    if name == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    raise Unsupported(f"type {name!r}")


def _equal(a, b) -> bool:
    """JSON equality: 1 == 1.0, but True is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return a == b


def compile_schema(schema, defs: dict):
    """A function ``obj -> bool``: whether ``obj`` is valid against ``schema``."""
    cache: dict = {}
    return _compile(schema, defs, cache)


def _compile(schema, defs, cache):
    if schema is True:
        return lambda obj: True
    if schema is False:
        return lambda obj: False
    checks = []
    for key, value in schema.items():
        if key in IGNORED:
            continue
        make = _KEYWORDS.get(key)
        if make is None:
            raise Unsupported(key)
        checks.append(make(value, schema, defs, cache))
    return lambda obj: all(check(obj) for check in checks)


def _ref(value, schema, defs, cache):
    prefix = "#/$defs/"
    if not value.startswith(prefix) or value[len(prefix):] not in defs:
        raise Unsupported(f"$ref {value}")
    name = value[len(prefix):]
    if name not in cache:
        cache[name] = None                        # recursion: filled in below
        cache[name] = _compile(defs[name], defs, cache)
    return lambda obj: cache[name](obj)


def _type(value, schema, defs, cache):
    names = value if isinstance(value, list) else [value]
    for name in names:
        _is_type(name, 0)                         # an unknown type name raises now
    return lambda obj: any(_is_type(n, obj) for n in names)


def _properties(value, schema, defs, cache):
    subs = {k: _compile(v, defs, cache) for k, v in value.items()}
    return lambda obj: not isinstance(obj, dict) or all(
        subs[k](obj[k]) for k in subs if k in obj)


def _additional(value, schema, defs, cache):
    known = set(schema.get("properties", {}))
    if "patternProperties" in schema:
        raise Unsupported("patternProperties")
    sub = _compile(value, defs, cache)
    return lambda obj: not isinstance(obj, dict) or all(
        sub(v) for k, v in obj.items() if k not in known)


def _items(value, schema, defs, cache):
    sub = _compile(value, defs, cache)
    return lambda obj: not isinstance(obj, list) or all(sub(v) for v in obj)


def _required(value, schema, defs, cache):
    return lambda obj: not isinstance(obj, dict) or all(k in obj for k in value)


def _const(value, schema, defs, cache):
    return lambda obj: _equal(obj, value)


def _enum(value, schema, defs, cache):
    return lambda obj: any(_equal(obj, v) for v in value)


def _max_length(value, schema, defs, cache):
    return lambda obj: not isinstance(obj, str) or len(obj) <= value


def _min_items(value, schema, defs, cache):
    return lambda obj: not isinstance(obj, list) or len(obj) >= value


def _max_items(value, schema, defs, cache):
    return lambda obj: not isinstance(obj, list) or len(obj) <= value


def _any_of(value, schema, defs, cache):
    subs = [_compile(v, defs, cache) for v in value]
    return lambda obj: any(s(obj) for s in subs)


def _one_of(value, schema, defs, cache):
    subs = [_compile(v, defs, cache) for v in value]
    return lambda obj: sum(1 for s in subs if s(obj)) == 1


_KEYWORDS = {"$ref": _ref, "type": _type, "properties": _properties,
             "additionalProperties": _additional, "items": _items, "required": _required,
             "const": _const, "enum": _enum, "maxLength": _max_length,
             "minItems": _min_items, "maxItems": _max_items, "anyOf": _any_of,
             "oneOf": _one_of}
