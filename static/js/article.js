// postil article behaviour, progressive: without this script the page is complete (numbered
// notes are read in the Notes list, margin notes show inline on narrow screens, code can be
// selected by hand).
//
// - Note toggles: the server renders each `.sidenote-toggle` button `hidden`, with
//   aria-expanded="false" and aria-controls naming its note. This script unhides them and
//   flips aria-expanded on click (Enter and Space come free with <button>); article.css shows
//   the note inline while it is expanded, on screens narrower than the margin layout. A
//   numbered note's margin copy is aria-hidden (screen readers have the Notes list) except
//   while the reader has opened it. Back on a wide screen every toggle collapses.
// - Copy buttons: `.copy-code` copies its figure's code text, without line numbers, and
//   announces the result through one polite status region.
// - The author's own scrolling boxes (a `<pre>` in raw HTML, a notebook's plot: base.css
//   lets them scroll in the column) take keyboard focus while they are wider than their box,
//   so the arrow keys scroll them in every browser (Chromium focuses scrollers by itself,
//   Safari does not), as postil's code blocks and formulas do.
(function () {
  "use strict";

  var WIDE = window.matchMedia("(min-width: 1100px)");

  function setExpanded(button, expanded) {
    var note = document.getElementById(button.getAttribute("aria-controls"));
    button.setAttribute("aria-expanded", String(expanded));
    if (note && note.classList.contains("sidenote")) {
      if (expanded) note.removeAttribute("aria-hidden");
      else note.setAttribute("aria-hidden", "true");
    }
  }

  var toggles = Array.prototype.slice.call(document.querySelectorAll(".sidenote-toggle"));
  toggles.forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      setExpanded(button, button.getAttribute("aria-expanded") !== "true");
    });
  });
  WIDE.addEventListener("change", function (event) {
    if (event.matches) toggles.forEach(function (button) { setExpanded(button, false); });
  });

  // Each box that may scroll sideways takes a tab stop exactly while it does, so the arrow
  // keys scroll it; one that fits takes none. postil's code blocks, display formulas and
  // tables are written focusable (for readers without JavaScript); the rest are not.
  var SCROLLERS =
    ".post-body :is(pre, .math-display, .table-wrap), " +
    ".post-body :is(.plotly-graph-div, .vega-embed, .bk-root)";
  if (window.ResizeObserver) {
    var scrollers = new ResizeObserver(function (entries) {
      entries.forEach(function (entry) {
        var box = entry.target;
        if (box.scrollWidth > box.clientWidth) box.tabIndex = 0;
        else box.removeAttribute("tabindex");
      });
    });
    Array.prototype.forEach.call(document.querySelectorAll(SCROLLERS), function (box) {
      scrollers.observe(box);
    });
  }

  var copyButtons = document.querySelectorAll(".copy-code");
  if (!copyButtons.length || !navigator.clipboard) return;

  var status = document.createElement("span");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  document.body.appendChild(status);

  function codeText(figure) {
    var code = figure.querySelector("pre code");
    if (!code) return "";
    var copy = code.cloneNode(true);
    copy.querySelectorAll(".linenos").forEach(function (number) { number.remove(); });
    return copy.textContent;
  }

  function announce(button, message) {
    status.textContent = message;
    button.textContent = message;
    window.setTimeout(function () { button.textContent = "Copy"; status.textContent = ""; }, 2000);
  }

  Array.prototype.forEach.call(copyButtons, function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(codeText(button.closest("figure"))).then(
        function () { announce(button, "Copied"); },
        function () { announce(button, "Copy failed"); }
      );
    });
  });
})();
