/* The search page: Pagefind's UI over the index written with the site (pagefind/, no CDN).
   The bundle path and the base URL come from the page (the base path of a project site goes
   before every result's URL, which the index keeps from the site's root); a query
   in the address (?q=…, from the search box in the header) is searched at once. */
(function () {
  "use strict";
  var root = document.getElementById("search");
  if (!root || typeof PagefindUI === "undefined") return;
  var ui = new PagefindUI({
    element: "#search",
    bundlePath: root.dataset.bundle,
    baseUrl: root.dataset.base,
    showSubResults: true,
    showImages: false,
    resetStyles: false
  });
  // Pagefind's box is named only by its `title` (axe's label-title-only): name it by the
  // page's visible heading, as soon as Pagefind has made it.
  var named = function () {
    var input = root.querySelector("input.pagefind-ui__search-input");
    if (input) input.setAttribute("aria-labelledby", "search-title");
    return Boolean(input);
  };
  if (!named()) {
    var watch = new MutationObserver(function () { if (named()) watch.disconnect(); });
    watch.observe(root, { childList: true, subtree: true });
  }
  var query = new URLSearchParams(window.location.search).get("q");
  if (query) ui.triggerSearch(query);
})();
