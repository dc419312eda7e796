"""pytest plugin: run the conformance vectors against a Python engine.

Registered as a ``pytest11`` entry point, it does nothing unless asked::

    python -m pytest --fsm-adapter my_engine.fsm_adapter:run

The adapter is ``MODULE:NAME``. NAME is either a callable taking a vector
(expectations removed, as spec/PROTOCOL.md sends it) and returning the
protocol's result object, or an object with such a ``run`` method. An
optional ``hello`` (an attribute of that object or of its module: a dict,
or a callable returning one) declares
the rulesets, options and facts supported, as in the protocol's handshake;
without it, every ruleset and option is assumed supported and every fact
but ``state`` and ``stack`` (the reference machine's own phase and frame
list) is checked, while rule ids and notes are compared only when the hello
says it reports them (``"reports": ["rules", "notes"]``). Each vector becomes one test item,
``fsm-conformance::<vector id>``; unsupported vectors are skipped.
"""

from __future__ import annotations

import importlib

import pytest

from .errors import ConformanceFailure


def pytest_addoption(parser):
    group = parser.getgroup("fsm-conformance", "fsm conformance suite")
    group.addoption("--fsm-adapter", metavar="MODULE:NAME", default=None,
                    help="run the fsm conformance vectors against this engine adapter")
    group.addoption("--fsm-vectors", metavar="PATH", action="append", default=None,
                    help="vector files or folders (default: the suite next to fsm)")


def _load_adapter(spec: str):
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise pytest.UsageError(f"--fsm-adapter wants MODULE:NAME, not {spec!r}")
    try:
        module = importlib.import_module(module_name)
        obj = getattr(module, attr)
    except (ImportError, AttributeError) as exc:
        raise pytest.UsageError(f"--fsm-adapter {spec}: {exc}") from None
    run = getattr(obj, "run", obj)
    if not callable(run):
        raise pytest.UsageError(f"--fsm-adapter {spec}: neither callable nor with a run()")
    hello = getattr(obj, "hello", None)
    if hello is None:
        hello = getattr(module, "hello", None)
    if callable(hello):
        hello = hello()
    return run, hello


class ConformanceItem(pytest.Item):
    def __init__(self, *, path_str, doc, run, hello, **kwargs):
        super().__init__(**kwargs)
        self.path_str = path_str
        self.doc = doc
        self.run_vector = run
        self.hello = hello
        self.add_marker(pytest.mark.fsm_conformance)

    def runtest(self):
        from .conformance import judge, public_vector, unsupported

        why = unsupported(self.doc, self.hello)
        if why:
            pytest.skip(why)
        try:
            result = self.run_vector(public_vector(self.doc))
        except Exception as exc:        # the adapter's own fault: its frames only
            import traceback
            frames = traceback.extract_tb(exc.__traceback__)[1:]
            raise ConformanceFailure(
                [f"the adapter raised {type(exc).__name__}: {exc}",
                 *(f"  {f.filename}:{f.lineno} in {f.name}: {f.line}" for f in frames[-5:])]
            ) from None
        problems = judge(self.doc, result, self.hello.get("facts") or (),
                         reports=self.hello.get("reports") or ())
        if problems:
            raise ConformanceFailure(problems)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ConformanceFailure):
            from .conformance import compat
            problems = excinfo.value.problems
            step = next((int(p.split(":")[0][5:]) for p in problems
                         if p.startswith("step ") and p.split(":")[0][5:].isdigit()), None)
            return "\n".join([f"vector {self.doc['id']} ({self.path_str}):", *problems,
                              *compat.replay_lines(self.path_str, self.doc, step)])
        return super().repr_failure(excinfo, style="short")

    def reportinfo(self):
        return self.path_str, None, f"fsm-conformance::{self.doc['id']}"


def pytest_configure(config):
    config.addinivalue_line("markers", "fsm_conformance: a conformance vector run by fsm")


def pytest_collection_modifyitems(session, config, items):
    spec = config.getoption("fsm_adapter")
    if not spec:
        return
    from .conformance import ENGINE_FACTS, collect, reference_hello
    from .errors import InputError

    run, hello = _load_adapter(spec)
    if hello is None:
        hello = dict(reference_hello(), facts=list(ENGINE_FACTS), reports=[])
    try:
        vectors = collect(config.getoption("fsm_vectors"))
    except InputError as exc:
        raise pytest.UsageError(f"fsm conformance: {exc.render()}") from None
    for path, doc in vectors:
        items.append(ConformanceItem.from_parent(
            session, name=f"fsm-conformance::{doc['id']}", path_str=path, doc=doc,
            run=run, hello=hello))
