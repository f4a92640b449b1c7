/* The pieces every replay viewer and the arena player (arena-play.js) build their drawing from,
 * so each holds only what is its own game's: SVG and HTML elements, a board beside its facts, a
 * style sheet added once, a row of a facts list, a count with thousands separated, the page's
 * inline data. Loaded before the viewer by every replay page (evaluation/site/build.py:
 * SiteBuild.replay) and before the player by the arena entry pages. Plain ES2019, no modules, no
 * network.
 *
 * The frame contract (what a frame holds, where a game's viewer lives, how it registers on
 * window.ArcadeViewers and what draw(frame, element, replay, index) is given): docs/frames.md. */
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  var DASH = "\u2014";

  /* An SVG element with `attrs` set (values as text), appended to `parent` when given. */
  function svg(tag, attrs, parent) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (key) {
      node.setAttribute(key, String(attrs[key]));
    });
    if (parent) {
      parent.appendChild(node);
    }
    return node;
  }

  /* An HTML element with its class (when given) and text (unless null or undefined), appended
   * to `parent` when given. */
  function el(tag, className, text, parent) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined && text !== null) {
      node.textContent = String(text);
    }
    if (parent) {
      parent.appendChild(node);
    }
    return node;
  }

  /* Replace what `element` shows with one `div.className` holding `parts` in order (a
   * viewer's board beside its facts); returns the div. */
  function show(element, className, parts) {
    var wrap = el("div", className);
    parts.forEach(function (part) {
      wrap.appendChild(part);
    });
    element.replaceChildren(wrap);
    return wrap;
  }

  /* A whole number with commas between thousands (1234567 -> "1,234,567"). */
  function thousands(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  /* Add a script's style sheet to the page once (`id` names it). */
  function style(id, css) {
    if (document.getElementById(id)) {
      return;
    }
    var node = document.createElement("style");
    node.id = id;
    node.textContent = css;
    document.head.appendChild(node);
  }

  /* Append one term and its value (a dash when missing) to the `<dl>` `list`; returns the
   * `<dd>`. Options: `field` (the dd's data-field, for tests), `className`. */
  function fact(list, term, value, options) {
    var opts = options || {};
    var missing = value === null || value === undefined;
    el("dt", null, term, list);
    var dd = el("dd", opts.className || null, missing ? DASH : value, list);
    if (opts.field) {
      dd.setAttribute("data-field", opts.field);
    }
    return dd;
  }

  /* The page's inline `#page-data` JSON (SiteBuild.page / replay `data`); {} without it. */
  function pageData() {
    var node = document.getElementById("page-data");
    if (!node) {
      return {};
    }
    try {
      return JSON.parse(node.textContent) || {};
    } catch (error) {
      return {};
    }
  }

  window.ArcadeKit = {
    svg: svg,
    el: el,
    show: show,
    style: style,
    fact: fact,
    thousands: thousands,
    pageData: pageData
  };
})();
