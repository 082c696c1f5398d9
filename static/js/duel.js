// Progressive enhancement of the Duel's shared board (jinja_templates/matches/duel_board.jinja).
// Without this file a card that may move is a link that picks it (?sel=) and the
// page comes back with a form on every place that takes it; the stock and the pass
// are forms too, so the Duel plays without JavaScript.
// It holds no rule: the places a card may go come from the board itself
// (#duel-board[data-legal-moves], the server's legal moves for the seat to move), and
// every move is posted to the server, which judges it. Only the seat to move's
// board has data-legal-moves; the other seat's board has nothing to pick.
(function () {
  "use strict";
  const DRAG_THRESHOLD_PX = 6;

  let selection = null; // {unit, el, cards, places, targets}
  let drag = null; // {pick, pointerId, x, y, started, lost}
  let swallowClick = false;
  let before = null; // the board's revision and pick when a new board is coming

  function board() { return document.getElementById("duel-board"); }

  function playable(current) { return Boolean(current && current.dataset.moveUrl); }

  function moveMap(current) {
    try { return JSON.parse(current.dataset.legalMoves || "{}"); } catch (error) { return {}; }
  }

  function announce(text) {
    const region = document.getElementById("duel-announce");
    if (!region || !text) return;
    // A polite region reads a change; the same words twice need emptying first.
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text; }, 30);
  }

  function cardName(el) {
    const face = el && el.querySelector("[data-card]");
    return face ? face.getAttribute("aria-label") : "card";
  }

  function placeOf(el) {
    const current = board();
    const place = el && el.closest && el.closest("[data-pile]");
    return place && current && current.contains(place) ? place : null;
  }

  // How a place is spoken: its own name where the board gives one, else a pile's.
  function placeName(place) {
    return place.dataset.placeName || "pile " + place.dataset.pile.slice(1);
  }

  // A card's unit: its place and how many cards it heads (t3/2), as the board's
  // parts mark the cards that may be picked.
  function unitOf(el) { return el.dataset.tapSource + "/" + el.dataset.tapCount; }

  function cardOfUnit(current, unit) {
    const parts = unit.split("/");
    return current.querySelector('a.card[data-tap-source="' + parts[0] + '"][data-tap-count="' + parts[1] + '"]');
  }

  // The card a pointer or a key is on, with the cards above it that move with it
  // (its unit: t3/2 is the card and the one on it).
  function pickable(target) {
    const current = board();
    if (!playable(current) || !target || !target.closest) return null;
    const el = target.closest("a.card[data-tap-source]");
    if (!el || !current.contains(el)) return null;
    const unit = unitOf(el);
    const count = Number(unit.split("/")[1]) || 1;
    const cards = [el];
    let next = el.nextElementSibling;
    // The cards on it move with it, whether or not they could be picked themselves.
    while (next && cards.length < count) {
      if (next.matches(".card.up")) cards.push(next);
      next = next.nextElementSibling;
    }
    return { el: el, unit: unit, cards: cards };
  }

  function clearSelection() {
    if (!selection) return;
    selection.cards.forEach(function (el) { el.classList.remove("selected"); });
    selection.places.forEach(function (place) {
      place.classList.remove("lit");
      place.removeAttribute("tabindex");
      if (place.dataset.groupLabel) place.setAttribute("aria-label", place.dataset.groupLabel);
      delete place.dataset.groupLabel;
    });
    selection = null;
  }

  function select(pick, quiet) {
    clearSelection();
    const current = board();
    const targets = moveMap(current)[pick.unit] || {};
    const name = cardName(pick.el);
    const places = [];
    Object.keys(targets).forEach(function (key) {
      const place = current.querySelector('[data-pile="' + key + '"]');
      if (!place) return;
      places.push(place);
      place.classList.add("lit");
      // A lit place says what it does, as the no-JS page's target button does.
      place.dataset.groupLabel = place.getAttribute("aria-label") || "";
      place.setAttribute("aria-label", "Move the " + name + " to " + placeName(place));
      place.setAttribute("tabindex", "0");
    });
    pick.cards.forEach(function (el) { el.classList.add("selected"); });
    selection = { unit: pick.unit, el: pick.el, cards: pick.cards, places: places, targets: targets };
    if (!quiet) {
      announce(places.length
        ? name + " picked: it can go to " + places.map(placeName).join(", ") + "."
        : name + " has nowhere to go on this turn.");
    }
  }

  function post(notation) {
    const current = board();
    clearSelection();
    htmx.ajax("POST", current.dataset.moveUrl, {
      source: current, target: "#duel-board", swap: "outerHTML",
      values: { move: notation, revision: current.dataset.revision },
    });
  }

  // The move a drop on a place sends: the server's own for a lit place; for another
  // place the notation of the attempt (a pillar is `f`), so that the server refuses
  // it and says why.
  function attempt(pick, place) {
    const key = place.dataset.pile;
    if (selection && selection.unit === pick.unit && selection.targets[key]) return selection.targets[key];
    if (key === "w") return null;
    const parts = pick.unit.split("/");
    const dst = /^[SHDC][12]$/.test(key) ? "f" : key;
    return parts[0] + "-" + dst + (parts[1] === "1" ? "" : "/" + parts[1]);
  }

  // A click picks a card at once (no request); a click on a lit place moves it
  // there; a second click on the picked card puts it back.
  document.addEventListener("click", function (event) {
    if (swallowClick) {
      swallowClick = false;
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    const current = board();
    if (!playable(current) || event.ctrlKey || event.metaKey || event.shiftKey || event.button) return;
    const lit = event.target.closest && event.target.closest(".lit");
    if (selection && lit && current.contains(lit)) {
      event.preventDefault();
      post(selection.targets[lit.dataset.pile]);
      return;
    }
    const pick = pickable(event.target);
    if (pick) {
      event.preventDefault();
      if (selection && selection.el === pick.el) { clearSelection(); announce("Put back."); return; }
      select(pick);
      // The player's setting: a card with one move makes it at once (the two pillars
      // of a suit that both take a card are one move).
      const moves = Object.keys(selection.targets).map(function (key) { return selection.targets[key]; });
      if (document.body.dataset.singleTap === "on" && moves.length && moves.every(function (m) { return m === moves[0]; })) {
        post(moves[0]);
      }
      return;
    }
    // A click elsewhere puts the card back; the stock and the pass go on as forms.
    if (selection && current.contains(event.target)) clearSelection();
  }, true);

  // Drag and drop: pointer events serve mouse, touch and pen alike. The cards that
  // may be picked carry touch-action: none (arena.css), so a drag is not a scroll.
  document.addEventListener("pointerdown", function (event) {
    if (event.button || drag) return;
    const pick = pickable(event.target);
    if (pick) drag = { pick: pick, pointerId: event.pointerId, x: event.clientX, y: event.clientY, started: false };
  });

  document.addEventListener("pointermove", function (event) {
    if (!drag || drag.lost || event.pointerId !== drag.pointerId) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.started) {
      if (Math.abs(dx) + Math.abs(dy) < DRAG_THRESHOLD_PX) return;
      drag.started = true;
      try { drag.pick.el.setPointerCapture(event.pointerId); } catch (error) { /* the pointer is gone */ }
      select(drag.pick, true);
      drag.pick.cards.forEach(function (el) { el.classList.add("dragging"); });
    }
    event.preventDefault();
    drag.pick.cards.forEach(function (el) {
      el.style.setProperty("--drag-x", dx + "px");
      el.style.setProperty("--drag-y", dy + "px");
    });
  });

  function endDrag(event, dropped) {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const current = drag;
    drag = null;
    if (!current.started) return;
    swallowClick = true;
    window.setTimeout(function () { swallowClick = false; }, 0);
    if (current.lost) return;
    const pick = current.pick;
    // While they are dragged the cards let the pointer through (pointer-events:
    // none), so the element under it is the place they were dropped on.
    const under = dropped ? document.elementFromPoint(event.clientX, event.clientY) : null;
    pick.cards.forEach(function (el) {
      el.classList.remove("dragging");
      el.style.removeProperty("--drag-x");
      el.style.removeProperty("--drag-y");
    });
    const place = placeOf(under);
    const notation = place && place !== placeOf(pick.el) ? attempt(pick, place) : null;
    if (notation) post(notation);
    else clearSelection();
  }

  document.addEventListener("pointerup", function (event) { endDrag(event, true); });
  document.addEventListener("pointercancel", function (event) { endDrag(event, false); });
  // A link's own drag (the browser's, which would carry its address) would cancel
  // the pointer's.
  document.addEventListener("dragstart", function (event) {
    if (pickable(event.target)) event.preventDefault();
  });

  // Keys: Enter on a card picks it (its click); Tab reaches the lit places, and
  // Enter or Space on one moves the card there; Escape puts it back.
  document.addEventListener("keydown", function (event) {
    const current = board();
    if (!selection || !playable(current) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape") { clearSelection(); announce("Put back."); return; }
    const active = document.activeElement;
    if ((event.key === "Enter" || event.key === " ") && active && active.classList.contains("lit") && current.contains(active)) {
      event.preventDefault();
      post(selection.targets[active.dataset.pile]);
    }
  });

  // "Your turn.", "Waiting for bob.", "The duel is over.": the board's first words.
  function lead(current) {
    const line = current.querySelector(".duel-lead");
    return line ? line.textContent.trim() : "";
  }

  // A new board (a move, or the live panel's fetch after a push or on load, which
  // comes for both seats): the pick stays if the board is the same one, and the
  // focus stays on the board.
  document.addEventListener("htmx:beforeSwap", function (event) {
    const current = board();
    if (!current || event.detail.target !== current) { before = null; return; }
    if (drag && !drag.lost) {
      // The same board again (the live panel's fetch) would take the card from
      // under a pointer pressed on it: it is not swapped in. A new board ends the drag.
      const revision = /data-revision="(\d+)"/.exec(event.detail.serverResponse || "");
      if (revision && revision[1] === current.dataset.revision) { event.detail.shouldSwap = false; return; }
      drag.lost = true;
    }
    const active = document.activeElement;
    // The pick is this script's, or the page's own (a ?sel= page: its card links).
    const picked = current.querySelector("a.card.selected[data-tap-source]");
    before = {
      lead: lead(current),
      revision: current.dataset.revision,
      unit: selection ? selection.unit : picked && unitOf(picked),
      focusId: current.contains(active) ? active.id || "duel-title" : null,
    };
    selection = null;
  });

  document.addEventListener("htmx:afterSwap", function () {
    const current = board();
    const seen = before;
    before = null;
    if (!current || !seen) return;
    // Whose turn it is, when that changed (a refusal is read out by its alert).
    if (lead(current) !== seen.lead && !current.querySelector("[role=alert]")) announce(lead(current));
    if (seen.unit && seen.revision === current.dataset.revision) {
      const pick = pickable(cardOfUnit(current, seen.unit));
      if (pick) select(pick, true);
    }
    if (!seen.focusId) return;
    const target = document.getElementById(seen.focusId) || current.querySelector("a.card[data-tap-source], #duel-draw, #duel-pass") || document.getElementById("duel-title");
    if (!target) return;
    if (!target.matches("a, button")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  });

  // A pick made without this script (a ?sel= page) came with a form on every place
  // that takes the card: the board alone is fetched again, and the pick made here.
  document.addEventListener("DOMContentLoaded", function () {
    const current = board();
    if (current && current.dataset.boardUrl && current.querySelector(".target-button")) {
      htmx.ajax("GET", current.dataset.boardUrl, { source: current, target: "#duel-board", swap: "outerHTML" });
    }
  });

  // A turn or a match whose clock has run out is closed by the first look at the
  // board: the page looks once one of its clocks has shown zero for a second (the
  // clocks tick in board.js, which says so with a countdown-ended event).
  document.addEventListener("countdown-ended", function (event) {
    const current = board();
    if (current && current.contains(event.target) && current.dataset.boardUrl) {
      htmx.ajax("GET", current.dataset.boardUrl, { source: current, target: "#duel-board", swap: "outerHTML" });
    }
  });
})();
