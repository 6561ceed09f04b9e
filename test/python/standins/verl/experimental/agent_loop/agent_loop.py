"""verl 0.7.0's agent-loop surface, as documented: ``register(name)``, ``AgentLoopOutput`` (typed fields,
``metrics`` an ``AgentLoopMetrics``), ``AgentLoopBase(trainer_config, server_manager, tokenizer,
processor, dataset_cls, dataset_config)`` with ``self.config``, ``self.loop``, ``self.system_prompt``
and the async ``apply_chat_template(messages, tools=None, ..., remove_system_prompt=False)`` helper."""

import asyncio
from typing import Any, Dict, List, Optional

_agent_loop_registry: Dict[str, dict] = {}


def register(agent_name):
    def decorator(cls):
        _agent_loop_registry[agent_name] = {"_target_": f"{cls.__module__}.{cls.__qualname__}"}
        return cls

    return decorator


class AgentLoopMetrics:
    def __init__(self, generate_sequences: float = 0.0, tool_calls: float = 0.0):
        self.generate_sequences, self.tool_calls = generate_sequences, tool_calls


def _int_list(name, v):
    if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        raise TypeError(f"AgentLoopOutput.{name} must be a list of int")
    return v


class AgentLoopOutput:
    def __init__(self, prompt_ids, response_ids, response_mask, response_logprobs: Optional[List[float]] = None, routed_experts=None, multi_modal_data=None, reward_score: Optional[float] = None, num_turns: int = 0, metrics: Any = None, extra_fields: Optional[dict] = None):
        self.prompt_ids = _int_list("prompt_ids", prompt_ids)
        self.response_ids = _int_list("response_ids", response_ids)
        self.response_mask = _int_list("response_mask", response_mask)
        if len(self.response_mask) != len(self.response_ids):
            raise ValueError("response_mask and response_ids differ in length")
        if response_logprobs is not None and len(response_logprobs) != len(response_ids):
            raise ValueError("response_logprobs and response_ids differ in length")
        if reward_score is not None and not isinstance(reward_score, float):
            raise TypeError("reward_score must be a float or None")
        if not isinstance(num_turns, int):
            raise TypeError("num_turns must be an int")
        if metrics is None:
            raise TypeError("metrics is required")
        self.metrics = metrics if isinstance(metrics, AgentLoopMetrics) else AgentLoopMetrics(**metrics)
        self.response_logprobs, self.reward_score, self.num_turns = response_logprobs, reward_score, num_turns
        self.extra_fields = dict(extra_fields or {})


class DictConfigWrap:
    def __init__(self, config):
        self.config = config


class AgentLoopBase:
    def __init__(self, trainer_config, server_manager, tokenizer, processor, dataset_cls, dataset_config, **kwargs):
        self.config = trainer_config.config
        self.server_manager = server_manager
        self.tokenizer = tokenizer
        self.processor = processor
        self.dataset_cls = dataset_cls
        self.dataset_config = dataset_config
        one = tokenizer.apply_chat_template([{"role": "user", "content": ""}], add_generation_prompt=False, tokenize=True)
        two = tokenizer.apply_chat_template([{"role": "user", "content": ""}] * 2, add_generation_prompt=False, tokenize=True)
        self.system_prompt = one[: -(len(two) - len(one))]
        self.loop = asyncio.get_running_loop()

    async def apply_chat_template(self, messages, tools=None, images=None, videos=None, remove_system_prompt=False):
        ids = await self.loop.run_in_executor(None, lambda: self.tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=True))
        return ids[len(self.system_prompt):] if remove_system_prompt else ids

    async def run(self, sampling_params, **kwargs):
        raise NotImplementedError
