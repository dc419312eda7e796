"""``fsm site``: the rules, the machine and the worked examples as a static
web site (:mod:`.build`), with a step-through per scenario
(:mod:`.stepthrough`, :mod:`.trace`) and a live checker (:mod:`.live`);
:mod:`.html` holds the page frame, style and script.

Nothing is imported here: the live checker runs :mod:`.trace` in a browser,
where Graphviz, which the build needs, is not at hand."""

