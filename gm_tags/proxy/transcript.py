"""What a chat-completions request says: its conversation (the user and assistant messages, the
story; system, developer and tool messages are not part of it), and whether it asks for the GM's
reply at all. The chat it names and the lines of that chat are `gm_tags.chats.transcript`'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from ..chats.transcript import Conversation, Role
from .outcomes import ON_A_LINE_OF_ITS_OWN, ends_with_outcomes, without_outcomes

STORY_ROLES = ("user", "assistant")
# A front-end's instruction to write the *player's* next line (SillyTavern's impersonate:
# "[Write your next reply from the point of view of User, ...]"), sent after the story.
_IMPERSONATE = re.compile(r"\bfrom the point of view of\b", re.IGNORECASE)


def conversation(
    messages: Sequence[Mapping[str, object]],
    check: Callable[[object, int], None] | None = None,
) -> Conversation:
    """The user and assistant messages of a request, in order, with their text (the text parts
    of a message given as parts, joined; the outcomes line the proxy added, taken off). With
    `check`, each message but a user's or an assistant's text is checked by it (given with its
    index) on the way: a request of 10,000 turns is checked and read in one pass."""
    roles: list[Role] = []
    texts: list[str] = []
    add_role, add_text = roles.append, texts.append
    for at, message in enumerate(messages):
        if type(message) is dict:
            role = message.get("role")
            content = message.get("content")
            if type(content) is str:
                if role == "user":
                    add_role("user")
                    add_text(content)
                    continue
                if role == "assistant":
                    add_role("assistant")
                    add_text(without_outcomes(content))
                    continue
        if check is not None:
            check(message, at)
        role = message.get("role")
        if role == "user" or role == "assistant":
            text = text_of(message.get("content"))
            add_role(role)
            add_text(without_outcomes(text) if role == "assistant" else text)
    return Conversation(roles, texts)


def opening(messages: Sequence[Mapping[str, object]]) -> str:
    """What a continuation the client gets starts with: a line of its own when the message it
    continues ends with an outcomes line (`gm_tags.proxy.outcomes`), else nothing."""
    at = _last_of_story(messages)
    last = messages[at] if at >= 0 else {}
    shown = text_of(last.get("content")) if last.get("role") == "assistant" else ""
    return ON_A_LINE_OF_ITS_OWN if ends_with_outcomes(shown) else ""


def impersonating(messages: Sequence[Mapping[str, object]]) -> bool:
    """Whether the request asks the model for the player's next line (a front-end's
    impersonate): an instruction after the story's last message that says so."""
    last = _last_of_story(messages)
    return any(
        message.get("role") in ("system", "developer")
        and _IMPERSONATE.search(text_of(message.get("content")))
        for message in messages[last + 1 :]
    )


def _last_of_story(messages: Sequence[Mapping[str, object]]) -> int:
    """The index of the last user or assistant message (-1 for none), looked for from the end:
    what follows the story is a few messages, the story may be thousands."""
    return next(
        (at for at in range(len(messages) - 1, -1, -1) if messages[at].get("role") in STORY_ROLES),
        -1,
    )


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
