/* The replay player of the arcade-gym site: reads #replay-data, steps through its frames and asks
 * the page's viewer (window.ArcadeViewers[name], name from [data-viewer]) to draw each one into
 * #board. Controls: play/pause, step back/forward, first/last, the #seek slider, a speed select,
 * keyboard (arrows, space, Home, End). Deep links: the page opens at `#ply=N` (also `#N` or
 * `?ply=N`) on decision N, the hash follows every step (history.replaceState, so Back leaves the
 * page instead of undoing steps) and "copy link" copies the URL of the decision shown (or, where
 * the clipboard is refused, e.g. on file://, leaves the link selected in a box to copy by hand).
 * Beside the board, the recorded reply (and reasoning) of a model's decision, when the frame holds
 * one (`reply`, `reasoning`: evaluation/core/replay_export.py), put in as text, never as HTML.
 * A compact replay (`frameEncoding` "deflate-delta@1", evaluation/core/replay_compact.py: frames
 * as changes against the frame before, deflated, base64) is unpacked with assets/inflate.js and
 * rebuilt here before any viewer sees a frame, so viewers always get whole frames.
 * Plain ES2019 script, no modules, no network. */
(function () {
  "use strict";

  function start() {
    var source = document.getElementById("replay-data");
    var root = document.querySelector("[data-viewer]");
    var board = document.getElementById("board");
    if (!source || !root || !board) {
      return;
    }
    var replay = JSON.parse(source.textContent);
    var frames;
    try {
      frames = replay.frames = expandFrames(replay);
    } catch (error) {
      board.textContent = "This replay cannot be read: " + error.message;
      return;
    }
    window.ArcadeReplay = replay; /* the rebuilt replay, for tests and the console */
    var last = Math.max(frames.length - 1, 0);
    var name = root.getAttribute("data-viewer");
    var viewers = window.ArcadeViewers || {};
    var viewer = viewers[name];
    var seek = document.getElementById("seek");
    var position = document.getElementById("position");
    var play = document.getElementById("play");
    var speed = document.getElementById("speed");
    var index = 0;
    var timer = null;
    var linked = false; /* no #ply is written until the page was opened at one or stepped */
    addStyle();
    var link = copyLink(root);
    var said = decisionPanel(board);

    if (!viewer || typeof viewer.draw !== "function") {
      board.textContent = "No viewer named " + name + " is loaded.";
      return;
    }

    function show(k) {
      index = Math.min(Math.max(k, 0), last);
      seek.value = String(index);
      position.textContent = "decision " + index + " / " + last;
      viewer.draw(frames[index], board, replay, index);
      said(frames[index]);
      if (index >= last) {
        pause();
      }
      if (timer === null) {
        remember();
      }
      linked = true;
    }

    /* Put the decision shown into the address (not while playing: browsers throttle a flood of
     * history calls, so pause() writes it once). */
    function remember() {
      var hash = "#ply=" + index;
      if (!linked || window.location.hash === hash) {
        return;
      }
      try {
        window.history.replaceState(null, "", hash);
      } catch (error) {
        /* an address that cannot change (a sandboxed frame) still plays */
      }
    }

    function pause() {
      if (timer !== null) {
        window.clearInterval(timer);
        timer = null;
      }
      play.textContent = "play";
      play.setAttribute("aria-pressed", "false");
      remember();
    }

    function resume() {
      if (index >= last) {
        show(0);
      }
      pause();
      var perSecond = Number(speed.value) || 4;
      timer = window.setInterval(function () {
        show(index + 1);
      }, 1000 / perSecond);
      play.textContent = "pause";
      play.setAttribute("aria-pressed", "true");
    }

    function toggle() {
      if (timer === null) {
        resume();
      } else {
        pause();
      }
    }

    play.addEventListener("click", toggle);
    document.getElementById("step").addEventListener("click", function () {
      pause();
      show(index + 1);
    });
    document.getElementById("back").addEventListener("click", function () {
      pause();
      show(index - 1);
    });
    document.getElementById("first").addEventListener("click", function () {
      pause();
      show(0);
    });
    document.getElementById("last").addEventListener("click", function () {
      pause();
      show(last);
    });
    seek.addEventListener("input", function () {
      pause();
      show(Number(seek.value));
    });
    speed.addEventListener("change", function () {
      if (timer !== null) {
        resume();
      }
    });
    document.addEventListener("keydown", function (event) {
      var tag = event.target && event.target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
        return;
      }
      if (tag === "BUTTON" && event.key === " ") {
        return; /* the focused button's own click handles it */
      }
      var moves = { ArrowRight: 1, ArrowLeft: -1 };
      if (event.key in moves) {
        pause();
        show(index + moves[event.key]);
      } else if (event.key === " ") {
        toggle();
      } else if (event.key === "Home") {
        pause();
        show(0);
      } else if (event.key === "End") {
        pause();
        show(last);
      } else {
        return;
      }
      event.preventDefault();
    });
    window.addEventListener("hashchange", function () {
      var wanted = requested();
      if (wanted !== null && wanted !== index) {
        pause();
        show(wanted);
      }
    });
    link.button.addEventListener("click", function () {
      link.copy(window.location.href.split("#")[0] + "#ply=" + index);
    });
    seek.max = String(last);
    var opened = requested();
    linked = opened !== null;
    show(opened || 0);
  }

  /* The frames of `replay`: as they stand, or rebuilt from a compact replay. */
  function expandFrames(replay) {
    var encoding = replay.frameEncoding;
    if (encoding === undefined) {
      return replay.frames || [];
    }
    if (encoding !== "deflate-delta@1" || typeof replay.frames !== "string" || !window.ArcadeInflate) {
      throw new Error("unknown frame encoding " + String(encoding));
    }
    var inflate = window.ArcadeInflate;
    var text = new TextDecoder("utf-8").decode(inflate.inflate(inflate.base64(replay.frames)));
    var changes = JSON.parse(text);
    var frames = [];
    for (var k = 0; k < changes.length; k += 1) {
      frames.push(k === 0 ? changes[0] : applyChange(frames[k - 1], changes[k]));
    }
    return frames;
  }

  /* `old` with one change applied (the forms of evaluation/core/replay_compact.py): a plain value
   * replaces it, `[value]` replaces it whole, {k, r} patches an object, {n, i} patches a list. */
  function applyChange(old, change) {
    var key;
    if (Array.isArray(change)) {
      return change[0];
    }
    if (change === null || typeof change !== "object") {
      return change;
    }
    if (Array.isArray(old)) {
      var length = typeof change.n === "number" ? change.n : old.length;
      var items = old.slice(0, length);
      while (items.length < length) {
        items.push(null);
      }
      var changed = change.i || {};
      for (key in changed) {
        if (Object.prototype.hasOwnProperty.call(changed, key)) {
          items[Number(key)] = applyChange(items[Number(key)], changed[key]);
        }
      }
      return items;
    }
    var out = {};
    var removed = change.r || [];
    for (key in old) {
      if (Object.prototype.hasOwnProperty.call(old, key) && removed.indexOf(key) < 0) {
        put(out, key, old[key]);
      }
    }
    var keys = change.k || {};
    for (key in keys) {
      if (Object.prototype.hasOwnProperty.call(keys, key)) {
        put(out, key, applyChange(out[key], keys[key]));
      }
    }
    return out;
  }

  /* out[key] = value, as an own property even for a key like "__proto__" (as JSON.parse does). */
  function put(out, key, value) {
    Object.defineProperty(out, key, {
      value: value,
      enumerable: true,
      writable: true,
      configurable: true
    });
  }

  /* The rules of the player's own elements (the copy-link box, the decision panel), added once
   * here so the site's style sheet needs none. */
  function addStyle() {
    if (document.getElementById("replay-style")) {
      return;
    }
    var node = document.createElement("style");
    node.id = "replay-style";
    node.textContent = [
      ".replay #link { flex: 1 1 16rem; min-width: 0; font: 0.85rem ui-monospace, monospace; }",
      ".replay #link-status { color: var(--muted, #5b6270); font-size: 0.85rem; }",
      ".replay .decision { margin-top: 1rem; max-width: 100%; }",
      ".replay .decision h3 { margin: 0 0 0.25rem; font-size: 1rem; }",
      ".replay .decision pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 16rem;" +
        " overflow-y: auto; margin: 0 0 0.5rem; }"
    ].join("\n");
    document.head.appendChild(node);
  }

  /* The decision the address asks for: `#ply=N`, `#N` or `?ply=N` (null: none or not a number;
   * show() clamps it to the game). */
  function requested() {
    var hash = /^#(?:ply=)?(\d{1,9})$/.exec(window.location.hash);
    if (hash) {
      return Number(hash[1]);
    }
    var query = /[?&]ply=(\d{1,9})(?:&|$)/.exec(window.location.search);
    return query ? Number(query[1]) : null;
  }

  /* The "copy link" button, appended to the controls, and the box that shows the link selected
   * when the clipboard is refused. Returns {button, copy(url)}. */
  function copyLink(root) {
    var controls = root.querySelector(".controls") || root;
    var button = document.createElement("button");
    button.type = "button";
    button.id = "copy-link";
    button.title = "copy a link to the decision shown";
    button.textContent = "copy link";
    var box = document.createElement("input");
    box.type = "text";
    box.id = "link";
    box.readOnly = true;
    box.hidden = true;
    box.setAttribute("aria-label", "link to the decision shown");
    var status = document.createElement("output");
    status.id = "link-status";
    status.setAttribute("aria-live", "polite");
    controls.appendChild(button);
    controls.appendChild(box);
    controls.appendChild(status);

    function byHand() {
      box.hidden = false;
      box.focus();
      box.select();
      var copied = false;
      try {
        copied = document.execCommand("copy");
      } catch (error) {
        copied = false;
      }
      status.textContent = copied ? "link copied" : "press Ctrl+C (\u2318C) to copy the link";
    }

    function copy(url) {
      box.value = url;
      var clipboard = navigator.clipboard;
      if (!clipboard || typeof clipboard.writeText !== "function") {
        byHand();
        return;
      }
      clipboard.writeText(url).then(function () {
        box.hidden = true;
        status.textContent = "link copied";
      }, byHand);
    }

    return { button: button, copy: copy };
  }

  /* The panel under the board with the model's reply (and reasoning) that made the decision
   * shown; hidden on frames without one. Returns said(frame). */
  function decisionPanel(board) {
    var panel = document.createElement("section");
    panel.id = "decision";
    panel.className = "decision";
    panel.setAttribute("aria-label", "the decision's reply");
    panel.hidden = true;
    var replyHead = document.createElement("h3");
    replyHead.textContent = "Reply";
    var reply = document.createElement("pre");
    reply.className = "decision-reply";
    var thought = document.createElement("details");
    var summary = document.createElement("summary");
    summary.textContent = "Reasoning";
    var reasoning = document.createElement("pre");
    reasoning.className = "decision-reasoning";
    thought.appendChild(summary);
    thought.appendChild(reasoning);
    panel.appendChild(replyHead);
    panel.appendChild(reply);
    panel.appendChild(thought);
    board.insertAdjacentElement("afterend", panel);

    function text(value) {
      return typeof value === "string" && value.length ? value : null;
    }

    return function said(frame) {
      var shown = text(frame && frame.reply);
      var why = text(frame && frame.reasoning);
      panel.hidden = shown === null && why === null;
      replyHead.hidden = reply.hidden = shown === null;
      reply.textContent = shown === null ? "" : shown;
      thought.hidden = why === null;
      reasoning.textContent = why === null ? "" : why;
    };
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
