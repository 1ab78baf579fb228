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

  document.addEventListener("DOMContentLoaded", function () {
    var img = document.getElementById("table-photo");
    if (img) { if (img.complete) fitOutlines(); else img.addEventListener("load", fitOutlines); }
    window.addEventListener("resize", fitOutlines);
    initPicks();
  });
})();
