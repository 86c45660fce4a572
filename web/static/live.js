// Live updates of a running debate's page (parley serve). The page works
// without this script; with it, the part of the page that changes while a
// debate runs is replaced by what the server sends over server-sent events,
// rendered and escaped on the server like the page itself.
"use strict";
(function () {
  var status = document.querySelector("[data-live]");
  var live = document.getElementById("live");
  if (!status || !live || !window.EventSource) {
    return;
  }
  var es = new EventSource(status.getAttribute("data-live"));
  es.addEventListener("live", function (e) {
    // A context document the reader opened stays open across updates.
    var open = [];
    live.querySelectorAll("details[open]").forEach(function (d) { open.push(d.id); });
    live.innerHTML = e.data;
    open.forEach(function (id) {
      var d = id && document.getElementById(id);
      if (d) { d.open = true; }
    });
  });
  // A stream the server refuses (too many live pages open, the debate
  // gone) is not retried by the browser: say the page no longer updates.
  // A dropped connection is retried, and the page stays live.
  es.addEventListener("error", function () {
    if (es.readyState !== EventSource.CLOSED) {
      return;
    }
    status.removeAttribute("data-live");
    status.classList.add("ended");
    status.textContent = "Live updates stopped: the server did not accept them. Reload the page to see new turns.";
  });
  // The paragraph after the thread gains the links the verdict filed
  // (the vault page).
  es.addEventListener("after", function (e) {
    var also = document.querySelector("p.also");
    if (also) { also.outerHTML = e.data; }
  });
  es.addEventListener("done", function (e) {
    es.close();
    status.removeAttribute("data-live");
    status.classList.add("ended");
    status.textContent = "The debate is " + e.data + ".";
  });
})();
