"""`--show-outcomes`: a short line of what the engine did, added to the narration the client
gets (`Mira: Harm 1/3 Lesser · Alarm raised 3/6`), and taken off again when the transcript
comes back, so it never counts as part of the story.

The line is plain text every front-end shows as it is: a blank line, then `⚙ ` and the
outcomes joined by ` · `. Every line of that shape is taken off, the last one and one a
continue followed: a continuation of a message that ends with one starts on a line of its own
(a front-end joins it on with a space of its own, which would put it on the outcomes line).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

MARK = "\u2699 "  # ⚙
SEPARATOR = " \u00b7 "  # ·
_LINE = re.compile(r"\s*^\u2699 [^\n]*$", re.MULTILINE)
_LAST_LINE = re.compile(r"\n\u2699 [^\n]*\s*\Z")
# What a continuation starts with after a message that ends with an outcomes line.
ON_A_LINE_OF_ITS_OWN = "\n\n"


def outcomes_line(receipts: Iterable[Mapping[str, Any]]) -> str:
    """The line for a turn's receipts ("" when nothing came out of it): each applied tag's
    subject and what it now is, in reply order."""
    said = [_outcome(receipt) for receipt in receipts if receipt.get("result") == "ok"]
    said = [one for one in said if one]
    return f"\n\n{MARK}{SEPARATOR.join(said)}" if said else ""


def _outcome(receipt: Mapping[str, Any]) -> str:
    """`Mira: Stress 7/9`, `Alarm raised 3/6`: who (when the tag names someone), what it
    changed (a clock's name, a pool's, track's or state's id as a word) and what it is now."""
    now = str(receipt.get("now") or "")
    request = receipt.get("request") or {}
    what = next((str(request[key]) for key in _SUBJECTS if isinstance(request.get(key), str)), "")
    if what and what == what.lower():
        what = what.replace("_", " ").capitalize()  # an id: `coin_stash` reads `Coin stash`
    if what and now.casefold().startswith(what.casefold()):
        what = ""  # the engine's `now` names it already: a track's `Harm 1/3 Lesser`
    said = " ".join(part for part in (what, now) if part)
    who = request.get("who")
    return f"{who}: {said}" if isinstance(who, str) and who and said else said


# Where a tag names what it changes, in the order they are looked for.
_SUBJECTS = ("name", "pool", "track", "state", "condition", "skill", "field", "rest")


def without_outcomes(text: str) -> str:
    """`text` without the outcomes lines the proxy added (at its end, and before the
    continuations joined onto it)."""
    return _LINE.sub("", text) if MARK in text else text  # most replies hold none


def unshown(messages: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The messages with the outcomes lines taken off the assistant messages' text, as the model
    wrote them (the line was the player's; a model shown it would write its own). Only a
    message that holds one is new (`unshown_at`); a list of parts keeps its other parts."""
    told = list(messages)
    for at in showing(messages):
        told[at] = unshown_at(messages[at])
    return told


def showing(messages: Sequence[Mapping[str, Any]]) -> list[int]:
    """Where the assistant messages that hold an outcomes line are."""
    return [at for at, message in enumerate(messages) if _shows(message)]


def may_show(text: str) -> bool:
    """Whether a request's JSON text may hold an outcomes line (its mark, as it is or escaped):
    most hold none, and their messages are not looked at one by one for it."""
    return MARK[0] in text or "\\u2699" in text


def _shows(message: Mapping[str, Any]) -> bool:
    if message.get("role") != "assistant":
        return False
    content = message.get("content")
    if isinstance(content, str):
        return MARK in content
    return isinstance(content, list) and any(
        isinstance(part, Mapping) and MARK in str(part.get("text", "")) for part in content
    )


def unshown_at(message: Mapping[str, Any]) -> Mapping[str, Any]:
    content = message.get("content")
    if isinstance(content, str):
        return {**message, "content": without_outcomes(content)}
    parts = [
        {**part, "text": without_outcomes(part["text"])}
        if isinstance(part, Mapping) and isinstance(part.get("text"), str)
        else part
        for part in content or ()
    ]
    return {**message, "content": parts}


def ends_with_outcomes(text: str) -> bool:
    return _LAST_LINE.search(text) is not None
