"""The wheel carries the grammar, and an installed (non-editable) copy reads it from inside."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        check=True,
    )
    (built,) = out.glob("gm_tags-*.whl")
    return built


@pytest.mark.slow
def test_the_wheel_ships_the_grammar_and_the_type_marker(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "gm_tags/grammar/tags.lark" in names
    assert "gm_tags/py.typed" in names


@pytest.mark.slow
def test_an_installed_copy_loads_the_grammar_from_inside_the_package(
    wheel: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    probe = (
        "import gm_tags.grammar as g, pathlib; "
        "print(pathlib.Path(g.__file__).parent.parent); "
        'items = g.read_tag(\'[clock: name="Bell" tick="2"]\').items; '
        "print(len(items), items[0].value)"
    )
    # Run from an empty folder, only the unpacked wheel on the path: no checkout to fall back on.
    result = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path[:0] = [{str(site)!r}]; {probe}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    where, count, name = result.stdout.split()
    assert Path(where) == site
    assert (count, name) == ("2", "Bell")


def quickstart_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    return [line.strip() for line in section.splitlines() if line.startswith("    python ")]


def test_the_quickstart_has_exactly_two_commands() -> None:
    first, second = quickstart_commands()
    assert first == "python -m pip install . && gm-tags replay fixtures/sessions/heist.jsonl"
    assert second == 'python -m pip install -e ".[dev]" && python -m pytest -n auto -m "not slow"'


@pytest.mark.slow
def test_the_quickstart_main_job_runs_from_an_installed_copy(wheel: Path, tmp_path: Path) -> None:
    arguments = quickstart_commands()[0].split(" && gm-tags ", 1)[1].split()
    # The README writes the store into the working folder; here it goes to a temporary one.
    arguments += ["--db", str(tmp_path / "gm-tags.sqlite")]
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    run = f"import sys; sys.path[:0] = [{str(site)!r}]; from gm_tags.cli import main; "
    run += f"sys.exit(main({arguments!r}))"
    result = subprocess.run(
        [sys.executable, "-I", "-c", run], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert '[clock: name="Vault door" tick="1" result="ok" now="8/8"]' in result.stdout
    assert result.stdout.rstrip().endswith("gm-tags.sqlite")
