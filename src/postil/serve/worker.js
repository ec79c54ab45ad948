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
let state = null; // {session, build, errors} as of the latest event

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
    if (state && !event.reload) state = { ...state, build: event.build, errors: event.errors };
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
