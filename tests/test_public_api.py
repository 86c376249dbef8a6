from types import ModuleType

import gm_tags


def test_public_api_is_explicit() -> None:
    exported = {
        name
        for name in dir(gm_tags)
        if not name.startswith("_") and not isinstance(getattr(gm_tags, name), ModuleType)
    }
    assert exported - {"annotations"} == set(gm_tags.__all__)
