"""Which stored history a chat-completions request continues, found from the transcript alone.

A chat's key comes from the request (the `X-GM-Chat` header, else its `user` field) or, when it
names none, from its opening message. Under one key the store keeps one or more *lines*: linear
histories (`gm_tags.history.Chat`) with ids `key`, `key:2`, `key:3`, ... A request's conversation
(its user and assistant messages; system and tool messages are not part of the story) is walked
against every line, message by message:

- a user message matches the line's user message at that place when their text is the same
  (white space aside);
- an assistant message matches the line's reply at that place when it is one of its swipes (its
  narration, its rewritten reply or its text), which chooses that swipe; an assistant message that
  is none of them is taken as the chosen swipe, edited by the player (what the reply did stands);
- events the line recorded (a party save, a rest) come along with the message before them.

The line that matches the most messages decides (of those, the one with the fewest messages taken
as edited, then one matched to its end, then the oldest), and what follows decides the step
(`plan_step`): a new reply, a regenerated last reply (a new swipe), or a continued one. When the
request leaves a line somewhere before its end (a deleted or edited exchange, an older swipe) the
line is left as it is and a new line starts from the matched part: nothing stored is lost, and two
chats that opened the same way stay apart from the first place they differ. docs/proxy.md says it
with examples.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from ..game import Game
from ..history import Chat, Message, chat_id_problem

Role = Literal["user", "assistant"]
Action = Literal["reply", "regenerate", "continue"]

# A key is at most this long, so a line's id (`key:12`) stays a valid chat id.
KEY_LIMIT = 90


@dataclass(frozen=True)
class Said:
    """One message of the conversation: who said it and its text."""

    role: Role
    text: str


def conversation(messages: Sequence[Mapping[str, Any]]) -> list[Said]:
    """The user and assistant messages of a request, in order, with their text (the text parts
    of a message given as parts, joined)."""
    said: list[Said] = []
    for message in messages:
        role = message.get("role")
        if role in ("user", "assistant"):
            said.append(Said(role, text_of(message.get("content"))))
    return said


def text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, Mapping) and part.get("type") == "text"
        )
    return ""


def same(one: str, other: str) -> bool:
    """Texts that differ only in white space: front-ends trim and re-wrap what they show."""
    return one.split() == other.split()


def chat_key(named: str | None, said: Sequence[Said]) -> str:
    """The key of a request's chat: the name it gives, or one made from its opening message."""
    if named:
        problem = chat_id_problem(named)
        if problem is None and len(named) <= KEY_LIMIT and ":" not in named:
            return named
        return "named-" + _digest(named)
    opening = said[0] if said else Said("user", "")
    return "chat-" + _digest(f"{opening.role}\n{' '.join(opening.text.split())}")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def line_ids(key: str, ids: Iterable[str]) -> list[str]:
    """The ids of a key's lines among `ids`, in the order they were started."""
    numbered = []
    for chat_id in ids:
        if chat_id == key:
            numbered.append((1, chat_id))
        elif chat_id.startswith(key + ":") and chat_id[len(key) + 1 :].isdigit():
            numbered.append((int(chat_id[len(key) + 1 :]), chat_id))
    return [chat_id for _, chat_id in sorted(numbered)]


def next_line_id(key: str, taken: Sequence[str]) -> str:
    if not taken:
        return key
    numbers = [1] + [int(t.rsplit(":", 1)[1]) for t in taken if t != key]
    return f"{key}:{max(numbers) + 1}"


@dataclass(frozen=True)
class Walk:
    """How far a conversation matched a line: `matched` messages of the conversation; `end`,
    the messages of the line up to the last one matched, and `reached`, with the events after
    it; and the swipe chosen for each matched reply."""

    line: str
    chat: Chat
    matched: int
    end: int
    reached: int
    chosen: tuple[tuple[int, int], ...]
    edited: int  # assistant messages that matched no swipe, taken as edited

    @property
    def to_the_end(self) -> bool:
        """Whether the whole line matched."""
        return self.reached == len(self.chat.messages)

    @property
    def chosen_before_last(self) -> bool:
        """Whether every reply but the line's last matched the swipe chosen there already (only
        the last message's swipe can be chosen again without leaving the line)."""
        last = len(self.chat.messages) - 1
        return all(self.chat.messages[at].selected == s for at, s in self.chosen if at != last)


def walk(line: str, chat: Chat, said: Sequence[Said]) -> Walk:
    messages = chat.messages
    at = end = reached = 0
    chosen: list[tuple[int, int]] = []
    edited = 0
    while True:
        while reached < len(messages) and messages[reached].role == "event":
            reached += 1
        if at == len(said) or reached == len(messages):
            break
        message, one = messages[reached], said[at]
        if one.role == "user":
            if message.role != "user" or not same(message.swipe.text, one.text):
                break
        else:
            if message.role != "reply":
                break
            swipe = _swipe_saying(message, one.text)
            edited += swipe is None
            chosen.append((reached, message.selected if swipe is None else swipe))
        at += 1
        reached += 1
        end = reached
    return Walk(line, chat, at, end, reached, tuple(chosen), edited)


def _swipe_saying(message: Message, text: str) -> int | None:
    for index, swipe in enumerate(message.swipes):
        if same(swipe.narration, text) or same(swipe.reply, text) or same(swipe.text, text):
            return index
    return None


@dataclass(frozen=True)
class Plan:
    """The step a request takes: on line `line` (stored already, or new when `new`), the chat
    `base` (the line, or a new line) takes `action` with the model's reply."""

    line: str
    new: bool
    base: Chat
    action: Action

    @property
    def game(self) -> Game:
        """The snapshot the model's reply applies to, and its prompt shows."""
        if self.action == "regenerate":
            return self.base.before_last_reply()
        if self.action == "continue":
            return self.base.messages[-1].swipe.game
        return self.base.game


def plan_step(
    key: str, lines: Sequence[tuple[str, Chat]], said: Sequence[Said], start: Game
) -> Plan:
    """What a request whose conversation is `said` does, given the key's stored `lines` (in the
    order they were started). The model's reply continues the last message when the
    conversation ends with an assistant message, else it answers the last user message."""
    continuing = bool(said) and said[-1].role == "assistant"
    walks = [walk(line, chat, said) for line, chat in lines]
    best = max(walks, key=lambda w: (w.matched, -w.edited, w.to_the_end), default=None)
    if best is not None and best.matched == len(said) and said and best.chosen_before_last:
        chat = best.chat
        last = chat.messages[-1]
        if continuing and best.to_the_end and last.role == "reply":
            return Plan(best.line, False, _choose_last(best), "continue")
        if not continuing and best.to_the_end:
            return Plan(best.line, False, chat, "reply")
        if not continuing and best.reached == len(chat.messages) - 1 and last.role == "reply":
            return Plan(best.line, False, chat, "regenerate")
    taken = [line for line, _ in lines]
    if best is None or not best.matched:
        base, line, new = Chat(start), next_line_id(key, taken), True
    elif best.to_the_end and best.chosen_before_last:
        base, line, new = _choose_last(best), best.line, False
    else:
        base, line, new = _fork(best, continuing), next_line_id(key, taken), True
    replies = _stored_replies(chat for _, chat in lines)
    for one in said[best.matched if best is not None else 0 :]:
        base = _told(base, one, replies)
    return Plan(line, new, base, "continue" if continuing else "reply")


def _choose_last(walk: Walk) -> Chat:
    last = len(walk.chat.messages) - 1
    for at, swipe in walk.chosen:
        if at == last and walk.chat.messages[at].selected != swipe:
            return walk.chat.select(swipe)
    return walk.chat


def _fork(walk: Walk, continuing: bool) -> Chat:
    """A new line: the matched part of the walked line (the events after it too, unless the
    reply it ends with is to be continued), with the swipes the walk chose. After the first
    reply whose chosen swipe is another than the line's, the snapshots stored further on were
    built on that other swipe: the messages after it are told again (replies applied again to
    the snapshot now before them), and the events there, which belonged to the other story,
    are left out."""
    chosen = dict(walk.chosen)
    end = walk.end if continuing else walk.reached
    fork = Chat(walk.chat.start)
    retold = False
    for at, message in enumerate(walk.chat.messages[:end]):
        swipe = chosen.get(at, message.selected)
        if not retold:
            fork = Chat(fork.start, (*fork.messages, replace(message, selected=swipe)))
            retold = swipe != message.selected
        elif message.role == "user":
            fork = fork.user(message.swipe.text)
        elif message.role == "reply":
            text = message.swipes[swipe].text
            fork = fork.replied(text, fork.game.apply_reply(text))
    return fork


def _stored_replies(chats: Iterable[Chat]) -> dict[str, str]:
    """Each narration the proxy gave out (white space aside), and the reply it came from."""
    replies: dict[str, str] = {}
    for chat in chats:
        for message in chat.messages:
            if message.role == "reply":
                for swipe in message.swipes:
                    replies.setdefault(" ".join(swipe.narration.split()), swipe.text)
    return replies


def _told(chat: Chat, one: Said, replies: Mapping[str, str]) -> Chat:
    """A message met after the matched part, added to the history: a user message as it is; an
    assistant message applied as the reply it came from when the proxy gave it out, else as
    the text it is."""
    if one.role == "user":
        return chat.user(one.text)
    text = replies.get(" ".join(one.text.split()), one.text)
    return chat.replied(text, chat.game.apply_reply(text))
