// Reference for postil's mhchem (dev only): for each row of corpus.tsv, Temml's MathML (which
// math_visual.py compares with postil's) and the TeX mhchem 3.3 makes of each \ce/\pu
// (Temml's contrib copy of mhchem), for reading beside postil's (`tex` field).
//
//   npm install --prefix /tmp/chem-ref temml@0.13.5
//   node benchmarks/mhchem/reference.js /tmp/chem-ref benchmarks/mhchem/corpus.tsv /tmp/chem-ref/temml.jsonl
const fs = require("fs");
const path = require("path");
const [prefix, corpus, out] = process.argv.slice(2);
const dir = path.join(path.resolve(prefix), "node_modules", "temml");
const temmlLib = require(path.join(dir, "dist", "temml.cjs"));
const macros = {};
global.temml = { __defineMacro: (name, fn) => { macros[name] = fn; } };
eval(fs.readFileSync(path.join(dir, "contrib", "mhchem", "mhchem.js"), "utf8"));

function mhchemTex(latex) {
  const found = [];
  const re = /\\(ce|pu)\{/g;
  let m;
  while ((m = re.exec(latex))) {
    let depth = 1, i = m.index + m[0].length;
    const start = i;
    for (; i < latex.length && depth; i++) depth += latex[i] === "{" ? 1 : latex[i] === "}" ? -1 : 0;
    const tokens = [...latex.slice(start, i - 1)].map((text, k) => ({ text, loc: { start: k } })).reverse();
    try { found.push(macros["\\" + m[1]]({ consumeArgs: () => [tokens] })); } catch (e) { found.push("error: " + e); }
  }
  return found;
}

const rows = fs.readFileSync(corpus, "utf8").trim().split("\n").slice(1).map((l) => l.split("\t"));
const lines = rows.map(([id, , latex, display]) => {
  let mathml = null, error = null;
  try { mathml = temmlLib.renderToString(latex, { displayMode: display === "1", throwOnError: true }); } catch (e) { error = String(e); }
  return JSON.stringify({ id, latex, display: +display, mathml, temml_error: error, ref_source: "temml", tex: mhchemTex(latex) });
});
fs.writeFileSync(out, lines.join("\n") + "\n");
