from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _colour_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests choose colour explicitly; an inherited NO_COLOR must not change them."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "NO_COLOR" not in os.environ
