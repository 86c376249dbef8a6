// The chats page: the chats the tab's key may see, each a link to its play page.
"use strict";

async function listChats() {
  const list = document.querySelector(".chats");
  const response = await authorized("/games");
  if (!response.ok) {
    list.replaceChildren(Object.assign(document.createElement("li"), { textContent: `Could not list the chats (${response.status}).` }));
    return;
  }
  const { chats, titles } = await response.json();
  // By what a player reads, numbers as numbers: "Night 2" before "Night 10".
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
  const shown = [...chats].sort((a, b) => collator.compare(titles[a] || a, titles[b] || b));
  const items = shown.map((chat) => {
    // A chat reads by its title (the proxy's from its opening words), its id beside it.
    const title = titles[chat] || chat;
    const link = Object.assign(document.createElement("a"), { href: `/play/${encodeURIComponent(chat)}`, textContent: title });
    const item = document.createElement("li");
    item.dataset.chat = chat;
    item.append(link);
    if (title !== chat) item.append(" ", Object.assign(document.createElement("small"), { className: "chat-id", textContent: chat }));
    const rename = Object.assign(document.createElement("button"), { type: "button", className: "rename", textContent: "Rename" });
    rename.setAttribute("aria-label", `Rename ${title}`);
    rename.addEventListener("click", () => renameChat(chat, titles[chat] || ""));
    item.append(" ", rename);
    return item;
  });
  if (!items.length) items.push(Object.assign(document.createElement("li"), { textContent: "No chats yet." }));
  list.replaceChildren(...items);
  list.dataset.loaded = "true";
}

async function renameChat(chat, title) {
  const wanted = window.prompt(`A name for ${chat}`, title);
  if (wanted === null) return;
  const response = await authorized(`/games/${encodeURIComponent(chat)}/title`, {
    method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ title: wanted }),
  });
  if (!response.ok) {
    const answer = await response.json().catch(() => ({}));
    window.alert(`Not renamed: ${answer.detail || response.status}`);
  }
  await listChats();
}

listChats();
