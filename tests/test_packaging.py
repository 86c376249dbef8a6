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
        "import gm_tags.grammar as g, lark, pathlib; "
        "print(pathlib.Path(g.__file__).parent.parent); "
        "p = lark.Lark(g.grammar_text(), parser='lalr'); "
        'print(p.parse(\'[clock: name="Bell" tick="2"]\').children[0])'
    )
    # Run from an empty folder, only the unpacked wheel on the path: no checkout to fall back on.
    result = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path[:0] = [{str(site)!r}]; {probe}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    where, name = result.stdout.split()
    assert Path(where) == site
    assert name == "clock"
