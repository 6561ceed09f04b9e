"""TRL glue: environments for ``GRPOTrainer(environment_factory=...)`` over the Harness Lab server.

Targets TRL 1.9.0 (released 2026-07-21; checked 2026-12-01), whose environment API is: a factory (or a
dict of factories by name, each dataset row choosing one with its ``environment`` column) builds one
instance per rollout; TRL exposes the instance's public methods as tools (schemas from their signatures
and Google-style docstrings, via transformers), calls ``reset(**row)`` before generation (a returned
string is appended to the row's last user message), and, when the instance has ``get_reward()``, takes
the reward from it. Needs transformers >= 5.2.0 (TRL's own check for ``environment_factory``) and
``jmespath`` (TRL's tool-call parsing). Not supported: earlier TRL releases' environment APIs.

The tools are not fixed here: ``environment_class`` asks the server for one episode of the
environment and builds a class with exactly the tools that episode offers (names, parameters,
descriptions from the server's JSON schemas); a menu environment (graph-menu) offers the one tool its
protocol declares for tool-calling policies, ``choose(menu_id)``. Per-token advantages: TRL 1.9.0's GRPOTrainer computes one advantage per
completion (its loss accepts per-token advantages only from subclasses), so the per-step credit is not
trained on here; it is kept on each instance (``turn_credit``) for logging or such a subclass.

Several servers: ``HARNESS_LAB_URL`` may list URLs, comma-separated; each instance (one rollout) plays its
episode on the next server in turn, every call of that episode on its own server. Schema constraints: an
``enum`` becomes transformers' ``(choices: [...])`` in the docstring, which TRL turns back into the tool
schema's enum; length limits, ranges and patterns are written into the argument's description (the server
validates them either way). Instructions: every episode is created with ``instructions="tools"``, so the
server's system prompt and observations are the ones its protocols declare for a tool-calling policy (ask for
a tool call, written as the chat template says, e.g. Qwen's ``<tool_call>`` tags; on a menu, for
``choose(menu_id)``): no prompt text lives here.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
from typing import Any, Callable, Dict, List, Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness_lab_client import HarnessLabClient, question_key  # noqa: E402

_JSON_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool, "object": dict}
KEY_FIELDS = ("question_id", "set", "split", "index")


def _python_type(schema: dict) -> Any:
    if schema.get("type") == "array":
        return List[_python_type(schema.get("items", {}))]  # type: ignore[misc]
    return _JSON_TYPES.get(schema.get("type"), str)


#: Every episode asks the server for a tool-calling policy's instructions (its protocols declare them).
INSTRUCTIONS = "tools"


def server_urls() -> List[str]:
    """$HARNESS_LAB_URL as a list (comma-separated), default the local server."""
    urls = [u.strip().rstrip("/") for u in (os.environ.get("HARNESS_LAB_URL") or "http://127.0.0.1:8765").split(",") if u.strip()]
    if not urls:
        raise ValueError("HARNESS_LAB_URL lists no server")
    return urls


_NEXT_SERVER = [0]


def next_client() -> HarnessLabClient:
    """A client for the next server in turn (one per rollout)."""
    urls = server_urls()
    url = urls[_NEXT_SERVER[0] % len(urls)]
    _NEXT_SERVER[0] += 1
    return HarnessLabClient(url)


def _constraints(schema: dict) -> str:
    """A JSON schema's constraints in words (what transformers' docstring parsing cannot carry), plus the choices of an enum."""
    words = []
    for key, say in (("minLength", "at least {} characters"), ("maxLength", "at most {} characters"), ("minimum", "at least {}"), ("maximum", "at most {}"), ("minItems", "at least {} items"), ("maxItems", "at most {} items"), ("pattern", "matching {}")):
        if key in schema:
            words.append(say.format(schema[key]))
    items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
    if items.get("enum"):
        words.append("each one of " + ", ".join(json.dumps(v) for v in items["enum"]))
    text = f" ({'; '.join(words)})" if words else ""
    if schema.get("enum"):
        text += f" (choices: {json.dumps(schema['enum'])})"
    return text


def _tool_method(name: str, description: str, parameters: dict) -> Callable:
    """A method named ``name`` whose signature and docstring carry the server's JSON schema (what TRL turns back into a tool schema)."""
    props: Dict[str, dict] = parameters.get("properties", {})
    required = set(parameters.get("required", []))

    def tool(self, **arguments):
        return self._act(name, arguments)

    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: Dict[str, Any] = {"return": str}
    ordered = [p for p in props if p in required] + [p for p in props if p not in required]
    for p in ordered:
        hint = _python_type(props[p])
        if p not in required:
            hint = Optional[hint]
        annotations[p] = hint
        params.append(inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=inspect.Parameter.empty if p in required else None, annotation=hint))
    args = "\n".join(f"    {p}: {' '.join(str(props[p].get('description') or p).split())}{_constraints(props[p])}" for p in ordered)
    tool.__name__ = tool.__qualname__ = name
    tool.__doc__ = f"{' '.join(description.split()) or name}\n\nArgs:\n{args}\n" if ordered else (description or name)
    tool.__annotations__ = annotations
    tool.__signature__ = inspect.Signature(params, return_annotation=str)  # type: ignore[attr-defined]
    return tool


class HarnessLabEnvBase:
    """What every generated environment class shares: the episode, its reward and credit."""

    environment = "graph-menu"
    config: dict = {}

    def __init__(self) -> None:
        self._client = next_client()
        self._episode = None
        self._system: Optional[str] = None
        self.reward = 0.0
        self.turn_credit: List[float] = []
        self.result: Optional[dict] = None

    def reset(self, **row) -> Optional[str]:
        key = question_key({k: row[k] for k in KEY_FIELDS if row.get(k) is not None})
        if self._episode is not None and self._episode.id is not None:
            self._episode.close()
        self._episode = self._client.episode(self.environment, config=self.config or None, seed=int(row.get("seed", 0)), group_id=row.get("group_id"), instructions=INSTRUCTIONS, **key)
        created = self._episode.reset()
        self.reward, self.turn_credit, self.result = 0.0, [], None
        system = next((m["content"] for m in created["messages"] if m["role"] == "system"), None)
        user = created["messages"][-1]["content"]
        prompt = row.get("prompt") or []
        has_system = bool(prompt) and isinstance(prompt[0], dict) and prompt[0].get("role") == "system" and prompt[0].get("content") == system
        # TRL appends this text to the row's last user message: the server's system prompt travels with it unless the row already has it.
        return user if has_system or not system else f"{system}\n\n{user}"

    def _finish(self) -> None:
        if self.result is None and self._episode is not None and self._episode.id is not None:
            self.result = self._episode.finish()
            self.reward = float(self.result["reward"])
            self.turn_credit = [float(c["total"]) for c in self.result["per_step_credit"]]

    def _act(self, name: str, arguments: dict) -> str:
        if self._episode is None or self._episode.id is None or self._episode.done:
            raise ValueError("The episode is over: no more tool calls.")
        out = self._episode.step({"name": name, "arguments": {k: v for k, v in arguments.items() if v is not None}})
        if out["done"]:
            self._finish()
        return out["observation"] if out["info"]["valid"] else f"Error: {out['info']['format_error']}"

    def get_reward(self) -> float:
        """The episode's configured reward; an episode the model did not end is scored as it stands."""
        self._finish()
        return self.reward


def environment_class(environment: str, probe: Dict[str, Any], config: Optional[dict] = None, client: Optional[HarnessLabClient] = None) -> type:
    """A ``HarnessLabEnvBase`` subclass with exactly the tools the server's ``environment`` offers.

    ``probe`` is one question key (e.g. the first dataset row's ``{"question_id": 12}``): one episode is
    created to read the tools (or the menu), then dropped unscored.
    """
    client = client or HarnessLabClient(server_urls()[0])
    created = client.create(environment, config=config or None, instructions=INSTRUCTIONS, **question_key(probe))
    client.delete(created["episode_id"])
    members: Dict[str, Any] = {"environment": environment, "config": dict(config or {})}
    for t in created.get("tools") or []:  # TRL names a tool by its __name__
        fn = t.get("function", t)
        members[fn["name"]] = _tool_method(fn["name"], fn.get("description", ""), fn.get("parameters") or {})
    return type(f"HarnessLab_{environment.replace('-', '_')}", (HarnessLabEnvBase,), members)


def environment_factories(environments: List[str], probe: Dict[str, Any], config: Optional[dict] = None) -> Dict[str, type]:
    """``{name: class}`` for ``GRPOTrainer(environment_factory=...)``; rows pick one with an ``environment`` column."""
    return {name: environment_class(name, probe, config) for name in environments}


def prompt_rows(environment: str, keys: List[Dict[str, Any]], probe_client: Optional[HarnessLabClient] = None) -> List[dict]:
    """Dataset rows for ``environment``: the server's system prompt as the system message and an empty user turn (``reset`` fills in the question)."""
    client = probe_client or HarnessLabClient(server_urls()[0])
    created = client.create(environment, instructions=INSTRUCTIONS, **question_key(keys[0]))
    client.delete(created["episode_id"])
    system = next((m["content"] for m in created["messages"] if m["role"] == "system"), None)
    head = [{"role": "system", "content": system}] if system else []
    return [{"prompt": head + [{"role": "user", "content": ""}], **key} for key in keys]


if __name__ == "__main__":
    # python3 harness_lab_trl.py ENV QUESTION_ID: the tool schemas this adapter would give TRL.
    cls = environment_class(sys.argv[1], {"question_id": int(sys.argv[2])})
    print(json.dumps(sorted(n for n, _ in inspect.getmembers(cls(), inspect.ismethod) if not n.startswith("_") and n not in ("reset", "get_reward"))))
