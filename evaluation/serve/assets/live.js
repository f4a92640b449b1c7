// The live page of `arcade-eval serve`: start runs (POST /api/runs with the page's token) and
// watch one through server-sent events (GET /api/runs/<id>/events). Everything a run prints is
// written with textContent: it is text, never markup.
(function () {
  "use strict";
  var token = document.querySelector('meta[name="live-token"]').content;
  var title = document.getElementById("progress-title");
  var command = document.getElementById("progress-command");
  var bar = document.getElementById("progress-bar");
  var count = document.getElementById("progress-count");
  var stateOut = document.getElementById("progress-state");
  var cancel = document.getElementById("progress-cancel");
  var log = document.getElementById("progress-log");
  var runsBody = document.getElementById("runs");
  var MAX_LOG_LINES = 1000;
  var source = null;
  var watched = null;

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Live-Token": token },
      body: JSON.stringify(body),
      credentials: "same-origin",
    }).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) throw new Error(data.error || response.statusText);
        return data;
      });
    });
  }

  function appendLine(text) {
    var line = document.createElement("div");
    line.textContent = text;
    log.appendChild(line);
    while (log.childNodes.length > MAX_LOG_LINES) log.removeChild(log.firstChild);
    log.scrollTop = log.scrollHeight;
  }

  function showCount(lines, steps) {
    if (steps) {
      bar.max = steps;
      bar.value = Math.min(lines, steps);
      count.textContent = Math.min(lines, steps) + " / " + steps + " steps";
    } else {
      bar.removeAttribute("value");
      count.textContent = lines + " lines";
    }
  }

  function watch(job) {
    if (source) source.close();
    watched = job;
    title.textContent = job.title;
    command.textContent = job.command.join(" ");
    log.textContent = "";
    stateOut.textContent = job.state;
    cancel.hidden = job.state !== "queued" && job.state !== "running";
    var lines = 0;
    showCount(0, job.steps);
    source = new EventSource(job.events);
    source.addEventListener("state", function (event) {
      var data = JSON.parse(event.data);
      stateOut.textContent =
        data.state + (data.position ? " (" + data.position + " in line)" : "");
    });
    source.addEventListener("line", function (event) {
      var data = JSON.parse(event.data);
      appendLine(data.text);
      lines = data.n || lines + 1;
      showCount(lines, job.steps);
    });
    source.addEventListener("gap", function (event) {
      appendLine("(" + JSON.parse(event.data).dropped + " earlier lines not kept)");
    });
    source.addEventListener("end", function (event) {
      var data = JSON.parse(event.data);
      stateOut.textContent =
        data.state + (data.exitCode === null ? "" : " (exit " + data.exitCode + ")");
      if (data.state === "done" && job.steps) bar.value = bar.max;
      cancel.hidden = true;
      source.close();
      source = null;
      refreshRuns();
    });
    refreshRuns();
  }

  function refreshRuns() {
    fetch("/api/runs", { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        runsBody.textContent = "";
        data.runs.slice().reverse().forEach(function (job) {
          var row = document.createElement("tr");
          [job.title, job.command.join(" "), job.state, String(job.lines)].forEach(
            function (text, index) {
              var cell = document.createElement("td");
              if (index === 1) {
                var code = document.createElement("code");
                code.textContent = text;
                cell.appendChild(code);
              } else {
                cell.textContent = text;
              }
              row.appendChild(cell);
            }
          );
          var action = document.createElement("td");
          var button = document.createElement("button");
          button.type = "button";
          button.textContent = "watch";
          button.addEventListener("click", function () { watch(job); });
          action.appendChild(button);
          row.appendChild(action);
          runsBody.appendChild(row);
        });
      })
      .catch(function () {});
  }

  Array.prototype.forEach.call(document.querySelectorAll("form[data-run]"), function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var error = form.querySelector(".form-error");
      error.textContent = "";
      var values = {};
      Array.prototype.forEach.call(form.querySelectorAll("[data-field]"), function (input) {
        var kind = input.getAttribute("data-kind");
        var name = input.getAttribute("data-field");
        if (kind === "bool") values[name] = input.checked;
        else values[name] = input.value.trim();
      });
      post("/api/runs", { run: form.getAttribute("data-run"), values: values })
        .then(watch)
        .catch(function (failure) { error.textContent = failure.message; });
    });
  });

  cancel.addEventListener("click", function () {
    if (!watched) return;
    post("/api/runs/" + encodeURIComponent(watched.id) + "/cancel", {}).catch(function (failure) {
      appendLine("cancel refused: " + failure.message);
    });
  });

  refreshRuns();
})();
