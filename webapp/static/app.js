// Table scorer: small progressive enhancements. Every page also works with plain form posts.
"use strict";

function $(sel, root) { return (root || document).querySelector(sel); }
function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

// ---- progress overlay -------------------------------------------------------------------
function showProgress(text, fraction) {
  var box = $("#progress");
  if (!box) return;
  box.hidden = false;
  $("#progress-text").textContent = text;
  $("#progress-bar").style.width = fraction == null ? "100%" : Math.round(fraction * 100) + "%";
  box.classList.toggle("indeterminate", fraction == null);
}
function hideProgress() { var box = $("#progress"); if (box) box.hidden = true; }

function showError(message) {
  var old = $("#error");
  if (old) old.remove();
  var p = document.createElement("p");
  p.className = "flash error"; p.id = "error"; p.setAttribute("role", "alert");
  p.textContent = message;
  var h1 = $("main h1");
  (h1 ? h1.parentNode : $("main")).insertBefore(p, h1 ? h1.nextSibling : null);
  p.scrollIntoView({ behavior: "smooth", block: "center" });
}

// Upload with a real progress bar, then "reading the cards" while the server works.
function uploadPhoto(action, formData) {
  var body = document.body;
  var xhr = new XMLHttpRequest();
  xhr.open("POST", action);
  xhr.setRequestHeader("X-Requested-With", "fetch");
  xhr.setRequestHeader("Accept", "application/json");
  xhr.upload.onprogress = function (e) {
    if (e.lengthComputable) showProgress(body.dataset.uploading, e.loaded / e.total);
  };
  xhr.upload.onload = function () { showProgress(body.dataset.reading, null); };
  xhr.onload = function () {
    var data = {};
    try { data = JSON.parse(xhr.responseText); } catch (err) { data = { error: "HTTP " + xhr.status }; }
    if (xhr.status < 400 && data.redirect) { window.location.assign(data.redirect); return; }
    hideProgress();
    showError(data.error || ("HTTP " + xhr.status));
  };
  xhr.onerror = function () { hideProgress(); showError("Network error"); };
  showProgress(body.dataset.uploading, 0);
  xhr.send(formData);
}

// Phones take 12-megapixel photos (3-6 MB). The reader works from about 2000 px, so the page sends a
// 2400 px JPEG instead: a fraction of the upload time on Wi-Fi and of the server's decoding. EXIF
// orientation is applied while drawing. Anything unexpected sends the original file.
var MAX_PHOTO_SIDE = 2400;
function shrinkPhoto(file) {
  return new Promise(function (resolve) {
    if (!window.createImageBitmap || !file.type || file.type.indexOf("image/") !== 0) { resolve(file); return; }
    createImageBitmap(file, { imageOrientation: "from-image" }).then(function (bitmap) {
      var scale = MAX_PHOTO_SIDE / Math.max(bitmap.width, bitmap.height);
      if (scale >= 1) { resolve(file); return; }
      var canvas = document.createElement("canvas");
      canvas.width = Math.round(bitmap.width * scale);
      canvas.height = Math.round(bitmap.height * scale);
      canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      canvas.toBlob(function (blob) {
        resolve(blob ? new File([blob], "photo.jpg", { type: "image/jpeg" }) : file);
      }, "image/jpeg", 0.9);
    }).catch(function () { resolve(file); });
  });
}

function initUploads() {
  var input = $("#photo-input");
  if (input) {
    input.addEventListener("change", function () {
      if (!input.files.length) return;
      var form = input.form, file = input.files[0];
      showProgress(document.body.dataset.uploading, 0);
      shrinkPhoto(file).then(function (photo) {
        var data = new FormData(form);
        data.set("photo", photo, photo.name || file.name);
        uploadPhoto(form.action, data);
        input.value = "";
      });
    });
  }
  $all("form[data-progress]").forEach(function (form) {
    form.addEventListener("submit", function () { showProgress(document.body.dataset.reading, null); });
  });
  // A second tap on "settle" while the first is on its way does nothing (the server is idempotent too).
  $all("form[data-once]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      if (form.dataset.sent) { e.preventDefault(); return; }
      form.dataset.sent = "1";
    });
  });
}

// ---- new game form -------------------------------------------------------------------------
function initPresetForm() {
  var select = $("#preset");
  if (!select) return;
  function update() {
    $all("fieldset.options").forEach(function (fs) {
      var on = fs.dataset.preset === select.value;
      fs.hidden = !on;
      $all("input, select, textarea", fs).forEach(function (el) { el.disabled = !on; });
    });
    var option = select.options[select.selectedIndex];
    var banker = $("#banker-box");
    if (banker) banker.hidden = !(option && option.dataset.banker === "1");
  }
  select.addEventListener("change", update);
  update();
}

// ---- review: boxes over the photo ---------------------------------------------------------------
var SVG_NS = "http://www.w3.org/2000/svg";
function initOverlay() {
  var img = $("#photo"), svg = $("#overlay");
  if (!img || !svg) return;
  var cards = [];
  try { cards = JSON.parse(svg.dataset.cards || "[]"); } catch (err) { cards = []; }
  function draw() {
    var w = img.naturalWidth, h = img.naturalHeight;
    if (!w || !h) return;
    svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var stroke = Math.max(2, w / 300), font = Math.max(16, w / 28);
    cards.forEach(function (c) {
      if (!c.box) return;
      var low = c.confidence < 0.6;
      var rect = document.createElementNS(SVG_NS, "rect");
      rect.setAttribute("x", c.box[0]); rect.setAttribute("y", c.box[1]);
      rect.setAttribute("width", c.box[2] - c.box[0]); rect.setAttribute("height", c.box[3] - c.box[1]);
      rect.setAttribute("class", "box " + (low ? "low" : "ok") + (c.row ? "" : " stray"));
      rect.setAttribute("stroke-width", stroke);
      svg.appendChild(rect);
      var label = document.createElementNS(SVG_NS, "text");
      label.setAttribute("x", c.box[0]); label.setAttribute("y", Math.max(font, c.box[1] - stroke * 2));
      label.setAttribute("font-size", font);
      label.setAttribute("class", "label " + (low ? "low" : "ok"));
      label.textContent = c.code + (low ? " ?" : "");
      svg.appendChild(label);
    });
  }
  if (img.complete) draw(); else img.addEventListener("load", draw);
}

// ---- the 52-card picker: correct one card, or tap cards in to type a hand -----------------------
function initPicker() {
  var sheet = $("#picker");
  if (!sheet) return;
  var mode = null, target = null;
  var textarea = $("#manual-rows");
  function open(newMode, title) {
    mode = newMode; sheet.hidden = false;
    $("#picker-title").textContent = title;
    $("#picker-remove").hidden = !(mode === "correct" && target && target.dataset.code);
    showLikely(mode === "correct" && target && target.dataset.alternatives ? target.dataset.alternatives.split(" ") : []);
    markUsed();
  }
  // The reader's runner-up codes for the card being fixed, first (a card read wrong is most often one of them).
  function showLikely(codes) {
    var row = $("#picker-likely");
    if (!row) return;
    $all("#picker-likely .card").forEach(function (b) { b.remove(); });
    codes.filter(Boolean).forEach(function (code) {
      var twin = $('.picker:not(.likely) .card[data-code="' + code + '"]');
      if (!twin) return;
      var button = twin.cloneNode(true);
      button.addEventListener("click", function () { choose(code); });
      row.appendChild(button);
    });
    row.hidden = !$("#picker-likely .card");
  }
  function close() { sheet.hidden = true; mode = null; $all(".fix.selected").forEach(function (b) { b.classList.remove("selected"); }); }
  function tapped() { return textarea ? textarea.value.toUpperCase().split(/[\s\/,]+/).filter(Boolean) : []; }
  function markUsed() {
    var used = mode === "append" ? tapped() : [];
    $all(".picker .card").forEach(function (b) { b.classList.toggle("used", used.indexOf(b.dataset.code) >= 0); });
  }
  $all(".fix").forEach(function (button) {
    button.addEventListener("click", function () {
      $all(".fix.selected").forEach(function (b) { b.classList.remove("selected"); });
      button.classList.add("selected");
      target = button;
      open("correct", (button.dataset.code || "＋") + " →");
    });
  });
  function choose(code) {
    if (mode === "correct" && target) {
      var form = $("#correct-form");
      form.elements.row.value = target.dataset.row;
      form.elements.index.value = target.dataset.index;
      form.elements.code.value = code;
      form.submit();
    } else if (mode === "append" && textarea) {
      // Chinese poker: 13 cards written as rows 3 / 5 / 5; Big Two (data-layout=loose): the cards left.
      var loose = textarea.dataset.layout === "loose";
      var most = loose ? parseInt(textarea.dataset.max, 10) || 13 : 13;
      var codes = tapped();
      if (codes.indexOf(code) >= 0 || codes.length >= most) return;
      codes.push(code);
      textarea.value = loose ? codes.join(" ") : [codes.slice(0, 3), codes.slice(3, 8), codes.slice(8, 13)]
        .filter(function (r) { return r.length; }).map(function (r) { return r.join(" "); }).join(" / ");
      markUsed();
      if (codes.length === most) close();
    }
  }
  $all(".picker:not(.likely) .card").forEach(function (button) {
    button.addEventListener("click", function () { choose(button.dataset.code); });
  });
  $("#picker-close").addEventListener("click", close);
  $("#picker-remove").addEventListener("click", function () {
    if (mode !== "correct" || !target) return;
    var form = $("#remove-form");
    form.elements.row.value = target.dataset.row;
    form.elements.index.value = target.dataset.index;
    form.submit();
  });
  var tap = $("#manual-tap");
  if (tap && textarea) {
    tap.addEventListener("click", function () { textarea.value = ""; open("append", tap.textContent); });
  }
}

// ---- live camera (getUserMedia) with the 3/5/5 guide ---------------------------------------------
function initCamera() {
  var box = $("#camera-box"), video = $("#camera-video"), capture = $("#camera-capture");
  if (!box || !video || !capture) return;
  var stream = null;
  var message = $("#camera-message");
  box.addEventListener("toggle", function () {
    if (!box.open) { if (stream) stream.getTracks().forEach(function (t) { t.stop(); }); stream = null; return; }
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      message.textContent = "This browser gives no camera here (it needs https or localhost).";
      return;
    }
    navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: 3840 }, height: { ideal: 2160 } }, audio: false })
      .then(function (s) { stream = s; video.srcObject = s; video.play(); message.textContent = ""; })
      .catch(function (err) { message.textContent = "Camera unavailable: " + err.name; });
  });
  capture.addEventListener("click", function () {
    if (!stream || !video.videoWidth) return;
    var canvas = document.createElement("canvas");
    canvas.width = video.videoWidth; canvas.height = video.videoHeight;
    canvas.getContext("2d").drawImage(video, 0, 0);
    canvas.toBlob(function (blob) {
      var data = new FormData();
      data.append("csrf_token", $("#photo-form").elements.csrf_token.value);
      data.append("source", "camera");
      data.append("photo", blob, "camera.jpg");
      uploadPhoto(capture.dataset.action, data);
    }, "image/jpeg", 0.92);
  });
}

function initShare() {
  $all("input.select-all").forEach(function (input) { input.addEventListener("focus", function () { input.select(); }); });
}

document.addEventListener("DOMContentLoaded", function () {
  initUploads(); initPresetForm(); initOverlay(); initPicker(); initCamera(); initShare();
});
