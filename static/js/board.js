// Progressive enhancement of the server-rendered board. Without this file
// every card is a link and every action a form, so the game still works.
(function () {
  "use strict";
  const TAP_DELAY_MS = 230;
  let pendingSelect = null;

  function board() { return document.getElementById("board"); }

  function swapBoard(verb, url, values, source) {
    htmx.ajax(verb, url, { target: "#board", swap: "outerHTML", values: values, source: source });
  }

  // A single click selects the card; a double click taps it (tap-to-move).
  // The select waits a moment so that a double click sends only the tap.
  document.addEventListener("click", function (event) {
    const card = event.target.closest("a.card[data-tap-source]");
    if (!card || !board() || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    if (pendingSelect) return;
    pendingSelect = setTimeout(function () {
      pendingSelect = null;
      swapBoard("GET", card.getAttribute("href"), {}, card);
    }, TAP_DELAY_MS);
  });

  document.addEventListener("dblclick", function (event) {
    const card = event.target.closest("[data-tap-source]");
    const current = board();
    if (!card || !current) return;
    event.preventDefault();
    clearTimeout(pendingSelect);
    pendingSelect = null;
    swapBoard("POST", current.dataset.tapUrl, {
      source: card.dataset.tapSource,
      count: card.dataset.tapCount,
      revision: current.dataset.revision,
    }, card);
  });

  // Keyboard: u undo, d draw (or turn the waste back into the stock).
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select" || event.target.isContentEditable) return;
    const id = { u: "undo", d: "stock" }[event.key.toLowerCase()];
    const button = id && document.getElementById(id);
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  // Countdowns (next daily deals, a Time Attack clock) tick down between
  // requests; the server decides when time is really up.
  setInterval(function () {
    document.querySelectorAll("[data-countdown], #countdown[data-running]").forEach(function (el) {
      const key = el.dataset.countdown !== undefined ? "countdown" : "remaining";
      const left = Math.max(0, Number(el.dataset[key]) - 1);
      el.dataset[key] = String(left);
      const hours = Math.floor(left / 3600);
      const minutes = Math.floor((left % 3600) / 60);
      const seconds = String(left % 60).padStart(2, "0");
      el.textContent = (hours ? hours + ":" + String(minutes).padStart(2, "0") : minutes) + ":" + seconds;
    });
  }, 1000);

  // The clock on screen counts up between requests; the server's count is
  // the one that matters, and it stops adding after the idle cap.
  setInterval(function () {
    const clock = document.getElementById("clock");
    if (!clock || !("running" in clock.dataset)) return;
    const cap = Number(clock.dataset.cap || 30);
    const shown = Number(clock.dataset.shown || 0);
    if (shown >= cap) return;
    clock.dataset.shown = String(shown + 1);
    const total = Number(clock.dataset.elapsed) + shown + 1;
    const minutes = Math.floor(total / 60);
    const seconds = String(total % 60).padStart(2, "0");
    clock.textContent = minutes + ":" + seconds;
  }, 1000);
})();
