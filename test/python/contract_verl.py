"""verl 0.7.0 contract: drives resources/trainers/verl as verl's agent-loop worker does (YAML registry
-> Hydra-style instantiate -> ``await run(sampling_params, **row)``) against a live server. Prints JSON."""

import asyncio
import importlib
import json
import os
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path[:0] = [os.path.join(HERE, "standins"), os.path.join(ROOT, "resources", "trainers", "verl"), os.path.join(ROOT, "resources", "trainers")]

from chat_tokenizer import DEFAULT_SYSTEM, ChatTokenizer  # noqa: E402
from scripted_policy import reply  # noqa: E402
from trainer_shapes import Cfg, TokenOutput  # noqa: E402
from verl.experimental.agent_loop import agent_loop as al  # noqa: E402

import harness_lab_client  # noqa: E402

http_threads = set()
_call = harness_lab_client.HarnessLabClient._call


def _traced(self, *args, **kwargs):
    http_threads.add(threading.current_thread().name)
    return _call(self, *args, **kwargs)


harness_lab_client.HarnessLabClient._call = _traced


class ServerManager:
    """AsyncLLMServerManager.generate(request_id, *, prompt_ids, sampling_params, image_data=None, video_data=None) -> TokenOutput."""

    def __init__(self, tokenizer, pad_to=0):
        self.tokenizer, self.pad_to, self.calls = tokenizer, pad_to, 0

    async def generate(self, request_id, *, prompt_ids, sampling_params, image_data=None, video_data=None):
        assert isinstance(request_id, str) and isinstance(sampling_params, dict)
        self.calls += 1
        ids = self.tokenizer.encode(reply(self.tokenizer.decode(prompt_ids), self.pad_to) + "<|im_end|>")
        return TokenOutput(ids, [-0.5] * len(ids))


def load_registry(path):
    """The two-key list agent_loop.yaml holds (name, _target_), read without a YAML library."""
    entries, cur = [], None
    for line in open(path):
        line = line.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        key, _, value = line.strip().lstrip("- ").partition(":")
        if line.lstrip().startswith("- "):
            cur = {}
            entries.append(cur)
        cur[key.strip()] = value.strip()
    return entries


async def play(environment, row, response_length, estimator="grpo", pad_to=0):
    os.environ["HARNESS_LAB_ENV"] = environment
    tok = ChatTokenizer()
    config = Cfg(actor_rollout_ref={"rollout": {"response_length": response_length, "prompt_length": 8192, "multi_turn": {"max_assistant_turns": 8}}}, algorithm={"adv_estimator": estimator})
    for entry in load_registry(os.path.join(ROOT, "resources", "trainers", "verl", "agent_loop.yaml")):
        al._agent_loop_registry[entry["name"]] = {"_target_": entry["_target_"]}
    target = al._agent_loop_registry["harness_lab"]["_target_"]
    module, _, cls = target.rpartition(".")
    loop_cls = getattr(importlib.import_module(module), cls)
    manager = ServerManager(tok, pad_to)
    agent = loop_cls(trainer_config=al.DictConfigWrap(config), server_manager=manager, tokenizer=tok, processor=None, dataset_cls=None, dataset_config={})
    out = await agent.run({"temperature": 1.0}, raw_prompt=row["prompt"], extra_info=row["extra_info"], uid="g-1", index=0, agent_name="harness_lab")
    assert isinstance(out, al.AgentLoopOutput)
    prompt = tok.decode(out.prompt_ids)
    response = tok.decode(out.response_ids)
    return {
        "prompt_has_default_system": DEFAULT_SYSTEM in prompt,
        "response_has_default_system": DEFAULT_SYSTEM in response,
        "prompt_starts_with_server_system": prompt.startswith("<|im_start|>system\nYou are a search agent"),
        "response_len": len(out.response_ids),
        "mask_len": len(out.response_mask),
        "masked_tokens": out.response_mask.count(0),
        "reward_score": out.reward_score,
        "reward": out.extra_fields["harness_lab_reward"],
        "credit": out.extra_fields["harness_lab_turn_credit"],
        "token_turn_len": len(out.extra_fields["harness_lab_token_turn"]),
        "turns_in_map": sorted(set(out.extra_fields["harness_lab_token_turn"])),
        "mask_matches_map": all((m == 1) == (k >= 0) for m, k in zip(out.response_mask, out.extra_fields["harness_lab_token_turn"])),
        "end_reason": out.extra_fields["harness_lab_end_reason"],
        "generate_calls": manager.calls,
    }


async def main():
    rows = json.loads(sys.argv[1])
    results = {
        "menu": await play("graph-menu", rows[0], 4096),
        "tools": await play("stateful", rows[1], 8192),
        "truncated": await play("graph-menu", rows[0], 600, pad_to=250),
        "snc": await play("graph-menu", rows[0], 4096, estimator="harness_lab_snc"),
        "snc_truncated": await play("graph-menu", rows[0], 600, estimator="harness_lab_snc", pad_to=250),
    }
    results["http_threads"] = sorted({t.split("_")[0] for t in http_threads})
    print(json.dumps(results))


asyncio.run(main())
