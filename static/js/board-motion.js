// How the board moves and sounds: cards travel from their old place to the
// new one (FLIP: first and last rects around each htmx swap, then invert and
// play with the Web Animations API), turn face up, cascade on a deal and an
// auto-complete, leave when a run is removed or a spike cleared, and a win is
// celebrated. Nothing here changes what the board says; with motion reduced
// (the system's setting or the player's, body[data-reduced-motion]) the board
// simply changes. Sound only when the player turned it on (body[data-sound]).
(function () {
  "use strict";
  const TRAVEL_MS = 180;
  const CASCADE_STEP_MS = 35;

  function reduced() {
    return document.body.dataset.reducedMotion === "on" ||
      window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  function board() { return document.getElementById("board"); }

  function cardOf(face) { return face.closest(".card") || face; }

  // Sound: a few oscillator notes, made when needed; nothing is downloaded.
  let audio = null;
  function tone(frequency, start, length, volume) {
    if (document.body.dataset.sound !== "on" || !window.AudioContext) return;
    audio = audio || new AudioContext();
    const at = audio.currentTime + start;
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = "triangle";
    oscillator.frequency.setValueAtTime(frequency, at);
    gain.gain.setValueAtTime(volume, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + length);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(at);
    oscillator.stop(at + length);
  }
  function cardTap() { tone(880, 0, 0.06, 0.15); tone(440, 0.01, 0.05, 0.1); }
  function fanfare() {
    [523.25, 659.25, 783.99, 1046.5].forEach(function (note, index) { tone(note, index * 0.14, 0.35, 0.2); });
    tone(1046.5, 0.62, 0.8, 0.25);
  }

  let first = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    const current = board();
    if (!current || event.detail.target !== current) { first = null; return; }
    const rects = {};
    const elements = {};
    current.querySelectorAll("[data-card]").forEach(function (face) {
      const card = cardOf(face);
      rects[face.dataset.card] = card.getBoundingClientRect();
      elements[face.dataset.card] = card;
    });
    first = { rects: rects, elements: elements, state: current.dataset.state, game: current.dataset.game };
  });

  document.addEventListener("htmx:afterSwap", function () {
    const current = board();
    if (!current) return;
    const seen = first;
    first = null;
    // A page's first board, or another game's (a new deal, a restart): dealt anew.
    if (!seen || seen.game !== current.dataset.game) { deal(current); return; }
    if (!current.querySelector("#refusal")) cardTap();
    const won = current.dataset.state === "won" && seen.state === "active";
    if (won) fanfare();
    if (reduced()) return;
    const travelling = [];
    const turning = [];
    const present = {};
    current.querySelectorAll("[data-card]").forEach(function (face) {
      const code = face.dataset.card;
      const card = cardOf(face);
      present[code] = true;
      const old = seen.rects[code];
      if (!old) { turning.push(card); return; }
      const now = card.getBoundingClientRect();
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) > 1 || Math.abs(dy) > 1) travelling.push([card, dx, dy]);
    });
    // Several cards at once (an auto-complete, a run) go one after another.
    const step = travelling.length > 3 ? CASCADE_STEP_MS : 0;
    travelling.forEach(function (entry, index) {
      entry[0].classList.add("travelling");
      const animation = entry[0].animate(
        [{ transform: "translate(" + entry[1] + "px," + entry[2] + "px)" }, { transform: "none" }],
        { duration: TRAVEL_MS, delay: index * step, easing: "ease-out", fill: "backwards" }
      );
      animation.onfinish = function () { entry[0].classList.remove("travelling"); };
    });
    turning.forEach(function (card) {
      card.animate([{ transform: "rotateY(90deg)" }, { transform: "none" }], { duration: TRAVEL_MS, easing: "ease-out" });
    });
    leave(seen, present);
    current.querySelectorAll("[data-cleared-spike]").forEach(function (banner) {
      const peak = current.querySelector('[data-spike="' + banner.dataset.clearedSpike + '"]');
      if (peak) peak.animate([{ transform: "scale(1)" }, { transform: "scale(1.08)", filter: "brightness(1.4)" }, { transform: "scale(1)" }], { duration: 600 });
      plantFlag(peak);
    });
    if (won) celebrate(current);
  });

  // Cards that left the table (a completed run) fly up and fade from where
  // they were, as copies over the page.
  function leave(seen, present) {
    const gone = Object.keys(seen.rects).filter(function (code) { return !present[code]; });
    if (gone.length < 4) return;
    gone.forEach(function (code, index) {
      const rect = seen.rects[code];
      const ghost = seen.elements[code].cloneNode(true);
      ghost.classList.add("card-ghost");
      ghost.removeAttribute("href");
      ghost.setAttribute("aria-hidden", "true");
      ghost.style.setProperty("left", rect.left + "px");
      ghost.style.setProperty("top", rect.top + "px");
      document.body.appendChild(ghost);
      const animation = ghost.animate(
        [{ transform: "none", opacity: 1 }, { transform: "translate(0, -120px) rotate(-12deg)", opacity: 0 }],
        { duration: 500, delay: index * 30, easing: "ease-in", fill: "both" }
      );
      animation.onfinish = function () { ghost.remove(); };
    });
  }

  function plantFlag(peak) {
    if (!peak || peak.querySelector(".peak-flag")) return;
    const flag = document.createElement("span");
    flag.className = "peak-flag";
    flag.setAttribute("aria-hidden", "true");
    flag.textContent = "\u2691";
    peak.appendChild(flag);
    flag.animate([{ transform: "translateY(-40px)", opacity: 0 }, { transform: "none", opacity: 1 }], { duration: 400, easing: "ease-out" });
  }

  // A win: Spike's avalanche of golden coins and a flag on every peak (its
  // rulebook's summit), a shower of suits for the other games.
  function celebrate(current) {
    const spike = current.classList.contains("variant-spike");
    if (spike) current.querySelectorAll("[data-spike]").forEach(plantFlag);
    const layer = document.createElement("div");
    layer.className = "celebration";
    layer.setAttribute("aria-hidden", "true");
    document.body.appendChild(layer);
    const height = window.innerHeight;
    const pieces = spike ? 40 : 30;
    let left = pieces;
    for (let index = 0; index < pieces; index += 1) {
      const piece = document.createElement("span");
      piece.className = spike ? "coin" : "confetti suit-" + ["spades", "hearts", "diamonds", "clubs"][index % 4];
      piece.textContent = spike ? "" : "\u2660\u2665\u2666\u2663"[index % 4];
      piece.style.setProperty("left", Math.round(Math.random() * 95) + "%");
      layer.appendChild(piece);
      const spin = Math.round(Math.random() * 720 - 360);
      const animation = piece.animate(
        [{ transform: "translateY(-60px) rotate(0deg)" }, { transform: "translateY(" + (height + 60) + "px) rotate(" + spin + "deg)" }],
        { duration: 1400 + Math.random() * 900, delay: Math.random() * 700, easing: "cubic-bezier(.3,.1,.7,1)", fill: "both" }
      );
      animation.onfinish = function () {
        left -= 1;
        if (!left) layer.remove();
      };
    }
  }

  // A fresh deal (a page with no move made yet) comes off the stock card by
  // card.
  function deal(current) {
    const moves = document.getElementById("moves");
    if (reduced() || !moves || moves.textContent.trim() !== "0") return;
    const stock = current.querySelector("#stock, .stock") || current;
    const from = stock.getBoundingClientRect();
    current.querySelectorAll(".tableau .card, .ridge .card").forEach(function (card, index) {
      const rect = card.getBoundingClientRect();
      card.animate(
        [{ transform: "translate(" + (from.left - rect.left) + "px," + (from.top - rect.top) + "px)", opacity: 0.4 }, { transform: "none", opacity: 1 }],
        { duration: 260, delay: index * 18, easing: "ease-out", fill: "backwards" }
      );
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { const current = board(); if (current) deal(current); });
  } else if (board()) {
    deal(board());
  }
})();
