// prefect-docai web platform: drag and drop with upload progress, copy buttons.
// Works without this file too: the forms post normally.
"use strict";

function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.getAttribute("content") : "";
}

function setupUpload(form) {
  const input = form.querySelector('input[type="file"]');
  const zone = form.querySelector(".dropzone");
  const progress = form.querySelector("progress");
  const error = form.querySelector("#upload-error");
  const label = zone.querySelector(".drop-label");
  const limit = Number(form.dataset.limit || "0");

  function showError(message) {
    error.textContent = message;
    error.hidden = false;
    progress.hidden = true;
  }

  function chosen() {
    if (input.files && input.files.length) {
      label.textContent = input.files[0].name;
      error.hidden = true;
    }
  }

  input.addEventListener("change", chosen);
  ["dragenter", "dragover"].forEach((name) =>
    zone.addEventListener(name, (event) => {
      event.preventDefault();
      zone.classList.add("over");
    })
  );
  ["dragleave", "drop"].forEach((name) =>
    zone.addEventListener(name, () => zone.classList.remove("over"))
  );
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    if (event.dataTransfer && event.dataTransfer.files.length) {
      input.files = event.dataTransfer.files;
      chosen();
      form.requestSubmit();
    }
  });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const file = input.files && input.files[0];
    if (!file) {
      input.reportValidity();
      return;
    }
    if (limit && file.size > limit) {
      showError(form.dataset.tooLarge);
      return;
    }
    const request = new XMLHttpRequest();
    request.open("POST", form.action);
    request.setRequestHeader("X-Requested-With", "XMLHttpRequest");
    request.setRequestHeader("X-CSRF-Token", csrfToken());
    request.responseType = "json";
    progress.hidden = false;
    progress.value = 0;
    error.hidden = true;
    request.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) progress.value = Math.round((100 * e.loaded) / e.total);
    });
    request.addEventListener("load", () => {
      const body = request.response || {};
      if (request.status < 300 && body.redirect) {
        progress.value = 100;
        window.location.assign(body.redirect);
      } else if (request.status === 413) {
        showError(form.dataset.tooLarge);
      } else {
        showError(body.error || request.statusText);
      }
    });
    request.addEventListener("error", () => showError(request.statusText || "network error"));
    request.send(new FormData(form));
  });
}

function setupCopy(button) {
  button.addEventListener("click", async () => {
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
    } catch (_) {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      document.execCommand("copy");
    }
    button.textContent = button.dataset.done;
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("upload-form");
  if (form) setupUpload(form);
  document.querySelectorAll("button.copy").forEach(setupCopy);
});
