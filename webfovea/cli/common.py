"""Shared pieces of the command line: the Typer app, consoles, common options, errors."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypedDict

import typer
from rich.markup import escape

from webfovea.app.reporter import Reporter
from webfovea.cli.lazy import RootGroup
from webfovea.config import PROFILES, Component, HarnessConfig
from webfovea.console import make_console

if TYPE_CHECKING:
    from webfovea.app.config import RoleOptions
    from webfovea.record import Summary
    from webfovea.secrets import Secret

app = typer.Typer(
    cls=RootGroup,  # `judge` is imported when it runs
    add_completion=False,
    no_args_is_help=True,
    help="Reliable round trips for vision-based web agents, and an honest proving ground to measure them.",
)
err = make_console(stderr=True)
out = make_console()

ProfileOpt = Annotated[str, typer.Option("--profile", help=f"Harness profile: {', '.join(PROFILES)}.")]
DisableOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--disable", help="Turn one component off (repeatable): " + ", ".join(c.value for c in Component)
    ),
]
ModelOpt = Annotated[
    str | None,
    typer.Option(
        "--model",
        help="Model spec of the agent (the act role): oracle, replay:PATH, script:FILE, openai:MODEL, "
        "anthropic:MODEL. "
        "Default: the routes file's act, else oracle.",
    ),
]
ModelsOpt = Annotated[
    Path | None,
    typer.Option(
        "--models",
        help="A routes.toml: a model spec per role (act, look, verify, summarise, manuals), e.g. "
        'look = "openai:gpt-4o-mini", summarise = "rule" (docs/models.md, "Routing"). The options '
        "--model, --vision-model, --verifier and --summary-model win over its lines.",
    ),
]
SummaryModelOpt = Annotated[
    str | None,
    typer.Option(
        "--summary-model",
        help="The model that writes the history summary near the context budget (the summarise role; "
        "same forms as --model), or `rule`: the rule-based fallback, no model call. Its usage is "
        "recorded apart (summary_usage). Default: the task's own model.",
    ),
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
WorkspaceOpt = Annotated[
    Path | None,
    typer.Option(
        "--workspace",
        help="A folder whose files the model may upload into file fields (the upload action is "
        "offered only with one; names outside it are refused).",
    ),
]
StorageStateOpt = Annotated[
    Path | None,
    typer.Option(
        "--storage-state",
        help="Start logged in: a Playwright storage state file (cookies, local storage) saved "
        "after logging in once (docs/embedding.md). Cookies in the records stay redacted.",
    ),
]
UserDataDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--user-data-dir",
        help="A Chromium profile folder kept between runs (logins persist); each worker gets its "
        "own sub-folder worker-N.",
    ),
]


SecretsOpt = Annotated[
    Path | None,
    typer.Option(
        "--secrets",
        help="A TOML or JSON file of secrets: NAME = {value, origins}. The model sees only the names "
        "and types <secret>NAME</secret>; the value is typed only on its origins and is in no record "
        "(docs/embedding.md).",
    ),
]


MaxTokensOpt = Annotated[
    int | None,
    typer.Option(
        "--max-tokens",
        min=1,
        help="Token budget of a task (prompt and completion, every model call of every role): once the "
        "usage recorded so far reaches it, the task ends `budget_exceeded` before its next model call.",
    ),
]
MaxCostOpt = Annotated[
    float | None,
    typer.Option(
        "--max-cost",
        min=0.0,
        help="Money budget of a task in $, counted with --prices (needed: a model with no known price is "
        "refused); reached, the task ends `budget_exceeded` before its next model call.",
    ),
]
PricesOpt = Annotated[
    Path | None,
    typer.Option(
        "--prices",
        help="JSON prices per million tokens (input, output, cache_read, cache_write), e.g. "
        '{"input": 3, "output": 15}: the cost is reported, and --max-cost counted with them.',
    ),
]
HeadedOpt = Annotated[
    bool,
    typer.Option("--headed", help="Show the browser window (a full Chromium, not the headless shell)."),
]


class SpendSettings(TypedDict, total=False):
    """The config settings --max-tokens / --max-cost / --prices give (none without them)."""

    max_tokens: int
    max_cost: float
    prices: dict[str, float]


def spend_overrides(
    max_tokens: int | None, max_cost: float | None, prices: Path | None, *, keep_prices: bool = True
) -> SpendSettings:
    """A task's spending caps as config settings, the prices file read first (a money budget
    without prices is refused when the config is built). `keep_prices=False`: the prices go into
    the config only with a money budget (bench records them in summary.json's meta otherwise)."""
    from webfovea.app.inputs import read_prices

    with app_errors():
        table = read_prices(prices)
    out: SpendSettings = {}
    if max_tokens is not None:
        out["max_tokens"] = max_tokens
    if max_cost is not None:
        out["max_cost"] = max_cost
    if table is not None and (keep_prices or max_cost is not None):
        out["prices"] = table
    return out


class SecretsSettings(TypedDict, total=False):
    """The config setting --secrets gives (none without it)."""

    secrets: dict[str, Secret]


class LoginSettings(TypedDict, total=False):
    """The config settings --storage-state / --user-data-dir give (at most one)."""

    storage_state: str
    user_data_dir: str


def secrets_overrides(path: Path | None) -> SecretsSettings:
    """--secrets FILE as the config's `secrets`, checked before a browser starts."""
    if path is None:
        return {}
    from webfovea.secrets import SecretsError, load_secrets

    try:
        return {"secrets": load_secrets(path)}
    except SecretsError as e:
        raise fail(f"--secrets: {e}") from None


def login_overrides(storage_state: Path | None, user_data_dir: Path | None) -> LoginSettings:
    """--storage-state / --user-data-dir as config settings, checked before a browser starts."""
    if storage_state is not None and user_data_dir is not None:
        raise fail("give --storage-state or --user-data-dir, not both")
    if storage_state is not None and not storage_state.is_file():
        raise fail(
            f"--storage-state {storage_state} is not a file (save one with context.storage_state(path=...))"
        )
    out: LoginSettings = {}
    if storage_state is not None:
        out["storage_state"] = str(storage_state.resolve())
    if user_data_dir is not None:
        out["user_data_dir"] = str(user_data_dir.resolve())
    return out


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
VerifierOpt = Annotated[
    str | None,
    typer.Option(
        "--verifier",
        help="The model that checks every finished answer in a fresh context (the `verifier` component; "
        "same forms as --model: openai:MODEL, anthropic:MODEL, oracle — the oracle checks against the "
        "task's truth, an upper bound — or replay:PATH, the verdicts a recorded run gave); its usage "
        "is recorded apart (verifier_usage). Default: the task's own model (off for a model that "
        "replays a script).",
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
    """Config fields for --vision-model (none when it is not given), the model checked first."""
    from webfovea.app import config

    with app_errors():
        return config.vision_overrides(vision_model, vision_base_url)


def verifier_overrides(verifier: str | None, base_url: str | None = None) -> dict[str, object]:
    """Config fields for --verifier (none when it is not given), the model checked first."""
    from webfovea.app import config

    with app_errors():
        return config.verifier_overrides(verifier, base_url)


def summary_overrides(summary_model: str | None, base_url: str | None = None) -> dict[str, object]:
    """Config fields for --summary-model (none when it is not given), the model checked first."""
    from webfovea.app import config

    with app_errors():
        return config.summary_overrides(summary_model, base_url)


def role_options(
    *,
    models: Path | None = None,
    model: str | None = None,
    base_url: str | None = None,
    vision_model: str | None = None,
    vision_base_url: str | None = None,
    verifier: str | None = None,
    summary_model: str | None = None,
) -> RoleOptions:
    """The roles' options with the routes file (--models) filling what they leave open."""
    from webfovea.app import config

    given = config.RoleOptions(
        models=models,
        model=model,
        base_url=base_url,
        vision_model=vision_model,
        vision_base_url=vision_base_url,
        verifier=verifier,
        summary_model=summary_model,
    )
    with app_errors():
        return config.routed(given)


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


@contextlib.contextmanager
def app_errors() -> Iterator[None]:
    """The application layer's AppError as the command line's one-line error (exit 2)."""
    from webfovea.app.errors import AppError

    try:
        yield
    except AppError as e:
        raise fail(str(e)) from None


class ConsoleReporter(Reporter):
    """What the application layer reports, printed: notes to stdout, warnings to stderr."""

    def note(self, text: str) -> None:
        out.print(text, markup=False)

    def warn(self, label: str, text: str) -> None:
        err.print(f"[yellow]{lit(label)}:[/] {lit(text)}")

    def summary(self, summary: Summary) -> None:
        from webfovea.eval.summary import format_summary_table

        out.print(format_summary_table(summary))


def build_config(
    model: str,
    profile: str,
    disable: list[str] | None,
    coords: str | None,
    cap: str | None = None,
    **overrides: object,
) -> HarnessConfig:
    """The run's config (`webfovea.app.config.build_config`), a bad option a one-line error."""
    from webfovea.app import config

    with app_errors():
        return config.build_config(model, profile, disable, coords, cap, **overrides)


def go_offline() -> None:
    """Every browser this process or its workers launch from now on is offline ($WEBFOVEA_OFFLINE)."""
    from webfovea.app.sites import go_offline

    go_offline()


def check_model(model: str, base_url: str | None) -> None:
    """The model spec (its key, its interface) checked before any browser starts."""
    from webfovea.app import config

    with app_errors():
        config.check_model(model, base_url)
