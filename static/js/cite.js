// Copy buttons of the "Cite this post" block: each button names the element to copy in
// data-copy-target; the buttons stay hidden without JavaScript or a clipboard.
(function () {
  if (!navigator.clipboard) return;
  document.querySelectorAll(".copy-text[data-copy-target]").forEach(function (button) {
    var target = document.getElementById(button.dataset.copyTarget);
    if (!target) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(target.textContent.trim()).then(function () {
        button.textContent = "Copied";
        setTimeout(function () { button.textContent = "Copy"; }, 1500);
      });
    });
  });
})();
