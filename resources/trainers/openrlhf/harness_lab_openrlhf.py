"""OpenRLHF glue: an agent function (``--agent_func_path``) whose ``AgentInstance`` resets and steps a
Harness Lab episode over the environment server.

Written against OpenRLHF 0.8's multi-turn agent API (``openrlhf.utils.agent``: ``AgentInstanceBase``
with async ``reset(states)`` and ``step(states)``, exported as ``AgentExecutor`` over it). Not run in
this repository (no OpenRLHF here). The prompt of each sample is a JSON object
``{"split": ..., "index": ...}`` (or ``{"question_id": ...}``).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness_lab_client import HarnessLabClient  # noqa: E402

from openrlhf.utils.agent import AgentExecutorBase, AgentInstanceBase  # noqa: E402

CLIENT = HarnessLabClient()
ENVIRONMENT = os.environ.get("HARNESS_LAB_ENV", "graph-menu")


class AgentInstance(AgentInstanceBase):
    def __init__(self, *args, **kwargs):
        self.episode = None
        self.menu = None

    async def reset(self, states: Dict[str, Any], **kwargs) -> Dict[str, Any]:
        fields = json.loads(states["observation"])
        created = CLIENT.create(ENVIRONMENT, **fields)
        self.episode, self.menu = created["episode_id"], created.get("menu")
        return {"observation": "\n\n".join(m["content"] for m in created["messages"])}

    async def step(self, states: Dict[str, Any], **kwargs) -> Dict[str, Any]:
        text = states["action_text"].strip()
        if self.menu is not None:
            ids = {m["id"] for m in self.menu}
            body = {"menu_id": text.split()[0]} if text and text.split()[0] in ids else {"text": text}
        else:
            body = {"text": text}  # the environment parses {"name", "arguments"} JSON and records format errors
        out = CLIENT.step(self.episode, **body)
        self.menu = out.get("menu", self.menu)
        if not out["done"]:
            return {"rewards": 0.0, "scores": 0.0, "environment_feedback": "\n" + out["observation"] + "\n", "done": False, "sampling_params": states.get("sampling_params"), "extra_logs": {}}
        finished = CLIENT.finish(self.episode)
        return {
            "rewards": finished["reward"],
            "scores": finished["reward"],
            "environment_feedback": "",
            "done": True,
            "sampling_params": states.get("sampling_params"),
            "extra_logs": {"turns": finished["outcome"]["turns"], **{f"reward/{k}": v for k, v in finished["components"].items()}},
        }


class AgentExecutor(AgentExecutorBase):
    def __init__(self, max_steps, max_length, llm_engine, hf_tokenizer, result_queue):
        super().__init__(AgentInstance, max_steps, max_length, llm_engine, hf_tokenizer, result_queue)
