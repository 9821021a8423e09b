"""The evidence a judge sees, built offline and deterministically from one task folder.

Two filters:
- `naveval` reproduces NavEval's published pipeline: XHR/fetch only; the start site's
  registrable label only (`tldextract(url).domain`: `api.example.co.uk` and `example.com`
  are both "example"); headers and raw bodies dropped, parsed JSON kept; noise keys and empty
  values dropped; strings decoded; blobs marked; oldest requests dropped past the token budget.
- `webfovea` (default) does the same, also keeps hosts the page itself navigated to and parsed
  form bodies, collapses repeated identical requests before dropping old ones, and records
  every dropped request with its reason, so a judge error can be traced to filtering.

Tokens are counted with tiktoken's cl100k_base when it is installed, else estimated as
characters / 4 (said in `token_counter`). Nothing is fetched: the public-suffix list ships
with the `publicsuffixlist` package.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import math
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from webfovea.judge.budget import Selected, newest_within
from webfovea.judge.folder import AgentRecord, read_task_folder
from webfovea.judge.requests import format_request, normalise

if TYPE_CHECKING:
    from publicsuffixlist import PublicSuffixList

FILTERS = ("naveval", "webfovea")
DEFAULT_MAX_TOKENS = 120_000


@lru_cache(maxsize=1)
def _psl() -> PublicSuffixList:
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList()  # the list bundled with the package: never fetched


@lru_cache(maxsize=4096)  # a capture names a few hosts thousands of times
def registrable_label(url_or_host: str) -> str:
    """The domain label without subdomains or public suffix (tldextract's `.domain`).

    IP addresses and single-label hosts (localhost) are their own label."""
    host = urlsplit(url_or_host).hostname if "//" in url_or_host else url_or_host
    host = (host or "").lower().rstrip(".")
    if not host:
        return ""
    try:
        ipaddress.ip_address(host.strip("[]"))
        return host
    except ValueError:
        pass
    private = _psl().privatesuffix(host)
    if private is None:  # a public suffix itself, or a single label (localhost)
        return host.split(".")[0]
    public = _psl().publicsuffix(host) or ""
    return private[: -len(public) - 1] if public and private.endswith("." + public) else private.split(".")[0]


@lru_cache(maxsize=1)
def _tiktoken() -> Any:
    try:
        import tiktoken  # optional: counting works without it

        return tiktoken.get_encoding("cl100k_base")
    except Exception:  # not installed, or its data file would have to be downloaded
        return None


def token_counter() -> str:
    return "tiktoken cl100k_base" if _tiktoken() is not None else "estimate: characters / 4"


def count_tokens(text: str) -> int:
    enc = _tiktoken()
    return len(enc.encode(text)) if enc is not None else math.ceil(len(text) / 4)


@dataclass
class Evidence:
    task_id: str
    task: str
    start_url: str
    urls: list[str]
    requests: list[dict[str, Any]]
    dropped: list[dict[str, Any]]
    actions: list[str]
    screenshot: str | None  # file name of the last screenshot by step number
    filter: str
    tokens: int
    token_counter: str
    problems: list[str] = field(default_factory=list)
    answer: str | None = None  # Protocol III only
    # The last screenshot's bytes, read once inside the task folder (judge/folder.py).
    image: bytes | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("image")
        if self.answer is None:
            d.pop("answer")
        return d

    def image_bytes(self) -> bytes | None:
        return self.image

    def digest(self, extra: str = "") -> str:
        """sha256 of everything the judge sees (text and image) plus `extra` (method, model, prompt)."""
        h = hashlib.sha256(json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False).encode())
        h.update(hashlib.sha256(self.image_bytes() or b"").digest())
        h.update(extra.encode())
        return h.hexdigest()


def dedupe_urls(urls: list[str]) -> list[str]:
    """In order, each URL once (NavEval's trajectory)."""
    return list(dict.fromkeys(u for u in urls if u and not u.startswith(("about:", "data:", "chrome"))))


def _select(rec: AgentRecord, flt: str) -> tuple[Selected, list[dict[str, Any]]]:
    """Type and domain filters: (kept (index, capture entry) pairs, dropped records). Only an
    entry's URL and type are read here; the decision is the same for every entry with the same
    two, so a large capture decides each pair once."""
    keep_labels = {registrable_label(rec.start_url)}
    keep_hosts: set[str] = set()
    if flt == "webfovea":
        keep_hosts = {h for u in rec.urls if (h := urlsplit(u).hostname)}
    kept: Selected = []
    dropped: list[dict[str, Any]] = []
    reasons: dict[tuple[str, str], str | None] = {}
    for i, raw in enumerate(rec.requests):
        url, rtype = str(raw.get("url") or ""), str(raw.get("resource_type") or "")  # as normalise reads them
        if (key := (url, rtype)) not in reasons:
            reasons[key] = _drop_reason(url, rtype, keep_labels, keep_hosts)
        if (reason := reasons[key]) is not None:
            dropped.append({"index": i, "url": url, "reason": reason})
        else:
            kept.append((i, raw))  # formatted later, only as far as the budget reaches (judge/budget.py)
    return kept, dropped


def _drop_reason(url: str, rtype: str, keep_labels: set[str], keep_hosts: set[str]) -> str | None:
    if rtype not in ("xhr", "fetch"):
        return f"type: {rtype or 'unknown'}"
    host = urlsplit(url).hostname or ""
    if registrable_label(url) not in keep_labels and host not in keep_hosts:
        return f"domain: {registrable_label(url)}"
    return None


def build_evidence(
    folder: Path | AgentRecord,
    *,
    flt: str = "webfovea",
    max_tokens: int = DEFAULT_MAX_TOKENS,
    with_answer: bool = False,
) -> Evidence:
    """What the judge sees for one task folder. Pure: same folder, same evidence."""
    if flt not in FILTERS:
        raise ValueError(f"unknown filter {flt!r}; use {' or '.join(FILTERS)}")
    rec = folder if isinstance(folder, AgentRecord) else read_task_folder(folder)
    selected, dropped = _select(rec, flt)

    # Repeats collapse (webfovea), then the oldest go past the budget: newest first, so a
    # large capture's old requests are never cleaned or serialised.
    def formatted(raw: dict[str, Any]) -> dict[str, Any]:
        return format_request(normalise(raw, rec.request_format, keep_form_bodies=flt == "webfovea"))

    kept = newest_within(
        selected, dropped, max_tokens, collapse=flt == "webfovea", count=count_tokens, formatted=formatted
    )
    if flt == "naveval":  # NavEval records nothing about what it dropped
        dropped = []
    requests = [{k: v for k, v in r.items() if k != "index"} for r in kept]
    urls = dedupe_urls([rec.start_url, *rec.urls] if rec.start_url else rec.urls)
    shot = rec.last_screenshot
    image = rec.image(shot) if shot else None  # a refused file is listed in rec.problems
    return Evidence(
        task_id=rec.task_id,
        task=rec.task,
        start_url=rec.start_url,
        urls=urls,
        requests=requests,
        dropped=sorted(dropped, key=lambda d: d["index"]),
        actions=list(rec.actions),
        screenshot=shot.name if shot and image is not None else None,
        filter=flt,
        tokens=count_tokens(json.dumps(requests, ensure_ascii=False)),
        token_counter=token_counter(),
        problems=list(rec.problems),
        answer=(rec.answer or "") if with_answer else None,
        image=image,
    )
