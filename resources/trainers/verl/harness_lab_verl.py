"""verl glue: an agent loop driving the Harness Lab environment server, with per-step credit for a
custom advantage estimator.

Written against verl 0.5's agent-loop API (``verl.experimental.agent_loop``: ``AgentLoopBase``,
``register``, ``AgentLoopOutput``; ``self.server_manager.generate`` returns token ids). Not run in this
repository (no verl or GPU here); the server calls go through harness_lab_client, which the suite tests.
The loop renders messages with the trainer's own tokenizer (trainers keep tokenisation), masks
observation tokens out of the loss (response_mask 0), and returns the episode's reward plus
``per_step_credit`` (one value per model turn) in ``extra_fields`` for an advantage estimator that
adds lambda * credit to each turn's tokens (Harness-G's SNC).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any
from uuid import uuid4

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness_lab_client import HarnessLabClient  # noqa: E402

from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopOutput, register  # noqa: E402


def parse_action(text: str, menu: list | None) -> dict:
    """The model's turn as a step body: a menu id when the environment has a menu, else a JSON tool call, else raw text."""
    text = text.strip()
    if menu is not None:
        ids = {m["id"] for m in menu}
        first = text.split()[0] if text else ""
        return {"menu_id": first} if first in ids else {"text": text}
    try:
        call = json.loads(text)
        if isinstance(call, dict) and "name" in call:
            return {"tool_call": {"name": call["name"], "arguments": call.get("arguments", {})}}
    except ValueError:
        pass
    return {"text": text}


@register("harness_lab")
class HarnessLabAgentLoop(AgentLoopBase):
    """Config: actor_rollout_ref.rollout.agent.agent_loop_config_path naming this loop; rows carry extra_info.{split,index} or question_id."""

    client = HarnessLabClient()
    environment = os.environ.get("HARNESS_LAB_ENV", "graph-menu")
    max_turns = int(os.environ.get("HARNESS_LAB_MAX_TURNS", "16"))

    async def run(self, sampling_params: dict[str, Any], **kwargs) -> AgentLoopOutput:
        info = kwargs.get("extra_info", {}) or {}
        fields = {k: info[k] for k in ("question_id", "split", "index", "seed") if k in info}
        created = self.client.create(self.environment, group_id=str(kwargs.get("uid", "")), **fields)
        episode, menu, messages = created["episode_id"], created.get("menu"), list(created["messages"])
        tools = created.get("tools")
        prompt_ids = await self.loop.run_in_executor(None, lambda: self.tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=True))
        response_ids, response_mask = [], []
        request_id = uuid4().hex
        for _ in range(self.max_turns):
            out = await self.server_manager.generate(request_id=request_id, prompt_ids=prompt_ids + response_ids, sampling_params=sampling_params)
            turn = out.token_ids if hasattr(out, "token_ids") else out
            response_ids += turn
            response_mask += [1] * len(turn)
            step = self.client.step(episode, **parse_action(self.tokenizer.decode(turn, skip_special_tokens=True), menu))
            if step["done"]:
                break
            menu = step.get("menu", menu)
            # As verl's own ToolAgentLoop: the tool message rendered alone (strip any default system prompt your template adds).
            obs = self.tokenizer.apply_chat_template([{"role": "tool", "content": step["observation"]}], add_generation_prompt=True, tokenize=True)
            response_ids += obs
            response_mask += [0] * len(obs)  # observation tokens get no loss and no SNC credit
        finished = self.client.finish(episode)
        limit = getattr(self, "response_length", None) or len(response_ids)
        return AgentLoopOutput(
            prompt_ids=prompt_ids,
            response_ids=response_ids[:limit],
            response_mask=response_mask[:limit],
            num_turns=finished["outcome"]["turns"] + 1,
            metrics={},
            reward_score=finished["reward"],
            extra_fields={"per_step_credit": [c["total"] for c in finished["per_step_credit"]], "reward_components": finished["components"]},
        )
