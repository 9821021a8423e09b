"""Shared pieces of the command line: the Typer app, consoles, common options, errors."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from webfovea.config import PROFILES, Component, HarnessConfig

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Reliable round trips for vision-based web agents, and an honest proving ground to measure them.",
)
err = Console(stderr=True)
out = Console()

ProfileOpt = Annotated[str, typer.Option("--profile", help=f"Harness profile: {', '.join(PROFILES)}.")]
DisableOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--disable", help="Turn one component off (repeatable): " + ", ".join(c.value for c in Component)
    ),
]
ModelOpt = Annotated[
    str, typer.Option("--model", help="Model spec: oracle, replay:PATH, openai:MODEL, anthropic:MODEL.")
]
BaseUrlOpt = Annotated[
    str | None, typer.Option("--base-url", help="OpenAI-compatible base URL (else OPENAI_BASE_URL).")
]
OfflineOpt = Annotated[
    bool,
    typer.Option(
        "--offline",
        help="Resolve no name but localhost: no real website is reachable (tests, CI, "
        "the proving ground, which turns it on by itself). Also WEBFOVEA_OFFLINE=1.",
    ),
]
AllowDomainOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-domain",
        help="Another domain the task's site includes (repeatable); top-level "
        "navigations elsewhere are blocked.",
    ),
]
CoordsOpt = Annotated[
    str | None,
    typer.Option(
        "--coords",
        help="Model coordinate convention: pixels, norm1000 or norm999 (default: from the model table).",
    ),
]

ObservationOpt = Annotated[
    str | None,
    typer.Option(
        "--observation",
        help="What the model is shown: vision (screenshots, points), structured (Playwright's accessibility "
        "snapshot, refs like ref='e12'), hybrid (both). Default: the profile's (structured for winner, "
        "vision otherwise). See docs/observation-modes.md.",
    ),
]

VisionModelOpt = Annotated[
    str | None,
    typer.Option(
        "--vision-model",
        help="A separate model for look and locate (same forms as --model: openai:MODEL, anthropic:MODEL, "
        "replay:PATH, oracle); its usage is recorded apart (vision_usage). Default: the task's own model.",
    ),
]
VisionBaseUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--vision-base-url",
        help="Base URL of the --vision-model's API (else its provider's "
        "environment variable, e.g. OPENAI_BASE_URL).",
    ),
]


def vision_overrides(vision_model: str | None, vision_base_url: str | None) -> dict[str, object]:
    """Config fields for --vision-model (none when it is not given: configs stay as before);
    the model is checked like --model before any browser starts."""
    if vision_base_url and not vision_model:
        raise fail("--vision-base-url needs --vision-model")
    if not vision_model:
        return {}
    check_model(vision_model, vision_base_url)
    return {"vision_model": vision_model, "vision_base_url": vision_base_url}


CapOpt = Annotated[
    str | None,
    typer.Option(
        "--cap",
        help="Largest screenshot to send, WxH (default 1440x810, the paper's measured size). The model's "
        "conventions row may still lower it so that its provider never resizes the image.",
    ),
]


def lit(value: object) -> str:
    """User text (paths, ids, errors) inside a Rich message, printed as it is: a `[/x]` in a
    folder name is not markup (unescaped it crashes the message or restyles it)."""
    return escape(str(value))


def fail(message: str, code: int = 2) -> typer.Exit:
    # Messages are plain text built from user input: never markup.
    err.print(f"[bold red]error:[/] {lit(message)}")
    return typer.Exit(code)


def check_out_dir(path: Path) -> None:
    """`--out` must be a folder (or not exist yet): a file there is a one-line error, not a traceback."""
    if path.exists() and not path.is_dir():
        raise fail(f"--out {path} is a file, not a folder; give a folder path")


def build_config(
    model: str,
    profile: str,
    disable: list[str] | None,
    coords: str | None,
    cap: str | None = None,
    **overrides: object,
) -> HarnessConfig:
    """The run's config: the model's conventions row picks the coordinate convention and the
    screenshot cap; `--coords` and `--cap` win over it."""
    from webfovea.observation.sizing import harness_config

    if overrides.get("observation") is None:
        overrides.pop("observation", None)  # not given: the profile's mode (docs/profiles.md)
    try:
        return harness_config(
            profile, disable, model=model, cap=cap, coordinate_convention=coords, **overrides
        )
    except ValueError as e:
        raise fail(str(e)) from None


def go_offline() -> None:
    """Every browser this process or its workers launch from now on is offline ($WEBFOVEA_OFFLINE)."""
    import os

    from webfovea.browser.session import OFFLINE_ENV

    os.environ[OFFLINE_ENV] = "1"


def check_model(model: str, base_url: str | None) -> None:
    """Build a provider client once before any browser starts, so a bad spec, a missing key or
    an interface the model's row does not have stops the command with what to set. (The
    oracle and replay need a task's page; they are checked when they are built.)"""
    from webfovea.models.factory import make_model, model_kind

    kind = model.partition(":")[0].strip().lower()
    # An unknown kind (`--model bogus`) is refused here too: otherwise every task would run to
    # model_error and the command would exit 0.
    if kind not in ("openai", "anthropic") and model_kind(model.partition(":")[0]) is not None:
        return

    try:
        make_model(model, base_url=base_url)
    except ValueError as e:  # ModelConfigError is a ValueError
        raise fail(str(e)) from None
