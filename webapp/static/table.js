// The seat page of a table photo: each hand's outline and number drawn over the photo at its own scale, and one tap
// per hand picking its player (picking a player another hand had swaps the two, so a swapped pair is one tap).
"use strict";

(function () {
  function fitOutlines() {
    var img = document.getElementById("table-photo"), svg = document.getElementById("table-outlines");
    if (!img || !svg || !img.naturalWidth) return;
    var w = img.naturalWidth, h = img.naturalHeight;
    svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    var unit = w / (img.getBoundingClientRect().width || w);   // photo pixels per CSS pixel
    Array.prototype.forEach.call(svg.querySelectorAll(".hand-outline"), function (g) {
      g.querySelector("rect").setAttribute("stroke-width", 3 * unit);
      g.querySelector("circle").setAttribute("r", 16 * unit);
      g.querySelector("text").setAttribute("font-size", 20 * unit);
    });
    svg.classList.add("ready");
  }

  function highlight(seat) {
    Array.prototype.forEach.call(document.querySelectorAll(".hand-outline"), function (g) {
      g.classList.toggle("on", g.dataset.seat === seat);
    });
  }

  function initPicks() {
    var form = document.getElementById("seats-form");
    if (!form) return;
    var previous = {};
    function remember() {
      Array.prototype.forEach.call(form.querySelectorAll("input[type=radio]:checked"), function (r) { previous[r.name] = r.value; });
    }
    remember();
    form.addEventListener("change", function (e) {
      var radio = e.target;
      if (radio.type !== "radio") return;
      if (radio.value) {
        Array.prototype.forEach.call(form.querySelectorAll("input[type=radio]:checked"), function (other) {
          if (other !== radio && other.value === radio.value) {
            var back = form.querySelector("input[name=" + other.name + "][value=\"" + CSS.escape(previous[radio.name] || "") + "\"]");
            if (back) back.checked = true;
          }
        });
      }
      highlight(radio.closest("fieldset").dataset.seat);
      remember();
    });
    form.addEventListener("focusin", function (e) {
      var set = e.target.closest && e.target.closest("fieldset");
      if (set) highlight(set.dataset.seat);
    });
  }

  // The hand page of a hand filled from a table photo: the photo opens on this hand's part of the table (data-focus,
  // photo pixels), scaled to the page's width; a tap on it shows the whole table and back. app.js draws the boxes and
  // sizes their numbers from the photo as shown, so it redraws after each change (its resize handler).
  function focusPhoto() {
    var wrap = document.getElementById("photo-wrap"), img = document.getElementById("photo");
    if (!wrap || !img || !wrap.dataset.focus || wrap.dataset.focused) return;
    if (!img.complete || !img.naturalWidth) { img.addEventListener("load", focusPhoto, { once: true }); return; }
    wrap.dataset.focused = "1";
    wrap.addEventListener("click", function () { wrap.classList.toggle("whole"); applyFocus(wrap, img); });
    applyFocus(wrap, img);
  }
  window.addEventListener("resize", function () {
    var wrap = document.getElementById("photo-wrap"), img = document.getElementById("photo");
    if (wrap && img && wrap.dataset.focused) applyFocus(wrap, img);
  });

  function applyFocus(wrap, img) {
    var svg = document.getElementById("overlay"), layers = [img, svg].filter(Boolean);
    var w = img.naturalWidth, h = img.naturalHeight;
    var f = wrap.dataset.focus.split(" ").map(Number);
    var x0 = Math.max(0, f[0]), y0 = Math.max(0, f[1]), x1 = Math.min(w, f[2]), y1 = Math.min(h, f[3]);
    var whole = wrap.classList.contains("whole") || x1 <= x0 || y1 <= y0;
    var shown = img.clientWidth / w;                     // CSS px per photo pixel, untransformed
    var zoom = Math.min(w / (x1 - x0), 4);
    layers.forEach(function (el) {
      el.style.transformOrigin = "0 0";
      el.style.transform = whole ? "" : "scale(" + zoom + ") translate(" + (-x0 * shown) + "px, " + (-y0 * shown) + "px)";
    });
    if (svg) {  // the boxes keep the photo's own size while the frame around them shrinks to the hand
      svg.style.width = whole ? "" : img.clientWidth + "px";
      svg.style.height = whole ? "" : img.clientHeight + "px";
    }
    wrap.style.overflow = whole ? "" : "hidden";
    wrap.style.height = whole ? "" : Math.round((y1 - y0) * shown * zoom) + "px";
    if (window.redrawOverlay) window.redrawOverlay();  // app.js: numbers sized to the photo as now shown
  }

  document.addEventListener("DOMContentLoaded", function () {
    var img = document.getElementById("table-photo");
    if (img) { if (img.complete) fitOutlines(); else img.addEventListener("load", fitOutlines); }
    window.addEventListener("resize", fitOutlines);
    initPicks();
    focusPhoto();
    // A live page swaps its regions for fresh copies (app.js): a new photo opens on its hand again.
    new MutationObserver(focusPhoto).observe(document.body, { childList: true, subtree: true });
  });
})();
