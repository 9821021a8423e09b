"""`webfovea view RUN...`: the local web app people label runs and review manuals in."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from webfovea.cli.common import app, fail, lit, out


@app.command()
def view(
    runs: Annotated[list[Path], typer.Argument(help="Finished run folders (e.g. runs/builtin-webfovea).")],
    port: Annotated[int, typer.Option("--port", help="The port on 127.0.0.1; 0 picks a free one.")] = 0,
    no_open: Annotated[bool, typer.Option("--no-open", help="Do not open a browser tab.")] = False,
) -> None:
    """Serve a local web app on 127.0.0.1 to browse runs, label tasks and review manuals.

    Labels are appended to RUN/labels.jsonl (read by `webfovea judge compare beside RUN`),
    manual reviews to RUN/manuals/reviews.jsonl (read by `bench --protocol II --manuals`).
    docs/view.md describes the pages and the files. Ctrl-C stops it.
    """
    from webfovea.view.server import make_server, url_of

    for run in runs:
        if not run.is_dir():
            raise fail(f"{run} is not a folder; give run folders written by `webfovea bench`")
    try:
        httpd, _ = make_server(runs, port)
    except OSError as e:
        raise fail(f"cannot listen on 127.0.0.1:{port}: {e.strerror or e}") from None
    url = url_of(httpd)
    out.print(f"webfovea view: {lit(url)} (Ctrl-C stops)", highlight=False)
    if not no_open:
        import webbrowser

        webbrowser.open(url)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
