/* postil serve: live reload and the build error overlay.
 *
 * Served only by the dev server (injected into HTML responses), never part of the built site.
 * Listens to /__postil/events (Server-Sent Events), through one SharedWorker for all tabs
 * (worker.js says why) where the browser has one. After each build it:
 *   - reloads the page if one of the files this page is made of changed (keeping the scroll
 *     position in sessionStorage across the reload);
 *   - swaps stylesheets in place, without a reload, when only CSS changed;
 *   - reloads if a script, image or other file this page loads changed;
 *   - shows every build error in an overlay (the page underneath is the last good build),
 *     and removes the overlay once a build succeeds.
 */
(() => {
  "use strict";
  const script = document.currentScript;
  const session = script.dataset.postilSession;
  const base = script.dataset.postilBase || "/";
  const pageRels = new Set((script.dataset.postilRels || "").split(" ").filter(Boolean));
  let build = Number(script.dataset.postilBuild);
  const scrollKey = "postil-serve:scroll:" + location.pathname;
  const hiddenKey = "postil-serve:hidden-warnings"; // the warnings the author hid

  function restoreScroll() {
    const saved = sessionStorage.getItem(scrollKey);
    if (saved === null) return;
    const [x, y] = JSON.parse(saved);
    window.scrollTo(x, y);
    // Late layout (images, fonts) can move the page; scroll again once it has loaded.
    window.addEventListener("load", () => {
      window.scrollTo(x, y);
      sessionStorage.removeItem(scrollKey);
    }, { once: true });
    if (document.readyState === "complete") sessionStorage.removeItem(scrollKey);
  }

  function reload() {
    sessionStorage.setItem(scrollKey, JSON.stringify([window.scrollX, window.scrollY]));
    location.reload();
  }

  /* The site-relative output file a URL names ("posts/x/index.html"), or null. */
  function relOf(url) {
    const u = new URL(url, location.href);
    if (u.origin !== location.origin || !u.pathname.startsWith(base)) return null;
    let rel = decodeURIComponent(u.pathname.slice(base.length));
    if (rel === "" || rel.endsWith("/")) rel += "index.html";
    return rel;
  }

  /* The files this page loads (scripts, images, frames, icons, preloaded fonts), but not
   * its stylesheets (swapped in place) nor the links it only names: a feed
   * (rel="alternate"), its canonical URL or its neighbours change with most edits, and the
   * page does not show them (reloading for a feed reloaded a page twice after one save). */
  const LOADED_LINKS = /\b(?:icon|apple-touch-icon|mask-icon|manifest|preload|modulepreload|prefetch)\b/;

  function loadedRels() {
    const rels = new Set();
    const selector = "script[src], img[src], source[src], video[src], audio[src], iframe[src], link[href]";
    for (const el of document.querySelectorAll(selector)) {
      if (el.tagName === "LINK" && !LOADED_LINKS.test(el.rel)) continue;
      const rel = relOf(el.getAttribute("src") || el.getAttribute("href"));
      if (rel !== null) rels.add(rel);
    }
    return rels;
  }

  /* Replace every same-site stylesheet link by a fresh copy; drop the old one once the new
   * one has loaded, so the page never shows unstyled. */
  function swapStylesheets() {
    for (const link of document.querySelectorAll('link[rel~="stylesheet"]')) {
      if (relOf(link.href) === null) continue;
      const fresh = link.cloneNode();
      const url = new URL(link.href);
      url.searchParams.set("postil-reload", String(Date.now()));
      fresh.href = url.href;
      const drop = () => link.remove();
      fresh.addEventListener("load", drop, { once: true });
      fresh.addEventListener("error", drop, { once: true });
      link.after(fresh);
    }
  }

  /* The overlay: a failed build's errors (the page shown is the last good one), or the
   * warnings of a good build, the same that `postil build` prints. */
  function showProblems(errors, warnings) {
    let host = document.getElementById("postil-serve-overlay");
    const failed = errors && errors.length > 0;
    const problems = failed ? errors : warnings || [];
    const key = JSON.stringify(problems);
    if (problems.length === 0 || (!failed && sessionStorage.getItem(hiddenKey) === key)) {
      if (host) host.remove();
      return;
    }
    if (!host) {
      host = document.createElement("div");
      host.id = "postil-serve-overlay";
      host.attachShadow({ mode: "open" });
      document.body.append(host);
    }
    const root = host.shadowRoot;
    const style = document.createElement("style");
    const [paper, ink, rule] = failed
      ? ["#fff8f6", "#3b0a02", "#b3261e"]
      : ["#fffbea", "#2e2400", "#8a6d00"];
    style.textContent = `
      section { position: fixed; inset: auto 1rem 1rem 1rem; max-height: 60vh; overflow: auto;
        z-index: 2147483647; background: ${paper}; color: ${ink}; border: 2px solid ${rule};
        border-radius: 6px; padding: 0.75rem 1rem; font: 14px/1.4 system-ui, sans-serif;
        box-shadow: 0 4px 24px rgb(0 0 0 / 25%); }
      h2 { font-size: 1rem; margin: 0 0 0.5rem; }
      ol { margin: 0; padding-left: 1.25rem; }
      pre { margin: 0.25rem 0 0.5rem; white-space: pre-wrap; font: 13px/1.4 ui-monospace, monospace; }
      button { float: right; font: inherit; }`;
    const section = document.createElement("section");
    section.setAttribute("role", failed ? "alert" : "status");
    section.setAttribute("aria-label", failed ? "Build errors" : "Build warnings");
    const close = document.createElement("button");
    close.type = "button";
    close.textContent = "Hide";
    close.addEventListener("click", () => {
      if (!failed) sessionStorage.setItem(hiddenKey, key); // until the warnings change
      host.remove();
    });
    const title = document.createElement("h2");
    const n = problems.length;
    title.textContent = failed
      ? `Build failed with ${n === 1 ? "1 error" : `${n} errors`}; this is the last good version of the page`
      : `The build has ${n === 1 ? "1 warning" : `${n} warnings`}`;
    const list = document.createElement("ol");
    for (const problem of problems) {
      const item = document.createElement("li");
      const text = document.createElement("pre");
      text.textContent = `${problem.location}: ${problem.message}` +
        (problem.excerpt ? `\n${problem.excerpt}` : ""); // the line, a caret at the column
      item.append(text);
      list.append(item);
    }
    section.append(close, title, list);
    root.replaceChildren(style, section);
  }

  /* What the changed files mean for this page: "reload" if it shows or loads one of them,
   * "css" if only stylesheets changed, else null. */
  function effect(changed) {
    if ([...pageRels].some((rel) => changed.has(rel))) return "reload";
    const loaded = loadedRels();
    if ([...changed].some((rel) => loaded.has(rel))) return "reload";
    if ([...changed].some((rel) => rel.endsWith(".css"))) return "css";
    return null;
  }

  function apply(changed) {
    const what = effect(changed);
    if (what === "reload") return reload();
    if (what === "css") swapStylesheets();
  }

  function onBuild(event) {
    if (event.reload) return reload();
    if (event.build <= build) return; // this page already shows that build
    build = event.build;
    showProblems(event.errors, event.warnings);
    if (!event.ok || event.changed.length === 0) return;
    apply(new Set(event.changed));
  }

  /* The files the builds after this page's own changed, from a hello's `changes`
   * ([number, rels] of the last builds); null if one of those builds is not listed, or
   * listed without its files (it changed too many). */
  function changedSince(hello) {
    const listed = new Map((hello.changes || []).map(([n, rels]) => [n, rels]));
    const changed = new Set();
    for (let n = build + 1; n <= hello.build; n++) {
      const rels = listed.get(n);
      if (!rels) return null;
      for (const rel of rels) changed.add(rel);
    }
    return changed;
  }

  function onHello(hello) {
    // A restarted server: the page may be stale.
    if (hello.session !== session) return reload();
    if (hello.build > build) {
      // Builds that ended before this page's script connected (a page served from a
      // build's first pages misses that build's last event): reload only if they changed
      // what this page shows, or if they are too old to be listed.
      const changed = changedSince(hello);
      if (changed === null || effect(changed) === "reload") return reload();
      build = hello.build;
      apply(changed);
    }
    script.dataset.postilState = "live";
    showProblems(hello.errors, hello.warnings);
  }

  function connect() {
    const handlers = { hello: onHello, build: onBuild };
    if (typeof SharedWorker === "function") {
      const worker = new SharedWorker("/__postil/worker.js", { name: "postil-serve" });
      worker.port.onmessage = (message) => handlers[message.data.name](message.data.data);
      worker.port.start();
      window.addEventListener("pagehide", () => worker.port.postMessage("close"));
      return;
    }
    const events = new EventSource("/__postil/events");
    for (const name of Object.keys(handlers)) {
      events.addEventListener(name, (message) => handlers[name](JSON.parse(message.data)));
    }
    window.addEventListener("pagehide", () => events.close());
  }

  restoreScroll();
  connect();
})();
