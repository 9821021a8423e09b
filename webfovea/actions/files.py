"""Files into a form: upload, the file input at a point (or ref) given files from the workspace.

A person clicks "Choose file" and picks files; so does the action: it clicks the point with
Playwright waiting for the file chooser the click opens, then hands the chooser the files. That
works for a visible `<input type=file>`, a label or a styled button wired to a hidden input, and
inside frames, without guessing the page's markup. Only files of the task's workspace
(`HarnessConfig.workspace`) can be given, each within `max_upload_mb`: a name that leaves the
folder (`..`, an absolute path, a symbolic link pointing out) is refused with a note.
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from webfovea.actions.pointer import BOX
from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.config import Component, HarnessConfig
from webfovea.execution.forms import set_files_at
from webfovea.feedback.element import describe_at
from webfovea.types import Action, ParamSpec

CHOOSER_TIMEOUT_MS = 2_000  # a click that opens a chooser opens it at once (else: set_files_at)


class UploadRefused(Exception):
    pass


def workspace_files(config: HarnessConfig, names: list[str]) -> list[Path]:
    """The files `names` stand for inside the workspace; UploadRefused says why not."""
    if not config.workspace:
        raise UploadRefused("there is no workspace for this task, so there is nothing to upload")
    base = Path(config.workspace).expanduser().resolve()
    available = sorted(p.name for p in base.iterdir() if p.is_file()) if base.is_dir() else []
    listed = f" Files in the workspace: {', '.join(available[:30]) or 'none'}."
    if not names:
        raise UploadRefused("name the files to upload (several: separated by ';')." + listed)
    paths = []
    for name in names:
        path = (base / name).resolve()
        if not path.is_relative_to(base):
            raise UploadRefused(f"'{name}' is outside the workspace; only its files can be uploaded.{listed}")
        if not path.is_file():
            raise UploadRefused(f"there is no file '{name}' in the workspace.{listed}")
        size = path.stat().st_size
        if size > config.max_upload_mb * 1024 * 1024:
            raise UploadRefused(
                f"'{name}' is {size / 1e6:.1f} MB, over the {config.max_upload_mb:g} MB limit"
            )
        paths.append(path)
    return paths


async def exec_upload(ctx: ExecContext, action: Action) -> Outcome:
    x, y = ctx.css(action.args.get("start_box"))
    names = [n.strip() for n in str(action.args.get("files") or "").split(";") if n.strip()]
    try:
        paths = workspace_files(ctx.config, names)
    except UploadRefused as e:
        return Outcome(ok=False, refused=True, check_change=False, point=(x, y), note=f"upload refused: {e}")
    try:
        async with ctx.page.expect_file_chooser(timeout=CHOOSER_TIMEOUT_MS) as opened:
            await ctx.page.mouse.click(x, y)
        chooser = await opened.value
    except PlaywrightTimeout:
        # Chromium now and then opens no chooser for a label over a hidden input (seen at load
        # ~5); the field the point names is still known, so it is given the files directly.
        if not await set_files_at(ctx.page, x, y, [str(p) for p in paths]):
            return Outcome(point=(x, y), note=f"The file field now holds {_sizes(paths)}.")
        where = (await describe_at(ctx.page, x, y)).sentence(ctx.view.to_model(x, y))
        note = f"upload failed: clicking there opened no file chooser. {where} Point at the file field or its button."
        return Outcome(ok=False, point=(x, y), note=note)
    if len(paths) > 1 and not chooser.is_multiple():
        return Outcome(ok=False, point=(x, y), note="upload failed: this file field takes one file only.")
    try:
        await chooser.set_files([str(p) for p in paths])
    except PlaywrightError as e:
        return Outcome(ok=False, point=(x, y), note=f"upload failed: {str(e).splitlines()[0]}")
    return Outcome(point=(x, y), note=f"The file field now holds {_sizes(paths)}.")


def _sizes(paths: list[Path]) -> str:
    return ", ".join(f"'{p.name}' ({p.stat().st_size:,} bytes)" for p in paths)


SPECS = [
    ActionSpec(
        name="upload",
        targets=True,
        aliases=("upload_file", "set_input_files"),
        params=(ParamSpec("start_box", "point"), ParamSpec("files", "text")),
        signature=f"upload(start_box={BOX}, files='report.pdf')",
        purpose="Put files from your workspace into the file field (or its 'Choose file' button) at the point; "
        "several: separated by ';'.",
        execute=exec_upload,
        component=Component.upload,
        needs_setting="workspace",
        pointer=True,
        feedback="The files the field now holds; on refusal, the files the workspace has.",
        manual="Attach '{files}' in the file field.",
    ),
]
