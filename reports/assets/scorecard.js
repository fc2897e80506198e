(function () {
  "use strict";
  var form = document.getElementById("filters");
  if (!form) { return; }
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr[data-suite]"));
  var selects = Array.prototype.slice.call(form.querySelectorAll("select"));
  var differ = form.querySelector("input[name=differ]");
  var count = form.querySelector(".count");
  function apply() {
    var n = 0;
    rows.forEach(function (r) {
      var ok = !(differ.checked && r.getAttribute("data-allpass") === "true");
      selects.forEach(function (s) {
        if (s.value && r.getAttribute("data-" + s.name) !== s.value) { ok = false; }
      });
      r.hidden = !ok;
      if (ok) { n++; }
    });
    count.textContent = n + " of " + rows.length + " specs shown";
  }
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  form.hidden = false;
  apply();
  document.body.setAttribute("data-filters", "ready");
})();
