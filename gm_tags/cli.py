"""gm-tags: apply the command tags a language-model Game Master writes, and check rulesets.

Exit codes: 0 all good, 1 something was refused (a ruleset, a game document, a session step),
2 a file could not be read or written, or the command line itself was wrong, 130 interrupted.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import typing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from .game import Game
    from .guard.options import Access
    from .history import Chat
    from .ruleset import Ruleset
    from .store import Chats

from . import cli_options as options
from .settings import DEFAULT_DB

# Each subcommand imports what it needs when it runs, so `--help` stays light.
OK, REFUSED, UNREADABLE, INTERRUPTED = 0, 1, 2, 130


def _validate(args: argparse.Namespace, out: TextIO) -> int:
    from .errors import RulesetError, SourceError
    from .ruleset import load_ruleset

    code = OK
    for path in args.paths:
        try:
            load_ruleset(path)
        except RulesetError as error:
            code = max(code, REFUSED)
            for problem in error.problems:
                print(f"{path}: {problem.path}: {problem.message}", file=out)
        except SourceError as error:
            code = UNREADABLE
            # A source error names the file it could not read already.
            said = str(error)
            print(said if said.startswith(f"{path}:") else f"{path}: {said}", file=out)
        else:
            print(f"OK {path}", file=out)
    return code


def _schema(args: argparse.Namespace, out: TextIO) -> int:
    from .ruleset import RulesetFile

    schema = RulesetFile.model_json_schema(by_alias=True, mode="validation")
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    schema["title"] = "gm-tags ruleset"
    schema.setdefault("properties", {}).setdefault("$schema", {"type": "string"})
    print(json.dumps(schema, indent=2, ensure_ascii=False), file=out)
    return OK


Command = Callable[[argparse.Namespace, TextIO], int]


def _reporting_input_errors(run: Command) -> Command:
    """`run`, with a refused ruleset or game document (exit 1) and an unreadable file (exit 2)
    reported on stderr instead of raised."""

    @functools.wraps(run)
    def guarded(args: argparse.Namespace, out: TextIO) -> int:
        from .errors import GameDocumentError, RulesetError, SettingError, SourceError
        from .history import HistoryError

        try:
            return run(args, out)
        except (RulesetError, GameDocumentError, HistoryError) as error:
            print(error, file=sys.stderr)
            return REFUSED
        except (SourceError, SettingError) as error:
            print(error, file=sys.stderr)
            return UNREADABLE

    return guarded


def _open_game(args: argparse.Namespace) -> Game:
    from .ruleset import load_ruleset

    ruleset = load_ruleset(args.ruleset) if args.ruleset else None
    return _read_game(ruleset, args.game)


@_reporting_input_errors
def _apply(args: argparse.Namespace, out: TextIO) -> int:
    if args.write and not args.game:
        print("--write saves to the --game file; name one", file=sys.stderr)
        return UNREADABLE
    if not args.ruleset:
        print("apply needs --ruleset: without one every tag would be refused", file=sys.stderr)
        return UNREADABLE
    if args.game and not Path(args.game).exists() and not args.write:
        print(
            f"{args.game} does not exist; add --write to start a new game there",
            file=sys.stderr,
        )
        return UNREADABLE
    game = _open_game(args)
    reply = _read_stdin() if args.reply == "-" else _read_text(args.reply)
    turn = game.apply_reply(reply)
    if args.write:
        # Written before anything is printed, whole or not at all.
        _write_whole(args.game, json.dumps(turn.game.to_document(), indent=2, ensure_ascii=False))
    if args.json:
        print(json.dumps(turn.to_dict(), indent=2, ensure_ascii=False), file=out)
    else:
        out.write(turn.reply if turn.reply.endswith("\n") else turn.reply + "\n")
    return OK


def _write_whole(path: str, text: str) -> None:
    """`text` written to `path` whole or not at all: a temporary file in the same folder,
    flushed to disk, then renamed over it."""
    import os
    import tempfile

    from .errors import SourceError

    target = Path(path)
    if not target.parent.is_dir():
        raise SourceError(f"{path}: cannot be written: the folder {target.parent} does not exist")
    try:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=target.parent, prefix=f".{target.name}.", delete=False
        ) as temporary:
            temporary.write(text + "\n")
            temporary.flush()
            os.fsync(temporary.fileno())
        os.replace(temporary.name, target)
    except OSError as error:
        Path(temporary.name).unlink(missing_ok=True)
        raise SourceError(f"{path}: cannot be written: {error}") from None


def _read_stdin() -> str:
    from .errors import SourceError

    binary = getattr(sys.stdin, "buffer", None)
    if binary is None:  # a text stream handed in (tests, embedding)
        return sys.stdin.read()
    try:
        return typing.cast(bytes, binary.read()).decode("utf-8")
    except UnicodeDecodeError as error:
        raise SourceError(f"the reply on standard input is not UTF-8: {error}") from None


@_reporting_input_errors
def _prompt(args: argparse.Namespace, out: TextIO) -> int:
    game = _open_game(args)
    system = game.system_prompt(budget=args.budget)
    if system.cut:
        print(f"the rules reference was cut by {system.cut} characters to fit", file=sys.stderr)
    print("=== system ===", system.text, "=== reminder ===", game.reminder(), sep="\n", file=out)
    if args.world:
        print("=== world ===", game.world_prompt(), sep="\n", file=out)
    return OK


@_reporting_input_errors
def _replay(args: argparse.Namespace, out: TextIO) -> int:
    from .history import HistoryError
    from .replay import replay
    from .store import ChatExistsError, Chats, open_store

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


@_reporting_input_errors
def _play(args: argparse.Namespace, out: TextIO) -> int:
    """A chat on the command line. Paste a reply and end it with a line holding only `.`;
    `/regen` makes the next reply a new swipe of the last one, `/swipe N` chooses a swipe,
    `/undo` deletes the last message, `/prompt` prints what the model reads, `/quit` ends."""
    from .store import Chats, open_store

    store = open_store(args.db)
    try:
        return _play_loop(args, Chats(store), out)
    finally:
        store.close()


def _play_loop(args: argparse.Namespace, chats: Chats, out: TextIO) -> int:
    from .history import HistoryError

    name = args.chat
    if name in chats.store.chat_ids():
        chat = chats.open(name)
        if args.ruleset:
            from .ruleset import load_ruleset

            given, kept = load_ruleset(args.ruleset), chat.start.ruleset
            if kept is not None and given.fingerprint != kept.fingerprint:
                print(
                    f"chat {name!r} plays {kept.name!r} ({kept.id}, {kept.fingerprint}); "
                    f"--ruleset is {given.name!r} ({given.id}, {given.fingerprint}): start "
                    "another chat with --chat, or leave --ruleset out to go on with this one",
                    file=sys.stderr,
                )
                return REFUSED
    else:
        ruleset_source = {"path": str(Path(args.ruleset).resolve())} if args.ruleset else None
        if ruleset_source is None:
            print("a new chat needs --ruleset", file=sys.stderr)
            return UNREADABLE
        chat = chats.create(name, ruleset_source, _open_game(args))
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


PLAY_HELP = """\
paste a model reply, then a line holding only '.', to apply it
/regen      the next reply replaces the last one, as a new swipe
/swipe N    choose swipe N of the last reply (0 is the first)
/undo       delete the last message
/prompt     print what the model reads next (the reminder)
/help       this list
/quit       end (the chat stays in the store)"""


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


@_reporting_input_errors
def _chats(args: argparse.Namespace, out: TextIO) -> int:
    from .store import is_database_url, open_store

    if not is_database_url(args.db) and not Path(args.db).exists():
        print(f"{args.db} does not exist: no chats", file=sys.stderr)
        return UNREADABLE
    store = open_store(args.db)
    try:
        for chat_id in store.chat_ids():
            print(chat_id, file=out)
    finally:
        store.close()
    return OK


def _run_server(app: Any, args: argparse.Namespace) -> int:
    import uvicorn

    # Open event streams (a play page left open) must not hold a stopping server: 3 s at most.
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        timeout_graceful_shutdown=3,
    )
    return OK


def _serve(args: argparse.Namespace, out: TextIO) -> int:
    access = _access(args)
    if access is None:
        return UNREADABLE
    if problem := options.taken(args.host, args.port):
        print(problem, file=sys.stderr)
        return UNREADABLE
    try:
        import uvicorn  # noqa: F401  (part of the extra: missing, it is said here)

        from .service import create_app
    except ImportError:
        print(
            'gm-tags serve needs the serve extra: from the project folder, pip install ".[serve]"',
            file=sys.stderr,
        )
        return UNREADABLE
    from .web.watch import StreamLimits

    app = create_app(
        args.db,
        args.ruleset or (),
        args.cors_origin or (),
        keys=access.keys,
        allowed_hosts=access.allowed_hosts,
        stream_limits=StreamLimits(args.max_streams, args.max_streams_per_key),
    )
    return _run_server(app, args)


def _access(args: argparse.Namespace) -> Access | None:
    """Who the server lets in (`guard.options.Access`), or None when it must not start (said on
    stderr): keys that do not read are raised as `SourceError`, for the caller to report."""
    from .guard.listening import ListenRefused
    from .guard.options import access_from

    try:
        return access_from(args)
    except ListenRefused as refused:
        print(f"gm-tags {args.command}: {refused}", file=sys.stderr)
        return None


def _store_copy(args: argparse.Namespace, out: TextIO) -> int:
    from .store import StoreError, open_store

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


def _test(args: argparse.Namespace, out: TextIO) -> int:
    from .testing.cases import run_cases

    return run_cases(Path(args.folder), out, update=args.update)


def _proxy(args: argparse.Namespace, out: TextIO) -> int:
    access = _access(args)
    if access is None:
        return UNREADABLE
    if problem := options.taken(args.host, args.port):
        print(problem, file=sys.stderr)
        return UNREADABLE
    try:
        import uvicorn  # noqa: F401  (part of the extra: missing, it is said here)

        from .proxy import create_proxy_app
    except ImportError:
        print(
            'gm-tags proxy needs the proxy extra: from the project folder, pip install ".[proxy]"',
            file=sys.stderr,
        )
        return UNREADABLE
    app = create_proxy_app(
        args.upstream,
        args.ruleset,
        args.db,
        game=args.game,
        upstream_key_env=args.upstream_key_env,
        timeout=args.timeout,
        budget=args.prompt_budget,
        max_reply=args.max_reply,
        show_outcomes=args.show_outcomes,
        keys=access.keys,
        allowed_hosts=access.allowed_hosts,
    )
    return _run_server(app, args)


def _read_game(ruleset: Ruleset | None, path: str | None) -> Game:
    from .errors import SourceError
    from .game import Game

    if path is None or not Path(path).exists():
        return Game.new(ruleset)  # the callers have checked a new game is what was asked
    try:
        document = json.loads(_read_text(path))
    except json.JSONDecodeError as error:
        raise SourceError(f"{path}: not JSON: {error}") from None
    return Game.from_document(ruleset, document)


def _read_text(path: str) -> str:
    from .errors import SourceError

    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SourceError(f"{path}: cannot be read: {error}") from None


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gm-tags")
    except PackageNotFoundError:
        return "unknown (not installed)"


class _Version(argparse.Action):
    """`--version`, read from the installed package's metadata only when asked for (reading it
    costs `gm-tags --help` a third of its time)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **_: Any) -> None:
        super().__init__(
            option_strings, dest=argparse.SUPPRESS, nargs=0, help="show the version and exit"
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> typing.NoReturn:
        print(f"gm-tags {_version()}")
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line and exit code 2, never a traceback."""

    def error(self, message: str) -> typing.NoReturn:
        self.exit(UNREADABLE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _parser() -> argparse.ArgumentParser:
    from .guard.options import add_access_options

    parser = _Parser(
        prog="gm-tags",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    validate = commands.add_parser("validate", help="check ruleset files or package folders")
    validate.add_argument("paths", nargs="+", metavar="PATH")
    validate.set_defaults(run=_validate)
    schema = commands.add_parser("schema", help="print the JSON Schema of the ruleset format")
    schema.set_defaults(run=_schema)
    apply = commands.add_parser(
        "apply", help="process one model reply: print it rewritten, each command tag a receipt"
    )
    apply.add_argument(
        "reply", metavar="REPLY", help="a text file holding the reply, or - for stdin"
    )
    apply.add_argument(
        "--ruleset", metavar="PATH", required=True, help="ruleset file or package folder"
    )
    apply.add_argument(
        "--game",
        metavar="GAME.json",
        help="the game document to start from (with --write, a missing one starts a new game)",
    )
    apply.add_argument(
        "--json", action="store_true", help="print reply, narration, receipts and game as JSON"
    )
    apply.add_argument(
        "--write", action="store_true", help="save the game the reply left back to --game"
    )
    apply.set_defaults(run=_apply)
    prompt = commands.add_parser("prompt", help="print what the model reads for a game")
    prompt.add_argument("--ruleset", metavar="PATH", help="ruleset file or package folder")
    prompt.add_argument(
        "--game", metavar="GAME.json", help="the game document (a new game if absent)"
    )
    prompt.add_argument(
        "--budget",
        type=options.positive,
        metavar="TOKENS",
        help="fit the system section into this many tokens",
    )
    prompt.add_argument("--world", action="store_true", help="also print the world set-up prompt")
    prompt.set_defaults(run=_prompt)
    replay_command = commands.add_parser(
        "replay", help="replay a recorded session (JSON Lines) into the store, printing receipts"
    )
    replay_command.add_argument("session", metavar="SESSION.jsonl")
    replay_command.add_argument(
        "--db", default=DEFAULT_DB, help=f"the store (default {DEFAULT_DB})"
    )
    replay_command.add_argument(
        "--chat", help="the chat id to replay into (default: the session's)"
    )
    replay_command.add_argument(
        "--replace", action="store_true", help="replace a chat stored under the same id"
    )
    replay_command.set_defaults(run=_replay)
    play = commands.add_parser("play", help="a chat on the command line, kept in the store")
    play.add_argument("--ruleset", metavar="PATH", help="ruleset file or package folder")
    play.add_argument("--game", metavar="GAME.json", help="the game to start from")
    play.add_argument("--db", default=DEFAULT_DB, help=f"the store (default {DEFAULT_DB})")
    play.add_argument("--chat", default="play", help="the chat id (default: play)")
    play.set_defaults(run=_play)
    chats = commands.add_parser("chats", help="list the chats kept in the store")
    chats.add_argument("--db", default=DEFAULT_DB, help=f"the store (default {DEFAULT_DB})")
    chats.set_defaults(run=_chats)
    serve = commands.add_parser("serve", help="the HTTP service (needs gm-tags[serve])")
    serve.add_argument("--db", default=DEFAULT_DB, help=f"the store (default {DEFAULT_DB})")
    serve.add_argument(
        "--ruleset",
        action="append",
        metavar="PATH",
        help="a ruleset games can name by id (repeat for more)",
    )
    serve.add_argument("--host", default="127.0.0.1", help="the address (default 127.0.0.1)")
    serve.add_argument("--port", type=options.port, default=8000, help="the port (default 8000)")
    serve.add_argument("--log-level", default="info", help="uvicorn's log level (default info)")
    serve.add_argument(
        "--cors-origin",
        action="append",
        metavar="ORIGIN",
        help="let browser pages from this origin call the service (repeat for more; none by "
        "default)",
    )
    add_access_options(serve)
    serve.add_argument(
        "--max-streams",
        type=options.positive,
        default=1000,
        metavar="N",
        help="open event streams (play pages) the process holds at most (default 1000)",
    )
    serve.add_argument(
        "--max-streams-per-key",
        type=options.positive,
        default=100,
        metavar="N",
        help="open event streams one key's tenant holds at most (default 100)",
    )
    serve.set_defaults(run=_reporting_input_errors(_serve))
    store = commands.add_parser("store", help="manage chat stores")
    store_commands = store.add_subparsers(dest="store_command", required=True)
    copy = store_commands.add_parser(
        "copy",
        help="copy every chat and kept ruleset from one store to another (SQLite file or "
        "postgresql:// URL)",
    )
    copy.add_argument("source", metavar="FROM", help="the store to copy from")
    copy.add_argument("target", metavar="TO", help="the store to copy into")
    copy.set_defaults(run=_reporting_input_errors(_store_copy))
    test = commands.add_parser(
        "test", help="run a folder of reply cases against their expected files (docs/testing.md)"
    )
    test.add_argument("folder", metavar="DIR", help="the folder of cases, with its cases.json")
    test.add_argument(
        "--update",
        action="store_true",
        help="write the expected file of each case that differs or has none",
    )
    test.set_defaults(run=_reporting_input_errors(_test))
    proxy = commands.add_parser(
        "proxy", help="an OpenAI-compatible proxy in front of a model (needs gm-tags[proxy])"
    )
    proxy.add_argument(
        "--upstream",
        type=options.upstream,
        required=True,
        metavar="URL",
        help="the model's OpenAI-compatible base URL (http://127.0.0.1:8080/v1), or "
        "replay:SESSION.jsonl to answer from a recorded session",
    )
    proxy.add_argument("--ruleset", required=True, metavar="PATH", help="ruleset file or package")
    proxy.add_argument("--game", metavar="GAME.json", help="the game a new chat starts from")
    proxy.add_argument("--db", default=DEFAULT_DB, help=f"the store (default {DEFAULT_DB})")
    proxy.add_argument("--host", default="127.0.0.1", help="the address (default 127.0.0.1)")
    proxy.add_argument("--port", type=options.port, default=8001, help="the port (default 8001)")
    proxy.add_argument(
        "--upstream-key-env",
        metavar="NAME",
        help="send the key in this environment variable upstream, instead of the client's",
    )
    proxy.add_argument(
        "--timeout",
        type=options.seconds,
        default=600.0,
        help="seconds to wait on the upstream (600)",
    )
    proxy.add_argument(
        "--prompt-budget",
        type=options.positive,
        metavar="TOKENS",
        help="cut the rules reference in the system section to this many tokens",
    )
    proxy.add_argument(
        "--max-reply",
        type=options.positive,
        default=100_000,
        metavar="CHARS",
        help="cut a reply longer than this many characters, keeping it as shown (100000)",
    )
    proxy.add_argument(
        "--show-outcomes",
        action="store_true",
        help="add a line of what the engine did to the narration the client gets",
    )
    proxy.add_argument("--log-level", default="info", help="uvicorn's log level (default info)")
    add_access_options(proxy)
    proxy.set_defaults(run=_reporting_input_errors(_proxy))
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        code: int = args.run(args, out or sys.stdout)
    except KeyboardInterrupt:
        print("gm-tags: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from complaining at exit.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return OK
    return code


if __name__ == "__main__":
    sys.exit(main())
