(function () {
  "use strict";
  var form = document.getElementById("filters");
  if (!form) { return; }
  var groups = Array.prototype.slice.call(document.querySelectorAll("tbody[data-verdict]"));
  var boxes = Array.prototype.slice.call(form.querySelectorAll("input[name=verdict]"));
  var selects = Array.prototype.slice.call(form.querySelectorAll("select"));
  var count = form.querySelector(".count");
  function apply() {
    var on = {};
    boxes.forEach(function (b) { on[b.value] = b.checked; });
    var n = 0;
    groups.forEach(function (g) {
      var ok = on[g.getAttribute("data-verdict")] !== false;
      selects.forEach(function (s) {
        if (s.value && g.getAttribute("data-" + s.name) !== s.value) { ok = false; }
      });
      g.hidden = !ok;
      if (ok) { n++; }
    });
    count.textContent = n + " of " + groups.length + " specs shown";
  }
  function showAll() {
    boxes.forEach(function (b) { b.checked = true; });
    selects.forEach(function (s) { s.value = ""; });
    apply();
  }
  function reveal() {
    var id;
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    var el = id ? document.getElementById(id) : null;
    var g = el ? el.closest("tbody[data-verdict]") : null;
    if (!g) { return; }
    if (g.hidden) { showAll(); }
    Array.prototype.forEach.call(g.querySelectorAll("details.transcript"), function (d) { d.open = true; });
    if (el.tagName === "DETAILS") { el.open = true; }
    el.scrollIntoView();
  }
  // Copy buttons for the reproduce commands (shown only where the
  // clipboard can be written).
  if (navigator.clipboard) {
    Array.prototype.forEach.call(document.querySelectorAll("div.repro"), function (d) {
      var b = d.querySelector("button.copy"), pre = d.querySelector("pre");
      b.hidden = false;
      b.addEventListener("click", function () {
        navigator.clipboard.writeText(pre.textContent).then(function () { b.textContent = "Copied"; }, function () { b.textContent = "Copy failed"; });
      });
    });
  }
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  form.querySelector("button.all").addEventListener("click", showAll);
  window.addEventListener("hashchange", reveal);
  form.hidden = false;
  apply();
  reveal();
  document.body.setAttribute("data-filters", "ready");
})();
