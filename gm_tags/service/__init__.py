"""The HTTP service (`pip install "gm-tags[serve]"`, then `gm-tags serve`)."""

from .app import create_app

__all__ = ["create_app"]
