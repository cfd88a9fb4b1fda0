// Copy buttons (templates/includes/copy_button.html): a progressive enhancement. Without
// JavaScript the link stays visible and selectable in its field; with it, the button beside
// the field copies it and says so in its status.
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("button[data-copy][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  function say(button, key) {
    var status = button.nextElementSibling;
    if (status && status.dataset[key]) {
      status.textContent = status.dataset[key];
    }
  }

  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.addEventListener("htmx:load", function (event) { reveal(event.target); });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    var field = button && document.getElementById(button.dataset.copy);
    if (!field) {
      return;
    }
    field.focus();
    field.select();
    var copied = navigator.clipboard
      ? navigator.clipboard.writeText(field.value)
      : Promise.reject(new Error("no clipboard"));
    copied.then(
      function () { say(button, "copied"); },
      function () { say(button, document.execCommand("copy") ? "copied" : "failed"); }
    );
  });
})();
