// Search under file:// (the offline build, opened from the file system).
//
// Browsers refuse to start a Web Worker from a file:// URL, and Material's search
// runs in a worker. Opened from the file system, this script replaces `Worker`
// with a stand-in that runs the worker's script inside a hidden iframe instead:
// the same script, the same messages, only a different global. Served over HTTP
// it does nothing.
"use strict";
(() => {
  if (location.protocol !== "file:") return;

  // Code for inside the iframe: the two worker globals the search script uses.
  const workerGlobals = `
    postMessage = (data) => parent.postMessage(data, "*");
    importScripts = (...urls) => urls.reduce((done, url) => done.then(() =>
      new Promise((loaded) => {
        const script = document.createElement("script");
        script.src = url;
        script.onload = loaded;
        document.body.appendChild(script);
      })), Promise.resolve());
  `;

  class FrameWorker extends EventTarget {
    constructor(url) {
      super();
      this.onmessage = null;
      this.onerror = null;
      this.frame = document.createElement("iframe");
      this.frame.hidden = true;
      document.body.appendChild(this.frame);
      const inner = this.frame.contentWindow;
      this.relay = (event) => {
        if (event.source !== inner) return;
        const message = new MessageEvent("message", { data: event.data });
        this.dispatchEvent(message);
        if (this.onmessage) this.onmessage(message);
      };
      window.addEventListener("message", this.relay);
      inner.document.open();
      inner.document.write(
        "<html><body><script>" + workerGlobals + "<\/script>" +
        `<script src="${url}"><\/script></body></html>`,
      );
      inner.document.close();
      // After close: document.open() drops the handlers set on the frame's window.
      this.ready = new Promise((resolve) => { inner.onload = resolve; });
    }

    postMessage(data) {
      // Structured clone, as a real worker boundary would copy the data.
      const copy = structuredClone(data);
      this.ready.then(() => {
        this.frame.contentWindow.dispatchEvent(new MessageEvent("message", { data: copy }));
      });
    }

    terminate() {
      window.removeEventListener("message", this.relay);
      this.frame.remove();
    }
  }

  window.Worker = FrameWorker;
})();
