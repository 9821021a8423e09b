"""`--token-file` is created exclusively: a file already at a path the user chose is refused,
never clobbered; the task folder's own token file is replaced as before."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from webfovea.mcp.http_serving import write_token_file

TOKEN = "t" * 32


def test_a_users_file_is_never_clobbered(tmp_path: Path) -> None:
    precious = tmp_path / "notes.txt"
    precious.write_text("my notes")
    with pytest.raises(ValueError, match="already exists: remove it or choose a new path"):
        write_token_file(precious, TOKEN)
    assert precious.read_text() == "my notes"
    link = tmp_path / "link"
    link.symlink_to(precious)
    with pytest.raises(ValueError, match="already exists"):
        write_token_file(link, TOKEN)
    assert precious.read_text() == "my notes"


def test_a_new_file_is_owner_only_and_the_own_file_is_replaced(tmp_path: Path) -> None:
    path = write_token_file(tmp_path / "tok", TOKEN)
    assert path.read_text() == TOKEN + "\n" and stat.S_IMODE(path.stat().st_mode) == 0o600
    write_token_file(path, "u" * 32, replace=True)
    assert path.read_text() == "u" * 32 + "\n"
