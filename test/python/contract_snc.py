"""SNC through the trainers, on a row of Harness Lab's verl export: a two-hop plan (a LOOKUP, then a
sentence it surfaced, then ANSWER) replied as the model's text, played through the verl agent loop and
then through verl's reward manager and the registered ``harness_lab_snc`` estimator (real PyTorch when it
is installed, else the same NumPy arithmetic the estimator calls), and through the OpenRLHF agent file.
argv: the row's extra_info (JSON), the plan (JSON list of menu ids). Prints JSON."""

import asyncio
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path[:0] = [os.path.join(HERE, "standins"), os.path.join(ROOT, "resources", "trainers", "verl"), os.path.join(ROOT, "resources", "trainers")]
try:
    import torch

    HAS_TORCH = True
except ImportError:
    sys.path.insert(0, os.path.join(HERE, "standins_torch"))
    HAS_TORCH = False

import numpy as np  # noqa: E402
from chat_tokenizer import ChatTokenizer  # noqa: E402
from scripted_policy import reply  # noqa: E402
from trainer_shapes import Cfg, TokenOutput  # noqa: E402
from verl.experimental.agent_loop import agent_loop as al  # noqa: E402

RESPONSE_LENGTH = 16384


class PlanServer:
    def __init__(self, tok, plan):
        self.tok, self.plan, self.replies = tok, plan, []

    async def generate(self, request_id, *, prompt_ids, sampling_params, image_data=None, video_data=None):
        text = reply(self.tok.decode(prompt_ids), plan=self.plan)
        self.replies.append(text)
        ids = self.tok.encode(text + "<|im_end|>")
        return TokenOutput(ids, [-0.5] * len(ids))


async def verl_rollout(info, plan, estimator):
    os.environ["HARNESS_LAB_ENV"] = "graph-menu"
    from harness_lab_verl import HarnessLabAgentLoop

    tok = ChatTokenizer()
    config = Cfg(actor_rollout_ref={"rollout": {"response_length": RESPONSE_LENGTH, "prompt_length": 8192, "multi_turn": {"max_assistant_turns": 8}}}, algorithm={"adv_estimator": estimator})
    server = PlanServer(tok, plan)
    agent = HarnessLabAgentLoop(trainer_config=al.DictConfigWrap(config), server_manager=server, tokenizer=tok, processor=None, dataset_cls=None, dataset_config={})
    out = await agent.run({"temperature": 1.0}, raw_prompt=[], extra_info=info, uid="g-1", index=0, agent_name="harness_lab")
    return out, server.replies


def advantages(outputs, group):
    """verl's path after the rollouts: pad responses to the response length, the reward manager's token scores, the registered estimator."""
    import harness_lab_snc_math as math

    B, L = len(outputs), RESPONSE_LENGTH
    mask = np.zeros((B, L))
    for i, o in enumerate(outputs):
        mask[i, : len(o.response_mask)] = o.response_mask
    extra = {k: np.array([o.extra_fields[k] for o in outputs], dtype=object) for k in ("harness_lab_reward", "harness_lab_turn_credit", "harness_lab_token_turn")}
    if HAS_TORCH:
        import harness_lab_verl_snc as snc
        from verl import DataProto
        from verl.trainer.ppo import core_algos

        manager = snc.HarnessLabCreditRewardManager(tokenizer=None, num_examine=0, compute_score=None, reward_fn_key="data_source")
        scores = manager(DataProto(batch={"responses": torch.zeros((B, L), dtype=torch.long)}, non_tensor_batch=extra))
        fn = core_algos.get_adv_estimator_fn(snc.ESTIMATOR)
        adv, _ = fn(token_level_rewards=scores, response_mask=torch.as_tensor(mask, dtype=torch.float32), index=np.array(group, dtype=object), config=Cfg(norm_adv_by_std_in_grpo=True, use_kl_in_reward=False))
        return adv.numpy().astype(float), "torch"
    terms = math.turn_terms([list(c) for c in extra["harness_lab_turn_credit"]], 0.5)
    scores = np.stack([math.credit_scores(list(t), terms[i], float(extra["harness_lab_reward"][i]), L) for i, t in enumerate(extra["harness_lab_token_turn"])])
    return math.snc_advantages(scores, mask, group), "numpy"


async def openrlhf_rollout(info, plan, lam):
    os.environ["HARNESS_LAB_ENV"] = "graph-menu"
    os.environ["HARNESS_LAB_CREDIT_LAMBDA"] = str(lam)
    spec = importlib.util.spec_from_file_location("agent_module", os.path.join(ROOT, "resources", "trainers", "openrlhf", "harness_lab_openrlhf.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tok = ChatTokenizer()

    class Completion:
        def __init__(self, ids):
            self.token_ids, self.text, self.logprobs = ids, tok.decode(ids, skip_special_tokens=True), None

    class Engine:
        async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
            ids = tok.encode(reply(tok.decode(prompt_token_ids), plan=plan) + "<|im_end|>")[: sampling_params.max_tokens]
            return type("Out", (), {"outputs": [Completion(ids)]})()

    class Params:
        max_tokens, logprobs = None, None

    result = await module.AgentExecutor().execute("placeholder", json.dumps(info), Params(), 16384, tok, Engine())
    logs = {k: v.item() for k, v in result["extra_logs"].items()}
    return {"reward": result["reward"], "logs": logs}


async def main():
    info, plan = json.loads(sys.argv[1]), json.loads(sys.argv[2])
    chosen, replies = await verl_rollout(info, plan, "harness_lab_snc")
    # A group of two: the planned rollout and one that answers at once (no evidence), as GRPO compares them.
    other, _ = await verl_rollout(info, ["A"], "harness_lab_snc")
    adv, backend = advantages([chosen, other], ["g", "g"])
    turns = chosen.extra_fields["harness_lab_token_turn"]
    per_turn = {}
    for t, k in enumerate(turns):
        if k >= 0:
            per_turn.setdefault(k, set()).add(round(float(adv[0, t]), 9))
    print(json.dumps({
        "replies": replies,
        "credit": chosen.extra_fields["harness_lab_turn_credit"],
        "reward": chosen.extra_fields["harness_lab_reward"],
        "backend": backend,
        "turn_advantages": [sorted(per_turn[k]) for k in sorted(per_turn)],
        "masked_zero": bool(np.all(adv[0, [t for t, k in enumerate(turns) if k < 0]] == 0)),
        "openrlhf": await openrlhf_rollout(info, plan, 0.0),
        "openrlhf_shaped": await openrlhf_rollout(info, plan, 0.5),
    }))


asyncio.run(main())
