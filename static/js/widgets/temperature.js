// The temperature widget (postil.widgets.temperature): moving the slider looks up the
// softmax weights and entropy that Python precomputed for each temperature and shows them.
// There is no arithmetic here: the JSON holds display-ready numbers indexed by slider
// position, so the page with JavaScript off shows the same values at the initial τ.
// toPrecision(3) and toFixed() write exactly what Python's format_tau and .1f/.2f wrote.

for (const figure of document.querySelectorAll('[data-widget="temperature"]')) {
  const data = JSON.parse(figure.querySelector('script[type="application/json"]').textContent);
  const input = figure.querySelector('input[type="range"]');
  const tau = figure.querySelector(".temperature-tau");
  const entropy = figure.querySelector(".temperature-entropy");
  const rows = [...figure.querySelectorAll(".temperature-row.is-visible")].map((row) => ({
    row,
    value: row.querySelector(".temperature-value"),
  }));

  const show = () => {
    const i = input.valueAsNumber;
    const text = "τ = " + data.tau[i].toPrecision(3);
    input.setAttribute("aria-valuetext", text);
    tau.textContent = text;
    data.weights[i].forEach((percent, j) => {
      const label = percent.toFixed(1) + "%";
      rows[j].row.style.setProperty("--weight", label);
      rows[j].value.textContent = label;
    });
    entropy.textContent = "entropy " + data.entropy[i].toFixed(2) + " bits";
  };

  input.addEventListener("input", show);
  // A restored form (back/forward cache) may start the slider away from the server's value.
  show();
}
