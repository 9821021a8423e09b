"""Writing a finished run in other tools' layouts, so their own evaluators can judge it.

`webretriever.py`: the folders WebRetriever's NavEval evaluator reads (docs/export.md).
`training.py`: judged trajectories as SFT and DPO records for open-model trainers (docs/export.md)."""

from webfovea.export.webretriever import (
    JUDGED_STATUSES,
    STATUS_MAP,
    ExportError,
    ExportSummary,
    export_webretriever,
    webretriever_status,
)

__all__ = [
    "JUDGED_STATUSES",
    "STATUS_MAP",
    "ExportError",
    "ExportSummary",
    "export_webretriever",
    "webretriever_status",
]
