"""The tables every SQL store holds, the migrations that build them (one script a schema
version, run in order and never edited once released), and the statements both back-ends send
as written (`?` placeholders; PostgreSQL's are put in as each statement is sent)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

MIGRATIONS: Sequence[str] = (
    """
    CREATE TABLE chats (
        chat_id TEXT PRIMARY KEY,
        ruleset TEXT NOT NULL,
        start TEXT NOT NULL
    );
    CREATE TABLE messages (
        chat_id TEXT NOT NULL REFERENCES chats(chat_id),
        position INTEGER NOT NULL,
        role TEXT NOT NULL,
        selected INTEGER NOT NULL,
        PRIMARY KEY (chat_id, position)
    );
    CREATE TABLE swipes (
        chat_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        swipe INTEGER NOT NULL,
        text TEXT NOT NULL,
        reply TEXT NOT NULL,
        narration TEXT NOT NULL,
        receipts TEXT NOT NULL,
        game TEXT NOT NULL,
        PRIMARY KEY (chat_id, position, swipe)
    );
    """,
    # The rulesets chats are played with, kept whole (by content fingerprint), so a chat opens
    # wherever the store goes, whatever became of the ruleset's file.
    """
    CREATE TABLE rulesets (
        fingerprint TEXT PRIMARY KEY,
        ruleset_id TEXT NOT NULL,
        document TEXT NOT NULL
    );
    """,
    # Each step on a chat counts one revision, so a worker knows when another one changed it
    # and two workers never both write a step built on one snapshot.
    """
    ALTER TABLE chats ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    """,
    # Each stored reply's shown text (its narration, white space aside) by digest, so the proxy
    # finds the chat a client's window belongs to by looking its replies up, not by reading
    # every chat. Written with the swipes; filled for the replies stored before (`shown_rows`).
    """
    CREATE TABLE shown (
        digest TEXT NOT NULL,
        chat_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        swipe INTEGER NOT NULL,
        PRIMARY KEY (chat_id, position, swipe)
    );
    CREATE INDEX shown_by_digest ON shown (digest);
    """,
    # Each chat belongs to one tenant (gm_tags.tenants); the chats stored before are the default
    # tenant's. A tenant's chats are listed by this index.
    """
    ALTER TABLE chats ADD COLUMN tenant TEXT NOT NULL DEFAULT 'default';
    CREATE INDEX chats_by_tenant ON chats (tenant, chat_id);
    """,
    # A chat's readable name beside its id (docs/service.md): given when it is made (the proxy's
    # from the chat's opening) and changed at will. The chats stored before have none.
    """
    ALTER TABLE chats ADD COLUMN title TEXT NOT NULL DEFAULT '';
    """,
    # Each message and swipe row says the revision that wrote it (docs/history.md, "Opening a
    # chat"): a chat opens from its last messages and reads older ones when asked for, and a row
    # written after the revision it was read at is never mixed into it. The rows stored before
    # count as written at revision 0.
    """
    ALTER TABLE messages ADD COLUMN written INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE swipes ADD COLUMN written INTEGER NOT NULL DEFAULT 0;
    """,
    # The faces each reply's dice threw, in order, as digits joined by commas (docs/proxy.md, "A
    # reply read again"): a stored reply read again throws them again. The swipes stored before
    # have none kept ('': read again, they throw new dice, as they did then).
    """
    ALTER TABLE swipes ADD COLUMN thrown TEXT NOT NULL DEFAULT '';
    """,
    # Each roll's faces apart, with where its tag begins and its dice's sides (`rows.py`,
    # `rolls_text`): read again on another state, each roll throws its own. A column of its own,
    # so `thrown` keeps the faces as one run for a worker still on schema 8, which reads them
    # as it did (and writes '' here: its rows read as one run).
    """
    ALTER TABLE swipes ADD COLUMN rolls TEXT NOT NULL DEFAULT '';
    """,
    # Where each continuation was joined onto a reply, as offsets into its text joined by commas
    # (docs/proxy.md, "A reply shown as two messages"): a client showing the reply as it was
    # given out before one saw that part whole. The swipes stored before have none kept ('':
    # not known, cut as a stop is).
    """
    ALTER TABLE swipes ADD COLUMN joins TEXT NOT NULL DEFAULT '';
    """,
)
# The schema version that added the `shown` table: a store migrated past it from below has its
# replies' digests filled in the same transaction.
SHOWN_VERSION = 4
# At most this many stored replies answer one digest (the newest): a text many chats share (a
# front-end's greeting) cannot make a lookup read them all.
SHOWN_HITS = 8
# How many chats one statement of `revisions` asks about (SQLite allows 32,766 parameters).
REVISIONS_AT_ONCE = 500

REPLY_NARRATIONS_SQL = (
    "SELECT s.chat_id, s.position, s.swipe, s.narration FROM swipes s JOIN messages m "
    "ON m.chat_id = s.chat_id AND m.position = s.position WHERE m.role = 'reply'"
)
# The ids `key` and `key:...`, by a range of the primary key (';' follows ':' in every
# collation the back-ends use for it: SQLite's bytes, PostgreSQL's "C").
# Each with its revision (`Store.found` reads both at once).
LINE_IDS_SQL = (
    "SELECT chat_id, revision FROM chats WHERE chat_id = ? OR (chat_id > ? AND chat_id < ?)"
)
# A tenant's hits are found among its own chats before the limit, so another tenant's stored
# replies can never crowd them out.
FIND_SHOWN_SQL = (
    "SELECT s.chat_id, s.position, s.swipe FROM shown s JOIN chats c ON c.chat_id = s.chat_id "
    "WHERE s.digest = ? AND (CAST(? AS TEXT) IS NULL OR c.tenant = ?) "
    "ORDER BY s.position DESC, s.chat_id DESC, s.swipe DESC LIMIT ?"
)


def found_shown_sql(digests: int) -> str:
    """`FIND_SHOWN_SQL` for `digests` digests in one statement: each digest's hits numbered
    in the order that one sorts them, the first `SHOWN_HITS` of each kept (its LIMIT, per
    digest); each hit with its digest and its chat's revision."""
    marks = ", ".join("?" * digests)
    return (
        "SELECT digest, chat_id, position, swipe, revision FROM (SELECT s.digest, s.chat_id, "
        "s.position, s.swipe, c.revision, ROW_NUMBER() OVER (PARTITION BY s.digest "
        "ORDER BY s.position DESC, s.chat_id DESC, s.swipe DESC) AS nth "
        "FROM shown s JOIN chats c ON c.chat_id = s.chat_id "
        f"WHERE s.digest IN ({marks}) AND (CAST(? AS TEXT) IS NULL OR c.tenant = ?)) hits "
        "WHERE nth <= ? ORDER BY digest, nth"
    )


LOAD_CHAT_SQL = "SELECT ruleset, start, revision, title FROM chats WHERE chat_id = ?"
LOAD_MESSAGES_SQL = (
    "SELECT position, role, selected FROM messages WHERE chat_id = ? ORDER BY position"
)
LOAD_SWIPES_SQL = (
    "SELECT position, text, reply, narration, receipts, thrown, rolls, joins, game FROM swipes "
    "WHERE chat_id = ? ORDER BY position, swipe"
)
INSERT_CHAT_SQL = (
    "INSERT INTO chats (chat_id, ruleset, start, revision, tenant, title) VALUES (?, ?, ?, ?, ?, ?)"
)
INSERT_MESSAGE_SQL = (
    "INSERT INTO messages (chat_id, position, role, selected, written) VALUES (?, ?, ?, ?, ?)"
)
INSERT_SWIPE_SQL = (
    "INSERT INTO swipes (chat_id, position, swipe, text, reply, narration, receipts, thrown, "
    "rolls, joins, game, written) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
# A chat opened without its past: how many messages it has, a span of them (their swipes without
# the games), and one swipe's game, each row with the revision that wrote it.
COUNT_MESSAGES_SQL = "SELECT COALESCE(MAX(position) + 1, 0) FROM messages WHERE chat_id = ?"
SPAN_MESSAGES_SQL = (
    "SELECT position, role, selected, written FROM messages "
    "WHERE chat_id = ? AND position >= ? AND position < ? ORDER BY position"
)
SPAN_SWIPES_SQL = (
    "SELECT position, text, reply, narration, receipts, thrown, rolls, joins FROM swipes "
    "WHERE chat_id = ? AND position >= ? AND position < ? ORDER BY position, swipe"
)
GAME_SQL = "SELECT game, written FROM swipes WHERE chat_id = ? AND position = ? AND swipe = ?"
# What a span of messages shows: each one's role and its selected swipe's text as the client
# was given it (a reply's narration, any other message's text).
SHOWN_SPAN_SQL = (
    "SELECT m.position, m.role, CASE WHEN m.role = 'reply' THEN s.narration ELSE s.text END, "
    "m.written, s.written FROM messages m "
    "JOIN swipes s ON s.chat_id = m.chat_id AND s.position = m.position AND s.swipe = m.selected "
    "WHERE m.chat_id = ? AND m.position >= ? AND m.position < ? ORDER BY m.position"
)
INSERT_SHOWN_SQL = "INSERT INTO shown VALUES (?, ?, ?, ?)"
# A forked line's first messages copied from the line it forks from, inside the database: the new
# chat id and the revision that writes them, then the line copied and the position copied up to.
COPY_MESSAGES_SQL = (
    "INSERT INTO messages (chat_id, position, role, selected, written) "
    "SELECT CAST(? AS TEXT), position, role, selected, CAST(? AS INTEGER) FROM messages "
    "WHERE chat_id = ? AND position < ?"
)
COPY_SWIPES_SQL = (
    "INSERT INTO swipes (chat_id, position, swipe, text, reply, narration, receipts, thrown, "
    "rolls, joins, game, written) SELECT CAST(? AS TEXT), position, swipe, text, reply, "
    "narration, receipts, thrown, rolls, joins, game, CAST(? AS INTEGER) FROM swipes "
    "WHERE chat_id = ? AND position < ?"
)
COPY_SHOWN_SQL = (
    "INSERT INTO shown (digest, chat_id, position, swipe) "
    "SELECT digest, CAST(? AS TEXT), position, swipe FROM shown WHERE chat_id = ? AND position < ?"
)
# A chat's tables, in the order its rows are deleted (the messages before the chat they name).
CHAT_TABLES = ("shown", "swipes", "messages", "chats")


def shown_digest(text: str) -> str:
    """The digest a reply's shown text is found by: its characters without any white space
    (front-ends trim, re-wrap and join with a space of their own)."""
    bare = "".join(text.split())
    return hashlib.sha256(bare.encode("utf-8", "surrogatepass")).hexdigest()[:32]
