// The chats page: the chats the tab's key may see, each a link to its play page.
"use strict";

async function listChats() {
  const list = document.querySelector(".chats");
  const response = await authorized("/games");
  if (!response.ok) {
    list.replaceChildren(Object.assign(document.createElement("li"), { textContent: `Could not list the chats (${response.status}).` }));
    return;
  }
  const { chats } = await response.json();
  const items = chats.map((chat) => {
    const link = Object.assign(document.createElement("a"), { href: `/play/${encodeURIComponent(chat)}`, textContent: chat });
    const item = document.createElement("li");
    item.append(link);
    return item;
  });
  if (!items.length) items.push(Object.assign(document.createElement("li"), { textContent: "No chats yet." }));
  list.replaceChildren(...items);
  list.dataset.loaded = "true";
}

listChats();
