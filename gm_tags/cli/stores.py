"""The commands that work on a store's chats as a whole: `gm-tags replay` (a recorded session
into the store), `gm-tags chats` (list them) and `gm-tags store copy` (one store into another)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from .common import OK, REFUSED, UNREADABLE, Commands, add_db, reporting_input_errors

if TYPE_CHECKING:
    from ..store import Store


def add_commands(commands: Commands) -> None:
    replay = commands.add_parser(
        "replay", help="replay a recorded session (JSON Lines) into the store, printing receipts"
    )
    replay.add_argument("session", metavar="SESSION.jsonl")
    add_db(replay)
    replay.add_argument("--chat", help="the chat id to replay into (default: the session's)")
    replay.add_argument(
        "--replace", action="store_true", help="replace a chat stored under the same id"
    )
    replay.set_defaults(run=replay_session)
    chats = commands.add_parser(
        "chats", help="list the chats kept in the store (id, then title), or rename one"
    )
    add_db(chats)
    chats.add_argument(
        "--rename",
        nargs=2,
        metavar=("CHAT", "TITLE"),
        help='give chat CHAT the readable name TITLE ("" takes it away); its id stays',
    )
    chats.set_defaults(run=list_chats)
    store = commands.add_parser("store", help="manage chat stores")
    store_commands = store.add_subparsers(dest="store_command", required=True)
    copy = store_commands.add_parser(
        "copy",
        help="copy every chat and kept ruleset from one store to another (SQLite file or "
        "postgresql:// URL)",
    )
    copy.add_argument("source", metavar="FROM", help="the store to copy from")
    copy.add_argument("target", metavar="TO", help="the store to copy into")
    copy.set_defaults(run=copy_store)


@reporting_input_errors
def replay_session(args: argparse.Namespace, out: TextIO) -> int:
    from ..history import HistoryError
    from ..replay import replay
    from ..store import ChatExistsError, Chats, open_store

    store = open_store(args.db)
    try:
        chats = Chats(store)
        for step in replay(Path(args.session), chats, args.chat, replace=args.replace):
            print(f"== {step.label} ==", file=out)
            if step.note:
                print(f"   {step.note}", file=out)
            for receipt in step.turn.receipts if step.turn is not None else ():
                print(f"   {receipt.tag}", file=out)
        print(f"saved to {args.db}", file=out)
    except ChatExistsError as error:
        print(f"{args.db}: {error}", file=sys.stderr)
        return REFUSED
    except HistoryError as error:
        print(error, file=sys.stderr)
        return REFUSED
    finally:
        store.close()
    return OK


@reporting_input_errors
def list_chats(args: argparse.Namespace, out: TextIO) -> int:
    from ..store import is_database_url, open_store

    if not is_database_url(args.db) and not Path(args.db).exists():
        print(f"{args.db} does not exist: no chats", file=sys.stderr)
        return UNREADABLE
    store = open_store(args.db)
    try:
        if args.rename:
            chat_id, title = args.rename
            return _rename(store, chat_id, title, out)
        for chat_id, title in store.titles().items():
            print(f"{chat_id}  {title}" if title else chat_id, file=out)
    finally:
        store.close()
    return OK


def _rename(store: Store, chat_id: str, title: str, out: TextIO) -> int:
    from ..history import HistoryError
    from ..store import Chats, UnknownChatError

    try:
        Chats(store).set_title(chat_id, title)
    except (UnknownChatError, HistoryError) as error:
        print(error, file=sys.stderr)
        return REFUSED
    print(f"{chat_id}  {title}" if title else chat_id, file=out)
    return OK


@reporting_input_errors
def copy_store(args: argparse.Namespace, out: TextIO) -> int:
    from ..store import StoreError, open_store

    try:
        source = open_store(args.source)
    except StoreError as error:
        print(error, file=sys.stderr)
        return UNREADABLE
    try:
        target = open_store(args.target)
    except StoreError as error:
        source.close()
        print(error, file=sys.stderr)
        return UNREADABLE
    try:
        chat_ids = source.chat_ids()
        taken = sorted(set(chat_ids) & set(target.chat_ids()))
        if taken:
            print(
                f"{len(taken)} chats are in the target already ({', '.join(taken[:5])}"
                f"{', ...' if len(taken) > 5 else ''}); nothing was copied",
                file=sys.stderr,
            )
            return REFUSED
        rulesets = source.kept_rulesets()
        for fingerprint, ruleset_id, document in rulesets:
            target.keep_ruleset(fingerprint, ruleset_id, document)
        for chat_id in chat_ids:
            target.put(chat_id, source.load(chat_id), replace=False)
    finally:
        source.close()
        target.close()
    print(f"copied {len(chat_ids)} chats and {len(rulesets)} rulesets", file=out)
    return OK
