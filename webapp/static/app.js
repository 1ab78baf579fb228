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
    showError(data.message || data.error || ("HTTP " + xhr.status));
  };
  xhr.onerror = function () { hideProgress(); showError(body.dataset.networkError); };
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
  document.addEventListener("change", function (e) {
    var input = e.target;
    if (input.id === "photo-input") {
      if (!input.files.length) return;
      var form = input.form, file = input.files[0];
      showProgress(document.body.dataset.uploading, 0);
      shrinkPhoto(file).then(function (photo) {
        var data = new FormData(form);
        data.set("photo", photo, photo.name || file.name);
        uploadPhoto(form.action, data);
        input.value = "";
      });
    }
  });
  document.addEventListener("submit", function (e) {
    var form = e.target;
    // A second tap on "settle" while the first is on its way does nothing (the server is idempotent too).
    if (form.hasAttribute("data-once") && form.dataset.sent) { e.preventDefault(); return; }
    // A change is first checked against the round as it is now (live.check): a page that only missed changes
    // elsewhere in the round sends the newest version instead of being refused for nothing.
    if (live.check && form.querySelector("input[name=if_match]") && !form.dataset.checked) {
      e.preventDefault();
      var submitter = e.submitter;
      live.check().then(function () { resubmit(form, submitter); });
      return;
    }
    delete form.dataset.checked;
    if (form.hasAttribute("data-progress")) showProgress(document.body.dataset.reading, null);
    if (form.hasAttribute("data-once")) form.dataset.sent = "1";
  });
}

// Send a form after live.check; a form whose region was redrawn meanwhile is not sent (the person sees what changed).
function resubmit(form, submitter) {
  if (!document.contains(form)) return;
  form.dataset.checked = "1";
  if (form.requestSubmit) form.requestSubmit(submitter && form.contains(submitter) ? submitter : undefined);
  else form.submit();
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
// One colour scheme on the photo and in the list: sure = green, unsure = orange with "?", not in the hand
// (left out, removed or moved away) = dashed. Boxes are numbered; the review's cards carry the same numbers, so the
// list is the legend and no card code is written over the photo (they overlapped on tight fans).
var SVG_NS = "http://www.w3.org/2000/svg";
function svgEl(name, attrs) {
  var el = document.createElementNS(SVG_NS, name);
  Object.keys(attrs).forEach(function (k) { el.setAttribute(k, attrs[k]); });
  return el;
}
var SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
function cardFace(code) {
  code = String(code || "");
  return code.length === 2 && SUITS[code[1]] ? (code[0] === "T" ? "10" : code[0]) + SUITS[code[1]] : code;
}
function overlaps(a, b) { return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]; }
// Where a number's badge goes: beside its box, at the first place that covers no other badge and stays in the photo.
function placeBadge(box, size, w, h, placed) {
  var cx = (box[0] + box[2]) / 2, cy = (box[1] + box[3]) / 2, r = size / 2;
  // Above the card first, then on its face (its corner index stays visible), then around it, further out.
  var spots = [[cx, box[1] - r], [cx, cy], [cx, box[3] + r], [box[2] + r, cy], [box[0] - r, cy],
               [cx, cy - 2 * r], [cx, cy + 2 * r], [box[2] + r, box[1] + r], [box[0] - r, box[1] + r],
               [cx, box[1] - 3 * r], [cx, box[3] + 3 * r], [box[2] + 3 * r, cy], [box[0] - 3 * r, cy]];
  for (var i = 0; i < spots.length; i++) {
    var x = Math.min(Math.max(spots[i][0], r), w - r), y = Math.min(Math.max(spots[i][1], r), h - r);
    var rect = [x - r, y - r, x + r, y + r];
    if (!placed.some(function (p) { return overlaps(p, rect); })) { placed.push(rect); return [x, y]; }
  }
  return null;  // no free place: the box keeps its colour, the number is in the list only
}
// Each card the reader named, with its number and its state against the hand as it is now.
function readCards(svg) {
  var cards = [];
  try { cards = JSON.parse(svg.dataset.cards || "[]"); } catch (err) { cards = []; }
  var held = (svg.dataset.held || "").split(" ").filter(Boolean);
  var look = (svg.dataset.look || "").split(" ").filter(Boolean);
  return cards.map(function (c, i) {
    var at = held.indexOf(c.code);
    if (at >= 0) held.splice(at, 1);
    var state = at < 0 ? "out" : (c.sure === false || look.indexOf(c.code) >= 0 ? "unsure" : "sure");
    return { code: c.code, box: c.box, n: i + 1, state: state };
  });
}
function initOverlay() {
  var img = $("#photo"), svg = $("#overlay");
  if (!img || !svg) return;
  var cards = readCards(svg);
  numberReviewCards(cards);
  function draw() {
    var w = img.naturalWidth, h = img.naturalHeight;
    if (!w || !h) return;
    svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    // Badges sized to the photo as shown (about 20 CSS px), whatever its resolution.
    var shown = img.getBoundingClientRect().width || w;
    var unit = w / shown, badge = 20 * unit, stroke = Math.max(1.5, 2.5 * unit);
    var placed = [];
    cards.forEach(function (c) {
      if (!c.box) return;
      svg.appendChild(svgEl("rect", { x: c.box[0], y: c.box[1], width: c.box[2] - c.box[0], height: c.box[3] - c.box[1],
        "class": "box " + c.state, "stroke-width": stroke, "data-n": c.n }));
    });
    cards.forEach(function (c) {
      if (!c.box) return;
      var at = placeBadge(c.box, badge, w, h, placed);
      if (!at) return;
      var g = svgEl("g", { "class": "badge-n " + c.state });
      g.appendChild(svgEl("circle", { cx: at[0], cy: at[1], r: badge / 2, "stroke-width": unit }));
      var t = svgEl("text", { x: at[0], y: at[1], "font-size": badge * 0.62, "text-anchor": "middle", "dominant-baseline": "central" });
      t.textContent = String(c.n) + (c.state === "unsure" ? "?" : "");
      g.appendChild(t);
      svg.appendChild(g);
    });
  }
  if (img.complete) draw(); else img.addEventListener("load", draw);
  redrawOverlay = draw;
}
var redrawOverlay = null;
window.addEventListener("resize", function () { if (redrawOverlay) redrawOverlay(); });
// The review's cards are the overlay's legend: each shows its box's number.
function numberReviewCards(cards) {
  var free = cards.filter(function (c) { return c.state !== "out"; });
  $all(".review .card.fix[data-code]").forEach(function (button) {
    var i = free.findIndex(function (c) { return c.code === button.dataset.code; });
    if (i < 0 || button.querySelector(".n")) return;
    var n = document.createElement("sup");
    n.className = "n"; n.textContent = free[i].n;
    button.appendChild(n);
    free.splice(i, 1);
  });
  var gone = cards.filter(function (c) { return c.state === "out" && c.box; });
  var legend = $("#overlay-out");
  if (legend && gone.length) {
    legend.hidden = false;
    gone.forEach(function (c) {
      var chip = document.createElement("span");
      chip.className = "card out" + (/[HD]$/.test(c.code) ? " red" : ""); chip.textContent = cardFace(c.code);
      var n = document.createElement("sup"); n.className = "n"; n.textContent = c.n;
      chip.appendChild(n); legend.appendChild(chip);
    });
  }
}

// ---- the review: fix a card (the picker), move or swap cards (two taps or a drag) -------------------
// Tap a card: it is selected and the picker opens. Then tap its right value in the picker (a correction), another
// card (the two swap), a "+" slot or a row's name (the card moves there), or the card again (nothing). A card can
// also be dragged onto another card, a slot or a row. Every change is a plain form post carrying the round's ETag.
var picker = { mode: null, target: null };
function pickerSheet() { return $("#picker"); }
function manualBox() { return $("#manual-rows"); }
function selectedFix() { return $(".review .fix.selected"); }
function tappedCodes() {
  var textarea = manualBox();
  return textarea ? textarea.value.toUpperCase().split(/[\s\/,]+/).filter(Boolean) : [];
}
function markUsed() {
  var used = picker.mode === "append" ? tappedCodes() : [];
  $all(".picker .card").forEach(function (b) { b.classList.toggle("used", used.indexOf(b.dataset.code) >= 0); });
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
function openPicker(mode, title) {
  var sheet = pickerSheet();
  if (!sheet) return;
  picker.mode = mode; sheet.hidden = false;
  $("#picker-title").textContent = title;
  var t = picker.target;
  $("#picker-remove").hidden = !(mode === "correct" && t && t.dataset.code);
  var help = $("#picker-help");
  if (help) help.hidden = !(mode === "correct" && t && t.dataset.code && $(".review .rowname.target"));
  showLikely(mode === "correct" && t && t.dataset.alternatives ? t.dataset.alternatives.split(" ") : []);
  markUsed();
  var review = $("#review");
  sheet.classList.toggle("correcting", mode === "correct");
  if (review && mode === "correct") {
    review.classList.add("moving");
    // Keep the rows in view above the (half-height) sheet: the next tap may be on them (swap or move).
    var first = $(".review .row") || review, header = $(".top");
    var top = first.getBoundingClientRect().top + window.scrollY - (header ? header.offsetHeight : 0) - 8;
    window.scrollTo(0, Math.max(0, top));
  }
}
function closePicker() {
  var sheet = pickerSheet();
  if (sheet) sheet.hidden = true;
  picker.mode = null; picker.target = null;
  $all(".fix.selected").forEach(function (b) { b.classList.remove("selected"); });
  var review = $("#review");
  if (review) review.classList.remove("moving");
  live.applyPending();
}
function post(formId, values) {
  var form = $(formId);
  if (!form) return;
  Object.keys(values).forEach(function (k) { form.elements[k].value = values[k]; });
  resubmitChecked(form);
}
function resubmitChecked(form) {
  if (live.check) live.check().then(function () { form.submit(); }); else form.submit();
}
function moveCard(card, toRow, toIndex) {
  post("#move-form", { row: card.dataset.row, index: card.dataset.index, to_row: toRow, to_index: toIndex == null ? "" : toIndex });
}
function swapCards(a, b) {
  post("#swapcards-form", { row: a.dataset.row, index: a.dataset.index, other_row: b.dataset.row, other_index: b.dataset.index });
}
// What a tap or a drop on `el` does with the selected card `card`; false when `el` is no place for it.
function dropOn(card, el) {
  // Big Two's cards left have no order: there a second tap just picks the other card.
  if (!el || !card || !card.dataset.code || !$("#move-form")) return false;
  var other = el.closest(".review .card.fix");
  if (other === card) return false;
  if (other && other.dataset.code) { swapCards(card, other); return true; }
  if (other) { moveCard(card, other.dataset.row, ""); return true; }  // a "+" slot: the end of its row
  var row = el.closest(".review .rowname.target, .review .row.drop");
  if (row && $("#move-form")) { moveCard(card, row.dataset.row, ""); return true; }
  return false;
}
function choose(code) {
  if (picker.mode === "correct" && picker.target) {
    post("#correct-form", { row: picker.target.dataset.row, index: picker.target.dataset.index, code: code });
  } else if (picker.mode === "append" && manualBox()) {
    // Chinese poker: 13 cards written as rows 3 / 5 / 5; Big Two (data-layout=loose): the cards left.
    var textarea = manualBox();
    var loose = textarea.dataset.layout === "loose";
    var most = loose ? parseInt(textarea.dataset.max, 10) || 13 : 13;
    var codes = tappedCodes();
    if (codes.indexOf(code) >= 0 || codes.length >= most) return;
    codes.push(code);
    textarea.value = loose ? codes.join(" ") : [codes.slice(0, 3), codes.slice(3, 8), codes.slice(8, 13)]
      .filter(function (r) { return r.length; }).map(function (r) { return r.join(" "); }).join(" / ");
    markUsed();
    if (codes.length === most) closePicker();
  }
}
var dragJustEnded = false;
function initPicker() {
  var sheet = pickerSheet();
  if (!sheet) return;
  document.addEventListener("click", function (e) {
    if (dragJustEnded) { dragJustEnded = false; e.preventDefault(); return; }
    var selected = selectedFix();
    var fix = e.target.closest(".review .fix");
    var rowName = e.target.closest(".review .rowname.target");
    if (fix && fix.disabled) return;
    if (selected && selected.dataset.code && (fix || rowName) && fix !== selected) {
      if (dropOn(selected, fix || rowName)) { e.preventDefault(); return; }
    }
    if (fix) {
      if (fix === selected) { closePicker(); return; }
      $all(".fix.selected").forEach(function (b) { b.classList.remove("selected"); });
      fix.classList.add("selected");
      picker.target = fix;
      openPicker("correct", (fix.dataset.code ? cardFace(fix.dataset.code) : "＋") + " →");
    }
  });
  $all(".picker:not(.likely) .card").forEach(function (button) {
    button.addEventListener("click", function () { choose(button.dataset.code); });
  });
  $("#picker-close").addEventListener("click", closePicker);
  $("#picker-remove").addEventListener("click", function () {
    if (picker.mode !== "correct" || !picker.target) return;
    post("#remove-form", { row: picker.target.dataset.row, index: picker.target.dataset.index });
  });
  document.addEventListener("click", function (e) {
    var tap = e.target.closest("#manual-tap");
    if (tap && manualBox()) { manualBox().value = ""; picker.target = null; openPicker("append", tap.textContent); }
  });
  initDrag();
  openCheckedCard();
}
// The round page links an unsure card's tile to "#check-<code>" here: that card is selected, its picker open (with
// the reader's next guesses), so a correction from the round page is two taps.
function openCheckedCard() {
  var found = /^#check-([2-9TJQKA][SHDC])$/.exec(location.hash);
  var card = found && $('.review .card.fix[data-code="' + found[1] + '"]');
  if (!card || card.disabled) return;
  card.scrollIntoView({ block: "center" });
  card.click();
}
// Drag a card onto another card (swap), a "+" slot or a row (move). Pointer events: mouse, pen and touch alike.
function initDrag() {
  var drag = null;
  function under(e) {
    var el = document.elementFromPoint(e.clientX, e.clientY);
    return el && (el.closest(".review .card.fix") || el.closest(".review .rowname.target") || el.closest(".review .row.drop"));
  }
  document.addEventListener("pointerdown", function (e) {
    var card = e.target.closest(".review .card.fix");
    if (!card || !card.dataset.code || card.disabled || !$("#move-form")) return;
    drag = { card: card, x: e.clientX, y: e.clientY, ghost: null, over: null };
  });
  document.addEventListener("pointermove", function (e) {
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) < 12) return;
      drag.ghost = drag.card.cloneNode(true);
      drag.ghost.classList.add("drag-ghost");
      document.body.appendChild(drag.ghost);
    }
    drag.ghost.style.left = e.clientX + "px"; drag.ghost.style.top = e.clientY + "px";
    var over = under(e);
    if (over !== drag.over) {
      if (drag.over) drag.over.classList.remove("drop-over");
      if (over && over !== drag.card) over.classList.add("drop-over");
      drag.over = over;
    }
    e.preventDefault();
  });
  function end(e, cancelled) {
    if (!drag) return;
    var d = drag; drag = null;
    if (!d.ghost) return;  // a tap, not a drag: the click handler does it
    d.ghost.remove();
    if (d.over) d.over.classList.remove("drop-over");
    dragJustEnded = true;
    setTimeout(function () { dragJustEnded = false; }, 400);
    if (!cancelled) dropOn(d.card, under(e));
  }
  document.addEventListener("pointerup", function (e) { end(e, false); });
  document.addEventListener("pointercancel", function (e) { end(e, true); });
}

// ---- live round: other phones' changes appear within about two seconds --------------------------------
// Every second (not while the tab is hidden) the page asks for the round's (or game's) JSON with If-None-Match:
// unchanged answers 304 with no body. On a new tag it fetches its own page again and replaces each region
// (data-live) whose HTML changed — except one the person is busy in (typing, a card selected, the picker or the
// camera open), which is replaced when they leave it. Forms in a region carry the ETag of the page they came with.
var live = { pending: {}, doc: null, applyPending: function () {}, check: null };
function regionBusy(region) {
  var active = document.activeElement;
  if (active && region.contains(active) && (/^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) || active.isContentEditable)
      && active.type !== "hidden") return true;
  if (region.querySelector(".fix.selected")) return true;
  if (region.querySelector("#review") && picker.mode) return true;
  var camera = region.querySelector("#camera-box");
  if (camera && camera.open) return true;
  var typed = region.querySelector("#manual-rows");
  if (typed && typed.value !== typed.defaultValue) return true;
  return false;
}
function withoutTags(html) { return html.replace(/name="if_match" value="[^"]*"/g, ""); }
function initLive() {
  var body = document.body, url = body.dataset.liveUrl, page = body.dataset.pageUrl;
  if (!url || !page || !window.fetch || !window.DOMParser) return;
  var etag = body.dataset.etag || null, busy = false;
  var served = {};  // each region's HTML as the server last sent it (scripts change the DOM after)
  $all("[data-live]").forEach(function (r) { served[r.id] = r.innerHTML; });
  function replace(region, fresh) {
    // <details> the person opened or closed stay that way.
    var open = {};
    $all("details[id]", region).forEach(function (d) { open[d.id] = d.open; });
    region.innerHTML = fresh.innerHTML;
    Object.keys(open).forEach(function (id) { var d = document.getElementById(id); if (d) d.open = open[id]; });
    served[region.id] = fresh.innerHTML;
  }
  function apply(doc) {
    var swapped = false;
    var newTag = doc.body && doc.body.dataset.etag;
    $all("[data-live]").forEach(function (region) {
      var fresh = doc.getElementById(region.id);
      if (!fresh || fresh.innerHTML === served[region.id]) { delete live.pending[region.id]; return; }
      // Only the version in its forms changed: what the person is looking at is current, so their next change
      // is made against the newest version (no needless 412), and nothing is redrawn under their finger.
      if (withoutTags(fresh.innerHTML) === withoutTags(served[region.id])) {
        $all("input[name=if_match]", region).forEach(function (input) { input.value = newTag || input.value; });
        served[region.id] = fresh.innerHTML;
        delete live.pending[region.id];
        return;
      }
      if (regionBusy(region)) { live.pending[region.id] = true; return; }  // replaced when they leave it
      delete live.pending[region.id];
      replace(region, fresh);
      swapped = true;
    });
    if (newTag && !Object.keys(live.pending).length) body.dataset.etag = newTag;
    if (swapped) afterSwap();
  }
  live.applyPending = function () {
    if (live.doc && Object.keys(live.pending).length) setTimeout(function () { apply(live.doc); }, 0);
  };
  document.addEventListener("focusout", function () { setTimeout(live.applyPending, 0); });
  document.addEventListener("toggle", function () { live.applyPending(); }, true);
  function refresh() {
    return fetch(page, { cache: "no-store", credentials: "same-origin", headers: { "X-Live": "1" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        live.doc = new DOMParser().parseFromString(html, "text/html");
        apply(live.doc);
      });
  }
  function signature(data) {  // a server without ETags yet: what the page shows, as one string
    return JSON.stringify([data.status, data.revision, data.hands, (data.events || []).length, (data.rounds || []).length]);
  }
  function poll() {
    if (document.hidden || busy) return;
    busy = true;
    var headers = { "Accept": "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (r.status !== 200) return null;
        var header = r.headers.get("ETag");
        return r.json().then(function (data) { return data.etag || header || signature(data); });
      })
      .then(function (tag) {
        if (!tag || tag === etag) return null;
        var first = etag === null;
        etag = tag;
        return first ? null : refresh();
      })
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(function () { busy = false; });
  }
  setInterval(poll, 1000);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
  poll();
  // Before a change is sent: is the page current? (A 304 costs one small request; a change brings it up to date.)
  live.check = function () {
    var headers = { "Accept": "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    return fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (r.status !== 200) return null;
        var header = r.headers.get("ETag");
        return r.json().then(function (data) {
          var tag = data.etag || header || signature(data);
          if (tag === etag) return null;
          etag = tag;
          return refresh();
        });
      })
      .catch(function () { /* the server will judge the change itself */ });
  };
}
// After regions were replaced: draw the overlay again, mark the newest change line.
function afterSwap() {
  initOverlay(); initCamera();
  var line = $("#change-line");
  if (line && line.textContent.trim()) {
    line.classList.remove("fresh"); void line.offsetWidth; line.classList.add("fresh");
  }
}

// ---- live camera (getUserMedia) with the 3/5/5 guide ---------------------------------------------
function initCamera() {
  var box = $("#camera-box"), video = $("#camera-video"), capture = $("#camera-capture");
  if (!box || !video || !capture || box.dataset.bound) return;
  box.dataset.bound = "1";
  var stream = null;
  var message = $("#camera-message");
  box.addEventListener("toggle", function () {
    if (!box.open) { if (stream) stream.getTracks().forEach(function (t) { t.stop(); }); stream = null; return; }
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      message.textContent = document.body.dataset.cameraNone;
      return;
    }
    navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: 3840 }, height: { ideal: 2160 } }, audio: false })
      .then(function (s) { stream = s; video.srcObject = s; video.play(); message.textContent = ""; })
      .catch(function (err) { message.textContent = document.body.dataset.cameraUnavailable + " (" + err.name + ")"; });
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
  initLive(); initUploads(); initPresetForm(); initOverlay(); initPicker(); initCamera(); initShare();
});

// ---- share: copy the game's link, or hand it to the phone's share sheet where the browser has one ----------
function initShareButtons() {
  var url = $("#share-url"), copy = $("#share-copy"), send = $("#share-native");
  if (!url) return;
  if (copy) copy.addEventListener("click", function () {
    var done = function () { copy.textContent = copy.dataset.done; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url.value).then(done, function () { url.select(); document.execCommand("copy"); done(); });
    } else { url.select(); document.execCommand("copy"); done(); }
  });
  if (send && navigator.share) {
    send.hidden = false;
    send.addEventListener("click", function () {
      navigator.share({ title: send.dataset.title, url: url.value }).catch(function () { /* dismissed */ });
    });
  }
}
document.addEventListener("DOMContentLoaded", initShareButtons);

// ---- new-game form: the banker list shows the names as they are typed -------------------------------------
function initBankerNames() {
  var form = $("#new-game");
  if (!form || !form.elements.banker) return;
  function update() {
    $all("option[data-seat]", form).forEach(function (option) {
      var typed = form.elements["player" + option.dataset.seat].value.trim();
      option.textContent = typed || option.dataset.blank;
    });
  }
  form.addEventListener("input", function (e) { if (/^player\d$/.test(e.target.name)) update(); });
  update();
}
document.addEventListener("DOMContentLoaded", initBankerNames);

// ---- "How else could it have been set?": the hindsight is fetched the first time its fold opens ----------
document.addEventListener("toggle", function (e) {
  var box = e.target;
  if (!box.open || !box.dataset || !box.dataset.hindsightUrl || box.dataset.loaded) return;
  box.dataset.loaded = "1";
  var body = box.querySelector(".hindsight-body");
  body.textContent = body.dataset.loading;
  fetch(box.dataset.hindsightUrl, { credentials: "same-origin" })
    .then(function (r) {
      // 422: rules the engine does not model; its page says why, and that is shown in the fold too
      if (!r.ok && r.status !== 422) throw new Error(r.status);
      return r.text();
    })
    .then(function (html) {
      var found = new DOMParser().parseFromString(html, "text/html").querySelector("#hindsight-result");
      if (!found) throw new Error("no hindsight");
      body.replaceChildren.apply(body, Array.prototype.slice.call(found.childNodes));
    })
    .catch(function () {
      delete box.dataset.loaded;
      var link = document.createElement("a");
      link.href = box.dataset.hindsightUrl; link.textContent = "↻";
      body.replaceChildren(link);
    });
}, true);

// ---- installable, and honest when offline ---------------------------------------------------------------
// The service worker keeps the app shell and the last copy of each page. Offline, the page says so and every
// form is switched off (read-only): nothing is queued, so nothing is sent twice when the connection returns.
function setOffline(off) {
  var banner = $("#offline-banner");
  document.body.classList.toggle("offline", off);
  if (banner) banner.hidden = !off;
  $all("form button, form input, form select, form textarea").forEach(function (el) {
    if (off && !el.disabled) { el.disabled = true; el.dataset.offlineDisabled = "1"; }
    if (!off && el.dataset.offlineDisabled) { el.disabled = false; delete el.dataset.offlineDisabled; }
  });
}
function initOffline() {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(function () { /* http: fine */ });
  window.addEventListener("offline", function () { setOffline(true); });
  window.addEventListener("online", function () { setOffline(false); });
  document.addEventListener("submit", function (e) {
    if (!navigator.onLine) { e.preventDefault(); e.stopImmediatePropagation(); setOffline(true); }
  }, true);
  if (!navigator.onLine) setOffline(true);
}
document.addEventListener("DOMContentLoaded", initOffline);
