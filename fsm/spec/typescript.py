"""spec/protocol.d.ts, generated: TypeScript declarations of the conformance
protocol's messages (spec/PROTOCOL.md) and of the step format, for engines
written in TypeScript or in JavaScript checked through JSDoc.

They are translated from spec/vector.schema.json (the document, its steps
and expectations) and spec/result.schema.json (what an engine says: its
hello, its results), plus the two messages no schema describes, the runner's
hello and its vector line. ``fsm spec map`` writes the file after the schema,
and ``fsm spec check`` reports it stale. The translation knows the keywords
these two schemas use; any other is refused with one line (a
:class:`SpecError`), never guessed at.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..errors import SpecError

NAME = "protocol.d.ts"
SOURCES = ("vector.schema.json", "result.schema.json")

# Keywords that narrow a value without changing its TypeScript shape: they
# are said in the doc comment, or left to the schema.
_NARROWING = {"pattern", "minLength", "maxLength", "minimum", "maximum", "minItems",
              "maxItems", "uniqueItems", "not", "propertyNames"}
_ANNOTATIONS = {"$schema", "$id", "title", "description", "$defs"}
_SHAPING = {"type", "const", "enum", "properties", "required", "additionalProperties",
            "items", "$ref", "anyOf", "oneOf"}
_SCALARS = {"string": "string", "integer": "number", "number": "number",
            "boolean": "boolean", "null": "null"}
_IDENT = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")

# The runner's two messages (PROTOCOL.md, 1 and 2): no schema holds them.
_RUNNER = '''\
/** What the runner sends first (PROTOCOL.md, 1. Handshake). */
export interface HelloRequest {
  type: "hello";
  protocol: 1;
  format: 1;
}

/** One vector, its expectations removed (PROTOCOL.md, 2. Vectors). */
export interface VectorMessage {
  type: "vector";
  vector: Vector;
}

/** Any line the runner sends. */
export type Message = HelloRequest | VectorMessage;

/** Any line an engine sends. */
export type Reply = Hello | Result;
'''


def _type_name(key: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[-_]", key))


class _Writer:
    """Turns one schema file into declarations; ``where`` names the file in errors."""

    def __init__(self, where: str):
        self.where = where

    def fail(self, pointer: str, what: str):
        raise SpecError(f"{self.where}: {pointer or '#'}: {what}")

    def ref(self, target: str, pointer: str) -> str:
        match = re.fullmatch(r"#/\$defs/([A-Za-z0-9_-]+)", target)
        if not match:
            self.fail(pointer, f"$ref {target!r} is not a #/$defs/NAME reference")
        return _type_name(match.group(1))

    def type_of(self, schema, pointer: str, indent: str = "", required=()) -> str:
        """The TypeScript type of ``schema``."""
        if schema is True or schema == {}:
            return "unknown"
        if not isinstance(schema, dict):
            self.fail(pointer, "a schema is an object")
        unknown = set(schema) - _NARROWING - _ANNOTATIONS - _SHAPING - {"allOf", "if", "then"}
        if unknown:
            self.fail(pointer, f"keyword {sorted(unknown)[0]!r} has no TypeScript form here")
        for word in ("allOf", "if", "then"):
            if word in schema:
                self.fail(pointer, f"{word} has no TypeScript form here (only the vector "
                                   f"schema's own allOf, per ruleset)")
        if "$ref" in schema:
            return self.ref(schema["$ref"], pointer)
        if "const" in schema:
            return json.dumps(schema["const"])
        if "enum" in schema:
            return " | ".join(json.dumps(v) for v in schema["enum"])
        for word in ("anyOf", "oneOf"):
            if word in schema:
                return self.union(schema, word, pointer, indent, required)
        types = schema.get("type", "object" if "properties" in schema else None)
        if types is None:
            return "unknown"
        names = types if isinstance(types, list) else [types]
        return " | ".join(self.one_type(schema, t, pointer, indent, required) for t in names)

    def union(self, schema, word, pointer, indent, required) -> str:
        """anyOf/oneOf: each branch; an object branch takes the parent's `required`."""
        inherited = tuple(required) + tuple(schema.get("required", ()))
        parts = []
        for i, branch in enumerate(schema[word]):
            if isinstance(branch, dict) and "properties" in branch and "type" not in branch:
                branch = {"type": "object", **branch}
            parts.append(self.type_of(branch, f"{pointer}/{word}/{i}", indent + "    ",
                                      inherited))
        if sum(map(len, parts)) <= 60 and not any("\n" in p for p in parts):
            return " | ".join(parts)
        return "".join(f"\n{indent}  | {p}" for p in parts)

    def one_type(self, schema, name, pointer, indent, required) -> str:
        if name in _SCALARS:
            return _SCALARS[name]
        if name == "array":
            items = schema.get("items", {})
            item = self.type_of(items, f"{pointer}/items", indent)
            count = schema.get("minItems")
            if count is not None and count == schema.get("maxItems") and count <= 4:
                return "[" + ", ".join([item] * count) + "]"
            return f"Array<{item}>"
        if name == "object":
            return self.object_type(schema, pointer, indent, required)
        self.fail(pointer, f"type {name!r} is not a JSON Schema type")

    def object_type(self, schema, pointer, indent, required=()) -> str:
        props = schema.get("properties", {})
        must = set(schema.get("required", ())) | set(required)
        extra = schema.get("additionalProperties")
        inner = indent + "  "
        lines = []
        for key, sub in props.items():
            doc = _doc(sub, inner)
            name = key if _IDENT.match(key) else json.dumps(key)
            optional = "" if key in must else "?"
            lines.append(f"{doc}{inner}{name}{optional}: "
                         f"{self.type_of(sub, f'{pointer}/properties/{key}', inner)};\n")
        if isinstance(extra, dict):
            lines.append(f"{inner}[key: string]: "
                         f"{self.type_of(extra, f'{pointer}/additionalProperties', inner)};\n")
        if not lines:
            return "Record<string, unknown>" if extra is not False else "Record<string, never>"
        return "{\n" + "".join(lines) + indent + "}"

    def declaration(self, name: str, schema, pointer: str) -> str:
        body = self.type_of(schema, pointer)
        doc = _doc(schema, "")
        if body.startswith("{"):
            return f"{doc}export interface {name} {body}\n"
        space = "" if body.startswith("\n") else " "
        return f"{doc}export type {name} ={space}{body};\n"


def _doc(schema, indent: str) -> str:
    """A doc comment: the description (or title) and the narrowing keywords."""
    if not isinstance(schema, dict):
        return ""
    words = [schema[k].strip().rstrip(".") + "." for k in ("title", "description")
             if isinstance(schema.get(k), str) and schema[k].strip()]
    limits = [f"{k} {json.dumps(schema[k])}" for k in
              ("pattern", "minLength", "maxLength", "minimum", "maximum", "minItems",
               "maxItems") if k in schema]
    if schema.get("uniqueItems"):
        limits.append("items unique")
    if limits:
        words.append("Schema: " + ", ".join(limits) + ".")
    if not words:
        return ""
    text = " ".join(" ".join(words).split()).replace("*/", "* /")
    return f"{indent}/** {text} */\n"


def _per_ruleset(writer: _Writer, schema: dict) -> str:
    """The vector schema's allOf holds each ruleset to its own step kinds, step
    fields, options and combatant fields: they become the interface Rulesets."""
    entries = []
    for i, part in enumerate(schema.get("allOf", ())):
        here = f"#/allOf/{i}"
        try:
            name = part["if"]["properties"]["ruleset"]["const"]
            then = part["then"]["properties"]
            step = then["steps"]["items"]["anyOf"][-1]
            found = {"kinds": step["properties"]["do"]["enum"],
                     "fields": step["propertyNames"]["enum"],
                     "options": then["options"]["propertyNames"]["enum"],
                     "combatantFields": then["combatants"]["items"]["propertyNames"]["enum"]}
        except (KeyError, IndexError, TypeError):
            writer.fail(here, "not a ruleset's if/then (ruleset const; steps, options and "
                              "combatants named by enum)")
        body = "".join(f"    {key}: {' | '.join(json.dumps(v) for v in values) or 'never'};\n"
                       for key, values in found.items())
        entries.append(f"  {json.dumps(name) if not _IDENT.match(name) else name}: {{\n"
                       f"{body}  }};\n")
    return ("/** Per ruleset: its step kinds (`do`) and step fields, the names a hello's\n"
            " * `steps` and `fields` lists take (PROTOCOL.md, 1), its options and its\n"
            " * combatants' fields. */\n"
            "export interface Rulesets {\n" + "".join(entries) + "}\n")


def _load(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SpecError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SpecError(f"{path}: not JSON ({exc})") from None


def render(root) -> str:
    """The text of spec/protocol.d.ts, from the two schema files under ``root``."""
    spec = Path(root) / "spec"
    vector_path, result_path = (spec / name for name in SOURCES)
    vector, result = _load(vector_path), _load(result_path)
    blocks = ["// Generated by `fsm spec map` from spec/vector.schema.json and\n"
              "// spec/result.schema.json; do not edit by hand (`fsm spec check` reports it\n"
              "// stale). The messages of the conformance protocol (spec/PROTOCOL.md) and the\n"
              "// step format (spec/FORMAT.md). From JavaScript, with JSDoc:\n"
              '//   /** @typedef {import("./spec/protocol").Hello} Hello */\n',
              _RUNNER]
    for path, doc, root_name in ((vector_path, vector, "Vector"), (result_path, result, None)):
        writer = _Writer(f"spec/{path.name}")
        if not isinstance(doc, dict):
            writer.fail("#", "a schema is an object")
        blocks.append(f"// -- from spec/{path.name} --\n")
        if root_name:
            blocks.append(writer.declaration(root_name, {k: v for k, v in doc.items()
                                                         if k not in ("allOf", "$defs")}, "#"))
            blocks.append(_per_ruleset(writer, doc))
        else:
            blocks.append(_doc(doc, ""))
        defs = doc.get("$defs", {})
        if not isinstance(defs, dict):
            writer.fail("#/$defs", "$defs is an object")
        blocks += [writer.declaration(_type_name(key), sub, f"#/$defs/{key}")
                   for key, sub in defs.items()]
    return "\n".join(b for b in blocks if b)


def problems(root) -> list:
    """A stale, missing or ungeneratable spec/protocol.d.ts, as check problems."""
    path = Path(root) / "spec" / NAME
    try:
        fresh = render(root)
    except SpecError as exc:
        return [str(exc)]
    if not path.exists():
        return [f"{path}: missing (run fsm spec map)"]
    if path.read_text(encoding="utf-8") != fresh:
        return [f"{path}: stale, a schema changed (run fsm spec map)"]
    return []
