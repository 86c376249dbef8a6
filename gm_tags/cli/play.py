"""`gm-tags play`: a chat on the command line, kept in the store. Paste a reply and end it with a
line holding only `.`; slash commands regenerate, choose a swipe, undo and show the prompt."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from .common import OK, REFUSED, UNREADABLE, Commands, add_db, open_game, reporting_input_errors

if TYPE_CHECKING:
    from ..history import Chat
    from ..store import Chats

PLAY_HELP = """\
paste a model reply, then a line holding only '.', to apply it
/regen      the next reply replaces the last one, as a new swipe
/swipe N    choose swipe N of the last reply (0 is the first)
/undo       delete the last message
/prompt     print what the model reads next (the reminder)
/help       this list
/quit       end (the chat stays in the store)"""


def add_commands(commands: Commands) -> None:
    play = commands.add_parser("play", help="a chat on the command line, kept in the store")
    play.add_argument("--ruleset", metavar="PATH", help="ruleset file or package folder")
    play.add_argument("--game", metavar="GAME.json", help="the game to start from")
    add_db(play)
    play.add_argument("--chat", default="play", help="the chat id (default: play)")
    play.set_defaults(run=play_chat)


@reporting_input_errors
def play_chat(args: argparse.Namespace, out: TextIO) -> int:
    """A chat on the command line. Paste a reply and end it with a line holding only `.`;
    `/regen` makes the next reply a new swipe of the last one, `/swipe N` chooses a swipe,
    `/undo` deletes the last message, `/prompt` prints what the model reads, `/quit` ends."""
    from ..store import Chats, open_store

    store = open_store(args.db)
    try:
        return _play_loop(args, Chats(store), out)
    finally:
        store.close()


def _play_loop(args: argparse.Namespace, chats: Chats, out: TextIO) -> int:
    from ..history import HistoryError

    name = args.chat
    if name in chats.store.chat_ids():
        chat = chats.open(name)
        if args.ruleset and _other_ruleset(args.ruleset, chat, name):
            return REFUSED
    else:
        ruleset_source = {"path": str(Path(args.ruleset).resolve())} if args.ruleset else None
        if ruleset_source is None:
            print("a new chat needs --ruleset", file=sys.stderr)
            return UNREADABLE
        chat = chats.create(name, ruleset_source, open_game(args))
    print(f"chat {name!r}: paste a reply, end it with a line holding only '.'", file=out)
    regenerate, lines = False, list[str]()
    for raw in sys.stdin:
        line = raw.rstrip("\n")
        if not lines and line.startswith("/"):
            command, _, argument = line.partition(" ")
            if command == "/quit":
                break
            before = chat
            try:
                chat, regenerate = _slash(chat, command, argument.strip(), regenerate, out)
            except (HistoryError, ValueError) as error:
                print(f"cannot: {error}", file=out)
            chats.save(name, before, chat)
            continue
        if line != ".":
            lines.append(raw)
            continue
        text, lines, before = "".join(lines).rstrip("\n"), [], chat
        try:
            chat, turn = chat.regenerate(text) if regenerate else chat.reply(text)
        except HistoryError as error:
            print(f"cannot: {error}", file=out)
            continue
        regenerate = False
        chats.save(name, before, chat)
        for receipt in turn.receipts:
            print(f"   {receipt.tag}", file=out)
        print("--- narration ---", turn.narration, "---", sep="\n", file=out)
    return OK


def _other_ruleset(path: str, chat: Chat, name: str) -> bool:
    """Whether `--ruleset` differs from the ruleset the chat plays (said on stderr if so)."""
    from ..ruleset import load_ruleset

    given, kept = load_ruleset(path), chat.start.ruleset
    if kept is None or given.fingerprint == kept.fingerprint:
        return False
    print(
        f"chat {name!r} plays {kept.name!r} ({kept.id}, {kept.fingerprint}); "
        f"--ruleset is {given.name!r} ({given.id}, {given.fingerprint}): start "
        "another chat with --chat, or leave --ruleset out to go on with this one",
        file=sys.stderr,
    )
    return True


def _slash(
    chat: Chat, command: str, argument: str, regenerate: bool, out: TextIO
) -> tuple[Chat, bool]:
    """One `/command` of `play`: the chat after it, whether the next reply regenerates, and a
    line saying what happened."""
    if command == "/regen":
        chat.before_last_reply()  # raises HistoryError when there is no reply to regenerate
        count = len(chat.messages[-1].swipes)
        print(
            f"the next reply will be swipe {count} of the last reply (0 to {count - 1} kept)",
            file=out,
        )
        return chat, True
    if command == "/swipe":
        if not argument.isdigit():
            raise ValueError(f"/swipe takes a swipe number, got {argument!r}")
        chat = chat.select(int(argument))
        last = chat.messages[-1]
        print(
            f"swipe {last.selected} of 0-{len(last.swipes) - 1} chosen: "
            f"{_first_line(last.swipe.narration)}",
            file=out,
        )
        return chat, regenerate
    if command == "/undo":
        chat = chat.delete_last()
        print(f"deleted the last message; {len(chat.messages)} left", file=out)
        return chat, False
    if command == "/prompt":
        print(chat.game.reminder(), file=out)
    elif command == "/help":
        print(PLAY_HELP, file=out)
    else:
        print(f"unknown command {command}: /help lists them", file=out)
    return chat, regenerate


def _first_line(text: str, limit: int = 80) -> str:
    line = text.strip().splitlines()[0] if text.strip() else "(no narration)"
    return line if len(line) <= limit else line[: limit - 1] + "…"
