// Steps through a finished deal one card at a time: the buttons and the
// arrow keys (Home and End jump). Without it the page shows every trick.
(function () {
  "use strict";
  var steps = Array.prototype.slice.call(document.querySelectorAll("#tricks .step"));
  var lines = Array.prototype.slice.call(document.querySelectorAll("#tricks .trick-line"));
  var stepper = document.getElementById("stepper");
  var now = document.getElementById("table-now");
  var pos = document.getElementById("position");
  var buttons = {
    first: document.getElementById("first"),
    prev: document.getElementById("prev"),
    next: document.getElementById("next"),
    last: document.getElementById("last")
  };
  var at = 0;
  function show() {
    steps.forEach(function (s, i) { s.hidden = i >= at; });
    lines.forEach(function (l) {
      var own = l.querySelectorAll(".step");
      var shown = l.querySelectorAll(".step:not([hidden])");
      l.hidden = shown.length === 0;
      var won = l.querySelector(".won");
      if (won) { won.hidden = shown.length < own.length; }
    });
    while (now.firstChild) { now.removeChild(now.firstChild); }
    if (at > 0) {
      var line = steps[at - 1].closest(".trick-line");
      line.querySelectorAll(".step:not([hidden])").forEach(function (s) {
        now.appendChild(s.cloneNode(true));
      });
    }
    pos.textContent = at + " / " + steps.length;
    buttons.first.disabled = buttons.prev.disabled = at === 0;
    buttons.next.disabled = buttons.last.disabled = at >= steps.length;
  }
  function go(to) {
    at = Math.max(0, Math.min(steps.length, to));
    show();
  }
  buttons.first.addEventListener("click", function () { go(0); });
  buttons.prev.addEventListener("click", function () { go(at - 1); });
  buttons.next.addEventListener("click", function () { go(at + 1); });
  buttons.last.addEventListener("click", function () { go(steps.length); });
  document.addEventListener("keydown", function (e) {
    // (the browser's own shortcuts stay the browser's)
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: steps.length }[e.key];
    if (to !== undefined) { e.preventDefault(); go(to); }
  });
  stepper.hidden = false;
  show();
})();
