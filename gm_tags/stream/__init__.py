"""A reply read as it streams in: each command tag applied the moment it closes, the narration
given out as soon as nothing still to come can change it.

`ReplyStream.feed(chunk)` returns the narration that became safe; `finish()` returns the rest and
the `Turn`, which equals `process` on the whole text (same receipts, state, rewritten reply and
narration), and the pieces given out join into that narration exactly.

What is held back, and why (see docs/proxy.md):
- a tag that has not closed, from its `[` (a closed tag is final once its `]` stands outside
  quotes; one that is still unterminated is held up to the scanner's bound, `MAX_BODY`);
- a `[` at the end that could still open a tag (`[cl`, `[ sheet `), and markup just before it
  (`**`, `(`) that a tag would take with it;
- after a check, the white space and branches that may follow it, until they are written or
  something else is (`[success: ...]` is kept or hidden by the roll);
- two characters after a removed tag (the markup it may stand wrapped in, `**[...]**`);
- what the narration's end may still become (`gm_tags.narrator`): white space, a `[` that may
  form an opening, blank lines.

Linear: a chunk costs its own length and the tag still open, never the text so far. The scan goes
on from the first tag not yet settled (or the last `[` that could still open one), the narrator
takes the text up to where it is held and keeps only its open end, and each tag's span is settled
and handed over once. While all is calm, the narrator lends its line to `feed`, which narrates
prose (and stray brackets) in one pass; a chunk inside an unterminated tag is taken without
scanning at all. Measured in tests/benchmarks/test_stream.py.
"""

from __future__ import annotations

from .reply import ReplyStream

__all__ = ["ReplyStream"]
