"""OpenRLHF glue: an agent file for ``--train.agent_func_path`` that plays Harness Lab episodes.

Targets OpenRLHF 0.11.0 (released 2026-08-13; checked 2026-12-01): ``openrlhf.utils.agent`` with
``AgentInstanceBase`` (``reset(states)`` / ``step(states)``, both async) and ``MultiTurnAgentExecutor``;
OpenRLHF loads this file, builds ``AgentExecutor()`` with no arguments and calls
``execute(prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine, images=None)``; each
step's ``rewards`` must be a tensor (OpenRLHF calls ``.item()`` on it). Flags are dotted
(``--train.agent_func_path``, from 0.10.2). Not supported: 0.8.x-0.9.0 (executor built with
``(max_steps, max_length, llm_engine, hf_tokenizer, result_queue)``) and 0.9.1-0.10.1 flag spellings.

Each row's label (``--data.label_key``) is the question key: ``{"question_id": 42}`` or
``{"set": "HotpotQA pilot", "split": "train", "index": 7}`` (a dict, or its JSON text), such as ``extra_info`` of Harness Lab's
verl JSONL export. The prompt OpenRLHF rendered is replaced by the server's chat (its system prompt,
the question, the tools) rendered with the model's chat template; observations are rendered as
template turns too. The episode's configured reward arrives on the last step; an episode that would
run past ``max_length`` is finished there and scored as it stands.

Per-step credit (SNC on graph-menu; the model's text names the item it chose, and the server credits that
item as it would a menu id): OpenRLHF 0.11's executor keeps one scalar reward per sample (it sums the
steps' rewards), so credit cannot vary by turn there (verl's glue does that). The last step's
``extra_logs`` carry ``credit/sum``, ``credit/max`` and ``credit/nonzero_steps``; with
``HARNESS_LAB_CREDIT_LAMBDA=x`` (default 0) the reward is ``outcome + x * sum(credit)``, an episode-level
shaping, and ``reward/outcome`` keeps the outcome.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Dict, Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness_lab_async import AsyncHarnessLab  # noqa: E402
from harness_lab_client import question_key  # noqa: E402

import torch  # noqa: E402
from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor  # noqa: E402

ENVIRONMENT = os.environ.get("HARNESS_LAB_ENV", "graph-menu")


def credit_lambda() -> float:
    raw = os.environ.get("HARNESS_LAB_CREDIT_LAMBDA", "0")
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"HARNESS_LAB_CREDIT_LAMBDA must be a number, got {raw!r}") from None
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"HARNESS_LAB_CREDIT_LAMBDA must be finite and non-negative, got {raw!r}")
    return value
_SERVERS: Optional[AsyncHarnessLab] = None
_PLACEHOLDER = "\u2063harness-lab\u2063"


def servers() -> AsyncHarnessLab:
    global _SERVERS
    if _SERVERS is None:
        _SERVERS = AsyncHarnessLab()
    return _SERVERS


def observation_text(tokenizer, role: str, content: str) -> str:
    """The text a chat template puts after a finished assistant turn for one ``role`` message plus the next generation prompt.

    Rendered as the difference of two conversations, so no default system prompt is repeated; the
    end-of-turn token the model generated itself (eos) is not repeated either.
    """
    base = [{"role": "user", "content": "q"}, {"role": "assistant", "content": _PLACEHOLDER}]
    before = tokenizer.apply_chat_template(base, tokenize=False)
    after = tokenizer.apply_chat_template(base + [{"role": role, "content": content}], tokenize=False, add_generation_prompt=True)
    closing = before[before.rindex(_PLACEHOLDER) + len(_PLACEHOLDER):]
    eos = tokenizer.eos_token or ""
    if eos and closing.startswith(eos):
        closing = closing[len(eos):]
    return closing + after[len(before):]


class AgentInstance(AgentInstanceBase):
    tokenizer = None  # set by AgentExecutor.execute (OpenRLHF builds instances with no arguments)

    def __init__(self, *args, **kwargs):
        self.episode = None

    async def reset(self, states: dict, **kwargs) -> dict:
        self.episode = await servers().episode(ENVIRONMENT, **question_key(states.get("label")))
        self.role = "user" if self.episode.menu is not None else "tool"
        text = self.tokenizer.apply_chat_template(self.episode.messages, tools=self.episode.tools, tokenize=False, add_generation_prompt=True)
        return {"observation": text}

    async def step(self, states: dict, **kwargs) -> Dict[str, Any]:
        out = await self.episode.step(text=states["action_text"])
        feedback = "" if out["done"] else observation_text(self.tokenizer, self.role, out["observation"])
        params = states.get("sampling_params")
        budget = getattr(params, "max_tokens", None)
        # The executor stops silently when the next turn has no room: finish here so the episode is scored.
        if not out["done"] and budget is not None:
            used = len(self.tokenizer(states["action_text"], add_special_tokens=False)["input_ids"]) + 1
            if budget - used - len(self.tokenizer(feedback, add_special_tokens=False)["input_ids"]) <= 0:
                out = {**out, "done": True}
                feedback = ""
        if not out["done"]:
            return {"rewards": torch.tensor(0.0), "scores": torch.tensor(0.0), "environment_feedback": feedback, "done": False, "sampling_params": params, "extra_logs": {}}
        finished = await self.episode.finish()
        credit = [float(c["total"]) for c in finished["per_step_credit"]]
        outcome = float(finished["reward"])
        reward = torch.tensor(outcome + credit_lambda() * sum(credit))
        logs = {
            "turns": torch.tensor(float(finished["outcome"]["turns"])),
            "reward/outcome": torch.tensor(outcome),
            "credit/sum": torch.tensor(sum(credit)),
            "credit/max": torch.tensor(max(credit, default=0.0)),
            "credit/nonzero_steps": torch.tensor(float(sum(1 for c in credit if c != 0))),
            **{f"reward/{k}": torch.tensor(float(v)) for k, v in finished["components"].items() if v is not None},
        }
        return {"rewards": reward, "scores": reward, "environment_feedback": "", "done": True, "sampling_params": params, "extra_logs": logs}


class AgentExecutor(MultiTurnAgentExecutor):
    def __init__(self):
        super().__init__(AgentInstance)

    async def execute(self, prompt, label, sampling_params, max_length: int, hf_tokenizer, llm_engine, images=None):
        AgentInstance.tokenizer = hf_tokenizer
        return await super().execute(prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine, images)
