"""`webfovea models`: the conventions table, one row per model family."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from webfovea.cli.common import app, fail, out


def _limits(row: object) -> str:
    from webfovea.models.conventions import ModelConventions

    assert isinstance(row, ModelConventions)
    parts = []
    if row.size_multiple:
        parts.append(f"smart_resize x{row.size_multiple}")
    if row.max_long_edge:
        parts.append(f"long<={row.max_long_edge}")
    if row.max_short_edge:
        parts.append(f"short<={row.max_short_edge}")
    if row.max_pixels:
        parts.append(f"area<={row.max_pixels / 1e6:.2f}MP")
    return ", ".join(parts) or "none known"


@app.command()
def models(
    model: Annotated[
        str | None, typer.Argument(help="A model spec or name: show only the row it gets.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")] = False,
) -> None:
    """List the model conventions table: coordinate space, image limits, cap sent, context, reply interface.

    With MODEL, show the row that model gets (e.g. `webfovea models anthropic:claude-sonnet-4-6`).
    """
    from webfovea.models.conventions import CONVENTIONS_TABLE, DEFAULT_CONVENTIONS, conventions_for
    from webfovea.observation.sizing import DEFAULT_CAP, derive_cap, fit_within

    rows = [(pattern, row) for pattern, row in CONVENTIONS_TABLE] + [("(anything else)", DEFAULT_CONVENTIONS)]
    if model:
        try:
            wanted = conventions_for(model)
        except ValueError as e:
            raise fail(str(e)) from None
        rows = [(p, r) for p, r in rows if r.family == wanted.family]
    records: list[dict[str, object]] = []
    sizes: list[tuple[int, int]] = []
    for pattern, row in rows:
        sent = fit_within((1920, 1080), derive_cap(row, (1920, 1080), DEFAULT_CAP))
        sizes.append(sent)
        records.append(
            {
                **row.to_json(),
                "matches": pattern,
                "sent_at_1920x1080": list(sent),
                "computer_beta": row.computer_beta,
                "note": row.note,
            }
        )
    if as_json:
        out.print_json(json.dumps(records))
        return
    head = f"{'family':<20} {'coords':<9} {'provider image limits':<36} {'sent':<9} {'context':>9}  reply interface"
    typer.echo(head)
    for size, (_, row) in zip(sizes, rows, strict=True):
        ctx = f"{row.context_tokens:,}" if row.context_tokens else "?"
        iface = row.reply_interface + (f" ({row.computer_tool})" if row.computer_tool else "")
        if row.caches_prompts:
            iface += ", caches"
        shown = "x".join(str(v) for v in size)
        typer.echo(
            f"{row.family:<20} {row.coordinate_space:<9} {_limits(row):<36} {shown:<9} {ctx:>9}  {iface}"
        )
    typer.echo(
        "\nsent: the screenshot sent for a 1920x1080 viewport, sized so the provider never resizes it.\n"
        "Which model names get which row: `webfovea models --json` (field `matches`); docs/models.md."
    )
