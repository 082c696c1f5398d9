// Progressive enhancement of the server-rendered board. Without this file
// every card is a link and every action a form, so the game still works.
// It holds no rule: which card may go where comes from the board itself
// (#board[data-legal-moves], the server's legal moves of the public position), and
// every move is posted to the server, which judges it.
(function () {
  "use strict";
  const DRAG_THRESHOLD_PX = 6;
  const PLACES = "[data-pile], [data-spike], .stock, .wild-cell";
  const FOCUSABLE = "a.card, button:not([disabled])";
  const NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

  let selection = null; // {key, el, card, unit, moves}
  let drag = null; // {el, pointerId, x, y, started, unit}
  let swallowClick = false;
  let pending = null; // what the player was doing when the board was sent away

  function board() { return document.getElementById("board"); }

  function moveMap(current) {
    try { return JSON.parse(current.dataset.legalMoves || "{}"); } catch (error) { return {}; }
  }

  function announce(text) {
    const region = document.getElementById("announce");
    if (!region || !text) return;
    // A polite region reads a change; the same words twice need emptying first.
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text; }, 30);
  }

  function cardCode(el) {
    const face = el && el.querySelector("[data-card]");
    return face ? face.dataset.card : null;
  }

  function cardName(code) {
    const face = code && document.querySelector('#board [data-card="' + code + '"]');
    return face ? face.getAttribute("aria-label") : code;
  }

  function placeOf(el) { return el && el.closest(PLACES); }

  function placeName(place) {
    if (!place) return "";
    const pile = place.dataset.pile;
    if (place.dataset.spike) return "spike " + place.dataset.spike;
    if (!pile) return place.classList.contains("stock") ? "the stock" : "the wild card";
    if (pile === "w") return "the waste";
    if (pile === "f") return "the " + (NAMES[place.dataset.suit] || "") + " foundation";
    if (pile[0] === "t") return "pile " + pile.slice(1);
    if (pile[0] === "r") return "reserve slot " + pile.slice(1);
    return pile;
  }

  // What a picked element moves: a selection key (t3/2, w/1, fH/1) from its
  // ?sel= link, or a Spike play (the card's own move form).
  function pickable(target) {
    const current = board();
    if (!current || !target.closest) return null;
    const el = target.closest("a.card[href*='sel='], .spike-play button.card");
    if (!el || !current.contains(el) || !current.dataset.moveUrl) return null;
    if (el.tagName === "BUTTON") {
      const input = el.form && el.form.querySelector("input[name=move]");
      return input ? { el: el, play: input.value, key: input.value, unit: [el] } : null;
    }
    const key = new URL(el.getAttribute("href"), window.location.href).searchParams.get("sel");
    if (!key || key.indexOf("/") < 0) return null;
    const count = Number(key.split("/")[1]) || 1;
    const unit = [el];
    let next = el.nextElementSibling;
    while (next && unit.length < count) {
      if (next.matches("a.card")) unit.push(next);
      next = next.nextElementSibling;
    }
    return { el: el, key: key, unit: unit, play: null };
  }

  function targetPlaces(current, pick) {
    if (pick.play) return Array.from(current.querySelectorAll('[data-pile="w"]'));
    const moves = moveMap(current)[pick.key] || {};
    const suit = (cardCode(pick.el) || "").slice(-1);
    const places = [];
    Object.keys(moves).forEach(function (dst) {
      current.querySelectorAll('[data-pile="' + dst + '"]').forEach(function (place) {
        if (dst !== "f" || !place.dataset.suit || place.dataset.suit === suit) places.push(place);
      });
    });
    return places;
  }

  function clearSelection() {
    if (!selection) return;
    selection.unit.forEach(function (el) { el.classList.remove("selected"); });
    document.querySelectorAll("#board .lit").forEach(function (place) {
      place.classList.remove("lit");
      if (place.dataset.litLabel !== undefined) {
        const top = topFocusable(place) || place;
        if (place.dataset.litLabel) top.setAttribute("aria-label", place.dataset.litLabel);
        else top.removeAttribute("aria-label");
        delete place.dataset.litLabel;
      }
      if (place.dataset.litTabindex) { place.removeAttribute("tabindex"); delete place.dataset.litTabindex; }
    });
    selection = null;
  }

  function topFocusable(place) {
    const all = place.querySelectorAll(FOCUSABLE);
    return all.length ? all[all.length - 1] : null;
  }

  // A refusal's reason stays until the player tries again: a new pick (of a drag as
  // well) takes it away, so that a drop asking nothing leaves no old reason behind.
  function dismissRefusal() {
    const refusal = document.querySelector("#board #refusal");
    if (refusal) refusal.remove();
  }

  function select(pick, quiet) {
    clearSelection();
    dismissRefusal();
    const current = board();
    const places = targetPlaces(current, pick);
    const name = cardName(cardCode(pick.el));
    pick.unit.forEach(function (el) { el.classList.add("selected"); });
    places.forEach(function (place) {
      place.classList.add("lit");
      // A lit place says where it sends the card, as the no-JS targets do.
      const top = topFocusable(place);
      const onto = cardCode(top || place.querySelector(".card.up"));
      const label = "Move the " + name + (onto ? " onto the " + cardName(onto) + ", " : " to ") + placeName(place);
      const holder = top || place;
      place.dataset.litLabel = holder.getAttribute("aria-label") || "";
      holder.setAttribute("aria-label", label);
      if (!top) { place.setAttribute("tabindex", "-1"); place.dataset.litTabindex = "1"; }
    });
    selection = { key: pick.key, el: pick.el, unit: pick.unit, play: pick.play, places: places };
    if (!quiet && !pick.play) {
      announce(places.length
        ? name + " picked: it can go to " + places.map(placeName).join(", ") + "."
        : name + " has nowhere to go right now.");
    }
    return places;
  }

  function post(url, values, focusCard) {
    const current = board();
    values.revision = current.dataset.revision;
    pending = { card: focusCard };
    htmx.ajax("POST", url, { target: "#board", swap: "outerHTML", values: values, source: current });
  }

  // The move to a place: the server's own notation from the move map, or, for
  // a place the map does not offer, the notation of the attempt, so that the
  // server refuses it and says why.
  function moveTo(pick, place) {
    const current = board();
    const code = cardCode(pick.el);
    if (pick.play) {
      clearSelection();
      post(current.dataset.moveUrl, { move: pick.play }, code);
      return;
    }
    const dst = place.dataset.pile;
    const moves = moveMap(current)[pick.key] || {};
    const parts = pick.key.split("/");
    const notation = moves[dst] || parts[0] + "-" + dst + (parts[1] === "1" ? "" : "/" + parts[1]);
    clearSelection();
    post(current.dataset.moveUrl, { move: notation }, code);
  }

  function tap(pick) {
    const current = board();
    const source = pick.el.dataset.tapSource;
    clearSelection();
    if (!source) return;
    post(current.dataset.tapUrl, { source: source, count: pick.el.dataset.tapCount }, cardCode(pick.el));
  }

  // A click picks a card at once (no request); a click on a lit place moves
  // it there; a second click on the picked card sends it to the first place
  // that takes it (so a double click still taps).
  document.addEventListener("click", function (event) {
    if (swallowClick) {
      swallowClick = false;
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    const current = board();
    if (!current || event.ctrlKey || event.metaKey || event.shiftKey || event.button) return;
    const place = event.target.closest && event.target.closest(".lit");
    if (selection && place && current.contains(place)) {
      event.preventDefault();
      moveTo(selection, place);
      return;
    }
    const pick = pickable(event.target);
    if (!pick || pick.play) { if (selection && current.contains(event.target)) clearSelection(); return; }
    event.preventDefault();
    if (selection && selection.el === pick.el) { tap(selection); return; }
    const places = select(pick);
    if (document.body.dataset.singleTap === "on" && places.length === 1) moveTo(selection, places[0]);
  }, true);

  // Drag and drop: pointer events serve mouse, touch and pen alike. Movable
  // cards carry touch-action: none (arena.css), so a drag is not a scroll.
  document.addEventListener("pointerdown", function (event) {
    if (event.button || drag) return;
    const pick = pickable(event.target);
    if (!pick) return;
    drag = { pick: pick, pointerId: event.pointerId, x: event.clientX, y: event.clientY, started: false };
  });

  document.addEventListener("pointermove", function (event) {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.started) {
      if (Math.abs(dx) + Math.abs(dy) < DRAG_THRESHOLD_PX) return;
      drag.started = true;
      try { drag.pick.el.setPointerCapture(event.pointerId); } catch (error) { /* the pointer is gone */ }
      select(drag.pick, true);
      drag.pick.unit.forEach(function (el) { el.classList.remove("returning"); el.classList.add("dragging"); });
    }
    event.preventDefault();
    drag.pick.unit.forEach(function (el) {
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
    const under = dropped ? document.elementFromPoint(event.clientX, event.clientY) : null;
    const place = under && placeOf(under);
    const home = placeOf(current.pick.el);
    const lit = place && place.classList.contains("lit");
    const pick = current.pick;
    if (!lit) {
      // Back where it came from; a drop on another place is still sent, so
      // that the server says why it cannot go there.
      pick.unit.forEach(function (el) {
        el.classList.add("returning");
        el.style.setProperty("--drag-x", "0px");
        el.style.setProperty("--drag-y", "0px");
      });
      // No transitionend comes when motion is reduced (no transition).
      window.setTimeout(function () {
        pick.unit.forEach(function (el) { el.classList.remove("returning", "dragging"); });
      }, 260);
    }
    if (place && place !== home && (lit || /^[trf]/.test(place.dataset.pile || ""))) {
      moveTo(pick, place);
    } else {
      clearSelection();
      pick.unit.forEach(function (el) { el.classList.remove("dragging"); });
    }
  }

  // A link's own drag (the browser's, which would carry its address) would
  // cancel the pointer's.
  document.addEventListener("dragstart", function (event) {
    if (pickable(event.target)) event.preventDefault();
  });

  document.addEventListener("pointerup", function (event) { endDrag(event, true); });
  document.addEventListener("pointercancel", function (event) { endDrag(event, false); });
  document.addEventListener("transitionend", function (event) {
    const el = event.target;
    if (el.classList && el.classList.contains("returning")) el.classList.remove("returning", "dragging");
  });

  // Keyboard. Arrows walk the places and the cards in a place; Enter (or
  // Space) picks and places, through the same click as a pointer.
  function places(current) {
    return Array.from(current.querySelectorAll(PLACES)).filter(function (place) {
      return !place.parentElement.closest(PLACES) && (topFocusable(place) || place.classList.contains("lit"));
    });
  }

  function focusPlace(place) {
    const top = topFocusable(place);
    (top || place).focus();
  }

  function arrow(event, current) {
    const active = document.activeElement;
    const list = places(current);
    if (!list.length) return;
    const here = current.contains(active) ? placeOf(active) : null;
    const index = list.indexOf(here);
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      const step = event.key === "ArrowRight" ? 1 : -1;
      const next = index < 0 ? 0 : (index + step + list.length) % list.length;
      focusPlace(list[next]);
      return;
    }
    if (!here) { focusPlace(list[0]); return; }
    const cards = Array.from(here.querySelectorAll(FOCUSABLE));
    const at = cards.indexOf(active);
    const next = cards[at + (event.key === "ArrowDown" ? 1 : -1)];
    if (next) next.focus();
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select" || event.target.isContentEditable) return;
    if (document.querySelector("dialog[open]")) return;
    const current = board();
    if (event.key === "?") {
      const help = document.getElementById("keys-help");
      if (help && help.showModal) { event.preventDefault(); help.showModal(); }
      return;
    }
    if (!current) return;
    if (event.key.indexOf("Arrow") === 0) { event.preventDefault(); arrow(event, current); return; }
    if (event.key === "Escape" && selection) { clearSelection(); announce("Put back."); return; }
    const active = document.activeElement;
    if ((event.key === "Enter" || event.key === " ") && current.contains(active)) {
      if (active.classList.contains("lit") && selection) { event.preventDefault(); moveTo(selection, active); return; }
      if (event.key === " " && active.matches("a.card")) { event.preventDefault(); active.click(); }
      return;
    }
    const id = { u: "undo", d: "stock", h: "hint" }[event.key.toLowerCase()];
    const button = id && document.getElementById(id);
    if (button && !button.disabled) {
      event.preventDefault();
      pending = { id: id };
      // Through htmx directly: a key pressed just after a swap may come before
      // htmx has taken over the new form, which would post it as a page.
      const form = button.form;
      if (form && form.getAttribute("hx-post")) {
        htmx.ajax("POST", form.getAttribute("hx-post"), { source: form, target: "#board", swap: "outerHTML" });
      } else {
        button.click();
      }
    }
  });

  // Before a new board replaces this one: where the focus was, and which card
  // was where, so that the player keeps their place and hears what changed.
  let before = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    const current = board();
    if (!current || event.detail.target !== current) { before = null; return; }
    const active = document.activeElement;
    const focus = pending || {};
    if (current.contains(active)) {
      focus.id = focus.id || active.id;
      focus.card = focus.card || cardCode(active);
      const place = placeOf(active);
      focus.pile = place && (place.dataset.pile || place.dataset.spike);
      focus.within = true;
    }
    const cards = {};
    current.querySelectorAll("[data-card]").forEach(function (face) {
      cards[face.dataset.card] = placeName(placeOf(face));
    });
    before = { focus: focus, cards: cards, game: current.dataset.game };
    pending = null;
    selection = null;
  });

  function refocus(current, focus) {
    if (!focus.within && !focus.card && !focus.id) return;
    let target = null;
    const face = focus.card && current.querySelector('[data-card="' + focus.card + '"]');
    if (face) {
      target = face.closest(FOCUSABLE);
      if (!target) {
        const place = placeOf(face);
        if (place) target = topFocusable(place) || place;
      }
    }
    if (!target && focus.id) target = document.getElementById(focus.id);
    if (!target && focus.pile) {
      const place = current.querySelector('[data-pile="' + focus.pile + '"], [data-spike="' + focus.pile + '"]');
      target = place && topFocusable(place);
    }
    if (!target) target = current.querySelector(FOCUSABLE);
    if (!target) return;
    if (!target.matches(FOCUSABLE) && !target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }

  function describe(current, cards) {
    const moved = {};
    const turned = {};
    current.querySelectorAll("[data-card]").forEach(function (face) {
      const code = face.dataset.card;
      const place = placeName(placeOf(face));
      const name = face.getAttribute("aria-label");
      if (!(code in cards)) (turned[place] = turned[place] || []).push(name);
      else if (cards[code] !== place) (moved[place] = moved[place] || []).push(name);
    });
    const lines = [];
    Object.keys(moved).forEach(function (place) {
      const names = moved[place];
      const more = names.length > 1 ? " with " + (names.length - 1) + " more card" + (names.length > 2 ? "s" : "") : "";
      lines.push(names[0] + more + " moved to " + place);
    });
    Object.keys(turned).forEach(function (place) {
      lines.push(turned[place].join(", ") + " turned face up on " + place);
    });
    current.querySelectorAll(".run-leaving-text, .spike-cleared-banner, #summary h2").forEach(function (el) {
      lines.push(el.textContent.trim());
    });
    return lines.join("; ");
  }

  document.addEventListener("htmx:afterSwap", function () {
    const current = board();
    if (!current || !before) return;
    const seen = before;
    before = null;
    refocus(current, seen.focus);
    if (seen.game !== current.dataset.game) {
      // Another game's board (a new deal, a restart): its cards are news, not moves.
      const title = current.querySelector(".hud-title");
      announce("New game: " + (title ? title.textContent.trim().replace(/\s+/g, " ") : current.getAttribute("aria-label")) + ".");
      return;
    }
    const refusal = current.querySelector("#refusal");
    if (refusal) { announce(refusal.textContent.trim()); return; }
    // A lost position's banner is an alert of its own.
    if (!current.querySelector("[role=alert]")) announce(describe(current, seen.cards));
  });

  // Countdowns (next daily deals, a Time Attack clock, a match's and a turn's
  // clocks) tick down between requests; the server decides when time is really
  // up. One that has shown zero for a second says so once, with a bubbling
  // countdown-ended event, so that what it belongs to can look again.
  setInterval(function () {
    document.querySelectorAll("[data-countdown], #countdown[data-running]").forEach(function (el) {
      const key = el.dataset.countdown !== undefined ? "countdown" : "remaining";
      const was = Number(el.dataset[key]);
      if (was === 0 && !el.dataset.ended) {
        el.dataset.ended = "1";
        el.dispatchEvent(new CustomEvent("countdown-ended", { bubbles: true }));
      }
      const left = Math.max(0, was - 1);
      el.dataset[key] = String(left);
      const hours = Math.floor(left / 3600);
      const minutes = Math.floor((left % 3600) / 60);
      const seconds = String(left % 60).padStart(2, "0");
      el.textContent = (hours ? hours + ":" + String(minutes).padStart(2, "0") : minutes) + ":" + seconds;
    });
  }, 1000);

  // A timed game whose clock has run out is closed by the first request that looks
  // at it: once a countdown on the page (the board's own, or its match's clock beside
  // it) has said it ended, a timed board asks for itself again and shows the game as
  // the server has it (closed, with its summary, or still running if it was early).
  document.addEventListener("countdown-ended", function () {
    const current = board();
    if (!current || !("timed" in current.dataset) || !current.dataset.boardUrl) return;
    htmx.ajax("GET", current.dataset.boardUrl, { source: current, target: "#board", swap: "outerHTML" });
  });

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
