// A scenario page: its steps are in #steps-data; #step-N in the address is the
// step shown (and a step number in the table links there).
(function () {
  var data = JSON.parse(document.getElementById('steps-data').textContent);
  var m = /^#step-(\d+)$/.exec(location.hash);
  window.fsmSteps(data, document.querySelector('svg.machine'), function (n) {
    if (n > 0) { history.replaceState(null, '', '#step-' + n); }
  }, m ? Number(m[1]) : 0);
  // a link to step N (#step-N: no element has that id) shows its panel and
  // the picture after it; a step number in the table links there too
  function toPanel() { document.getElementById('step-panel').scrollIntoView(); }
  if (m) { toPanel(); }
  window.addEventListener('hashchange', function () {
    var k = /^#step-(\d+)$/.exec(location.hash);
    if (k) { window.fsmShow(Number(k[1])); toPanel(); }
  });
})();
