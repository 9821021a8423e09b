"""`webfovea mcp`: serve one browser task to an MCP client (stdio, or streamable HTTP)."""

from __future__ import annotations

import asyncio
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from webfovea.cli.common import (
    CapOpt,
    CoordsOpt,
    DisableOpt,
    ModelsOpt,
    ProfileOpt,
    SecretsOpt,
    WorkspaceOpt,
    build_config,
    err,
    fail,
    role_options,
    secrets_overrides,
    verifier_overrides,
    vision_overrides,
)

if TYPE_CHECKING:
    from webfovea.config import HarnessConfig
    from webfovea.mcp.task_session import Launch

# The switch the browser launcher reads for offline runs (webfovea/browser/session.py).
OFFLINE_ENV = "WEBFOVEA_OFFLINE"


def _own_folder(out_dir: Path, tid: str, *, chosen: bool) -> str:
    """The task id whose folder this server alone writes: created here (mkdir is atomic, so
    two servers started in the same second never share one). A chosen id whose folder already
    holds files is refused; the default id takes the next free `-N` suffix."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise fail(f"cannot use --out {out_dir}: {e.strerror or e}") from None
    for n in range(1, 1000):
        name = tid if n == 1 else f"{tid}-{n}"
        try:
            (out_dir / name).mkdir()
            return name
        except FileExistsError:
            if chosen:
                if (out_dir / name).is_dir() and not any((out_dir / name).iterdir()):
                    return name
                raise fail(
                    f"{out_dir / name} already holds a task (another server, or an earlier one): "
                    "choose another --task-id or --out"
                ) from None
        except OSError as e:
            raise fail(f"cannot create the task folder {out_dir / name}: {e.strerror or e}") from None
    raise fail(f"no free task folder for {tid} under {out_dir}")


def mcp(
    url: Annotated[
        str | None,
        typer.Option(
            "--url",
            help="The page the browser opens (the task's start URL). Required but with --browser, "
            "where it opens the first task.",
        ),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            help="Model spec whose conventions row sizes the screenshot and picks the "
            "coordinate space (e.g. anthropic:claude-sonnet-4-5, openai:gpt-4o). The model is not "
            "called: the MCP client is the model. Default: the 1440x810 cap, pixel coordinates.",
        ),
    ] = None,
    profile: ProfileOpt = "webfovea",
    disable: DisableOpt = None,
    models: ModelsOpt = None,
    coords: CoordsOpt = None,
    cap: CapOpt = None,
    workspace: WorkspaceOpt = None,
    secrets: SecretsOpt = None,
    cdp_url: Annotated[str | None, typer.Option("--cdp-url", help="Use a running browser over CDP.")] = None,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder the task folder is written under.")] = Path(
        "runs/mcp"
    ),
    task_id: Annotated[
        str | None, typer.Option("--task-id", help="Name of the task folder (default mcp-TIME).")
    ] = None,
    task: Annotated[str, typer.Option("--task", help="The task, as recorded in result.json.")] = "",
    max_steps: Annotated[
        int | None, typer.Option("--max-steps", help="Step budget (default: profile's).")
    ] = None,
    offline: Annotated[
        bool,
        typer.Option(
            "--offline",
            help="Resolve no host but localhost/127.0.0.1 (tests, "
            "the proving ground). Never for a real website.",
        ),
    ] = False,
    http: Annotated[
        int | None,
        typer.Option("--http", help="Serve streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio."),
    ] = None,
    headed: Annotated[bool, typer.Option("--headed", help="Show the browser window.")] = False,
    browser: Annotated[
        bool,
        typer.Option(
            "--browser",
            help="A long-lived browser: one browser for the server's life, tasks started by "
            "start_task (or navigate), each in its own folder under --out; navigate, "
            "page_snapshot (refs) and tab tools beside the action tools. See docs/mcp.md.",
        ),
    ] = False,
    token_file: Annotated[
        Path | None,
        typer.Option(
            "--token-file",
            help="With --http: write the bearer token clients must send here (mode 0600). Default: "
            ".mcp_token in the task folder. The token is $WEBFOVEA_MCP_TOKEN when set, else random.",
        ),
    ] = None,
) -> None:
    """Serve the harness's actions as MCP tools (stdio by default). Messages go to stderr.

    One task per server: the client calls `observe` and the action tools; the task folder
    (result.json, trajectory.jsonl, screenshots) is closed when the client calls `finished`
    or disconnects. With --browser, one browser for many tasks (start_task, navigate,
    page_snapshot with refs, tabs), a folder per task. See docs/mcp.md.
    """
    try:
        from webfovea.mcp.http_serving import serve_http
        from webfovea.mcp.server import serve_stdio
        from webfovea.mcp.task_session import Launch, McpTask
    except ImportError as e:
        raise fail(f"the MCP SDK is missing ({e}): pip install 'webfovea[mcp]'") from None
    from webfovea.task import Task, TaskIdError, check_task_id

    if url is None and not browser:
        raise fail("--url is required (the start page), except with --browser")
    overrides: dict[str, object] = {"max_steps": max_steps} if max_steps else {}
    # One task: `observe` returns the screenshot, never the snapshot (vision, whatever mode the
    # profile would pick), so no tool takes a ref. The long-lived browser adds page_snapshot,
    # so its targets are points or refs: the hybrid observation.
    overrides["observation"] = "hybrid" if browser else "vision"
    if workspace is not None:
        overrides["workspace"] = str(workspace.resolve())
    overrides.update(secrets_overrides(secrets))
    if models is not None:
        from webfovea.app.config import DEFAULT_MODEL

        # The client is the act role; the file's act only sizes the screenshot like --model, and
        # its verify route is the call the server itself makes on `finished` (look is offered in
        # no vision-only server; no summary: the client keeps its own context).
        roles = role_options(models=models, model=model)
        model = model or (roles.model if roles.model != DEFAULT_MODEL else None)
        overrides.update(vision_overrides(roles.vision_model, roles.vision_base_url))
        overrides.update(verifier_overrides(roles.verifier, roles.verifier_base_url))
    config = build_config(model or "", profile, disable, coords, cap, **overrides)
    tid = task_id or "mcp-" + datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    try:
        check_task_id(tid)
    except TaskIdError as e:
        raise fail(str(e)) from None
    if offline:
        os.environ[OFFLINE_ENV] = "1"
    launch = Launch(cdp_url, headless=not headed)
    if browser:
        _serve_browser(out_dir, config, launch, model, tid, url, task, http, token_file)
        return
    assert url is not None
    tid = _own_folder(out_dir, tid, chosen=task_id is not None)
    t = Task(task_id=tid, task=task or "(given by the MCP client)", website=url)
    session = McpTask(t, out_dir / tid, config, launch=launch, model=model)
    err.print(f"webfovea mcp: task folder {session.dir}", highlight=False)
    try:
        if http is not None:
            asyncio.run(
                serve_http(
                    session,
                    http,
                    ready=lambda u, p: err.print(
                        f"serving MCP at {u}; send 'Authorization: Bearer <token>', the token is in {p}",
                        highlight=False,
                    ),
                    token_file=token_file,
                )
            )
        else:
            asyncio.run(serve_stdio(session))
    except (KeyboardInterrupt, asyncio.CancelledError):  # Ctrl-C, SIGTERM: result.json is written
        pass
    except Exception as e:  # noqa: BLE001 - a failed start: result.json is written, say why
        cause: BaseException = e
        while isinstance(cause, BaseExceptionGroup) and cause.exceptions:  # the SDK's task groups wrap it
            cause = cause.exceptions[0]
        raise fail(
            f"{type(cause).__name__}: {str(cause).splitlines()[0] if str(cause) else ''} "
            f"(result: {session.dir / 'result.json'})",
            1,
        ) from None
    err.print(
        f"webfovea mcp: {session.result.status}; result: {session.dir / 'result.json'}", highlight=False
    )


def _serve_browser(  # noqa: PLR0913 - the options of `mcp --browser`
    out_dir: Path,
    config: HarnessConfig,
    launch: Launch,
    model: str | None,
    prefix: str,
    url: str | None,
    task: str,
    http: int | None,
    token_file: Path | None,
) -> None:
    """`webfovea mcp --browser`: one browser, one run folder per task (PREFIX-001, …)."""
    from webfovea.mcp.browser import McpBrowser
    from webfovea.mcp.browser_server import build_browser_server
    from webfovea.mcp.http_serving import serve_http
    from webfovea.mcp.server import serve_stdio
    from webfovea.task import Task

    try:
        out_dir.mkdir(parents=True, exist_ok=True)  # the token file goes here before the browser starts
    except OSError as e:
        raise fail(f"cannot use --out {out_dir}: {e.strerror or e}") from None
    first = Task(task_id=prefix, task=task or "(given by the MCP client)", website=url) if url else None
    served = McpBrowser(out_dir, config, launch=launch, model=model, prefix=prefix, first=first)
    err.print(f"webfovea mcp --browser: run folders under {out_dir}/{prefix}-NNN", highlight=False)
    try:
        if http is not None:
            asyncio.run(
                serve_http(
                    served,
                    http,
                    ready=lambda u, p: err.print(
                        f"serving MCP at {u}; send 'Authorization: Bearer <token>', the token is in {p}",
                        highlight=False,
                    ),
                    token_file=token_file,
                    build=lambda: build_browser_server(served),
                )
            )
        else:
            asyncio.run(serve_stdio(served, build=lambda: build_browser_server(served)))
    except (KeyboardInterrupt, asyncio.CancelledError):
        pass
    except Exception as e:  # noqa: BLE001 - a failed start: say why
        cause: BaseException = e
        while isinstance(cause, BaseExceptionGroup) and cause.exceptions:
            cause = cause.exceptions[0]
        raise fail(f"{type(cause).__name__}: {str(cause).splitlines()[0] if str(cause) else ''}", 1) from None
    err.print(f"webfovea mcp --browser: {len(served.folders)} task(s) in {out_dir}", highlight=False)
