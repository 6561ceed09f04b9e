"""Client for the Harness Lab environment server (``npm run env-server``).

Standard library only (urllib, json): the trainer adapters in this folder import it, and so can any
other trainer. One ``Episode`` is one rollout: ``reset`` returns the chat messages and the tools (or the
menu), ``step`` sends one action, ``finish`` returns the configured reward, its components and the
per-step credit. The server keeps the environment state; the trainer keeps tokenisation.

    from harness_lab_client import HarnessLabClient
    client = HarnessLabClient("http://127.0.0.1:8765", token="...")
    ep = client.episode("graph-menu", set=1, index=0, seed=0)
    first = ep.reset()
    while not ep.done:
        ep.step(menu_id=first["menu"][0]["id"])
    print(ep.finish()["reward"])
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from typing import Any, Dict, List, Optional, Union

__all__ = ["HarnessLabClient", "HarnessLabError", "Episode", "question_key"]


def question_key(info: Any) -> Dict[str, Any]:
    """The server's question key from a dataset row's fields (``extra_info`` of a verl row, ``metadata``
    of a FlashRAG row, a dict or its JSON text): ``question_id``, else ``set`` (+ ``split``) + ``index``
    as Harness Lab's exports write them. A row of an export made before ``set`` existed (``split`` +
    ``index`` alone) is passed on as written; the server still serves that form.
    """
    row = json.loads(info) if isinstance(info, str) else dict(info or {})
    if row.get("question_id") is not None:
        return {"question_id": int(row["question_id"])}
    if row.get("index") is None:
        raise ValueError(f"a Harness Lab row needs question_id, or set (+ split) + index (got {info!r})")
    if row.get("set") is not None:
        key: Dict[str, Any] = {"set": row["set"] if isinstance(row["set"], str) else int(row["set"]), "index": int(row["index"])}
        if row.get("split") is not None:
            key["split"] = str(row["split"])
        return key
    if row.get("split") is not None:
        return {"split": row["split"] if isinstance(row["split"], str) else int(row["split"]), "index": int(row["index"])}
    raise ValueError(f"a Harness Lab row needs question_id, or set (+ split) + index (got {info!r})")


class HarnessLabError(RuntimeError):
    """A refusal from the server: HTTP status, message and the request field it is about."""

    def __init__(self, status: int, message: str, field: Optional[str] = None, issues: Optional[list] = None):
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message
        self.field = field
        self.issues = issues or []


class HarnessLabClient:
    """Thin JSON-over-HTTP client. ``url`` and ``token`` default to $HARNESS_LAB_URL and $HARNESS_LAB_TOKEN."""

    def __init__(self, url: Optional[str] = None, token: Optional[str] = None, timeout: float = 60.0):
        self.url = (url or os.environ.get("HARNESS_LAB_URL") or "http://127.0.0.1:8765").rstrip("/")
        self.token = token if token is not None else os.environ.get("HARNESS_LAB_TOKEN", "")
        self.timeout = timeout

    def _call(self, method: str, path: str, body: Optional[dict] = None) -> Dict[str, Any]:
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                return json.loads(res.read().decode("utf-8"))
        except urllib.error.HTTPError as err:
            try:
                payload = json.loads(err.read().decode("utf-8")).get("error", {})
            except (ValueError, AttributeError):
                payload = {}
            raise HarnessLabError(err.code, payload.get("message", err.reason), payload.get("field"), payload.get("issues")) from None

    def health(self) -> Dict[str, Any]:
        return self._call("GET", "/v1/health")

    def environments(self) -> List[Dict[str, Any]]:
        """Every registered environment: name, family, protocol, defaults, presets, reward, credit."""
        return self._call("GET", "/v1/environments")["environments"]

    def stats(self) -> Dict[str, Any]:
        return self._call("GET", "/v1/stats")

    def create(self, environment: str, **fields: Any) -> Dict[str, Any]:
        """POST /v1/episodes. Fields: config, question_id | set (+ split) + index, seed, group_id, reward, credit, instructions ("text" or "tools": whose instructions the prompts carry)."""
        body = {"environment": environment}
        body.update({k: v for k, v in fields.items() if v is not None})
        return self._call("POST", "/v1/episodes", body)

    def step(self, episode_id: str, *, tool_call: Optional[dict] = None, menu_id: Optional[str] = None, text: Optional[str] = None) -> Dict[str, Any]:
        body = {k: v for k, v in (("tool_call", tool_call), ("menu_id", menu_id), ("text", text)) if v is not None}
        return self._call("POST", f"/v1/episodes/{episode_id}/step", body)

    def finish(self, episode_id: str, answer: Optional[str] = None) -> Dict[str, Any]:
        return self._call("POST", f"/v1/episodes/{episode_id}/finish", {} if answer is None else {"answer": answer})

    def delete(self, episode_id: str) -> None:
        self._call("DELETE", f"/v1/episodes/{episode_id}")

    def episode(self, environment: str, **fields: Any) -> "Episode":
        return Episode(self, environment, **fields)


class Episode:
    """One rollout: reset() once, step() until done, finish() once (or close() to drop it unscored)."""

    def __init__(self, client: HarnessLabClient, environment: str, **fields: Any):
        self.client = client
        self.environment = environment
        self.fields = fields
        self.id: Optional[str] = None
        self.done = False
        self.created: Dict[str, Any] = {}
        self.observations: List[str] = []
        self.menu: Optional[list] = None
        self.tools: Optional[list] = None
        self.result: Optional[Dict[str, Any]] = None

    def reset(self) -> Dict[str, Any]:
        if self.id is not None:
            self.close()
        self.created = self.client.create(self.environment, **self.fields)
        self.id = self.created["episode_id"]
        self.done = bool(self.created.get("done"))
        self.menu = self.created.get("menu")
        self.tools = self.created.get("tools")
        self.observations = [self.created["messages"][-1]["content"]]
        self.result = None
        return self.created

    @property
    def messages(self) -> List[Dict[str, str]]:
        return self.created.get("messages", [])

    def step(self, action: Union[dict, str, None] = None, *, tool_call: Optional[dict] = None, menu_id: Optional[str] = None, text: Optional[str] = None) -> Dict[str, Any]:
        """One action: a tool call dict ({"name", "arguments"} or OpenAI's {"function": {...}}), a menu id, or raw model text."""
        if self.id is None:
            raise RuntimeError("call reset() first")
        if isinstance(action, dict):
            tool_call = action
        elif isinstance(action, str):
            text = action
        out = self.client.step(self.id, tool_call=tool_call, menu_id=menu_id, text=text)
        self.done = bool(out["done"])
        self.observations.append(out["observation"])
        if "menu" in out:
            self.menu = out["menu"]
        return out

    def finish(self, answer: Optional[str] = None) -> Dict[str, Any]:
        if self.id is None:
            raise RuntimeError("call reset() first")
        self.result = self.client.finish(self.id, answer)
        self.id = None
        return self.result

    def close(self) -> None:
        """Drops an unfinished episode (no reward)."""
        if self.id is not None:
            try:
                self.client.delete(self.id)
            except HarnessLabError as err:
                if err.status != 404:
                    raise
            self.id = None


def _main() -> None:
    """``python3 harness_lab_client.py URL TOKEN ENV SET INDEX [SPLIT]``: plays one episode with a trivial policy and prints JSON.

    SET is a question set's id (digits) or name; SPLIT, when given, a split label to count INDEX within.
    """
    import sys

    url, token, environment, qset, index = sys.argv[1:6]
    split = sys.argv[6] if len(sys.argv) > 6 else None
    client = HarnessLabClient(url, token)
    ep = client.episode(environment, set=int(qset) if qset.isdigit() else qset, split=split, index=int(index), seed=0)
    first = ep.reset()
    steps = 0
    while not ep.done and steps < 50:
        if ep.menu:
            answer = [m for m in ep.menu if m["type"] == "ANSWER"]
            ep.step(menu_id=(answer[0] if answer and steps >= 2 else ep.menu[0])["id"])
        else:
            name = "end_search" if steps >= 1 else "search_corpus"
            args = {"reasoning": "enough"} if name == "end_search" else {"query": first["question"]["text"]}
            ep.step({"type": "function", "function": {"name": name, "arguments": json.dumps(args)}})
        steps += 1
    print(json.dumps({"health": client.health()["ok"], "steps": steps, "observations": len(ep.observations), "finish": ep.finish()}))


if __name__ == "__main__":
    _main()
