"""Every command and code sample in README.md and docs/ runs as written, from the project folder
with the bundled fixtures: Python blocks are run, `gm-tags` commands that name real files are run
(in a copy of the fixtures), the README's `curl` calls are sent to the service, and a synopsis
(`RULESET`, `[--db FILE]`, a server elsewhere) names only options its command has. The servers
and the interactive loop are started for real by tests/service, tests/proxy and tests/web."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from gm_tags.cli import main
from tests.conftest import FIXTURES, ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
STARTS = ("gm-tags ", "python ", "curl ")
# Commands that serve until stopped or read a terminal: their options are checked here, and they
# are run for real by their own tests.
LONG_RUNNING = {"serve", "proxy", "play", "mcp"}


@dataclass(frozen=True)
class Sample:
    page: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}"


def python_blocks() -> list[Sample]:
    found = []
    for page in PAGES:
        text = page.read_text("utf-8")
        for match in re.finditer(r"^```python\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
            line = text.count("\n", 0, match.start()) + 2
            found.append(Sample(page.name, line, match.group(1)))
    return found


def commands() -> list[Sample]:
    """Indented command lines (a trailing backslash joins the next), comments taken off."""
    found = []
    for page in PAGES:
        lines = page.read_text("utf-8").splitlines()
        index = 0
        while index < len(lines):
            line = lines[index]
            start = index + 1
            if line.startswith("    ") and line.strip().startswith(STARTS):
                text = line.strip()
                while text.endswith("\\") and index + 1 < len(lines):
                    index += 1
                    text = text[:-1].rstrip() + " " + lines[index].strip()
                text = re.split(r"\s+#\s", text, maxsplit=1)[0].strip()
                found.append(Sample(page.name, start, text))
            index += 1
    return found


def is_synopsis(text: str) -> bool:
    """A command written with placeholders or for a machine elsewhere, not to be run as is."""
    return bool(re.search(r"\b[A-Z][A-Z_]{2,}\b|\[|\.\.\.|\.internal", text.split(" ", 2)[-1]))


@pytest.mark.parametrize(
    "sample", [b for b in python_blocks() if "def test_" not in b.text], ids=str
)
def test_python_samples_run_as_written(sample: Sample, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(sample.text, str(sample), "exec"), {"__name__": "sample"})


def gm_tags_help(command: str) -> str:
    words = command.split()
    sub = [w for w in words[1:3] if not w.startswith("-")][: 2 if words[1] == "store" else 1]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main([*sub, "--help"])
    return out.getvalue()


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh folder with a copy of the fixtures and the examples, as a new user's checkout."""
    root = tmp_path_factory.mktemp("checkout")
    shutil.copytree(FIXTURES, root / "fixtures")
    return root


@pytest.mark.parametrize(
    "sample", [c for c in commands() if c.text.startswith("gm-tags ")], ids=str
)
def test_gm_tags_commands_run_or_name_real_options(
    sample: Sample, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = shlex.split(sample.text)
    for option in (w.split("=")[0] for w in words if w.startswith("--")):
        assert option in gm_tags_help(sample.text), f"{sample}: {option} is not an option"
    if is_synopsis(sample.text) or words[1] in LONG_RUNNING:
        return
    monkeypatch.chdir(workspace)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main([*words[1:], *(["--replace"] if words[1] == "replay" else [])])
    assert code == 0, sample


def test_every_extra_a_sample_installs_exists() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
        "optional-dependencies"
    ]
    named = {
        extra
        for sample in commands()
        for match in re.finditer(r'"\.\[([a-z,]+)\]"', sample.text)
        for extra in match.group(1).split(",")
    }
    assert named and named <= set(extras)


@pytest.mark.parametrize(
    "sample", [c for c in commands() if c.text.startswith("python -m tests.")], ids=str
)
def test_python_module_commands_take_their_options(sample: Sample) -> None:
    words = shlex.split(sample.text)
    result = subprocess.run(
        [sys.executable, *words[1:3], "--help"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    for option in (w for w in words[3:] if w.startswith("--")):
        assert option in result.stdout, f"{sample}: {option}"


def test_the_readme_curl_calls_work_against_the_service(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from gm_tags.service import create_app

    calls = [shlex.split(c.text) for c in commands() if c.text.startswith("curl ")]
    assert calls
    crew = str(FIXTURES / "rulesets" / "crew-of-shadows.json")
    app = create_app(tmp_path / "s.sqlite", [crew])
    # As curl sends them: to localhost:8000, the host a server on loopback answers to.
    with TestClient(app, base_url="http://localhost:8000") as client:
        for words in calls:
            url = next(w for w in words if w.startswith("localhost:"))
            body = json.loads(words[words.index("-d") + 1])
            answer = client.post("/" + url.split("/", 1)[1], json=body)
            assert answer.status_code in (200, 201), (url, answer.text)


def test_the_chat_loop_example_says_what_to_install_without_openai() -> None:
    hide = "import sys; sys.modules['openai'] = None; sys.argv[0] = 'chat_loop.py'; "
    run = hide + f"exec(open({str(ROOT / 'examples' / 'chat_loop.py')!r}).read())"
    result = subprocess.run(
        [sys.executable, "-c", run], input="", capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 2
    assert 'python -m pip install "openai>=2"' in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_the_plugin_sample_is_a_test_file_that_passes(pytester: pytest.Pytester) -> None:
    """docs/testing.md's test file, run with the files it names beside it."""
    (sample,) = [b for b in python_blocks() if "def test_" in b.text]
    for source in (
        FIXTURES / "rulesets" / "crew-of-shadows.json",
        FIXTURES / "games" / "crew-mid-heist.json",
        FIXTURES / "replies" / "en" / "sheet-and-clock.txt",
    ):
        shutil.copy(source, pytester.path / source.name)
    pytester.makepyfile(test_sample=sample.text)
    pytester.runpytest("--snapshot-update").assert_outcomes(passed=2)
    pytester.runpytest().assert_outcomes(passed=2)


def test_the_ruleset_formats_complete_example_loads_and_every_key_is_named() -> None:
    from gm_tags import load_ruleset
    from gm_tags.ruleset import RulesetFile

    page = (ROOT / "docs" / "ruleset-format.md").read_text("utf-8")
    (example,) = re.findall(r"## A complete example.*?```json\n(.*?)```", page, flags=re.DOTALL)
    assert load_ruleset(json.loads(example)).name == "Lamplighters"
    keys: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            keys.update(
                node.get("properties", {}) if isinstance(node.get("properties"), dict) else ()
            )
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(RulesetFile.model_json_schema(by_alias=True, mode="validation"))
    pages = page + "".join(p.read_text("utf-8") for p in (ROOT / "docs").glob("*.md"))
    unnamed = {k for k in keys if f"`{k}`" not in pages and not k.startswith("$")}
    assert sorted(unnamed) == [], "name these ruleset keys on a page of docs/"
