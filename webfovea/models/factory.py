"""Model spec strings -> Model objects: `oracle[:K=V,...]`, `replay:PATH`, `openai:MODEL`, `anthropic:MODEL`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from webfovea.models.base import Model
from webfovea.models.endpoint import ModelConfigError
from webfovea.models.retry import RetryPolicy

if TYPE_CHECKING:
    from playwright.async_api import Page

    from webfovea.task import Task

SPEC_FORMS = (
    ("oracle", "the proving ground's oracle (knows the task plan; speaks like a real model)"),
    (
        "oracle:KEY=VAL,...",
        "the oracle with options passed through to it (numbers and true/false are converted)",
    ),
    ("replay:PATH", "replay raw replies from a trajectory.jsonl, a task folder or a run folder"),
    ("openai:MODEL", "OpenAI-compatible Chat Completions (--base-url / OPENAI_BASE_URL, OPENAI_API_KEY)"),
    ("anthropic:MODEL", "Anthropic Messages API (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY)"),
)

# Options an HTTP client takes from `options` (CLI --model-option, run configs).
_CLIENT_OPTIONS = {"timeout_s", "max_tokens", "temperature", "extra_body"}
_OPENAI_ONLY = {"image_detail"}
_RETRY_OPTIONS = {"max_attempts", "budget_s", "base_delay_s", "max_delay_s", "min_attempt_s"}


def describe_specs() -> str:
    """Help text listing the accepted model specs, one per line."""
    width = max(len(form) for form, _ in SPEC_FORMS)
    return "\n".join(f"  {form:<{width}}  {what}" for form, what in SPEC_FORMS)


def _spec_error(spec: str, why: str) -> ModelConfigError:
    return ModelConfigError(f"model spec {spec!r}: {why}. Accepted forms:\n{describe_specs()}")


def _coerce(value: str) -> Any:
    """`3` -> 3, `0.5` -> 0.5, `true`/`false` -> bool, anything else stays a string."""
    low = value.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for cast in (int, float):
        try:
            return cast(value)
        except ValueError:
            pass
    return value.strip()


def parse_options(text: str, spec: str) -> dict[str, Any]:
    """`a=1,b=x` -> {'a': 1, 'b': 'x'}."""
    out: dict[str, Any] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise _spec_error(spec, f"option {item.strip()!r} is not KEY=VALUE")
        out[key.strip()] = _coerce(value)
    return out


def _client_kwargs(provider: str, spec: str, options: dict[str, Any]) -> dict[str, Any]:
    allowed = _CLIENT_OPTIONS | _RETRY_OPTIONS | {"retry"} | (_OPENAI_ONLY if provider == "openai" else set())
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise _spec_error(
            spec,
            f"unknown option(s) {', '.join(unknown)} for {provider} (known: {', '.join(sorted(allowed))})",
        )
    kwargs = {k: v for k, v in options.items() if k in _CLIENT_OPTIONS | _OPENAI_ONLY}
    retry = options.get("retry")
    retry_fields = {k: options[k] for k in _RETRY_OPTIONS if k in options}
    if retry is not None and not isinstance(retry, RetryPolicy):
        raise _spec_error(spec, "option retry must be a RetryPolicy")
    if retry_fields:
        base = retry or RetryPolicy()
        try:
            retry = RetryPolicy(**{**base.__dict__, **retry_fields})
        except (TypeError, ValueError) as exc:
            raise _spec_error(spec, f"bad retry option: {exc}") from None
    if retry is not None:
        kwargs["retry"] = retry
    return kwargs


def make_model(
    spec: str,
    *,
    task: Task | None = None,
    page: Page | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    options: dict[str, Any] | None = None,
) -> Model:
    """Build the model a spec string names. Bad specs raise ModelConfigError (a ValueError)."""
    if not isinstance(spec, str) or not spec.strip():
        raise _spec_error(str(spec), "empty")
    spec = spec.strip()
    kind, sep, rest = spec.partition(":")
    kind = kind.lower()
    opts = dict(options or {})

    if kind == "oracle":
        if sep:
            opts.update(parse_options(rest, spec))
        # Imported lazily: the oracle lives with the proving ground and needs the DOM helpers.
        from webfovea.envs.oracle import OracleModel

        return OracleModel(task=task, page=page, **opts)

    if kind == "replay":
        if not rest.strip():
            raise _spec_error(spec, "replay needs a path (replay:PATH)")
        from webfovea.models.replay import ReplayModel

        return ReplayModel(Path(rest.strip()), task_id=task.task_id if task is not None else None)

    if kind in ("openai", "anthropic"):
        model = rest.strip()
        if not sep or not model:
            raise _spec_error(spec, f"{kind} needs a model name ({kind}:MODEL)")
        kwargs = _client_kwargs(kind, spec, opts)
        try:
            if kind == "openai":
                from webfovea.models.openai_client import OpenAIModel

                return OpenAIModel(model, base_url=base_url, api_key=api_key, **kwargs)
            from webfovea.models.anthropic_client import AnthropicModel

            return AnthropicModel(model, base_url=base_url, api_key=api_key, **kwargs)
        except TypeError as exc:  # a wrongly typed option value
            raise _spec_error(spec, f"bad option: {exc}") from None

    raise _spec_error(spec, "unknown kind")
