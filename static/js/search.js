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
  var query = new URLSearchParams(window.location.search).get("q");
  if (query) ui.triggerSearch(query);
})();
