// Math on a page, progressively (docs/math.md): without this module the page reads the same,
// and copying works as the browser's default (Chromium: each glyph of a formula on its own
// line). Loaded as a module, so deferred, and only on pages with math.
//
// - Copying gives TeX. Every <math> that postil writes carries its source in <annotation
//   encoding="application/x-tex">. On `copy`, when the selection holds or touches a formula,
//   the plain text becomes the selection's text with each formula replaced by its TeX —
//   `$…$` inline, `$$…$$` display, a bare `\begin{align}…\end{align}` as it is — and a
//   formula the selection starts or ends inside is copied whole. The HTML flavour is the
//   selection's own markup, MathML included, as the browser would have put it (a handler
//   that sets one flavour must set them all).
// - An inline formula wider than its line scrolls inside it (math.css); while it does, it
//   takes keyboard focus, as display math always does, so the arrow keys scroll it in
//   every browser (Chromium focuses scrollers by itself, Safari does not).

const TEX = 'annotation[encoding="application/x-tex"]';

/** Return the TeX of `math` with its delimiters, or null when it carries none. */
function delimitedTex(math) {
  const annotation = math.querySelector(TEX);
  if (!annotation) return null;
  const tex = annotation.textContent.trim();
  if (math.getAttribute("display") !== "block") return `$${tex}$`;
  return /^\\begin\{/.test(tex) ? tex : `$$${tex}$$`;
}

/** Return the <math> element that holds `node`, or null. */
function formulaOf(node) {
  const element = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
  return element ? element.closest("math") : null;
}

/** Return a copy of `range` widened so that no formula is cut at either end. */
function widened(range) {
  const copy = range.cloneRange();
  const first = formulaOf(range.startContainer);
  const last = formulaOf(range.endContainer);
  if (first) copy.setStartBefore(first);
  if (last) copy.setEndAfter(last);
  return copy;
}

/** Tell whether `range` holds or touches a formula. */
function touchesMath(range) {
  if (formulaOf(range.startContainer) || formulaOf(range.endContainer)) return true;
  const root = range.commonAncestorContainer;
  const scope = root.nodeType === Node.ELEMENT_NODE ? root : root.parentElement;
  return [...scope.querySelectorAll("math")].some((math) => range.intersectsNode(math));
}

/** Return the text `range` shows, each formula written as its delimited TeX.
 *
 * The contents are laid out off screen beside the selection (so the page's CSS says which
 * elements are blocks) and read with innerText, which is what a browser copies. */
function plainText(range) {
  const contents = range.cloneContents();
  for (const math of contents.querySelectorAll("math")) {
    const tex = delimitedTex(math);
    if (tex === null) continue;
    const source = document.createElement("span");
    source.style.whiteSpace = "pre-wrap"; // a TeX source's own line breaks are kept
    source.textContent = tex;
    math.replaceWith(source);
  }
  const box = document.createElement("div");
  box.style.cssText = "position:fixed;left:-100000px;top:0;width:40em";
  box.setAttribute("aria-hidden", "true");
  box.append(contents);
  const anchor = range.commonAncestorContainer;
  (anchor.nodeType === Node.ELEMENT_NODE ? anchor : anchor.parentElement).append(box);
  const text = box.innerText;
  box.remove();
  return text.trim();
}

/** Return the markup of `range`'s contents. */
function markup(range) {
  const box = document.createElement("div");
  box.append(range.cloneContents());
  return box.innerHTML;
}

document.addEventListener("copy", (event) => {
  const selection = document.getSelection();
  if (!selection || selection.isCollapsed || !event.clipboardData) return;
  const ranges = [];
  for (let i = 0; i < selection.rangeCount; i++) ranges.push(selection.getRangeAt(i));
  if (!ranges.some(touchesMath)) return;
  const whole = ranges.map(widened);
  event.clipboardData.setData("text/plain", whole.map(plainText).join("\n"));
  event.clipboardData.setData("text/html", whole.map(markup).join("\n"));
  event.preventDefault();
});

/** Make each inline formula focusable exactly while it is wider than its box. */
function focusWhileScrolling(entries) {
  for (const { target: math } of entries) {
    if (math.scrollWidth > math.clientWidth) math.tabIndex = 0;
    else math.removeAttribute("tabindex");
  }
}

const sizes = new ResizeObserver(focusWhileScrolling);
for (const math of document.querySelectorAll('math:not([display="block"])')) sizes.observe(math);
