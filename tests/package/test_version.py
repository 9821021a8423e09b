"""The version has one source, `webfovea.__version__`; the installed metadata is built from it."""

import importlib.metadata
import pathlib
import tomllib

import webfovea


def test_the_package_version_is_the_installed_metadata() -> None:
    assert webfovea.__version__ == importlib.metadata.version("webfovea")


def test_pyproject_has_no_version_of_its_own() -> None:
    pyproject = tomllib.loads((pathlib.Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert "version" not in pyproject["project"]
    assert "version" in pyproject["project"]["dynamic"]
