"""`gm-tags mcp` refusing to start, as its user sees it: an exit code and one message on stderr,
and no new store left behind."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from gm_tags.cli import main
from tests.mcp.sdk import RULESET, need_mcp

REFUSALS = [
    (["--keys", "keys.txt"], 2, "--keys, --no-auth and --allowed-host are for --http"),
    (["--http", "--host", "0.0.0.0"], 2, "refusing to listen on 0.0.0.0 without keys"),
    (["--http", "--keys", "missing.txt"], 2, "missing.txt: cannot read the keys"),
]


@pytest.mark.parametrize(("options", "code", "said"), REFUSALS, ids=[s for _, _, s in REFUSALS])
def test_options_that_cannot_be_served_are_refused_before_the_store_is_opened(
    options: list[str],
    code: int,
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "keys.txt").write_text("table=table-key-0123456789abcdef\n", encoding="utf-8")
    db = tmp_path / "new.sqlite"
    assert main(["mcp", "--ruleset", str(RULESET), "--db", str(db), *options]) == code
    assert said in capsys.readouterr().err
    assert not db.exists()


def test_a_taken_port_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "new.sqlite"
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = str(holder.getsockname()[1])
        code = main(["mcp", "--ruleset", str(RULESET), "--db", str(db), "--http", "--port", port])
    assert code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
    assert not db.exists()


def test_a_refused_ruleset_exits_1_and_opens_no_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    need_mcp()  # without it, the missing SDK is said first (exit 2), as the last test shows
    broken = tmp_path / "broken.json"
    broken.write_text('{"id": "broken"}', encoding="utf-8")
    db = tmp_path / "new.sqlite"
    assert main(["mcp", "--ruleset", str(broken), "--db", str(db)]) == 1
    assert "broken.json refused: 7 problems" in capsys.readouterr().err
    assert not db.exists()


def test_without_the_sdk_it_says_which_extra_to_install(tmp_path: Path) -> None:
    hide = "import sys; sys.modules['mcp'] = None; from gm_tags.cli import main; "
    run = hide + f"sys.exit(main(['mcp', '--ruleset', {str(RULESET)!r}, '--db', 'x.sqlite']))"
    result = subprocess.run(
        [sys.executable, "-c", run], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert result.returncode == 2
    assert 'needs the mcp extra: from the project folder, pip install ".[mcp]"' in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "x.sqlite").exists()
