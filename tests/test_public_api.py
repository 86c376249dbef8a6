import gm_tags


def test_public_api_is_explicit() -> None:
    exported = {name for name in dir(gm_tags) if not name.startswith("_")}
    modules = {"cli", "errors", "ruleset"}
    assert exported - modules - {"annotations"} == set(gm_tags.__all__)
