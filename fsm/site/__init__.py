"""``fsm site``: the rules, the machine and the worked examples as a static
web site (:mod:`.build`), with a step-through per scenario
(:mod:`.stepthrough`); :mod:`.html` holds the page frame, style and script."""

from .build import build

__all__ = ["build"]
