"""verl glue: an agent loop that plays Harness Lab episodes on the environment server.

Targets verl 0.7.0 (``verl.experimental.agent_loop``), the newest release in the source checked on
2026-12-01. Not supported: verl <= 0.5 (``run(messages, sampling_params)``, no ``reward_score`` /
``extra_fields`` on ``AgentLoopOutput``) and 0.6.x (``AgentLoopBase.__init__`` without
``dataset_cls`` / ``dataset_config``, no ``apply_chat_template`` helper).

verl finds the loop through ``actor_rollout_ref.rollout.agent.agent_loop_config_path`` pointing at
``agent_loop.yaml`` beside this file (name ``harness_lab``, ``_target_`` this class); each row selects
it with its ``agent_name`` column or ``rollout.agent.default_agent_loop=harness_lab``. Rows carry
``extra_info.question_id`` (the workspace's question id) or ``extra_info.set`` (+ ``extra_info.split``)
+ ``extra_info.index``, as Harness Lab's verl exports write them (``question_key`` in harness_lab_client).

What the loop does, per rollout:
  * creates the episode; its chat (the server's system prompt and the question) and tools are
    rendered with the model's own chat template, so the template's default system prompt is not added;
  * generates a turn, sends the raw text to the server (which parses menu ids and tool calls), and
    appends the observation rendered as a ``tool`` (tool environments) or ``user`` (menu) message with
    verl's template helper, which strips the default system prompt a template puts before a lone
    message; observation tokens get response mask 0;
  * stops when the episode is done, at ``multi_turn.max_assistant_turns``, or when the response
    would exceed ``rollout.response_length`` (truncated there, the episode then finished as is);
  * returns the episode's configured reward as ``reward_score`` and, in ``extra_fields``, the per-step
    credit and the turn of every response token.

With ``algorithm.adv_estimator=harness_lab_snc`` (harness_lab_verl_snc.py) the loop leaves
``reward_score`` unset, keeps the response one token short of the response length (the outcome's
slot), and the reward manager there turns the credit into token-level advantages.

All HTTP runs on a thread pool (harness_lab_async), so the worker's event loop keeps generating.
"""

from __future__ import annotations

import os
import sys
from typing import Any, List
from uuid import uuid4

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness_lab_async import AsyncHarnessLab  # noqa: E402
from harness_lab_client import question_key  # noqa: E402

from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopOutput, register  # noqa: E402

SNC_ESTIMATOR = "harness_lab_snc"

_SERVERS: AsyncHarnessLab | None = None


def servers() -> AsyncHarnessLab:
    """One client set per worker process ($HARNESS_LAB_URL, comma-separated for several servers)."""
    global _SERVERS
    if _SERVERS is None:
        _SERVERS = AsyncHarnessLab()
    return _SERVERS


@register("harness_lab")
class HarnessLabAgentLoop(AgentLoopBase):
    def __init__(self, trainer_config, server_manager, tokenizer, processor, **kwargs):
        super().__init__(trainer_config, server_manager, tokenizer, processor, **kwargs)
        rollout = self.config.actor_rollout_ref.rollout
        self.response_length = int(rollout.response_length)
        self.max_turns = int(rollout.multi_turn.get("max_assistant_turns") or os.environ.get("HARNESS_LAB_MAX_TURNS", "16"))
        self.environment = os.environ.get("HARNESS_LAB_ENV", "graph-menu")
        self.snc = str(self.config.algorithm.adv_estimator) == SNC_ESTIMATOR
        # SNC keeps the last response slot free for the outcome reward (see harness_lab_snc_math).
        self.budget = self.response_length - 1 if self.snc else self.response_length

    async def run(self, sampling_params: dict[str, Any], **kwargs) -> AgentLoopOutput:
        key = question_key(kwargs.get("extra_info"))
        episode = await servers().episode(self.environment, group_id=str(kwargs.get("uid", "")) or None, **key)
        observation_role = "user" if episode.menu is not None else "tool"
        prompt_ids = await self.apply_chat_template(episode.messages, tools=episode.tools)

        response_ids: List[int] = []
        response_mask: List[int] = []
        logprobs: List[float] = []
        token_turn: List[int] = []
        request_id = uuid4().hex
        turns = 0
        while turns < self.max_turns and len(response_ids) < self.budget:
            out = await self.server_manager.generate(request_id=request_id, prompt_ids=prompt_ids + response_ids, sampling_params=sampling_params)
            turn_ids = list(out.token_ids)[: self.budget - len(response_ids)]
            response_ids += turn_ids
            response_mask += [1] * len(turn_ids)
            token_turn += [turns] * len(turn_ids)
            logprobs += list(out.log_probs or [0.0] * len(turn_ids))[: len(turn_ids)]
            if len(response_ids) >= self.budget:
                break  # cut mid-turn: the cut text is not sent as an action
            step = await episode.step(text=self.tokenizer.decode(turn_ids, skip_special_tokens=True))
            turns += 1
            if step["done"]:
                break
            obs_ids = await self.apply_chat_template([{"role": observation_role, "content": step["observation"]}], remove_system_prompt=True)
            obs_ids = obs_ids[: self.budget - len(response_ids)]
            response_ids += obs_ids
            response_mask += [0] * len(obs_ids)
            token_turn += [-1] * len(obs_ids)
            logprobs += [0.0] * len(obs_ids)

        finished = await episode.finish()
        return AgentLoopOutput(
            prompt_ids=prompt_ids,
            response_ids=response_ids,
            response_mask=response_mask,
            response_logprobs=logprobs if any(logprobs) else None,
            reward_score=None if self.snc else float(finished["reward"]),
            num_turns=2 * turns + 1,
            metrics={},
            extra_fields={
                "harness_lab_reward": float(finished["reward"]),
                "harness_lab_turn_credit": [float(c["total"]) for c in finished["per_step_credit"]],
                "harness_lab_token_turn": token_turn,
                "harness_lab_end_reason": finished["outcome"]["end_reason"],
            },
        )
