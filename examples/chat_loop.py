"""A chat loop through `gm-tags proxy` with the official `openai` client: type what the players
do, read the narration as it streams, and see what the engine made of the model's tags.

    python -m pip install ".[proxy]" "openai>=2"
    gm-tags proxy --upstream replay:fixtures/sessions/heist.jsonl \\
        --ruleset fixtures/rulesets/crew-of-shadows.json --game fixtures/games/crew-mid-heist.json
    python examples/chat_loop.py

Point `--upstream` at any OpenAI-compatible server (llama.cpp, vLLM, Ollama, a hosted API) to
play with a real model; this loop does not change. An empty line or end of input stops it.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

INSTALL = (
    "examples/chat_loop.py talks to the proxy with the official openai client, which gm-tags "
    'itself does not need: python -m pip install "openai>=2"'
)


def main() -> int:
    try:
        from openai import OpenAI
    except ImportError:
        print(INSTALL, file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default="http://127.0.0.1:8001/v1")
    parser.add_argument("--model", default="local")
    parser.add_argument("--chat", help="name the chat (X-GM-Chat); by default the transcript does")
    args = parser.parse_args()
    client = OpenAI(base_url=args.base_url, api_key=os.environ.get("OPENAI_API_KEY", "none"))
    headers = {"X-GM-Chat": args.chat} if args.chat else None
    messages: list[Any] = [{"role": "system", "content": "You are the Game Master."}]
    for line in sys.stdin:
        said = line.strip()
        if not said:
            break
        messages.append({"role": "user", "content": said})
        narration: list[str] = []
        summary: dict[str, Any] = {}
        for chunk in client.chat.completions.create(
            model=args.model, messages=messages, stream=True, extra_headers=headers
        ):
            if chunk.choices and chunk.choices[0].delta.content:
                narration.append(chunk.choices[0].delta.content)
                print(chunk.choices[0].delta.content, end="", flush=True)
            summary = (chunk.model_extra or {}).get("gm_tags", summary)
        print()
        receipts = summary.get("receipts", [])
        print(
            "  receipts:",
            "; ".join(
                f"{r['family']} {r['result']} {r.get('now') or r.get('reason')}" for r in receipts
            )
            or "none",
        )
        messages.append({"role": "assistant", "content": "".join(narration)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
