"""TRL's real GRPOTrainer, two steps, against a live Harness Lab environment server (graph-menu and stateful)
through resources/trainers/trl/harness_lab_trl.py. Run by test/unit/trl-grpo.test.ts with the venv .ci/run makes.

The policy is tiny_policy.py's: a tiny llama (``LlamaConfig``, hidden 64, 2 layers) with a byte-level BPE tokenizer
and TRL's Qwen2.5 chat template, warmed up on correct tool calls built from the environment's own prompts before GRPO
(a random model never writes a parseable call); the share of sampled replies that parse as a tool call is measured
before and after the warm-up and printed, so the test says how much of the rollout behaviour is the warm-up's.

Only the Python side loads the weights: the server plays the environments (menus, tools, rewards) and never runs the
policy, so no GGUF is needed for this run.

argv[1]: JSON {"keys": [question keys], "seed": int}. Env: HARNESS_LAB_URL, HARNESS_LAB_TOKEN. Prints one JSON object.
"""

import contextlib
import json
import os
import sys
import time
import warnings

T0 = time.time()
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path[:0] = [os.path.join(ROOT, "resources", "trainers", "trl"), os.path.join(ROOT, "resources", "trainers")]
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# One thread: the model is tiny, and on a shared 2-core machine (CI runs test files side by side) two OpenMP threads
# that wait on each other made the same warm-up 10-20 times slower (6 s against 66-117 s, measured here).
os.environ.setdefault("OMP_NUM_THREADS", "1")
warnings.filterwarnings("ignore")

import torch  # noqa: E402
from datasets import Dataset  # noqa: E402
from transformers import TrainerCallback  # noqa: E402
from transformers.utils import logging as hf_logging  # noqa: E402
from trl import GRPOTrainer  # noqa: E402

from harness_lab_client import HarnessLabClient  # noqa: E402
from harness_lab_trl import environment_factories, prompt_rows, server_urls  # noqa: E402
from tiny_policy import grpo_config, warmed_policy  # noqa: E402

hf_logging.set_verbosity_error()
torch.set_num_threads(1)

ENVIRONMENTS = ["graph-menu", "stateful"]
# The completion budget counts a whole episode (every call and every tool result, TRL's documented behaviour): a
# graph-menu observation is a few hundred tokens here, so 4096 covers the turn limit's six calls and their results.
MAX_COMPLETION = 4096
GROUP = 4


class Recorder(TrainerCallback):
    def __init__(self):
        self.logs = []

    def on_log(self, args, state, control, logs=None, **kwargs):
        if logs:
            self.logs.append({k: v for k, v in logs.items() if isinstance(v, (int, float))})


def main():
    spec = json.loads(sys.argv[1])
    keys, seed = spec["keys"], int(spec.get("seed", 0))
    torch.manual_seed(seed)
    client = HarnessLabClient(server_urls()[0])
    # Calls after an episode ended are tool errors: stop at graph-menu's turn limit (its default config, as the server says).
    turn_limit = next(e for e in client.environments() if e["name"] == "graph-menu")["defaults"]["turnLimit"]
    factories = environment_factories(ENVIRONMENTS, probe=keys[0])

    # Rewards as the environments hand them to TRL, per optimizer step (recorded to compare with TRL's logs).
    recorded = []

    def recording(cls):
        def get_reward(self):
            value = cls.get_reward(self)
            outcome = (self.result or {}).get("outcome") or {}
            recorded.append({"environment": cls.environment, "reward": value, "turns": outcome.get("turns", 0), "end_reason": outcome.get("end_reason")})
            return value

        return type(cls.__name__, (cls,), {"get_reward": get_reward})

    factories = {name: recording(cls) for name, cls in factories.items()}
    rows = []
    for name in ENVIRONMENTS:
        for r in prompt_rows(name, keys):
            r["environment"] = name
            rows.append(r)

    policy = warmed_policy(factories, rows, MAX_COMPLETION, T0)
    tok, model, prompt_ids, targets, setup_s = policy.tok, policy.model, policy.prompt_ids, policy.targets, policy.setup_s

    # GRPO: two optimizer steps, each one group of GROUP rollouts for one question of each environment.
    dataset = Dataset.from_list(rows)
    recorder = Recorder()
    args = grpo_config(GROUP, GROUP * len(ENVIRONMENTS), 2, seed, MAX_COMPLETION, max_tool_calling_iterations=turn_limit)
    weights = {k: v.detach().clone() for k, v in model.state_dict().items()}
    trainer = GRPOTrainer(model=model, processing_class=tok, args=args, train_dataset=dataset, environment_factory=factories, callbacks=[recorder])
    stats_before = client.stats()
    t_train = time.time()
    with contextlib.redirect_stdout(sys.stderr):  # the Trainer prints its logs; stdout carries only the result
        trainer.train()
    train_s = time.time() - t_train
    stats_after = client.stats()
    changed = {k: float((v - weights[k]).abs().max()) for k, v in trainer.model.state_dict().items()}
    print(json.dumps({
        "chosen": targets,
        "system_prompts": {r["environment"]: r["prompt"][0]["content"] for r in rows},
        "versions": {"trl": __import__("trl").__version__, "transformers": __import__("transformers").__version__, "torch": torch.__version__},
        "vocab": len(tok),
        "parameters": sum(p.numel() for p in model.parameters()),
        "prompt_tokens": [len(p) for p in prompt_ids],
        "setup_s": setup_s,
        "warmup": policy.warmup,
        "train_s": train_s,
        "logs": recorder.logs,
        "recorded": recorded,
        "tool_names": {name: sorted(t.__name__ for t in trainer._env_tools[name]) for name in ENVIRONMENTS},
        "stats_before": {k: stats_before[k] for k in ("created", "finished", "deleted", "steps", "errors")},
        "stats_after": {k: stats_after[k] for k in ("created", "finished", "deleted", "steps", "errors")},
        "changed_tensors": sum(1 for d in changed.values() if d > 0),
        "tensors": len(changed),
        "max_change": max(changed.values()),
        "total_s": time.time() - T0,
    }))


if __name__ == "__main__":
    main()
