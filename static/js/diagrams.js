// Mermaid diagrams (postil.markdown.diagram): each `pre.mermaid` (or an author's
// `div.mermaid` in raw HTML) holds a diagram's source, escaped as text. This module imports
// Mermaid's ES module from the URL the site's `mermaid:` setting gives (this script tag's
// data-mermaid) and draws every diagram in the page's light or dark scheme, and again when
// the reader switches it (theme.js sets <html data-theme>; without a choice the page follows
// prefers-color-scheme). If Mermaid cannot be loaded (offline, blocked) or cannot read a
// diagram, that diagram's source stays on the page, set as code, with the reason in its
// title and on the console.

const script = document.querySelector("script[data-mermaid]");
// postil's own (`figure.diagram pre.mermaid`, and `span.mermaid` in a note's margin copy)
// and an author's raw `<div class="mermaid">`
const boxes = [...document.querySelectorAll("pre.mermaid, div.mermaid, span.margin-diagram")];
const sources = new Map(boxes.map((box) => [box, box.textContent]));
const root = document.documentElement;
const dark = window.matchMedia("(prefers-color-scheme: dark)");

function scheme() {
  return (root.dataset.theme || (dark.matches ? "dark" : "light")) === "dark" ? "dark" : "default";
}

let drawn = "";
let serial = 0; // each drawing's own id: Mermaid removes an element of the id it renders
async function draw(mermaid) {
  const theme = scheme();
  if (theme === drawn) return;
  drawn = theme;
  mermaid.initialize({
    startOnLoad: false,
    theme,
    securityLevel: "strict",
    suppressErrorRendering: true,
    fontFamily: getComputedStyle(document.body).fontFamily,
  });
  for (const [n, box] of boxes.entries()) {
    serial += 1;
    try {
      const { svg } = await mermaid.render("postil-diagram-" + serial, sources.get(box));
      box.innerHTML = svg;
      box.classList.add("is-drawn");
      box.dataset.scheme = theme; // article.css turns a dark drawing light on paper
      box.removeAttribute("title");
    } catch (error) {
      box.textContent = sources.get(box);
      box.classList.remove("is-drawn");
      delete box.dataset.scheme;
      box.title = "Mermaid could not draw this diagram: " + (error && error.message);
      console.warn("postil: Mermaid could not draw diagram", n + 1, error);
    }
  }
}

if (script && boxes.length) {
  import(script.dataset.mermaid)
    .then((module) => {
      const mermaid = module.default;
      const redraw = () => draw(mermaid);
      new MutationObserver(redraw).observe(root, { attributes: true, attributeFilter: ["data-theme"] });
      dark.addEventListener("change", redraw);
      return redraw();
    })
    .catch((error) => console.warn("postil: Mermaid could not be loaded from", script.dataset.mermaid, error));
}
