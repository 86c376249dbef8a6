// The play page: reads /games/{chat}/view, draws it, and acts through the service's API.
// No framework and no build step; every control is a labelled, focusable element.
"use strict";

const chat = document.body.dataset.chat;
const api = (path) => `/games/${encodeURIComponent(chat)}${path}`;
let current = null;
// The player's unsaved draft of the shared sheet, kept across refreshes, with the revision it was
// opened at: a save of a draft opened before another save landed is refused as stale.
let partyDraft = null;

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "on") for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function say(text) { document.getElementById("status").textContent = text; }

async function send(method, path, body) {
  const response = await authorized(api(path), {
    method, headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  return { status: response.status, answer };
}

async function refresh() {
  const response = await authorized(api("/view"));
  if (!response.ok) { say(`could not read the chat (${response.status})`); return; }
  current = await response.json();
  draw(current);
}

function draw(view) {
  drawStory(view.story, view.last);
  drawClocks(view.clocks);
  drawFight(view.fight);
  drawParty(view.party);
  drawSheets(view.characters);
  drawBuilder(view.builder);
  document.body.dataset.revision = view.revision;
}

// Pages of the story before the newest one, as the player read back ("Read earlier"), oldest first.
let earlierEntries = [];
let earlierFrom = null;

function receiptList(receipts, attributes = {}) {
  return el("ol", { class: "receipts", ...attributes }, ...receipts.map((receipt) => {
    const outcome = receipt.result === "ok" ? (receipt.now || "ok") : `${receipt.reason}: ${receipt.detail}`;
    return el("li", { class: receipt.result, "data-family": receipt.family }, `${receipt.written} → ${outcome}`);
  }));
}

function storyEntry(entry, last) {
  const attributes = { class: `entry ${entry.role}`, "data-message": entry.message };
  if (entry.role === "user") return el("li", attributes, el("span", { class: "who" }, "Player: "), entry.text);
  if (entry.role === "event") return el("li", attributes, entry.text);
  if (!last || entry.message !== last.message) {
    return el("li", attributes, el("div", { class: "narration" }, entry.text), receiptList(entry.receipts));
  }
  // The latest reply: its swipes can be switched, and a new reply or a regeneration posted below.
  const swipes = el("div", { id: "swipes", class: "swipes", role: "group", "aria-label": "Swipes of the latest reply" });
  if (last.latest && last.swipes.length > 1) {
    last.swipes.forEach((text, index) => {
      swipes.append(el("button", {
        type: "button", class: "swipe", "aria-pressed": String(index === last.selected),
        "aria-label": `Swipe ${index + 1} of ${last.swipes.length}`,
        on: { click: () => act("POST", "/swipe", { swipe: index }, `swipe ${index + 1} chosen`) },
      }, `${index + 1}`));
    });
  }
  return el("li", { ...attributes, class: `${attributes.class} latest`, "aria-label": "Latest reply" },
    el("div", { id: "narration", class: "narration" }, last.narration), swipes,
    receiptList(last.receipts, { id: "receipts", "aria-label": "Receipts" }));
}

function drawStory(story, last) {
  const log = document.getElementById("story-log");
  // A page read back stays only while the newest page still starts where it ended.
  const first = story.entries.length ? story.entries[0].message : null;
  if (earlierEntries.length && earlierEntries[earlierEntries.length - 1].message + 1 !== first) {
    earlierEntries = []; earlierFrom = null;
  }
  const nodes = [...earlierEntries, ...story.entries].map((entry) => storyEntry(entry, last));
  if (!last) nodes.push(el("li", { class: "entry" }, el("div", { id: "narration", class: "narration" }, "No reply yet.")));
  log.replaceChildren(...nodes);
  // The newest is what a player came for; a page read back is read from its top.
  log.scrollTop = earlierEntries.length ? 0 : log.scrollHeight;
  const from = earlierEntries.length ? earlierFrom : story.earlier;
  const button = document.getElementById("earlier");
  button.hidden = from === null || from === undefined;
  button.dataset.before = from ?? "";
}

async function readEarlier() {
  const before = document.getElementById("earlier").dataset.before;
  const response = await authorized(api(`/story?before=${encodeURIComponent(before)}`));
  if (!response.ok) { say(`could not read the story (${response.status})`); return; }
  const page = await response.json();
  earlierEntries = [...page.entries, ...earlierEntries];
  earlierFrom = page.earlier;
  drawStory(current.story, current.last);
  say(`${page.entries.length} earlier messages read back`);
}

function clockCircle(clock) {
  const size = 64, r = 28, c = size / 2, svgNS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("width", size); svg.setAttribute("height", size);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${clock.name}: ${clock.filled} of ${clock.size}`);
  for (let i = 0; i < clock.size; i++) {
    const a0 = (i / clock.size) * 2 * Math.PI - Math.PI / 2, a1 = ((i + 1) / clock.size) * 2 * Math.PI - Math.PI / 2;
    const path = document.createElementNS(svgNS, "path");
    path.setAttribute("d", `M${c},${c} L${c + r * Math.cos(a0)},${c + r * Math.sin(a0)} A${r},${r} 0 0 1 ${c + r * Math.cos(a1)},${c + r * Math.sin(a1)} Z`);
    path.setAttribute("fill", i < clock.filled ? "#7a3b12" : "#ffffff");
    path.setAttribute("stroke", "#1d1d1f");
    path.setAttribute("class", i < clock.filled ? "segment filled" : "segment");
    svg.append(path);
  }
  return svg;
}

function drawClocks(clocks) {
  const list = document.getElementById("clocks");
  list.replaceChildren(...clocks.map((clock) => el("li", { class: clock.done ? "clock done" : "clock", "data-name": clock.name },
    clockCircle(clock), el("div", { class: "clock-name" }, clock.name), el("div", { class: "clock-fill" }, `${clock.filled}/${clock.size}`))));
  if (!clocks.length) list.append(el("li", {}, "No clocks."));
}

function drawFight(fight) {
  const holder = document.getElementById("fight");
  holder.replaceChildren();
  if (!fight) return;
  holder.append(el("h2", {}, `Fight, round ${fight.round}`), el("p", { class: "fight-turn" }, fight.turn));
  holder.append(el("ol", { class: "fight-order" }, ...fight.members.map((member) => el("li", {
    class: ["combatant", member.side, member.down ? "down" : "", member.acting ? "acting" : ""].join(" ").trim(),
    "data-name": member.name,
  }, el("span", { class: "combatant-name" }, member.name), " ",
     el("span", { class: "combatant-health" }, `${member.health}/${member.max}`)))));
  if (fight.log.length) holder.append(el("ul", { class: "fight-log" }, ...fight.log.map((line) => el("li", {}, line))));
}

function drawParty(party) {
  const holder = document.getElementById("party");
  holder.replaceChildren();
  if (!party) return;
  // The draft starts from the sheet as it reads (a field never saved at its default). The revision
  // is the page's to send with a save, not the player's to read: it is kept out of sight.
  const draft = partyDraft || { fields: Object.fromEntries(party.fields.map((f) => [f.id, f.value])), revision: party.revision };
  holder.dataset.revision = party.revision;
  const form = el("form", { id: "party-form", "data-revision": draft.revision });
  form.append(el("h2", {}, party.label));
  if (party.pools.length) form.append(el("dl", {}, party.pools.flatMap((p) => [el("dt", {}, p.label), el("dd", {}, `${p.value}/${p.max}`)])));
  const computed = party.fields.filter((f) => f.computed);
  if (computed.length) {
    // Worked out from the characters: read, never typed in.
    form.append(el("dl", { class: "party-computed" }, computed.flatMap((f) => [el("dt", {}, f.label),
      el("dd", { "data-field": f.id }, f.value)])));
  }
  for (const field of party.fields) {
    if (field.computed) continue;
    const id = `party-${field.id}`;
    const input = el("input", { id, name: field.id, type: field.type === "number" ? "number" : "text",
      value: draft.fields[field.id] ?? "", on: { input: () => { partyDraft = readParty(form, party, draft.revision); } } });
    form.append(el("label", { for: id }, field.label), input);
  }
  form.append(el("button", { type: "submit", id: "save-party" }, "Save the party sheet"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const draftNow = readParty(form, party, draft.revision);
    const { status, answer } = await send("POST", "/party-sheet", { draft: { fields: draftNow.fields }, revision: draftNow.revision });
    if (status === 200) { partyDraft = null; say("party sheet saved"); await refresh(); return; }
    if (status === 409 && answer.code === "party_sheet_stale") {
      // Shown the newer sheet, the player may save the draft again: over the newer revision.
      partyDraft = { fields: draftNow.fields, revision: answer.revision };
      await refresh();
      const notice = el("div", { class: "stale", role: "alert", id: "party-stale" },
        "Someone saved the party sheet first. Above is the newer sheet; your draft is kept in the fields: save again to keep it.");
      document.getElementById("party").prepend(notice);
      return;
    }
    say(`the party sheet was refused: ${answer.detail || status}`);
  });
  holder.append(form);
}

function readParty(form, party, revision) {
  const fields = {};
  for (const field of party.fields) {
    if (field.computed) continue;
    const value = form.elements[field.id].value;
    if (value === "") continue;
    fields[field.id] = field.type === "number" ? Number(value) : value;
  }
  return { fields, revision };
}

function drawSheets(characters) {
  const holder = document.getElementById("sheets");
  holder.replaceChildren(el("h2", {}, "Characters"));
  for (const character of characters) {
    const mine = Boolean(character.player);
    const sheet = el("article", { class: mine ? "sheet player" : "sheet", "data-name": character.name,
      "aria-label": mine ? `Sheet of ${character.name}, your character` : `Sheet of ${character.name}` },
      el("h3", {}, character.name, mine ? el("span", { class: "yours" }, " (you)") : null));
    for (const section of character.sections || []) {
      if (section.label) sheet.append(el("h4", {}, section.label));
      sheet.append(el("dl", {}, section.entries.flatMap((e) => [el("dt", {}, e.label), el("dd", {}, e.value)])));
    }
    // Pools and plain tracks (Heat 1/5) are counters a player reads alike: one aligned list under
    // one heading; wound tracks follow with their boxes.
    const tracks = character.tracks || [];
    const counted = tracks.filter((track) => !track.wound);
    const counters = [
      ...character.pools.map((p) => [el("dt", {}, p.label), el("dd", {}, `${p.value}/${p.max}${p.temp ? ` +${p.temp} temp` : ""}`)]),
      ...counted.map((t) => [el("dt", { class: "track", "data-track": t.id }, t.label), el("dd", {}, `${t.value}/${t.max}`)]),
    ];
    if (counters.length) {
      const heading = !counted.length ? "Pools" : character.pools.length ? "Pools and tracks" : "Tracks";
      sheet.append(el("h4", {}, heading), el("dl", { class: "pools" }, counters.flat()));
    }
    for (const track of tracks.filter((t) => t.wound)) sheet.append(drawTrack(character, track));
    for (const state of character.states || []) {
      const id = `state-${character.name}-${state.id}`;
      const select = el("select", { id, "data-state": state.id, on: { change: (event) =>
        act("POST", "/state", { who: character.name, state: state.id, value: event.target.value }, `${state.label} set`) } },
        state.values.map(([value, label]) => el("option", { value, selected: value === state.current }, label)));
      sheet.append(el("label", { for: id }, state.label), select);
    }
    if (character.conditions.length) sheet.append(el("p", { class: "conditions" }, `Conditions: ${character.conditions.join(", ")}`));
    for (const note of character.notes || []) sheet.append(el("p", { class: "note" }, `${note.label}: ${note.text}`));
    for (const line of character.carries || []) sheet.append(el("p", { class: "carries" }, line));
    holder.append(sheet);
  }
}

function drawTrack(character, track) {
  const wrap = el("div", { class: "track", "data-track": track.id });
  const kinds = track.kinds || [];
  wrap.append(el("h4", {}, track.label));
  const boxes = el("div", { class: "boxes", role: "group", "aria-label": `${track.label} boxes` });
  for (const box of track.boxes) {
    const clickable = track.indexed && !box.kind;
    boxes.append(el("button", {
      type: "button", class: box.kind ? "box marked" : "box", "data-box": box.box, "data-kind": box.kind || "",
      disabled: !clickable, "aria-label": `${track.label} box ${box.box}: ${box.kind ? `marked ${box.label}` : "clear"}`,
      on: { click: () => act("POST", "/box", { who: character.name, track: track.id, box: box.box, kind: kinds.length ? kinds[0].id : null }, `${track.label} box ${box.box} marked`) },
    }, box.label || ""));
  }
  wrap.append(boxes, el("p", { class: "track-now" }, track.now,
    track.penalty ? el("span", { class: "penalty" }, ` ${track.penalty} to rolls`) : null));
  return wrap;
}

function drawBuilder(fields) {
  const holder = document.getElementById("builder");
  holder.replaceChildren();
  if (!fields.length) { holder.hidden = true; return; }
  holder.hidden = false;
  holder.append(el("h2", {}, "Character builder"));
  for (const field of fields) {
    const id = `builder-${field.id}`;
    const input = el("input", { id, type: "text", "data-field": field.id });
    const count = el("span", { class: "choose", "aria-live": "polite" });
    const chips = el("div", { class: "chips", role: "group", "aria-label": `${field.label} suggestions` });
    const picked = () => input.value.split(",").map((w) => w.trim()).filter((w) => field.suggestions.includes(w));
    const update = () => {
      const n = picked().length;
      count.textContent = field.pick ? `Choose ${field.pick} (${n} chosen)` : `${n} chosen`;
      const full = field.pick && n >= field.pick;
      for (const chip of chips.children) chip.hidden = Boolean(full) || picked().includes(chip.dataset.word);
    };
    for (const word of field.suggestions) {
      chips.append(el("button", { type: "button", class: "chip", "data-word": word, on: { click: () => {
        input.value = input.value.trim() ? `${input.value.trim()}, ${word}` : word;
        update();
      } } }, word));
    }
    input.addEventListener("input", update);
    holder.append(el("label", { for: id }, field.label), input, count, chips);
    update();
  }
}

async function act(method, path, body, done) {
  const { status, answer } = await send(method, path, body);
  if (status >= 400) say(`refused: ${answer.detail || status}`);
  else if (answer && answer.ok === false) say(`refused: ${answer.reason}: ${answer.detail}`);
  else say(done);
  await refresh();
}

document.getElementById("earlier").addEventListener("click", readEarlier);
document.getElementById("reply-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const box = document.getElementById("reply-text");
  const text = box.value;
  if (!text.trim()) return;
  box.value = "";
  await act("POST", "/replies", { text }, "reply applied");
});
document.getElementById("regenerate").addEventListener("click", async () => {
  const box = document.getElementById("reply-text");
  const text = box.value;
  if (!text.trim()) { say("write the regenerated reply in the box first"); return; }
  box.value = "";
  await act("POST", "/regenerate", { text }, "reply regenerated");
});

// Live updates: the server says when the chat's stored revision moves (server-sent events, read
// with fetch so the tab's key goes with them). The stream is closed when the page is hidden (a
// browser allows few connections to one host, and keeps left pages in its back-forward cache)
// and opened again when it shows; one that breaks is opened again a little later.
let events = null;
async function listen() {
  const controller = new AbortController();
  events = controller;
  let wait = 3000;
  try {
    const response = await authorized(api("/events"), { signal: controller.signal });
    if (response.ok && response.body) {
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          heard(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } else if (response.status === 429) {
      wait = 30000;
      say("too many pages are open on this server: live updates paused");
    }
  } catch (error) { /* closed by the page, or the connection broke */ }
  if (events === controller) {
    events = null;
    setTimeout(() => { if (!events && !document.hidden) listen(); }, wait);
  }
}
function heard(block) {
  const lines = block.split("\n");
  const name = (lines.find((line) => line.startsWith("event:")) || "").slice(6).trim();
  const data = (lines.find((line) => line.startsWith("data:")) || "").slice(5).trim();
  if (name === "changed" && String(current && current.revision) !== data) refresh();
}
window.addEventListener("pagehide", () => { if (events) events.abort(); events = null; });
window.addEventListener("pageshow", (event) => {
  if (events) return;
  listen();
  if (event.persisted) refresh();
});

// The chat's readable name (the proxy's from its opening words, or as renamed) heads the page,
// its id beside it; read once, as the chats page reads it.
async function showTitle() {
  const response = await authorized("/games");
  if (!response.ok) return;
  const { titles } = await response.json().catch(() => ({}));
  const title = titles && titles[chat];
  if (!title || title === chat) return;
  document.getElementById("title").replaceChildren(title, " ", el("small", { class: "chat-id" }, chat));
  document.title = `${title}: gm-tags`;
}

refresh();
showTitle();
