"""`openai:MODEL` for computer-use models: the OpenAI Responses API with the computer tool.

Rows with `reply_interface = openai_computer` (`webfovea models`) get this client:
`computer-use-preview` the legacy `computer_use_preview` tool (one `action` per
`computer_call`, display size declared), GPT-5.4+ the GA `computer` tool (a batch
`actions[]` per call). Our actions the computer tool does not cover (select, fill,
find_text, read_text, back, reload, finished ...) are offered as function tools.

One action per step: the first action of the first call is executed. Every call of a
response is answered at the next step (`computer_call_output` with the new screenshot,
`function_call_output` with the feedback); the others, and the rest of a batch, are
reported as not executed. Pending safety checks are acknowledged in the next
`computer_call_output` and recorded in the step's `provider_notes`. The conversation is
chained with `previous_response_id`, so each request carries only the new items.
"""

from __future__ import annotations

import json
from typing import Any

from webfovea.models.base import OPENAI_COMPUTER_CALL, ModelError, ModelInput, ModelReply, ToolCall, Usage
from webfovea.models.http_model import HttpModel, as_int
from webfovea.models.messages import closing_text, image_label, png_base64
from webfovea.models.openai_client import json_arguments, openai_errors, openai_sdk_client, openai_sdk_headers
from webfovea.models.sdk_transport import SdkErrors

NOT_EXECUTED = "Not executed: only the first action of a reply is executed (one action per step)."


def input_image(url: str) -> dict[str, Any]:
    """An input image; `detail` is required by the current API. "high": the rule the model's
    conventions row describes and the harness sizes its screenshots by (observation/sizing.py)."""
    return {"type": "input_image", "image_url": url, "detail": "high"}


def incomplete(data: dict[str, Any]) -> str | None:
    """Why a response is incomplete (`status: incomplete`, the token limit or a filter); None if whole."""
    if data.get("status") != "incomplete":
        return None
    reason = (data.get("incomplete_details") or {}).get("reason") or "unknown"
    return f"status=incomplete ({reason})"


class OpenAIResponsesModel(HttpModel):
    provider = "openai"
    base_url_env = "OPENAI_BASE_URL"
    api_key_env = "OPENAI_API_KEY"
    default_base_url = "https://api.openai.com/v1"
    example_model = "computer-use-preview"

    def __init__(self, model: str, **kwargs: Any) -> None:
        super().__init__(model, **kwargs)
        self.tool_type = self.conventions.computer_tool or "computer"
        self._previous_id: str | None = None
        self._owed: list[dict[str, Any]] = []  # the last response's calls, each owed an output
        self._safety: list[dict[str, Any]] = []  # pending safety checks to acknowledge

    sdk_path = "/responses"

    @property
    def endpoint(self) -> str:
        return f"{self.base_url}{self.sdk_path}"

    def new_sdk_client(self) -> Any:
        return openai_sdk_client(self, self._api_key)

    def sdk_headers(self) -> dict[str, Any]:
        return openai_sdk_headers(self)

    def sdk_errors(self) -> SdkErrors:
        return openai_errors()

    def headers(self) -> dict[str, str]:
        h = {"Content-Type": "application/json"}
        if self._api_key:
            h["Authorization"] = f"Bearer {self._api_key}"
        return h

    def tools_for(self, inp: ModelInput) -> list[dict[str, Any]]:
        w, h = inp.images[-1].size if inp.images else (1440, 810)
        computer: dict[str, Any] = {"type": self.tool_type}
        if self.tool_type == "computer_use_preview":
            computer.update(display_width=w, display_height=h, environment="browser")
        # `strict` is required by the current API: off, since strict mode wants every
        # property required and our actions have optional arguments.
        functions = [
            {
                "type": "function",
                "name": t.name,
                "description": t.description,
                "parameters": t.parameters,
                "strict": False,
            }
            for t in inp.tools
            if not t.openai_computer_covered
        ]
        return [computer, *functions]

    def request_body(self, inp: ModelInput) -> dict[str, Any]:
        image = f"data:image/png;base64,{png_base64(inp.images[-1])}" if inp.images else None
        items: list[dict[str, Any]] = []
        for i, call in enumerate(self._owed):
            note = (inp.feedback or "Done.") if i == 0 else NOT_EXECUTED
            if call["type"] == "computer_call":
                out: dict[str, Any] = {
                    "type": "computer_call_output",
                    "call_id": call["call_id"],
                    "output": {"type": "computer_screenshot", "image_url": image},
                }
                if i == 0 and self._safety:
                    out["acknowledged_safety_checks"] = self._safety
                items.append(out)
            else:
                items.append({"type": "function_call_output", "call_id": call["call_id"], "output": note})
        content: list[dict[str, Any]] = []
        if not self._previous_id:
            content.append({"type": "input_text", "text": f"## Task\n{inp.task.strip()}"})
        elif inp.feedback:
            content.append(
                {"type": "input_text", "text": f"## What happened after your last action\n{inp.feedback}"}
            )
        for a in inp.attachments:  # zoom's crop: OpenAI's computer tool has no zoom, so it rides here
            content += [
                {"type": "input_text", "text": a.label},
                input_image(f"data:image/png;base64,{png_base64(a.image)}"),
            ]
        if image:
            content += [
                {"type": "input_text", "text": image_label(inp.step + 1, True)},
                input_image(image),
            ]
        content.append({"type": "input_text", "text": closing_text(inp)})
        items.append({"role": "user", "content": content})
        body: dict[str, Any] = {
            "model": self.model,
            "instructions": inp.system_tools or inp.system,
            "input": items,
            "tools": self.tools_for(inp),
            "truncation": "auto",
            "max_output_tokens": self.output_budget(),
        }
        if self._previous_id:
            body["previous_response_id"] = self._previous_id
        body.update(self.extra_body)
        return body

    def read_reply(self, data: dict[str, Any]) -> ModelReply:
        output = data.get("output")
        if not isinstance(output, list):
            raise ModelError(f"{self.label}: response has no output: {json.dumps(data)[:200]}")
        texts, calls, notes, owed, safety = [], [], [], [], []
        for item in output:
            kind = item.get("type") if isinstance(item, dict) else None
            if kind == "message":
                for part in item.get("content") or []:
                    if part.get("type") == "output_text":
                        texts.append(str(part.get("text") or ""))
                    elif part.get("type") == "refusal":
                        notes.append(f"refusal: {part.get('refusal')}")
                        texts.append(str(part.get("refusal") or ""))
            elif kind == "computer_call":
                owed.append(item)
                actions = item.get("actions") or ([item["action"]] if item.get("action") else [])
                for n, action in enumerate(actions):
                    calls.append(ToolCall(f"{item.get('call_id')}#{n}", OPENAI_COMPUTER_CALL, dict(action)))
                if len(actions) > 1:
                    notes.append(f"batch of {len(actions)} actions: only the first is executed")
                for check in item.get("pending_safety_checks") or []:
                    safety.append(check)
                    notes.append(f"safety check acknowledged: {check.get('code')}: {check.get('message')}")
            elif kind == "function_call":
                owed.append(item)
                args = json_arguments(item.get("arguments"))
                calls.append(ToolCall(str(item.get("call_id")), str(item.get("name")), args))
            # `reasoning` items stay on the server: the conversation is chained with
            # previous_response_id, which carries them into the next turn as the API requires.
        self._previous_id = data.get("id") or self._previous_id
        self._owed, self._safety = owed, safety
        usage = data.get("usage") or {}
        total = as_int(usage.get("input_tokens"))
        cached = as_int((usage.get("input_tokens_details") or {}).get("cached_tokens"))
        return ModelReply(
            text="".join(texts),
            tool_calls=calls,
            notes=notes,
            cut_off=incomplete(data),
            usage=Usage(
                prompt_tokens=total,
                completion_tokens=as_int(usage.get("output_tokens")),
                input_tokens=total - cached,
                cache_read_input_tokens=cached,
                estimated=not usage,
            ),
        )
