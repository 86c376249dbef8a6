import subprocess
import sys
from types import ModuleType

import gm_tags


def test_public_api_is_explicit() -> None:
    exported = {
        name
        for name in dir(gm_tags)
        if not name.startswith("_") and not isinstance(getattr(gm_tags, name), ModuleType)
    }
    assert exported - {"annotations"} == set(gm_tags.__all__)


def test_the_public_names_are_the_ones_listed() -> None:
    assert set(gm_tags.__all__) == set(gm_tags._HOMES)


def test_every_public_name_loads() -> None:
    for name in gm_tags.__all__:
        assert getattr(gm_tags, name) is not None


def test_the_command_lines_help_loads_no_heavy_library() -> None:
    """`gm-tags --help` imports neither pydantic, nor Lark, nor the engine."""
    probe = (
        "import sys, contextlib, io\n"
        "from gm_tags.cli import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--help'])\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('pydantic', 'lark')"
        " or m.startswith(('gm_tags.engine', 'gm_tags.game', 'gm_tags.ruleset'))]\n"
        "print(heavy)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
