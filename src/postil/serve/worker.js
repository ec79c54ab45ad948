/* postil serve: one live-reload event stream shared by every open tab (a SharedWorker).
 *
 * Browsers open at most 6 HTTP/1.1 connections per host, and an EventSource holds one for
 * as long as its page is open: with one stream per tab, the seventh tab of the dev server
 * would never load. This worker holds the only stream and forwards its events to every tab
 * (livereload.js), and greets a tab that joins later with the current state.
 */
"use strict";
const ports = new Set();
let source = null;
let state = null; // the hello as of the latest event: {session, build, errors, warnings, changes}
const CHANGES = 16; // builds listed in `changes`, as the server's hello (hub.HELLO_CHANGES)

function send(port, name, data) {
  port.postMessage({ name, data });
}

function open() {
  source = new EventSource("/__postil/events");
  source.addEventListener("hello", (message) => {
    state = JSON.parse(message.data);
    for (const port of ports) send(port, "hello", state);
  });
  source.addEventListener("build", (message) => {
    const event = JSON.parse(message.data);
    if (state && !event.reload) {
      // What a tab that joins later is greeted with: the hello's `changes` go on, so the
      // tab can tell whether the builds since its page was served changed it.
      const changes = [...(state.changes || []), [event.build, event.changed]].slice(-CHANGES);
      state = { ...state, build: event.build, errors: event.errors, warnings: event.warnings, changes };
    }
    for (const port of ports) send(port, "build", event);
  });
}

self.onconnect = (connection) => {
  const port = connection.ports[0];
  ports.add(port);
  port.onmessage = (message) => {
    if (message.data === "close") ports.delete(port);
  };
  port.start();
  if (source === null) open();
  else if (state !== null) send(port, "hello", state);
};
