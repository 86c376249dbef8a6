// The key this tab sends to a server that asks for one (gm-tags serve --keys): asked for once,
// on the first refusal, and kept for the tab only (sessionStorage: gone when the tab closes).
"use strict";

const KEY_ITEM = "gm-tags-key";
let asking = null;

function askForKey() {
  // One question however many requests were refused at once.
  if (!asking) {
    asking = new Promise((resolve) => {
      const entered = (window.prompt("This gm-tags server asks for your key:") || "").trim();
      if (entered) sessionStorage.setItem(KEY_ITEM, entered);
      resolve(Boolean(entered));
    }).finally(() => setTimeout(() => { asking = null; }, 0));
  }
  return asking;
}

async function authorized(path, options = {}) {
  for (;;) {
    const headers = new Headers(options.headers || {});
    const key = sessionStorage.getItem(KEY_ITEM);
    if (key) headers.set("Authorization", `Bearer ${key}`);
    const response = await fetch(path, { ...options, headers });
    if (response.status !== 401) return response;
    sessionStorage.removeItem(KEY_ITEM);
    if (!(await askForKey())) return response;
  }
}
