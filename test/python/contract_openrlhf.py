"""OpenRLHF 0.11.0 contract: loads resources/trainers/openrlhf/harness_lab_openrlhf.py as OpenRLHF does
(file import, ``AgentExecutor()`` with no arguments, a subclass of the base executor) and runs
``execute(prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine)`` with the stand-in
multi-turn executor, which calls ``.item()`` on every step reward. Prints JSON."""

import asyncio
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path[:0] = [os.path.join(HERE, "standins")]
try:
    import torch  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(HERE, "standins_torch"))

from chat_tokenizer import DEFAULT_SYSTEM, ChatTokenizer  # noqa: E402
from openrlhf.utils.agent import AgentExecutorBase  # noqa: E402
from scripted_policy import reply  # noqa: E402


class SamplingParams:
    def __init__(self, max_tokens=None, logprobs=None):
        self.max_tokens, self.logprobs = max_tokens, logprobs


class Completion:
    def __init__(self, token_ids, text):
        self.token_ids, self.text, self.logprobs = token_ids, text, None


class RequestOutput:
    def __init__(self, completion):
        self.outputs = [completion]


class Engine:
    """The vLLM engine as the executor calls it: ``await generate(prompt_token_ids, sampling_params, multi_modal_data=None)``."""

    def __init__(self, tok, pad_to=0):
        self.tok, self.pad_to, self.calls = tok, pad_to, 0

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        self.calls += 1
        text = reply(self.tok.decode(prompt_token_ids), self.pad_to)
        ids = self.tok.encode(text + "<|im_end|>")[: sampling_params.max_tokens]
        return RequestOutput(Completion(ids, self.tok.decode(ids, skip_special_tokens=True)))


async def run(label, max_length, pad_to=0, env="graph-menu"):
    os.environ["HARNESS_LAB_ENV"] = env
    spec = importlib.util.spec_from_file_location("agent_module", os.path.join(ROOT, "resources", "trainers", "openrlhf", "harness_lab_openrlhf.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert issubclass(module.AgentExecutor, AgentExecutorBase)
    executor = module.AgentExecutor()
    tok = ChatTokenizer()
    engine = Engine(tok, pad_to)
    rendered = tok.apply_chat_template([{"role": "user", "content": "placeholder from the dataset"}], tokenize=False, add_generation_prompt=True)
    result = await executor.execute(rendered, label, SamplingParams(max_tokens=None), max_length, tok, engine)
    text = tok.decode(result["observation_tokens"])
    return {
        "reward": result["reward"],
        "scores_type": type(result["scores"]).__name__,
        "server_system_first": text.startswith("<|im_start|>system\nYou are a search agent"),
        "default_system_anywhere": DEFAULT_SYSTEM in text,
        "dataset_prompt_dropped": "placeholder from the dataset" not in text,
        "tokens": len(result["observation_tokens"]),
        "actions": len(result["action_ranges"]),
        "observations_as_turns": text.count("<|im_start|>user") - 1,
        "extra_logs": sorted(result["extra_logs"]),
        "engine_calls": engine.calls,
    }


async def main():
    label = sys.argv[1]  # the verl export's extra_info, as JSON text (OpenRLHF may hand labels over as text)
    out = {
        "menu": await run(label, 16384),
        "menu_dict_label": await run(json.loads(label), 16384),
        "truncated": await run(label, 3000, pad_to=400),
        "tools": await run(label, 16384, env="stateful"),
    }
    print(json.dumps(out))


asyncio.run(main())
