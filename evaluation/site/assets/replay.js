/* The replay player of the arcade-gym site: reads #replay-data, steps through its frames and asks
 * the page's viewer (window.ArcadeViewers[name], name from [data-viewer]) to draw each one into
 * #board. Controls: play/pause, step back/forward, first/last, the #seek slider, a speed select,
 * keyboard (arrows, space, Home, End). Plain ES2019 script, no modules, no network. */
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
    var frames = replay.frames || [];
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

    if (!viewer || typeof viewer.draw !== "function") {
      board.textContent = "No viewer named " + name + " is loaded.";
      return;
    }

    function show(k) {
      index = Math.min(Math.max(k, 0), last);
      seek.value = String(index);
      position.textContent = "decision " + index + " / " + last;
      viewer.draw(frames[index], board, replay, index);
      if (index >= last) {
        pause();
      }
    }

    function pause() {
      if (timer !== null) {
        window.clearInterval(timer);
        timer = null;
      }
      play.textContent = "play";
      play.setAttribute("aria-pressed", "false");
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
    seek.max = String(last);
    show(0);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
