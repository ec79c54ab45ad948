// Manual light/dark toggle. The reader's choice is stored in localStorage ("postil-theme")
// and applied before first paint by the inline script in base.html; without a stored
// choice the page follows prefers-color-scheme.
(function () {
  var button = document.querySelector(".theme-toggle");
  if (!button) return;
  var root = document.documentElement;
  var media = window.matchMedia("(prefers-color-scheme: dark)");
  function current() { return root.dataset.theme || (media.matches ? "dark" : "light"); }
  function sync() { button.setAttribute("aria-pressed", String(current() === "dark")); }
  button.hidden = false;
  sync();
  media.addEventListener("change", sync);
  button.addEventListener("click", function () {
    var next = current() === "dark" ? "light" : "dark";
    root.dataset.theme = next;
    try { localStorage.setItem("postil-theme", next); } catch (e) { /* private mode */ }
    sync();
  });
})();
