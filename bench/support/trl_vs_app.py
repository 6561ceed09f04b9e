"""The TRL side of bench/trl-vs-app.ts: TRL's real GRPOTrainer on graph-menu against a live Harness Lab server.

The policy is test/python/tiny_policy.py's tiny llama, warmed up on correct ``choose`` calls at the first turns of
scripted episodes on the training questions (so that it writes tool calls at all, and goes on after a tool result),
and on the same choices as bare menu ids after the app's text prompt at the same states (what the app's GGUF policy
reads and writes: both sides start equally able to play), then written as an F32 GGUF (test/python/llama_gguf.py) that the app's GGUF learner trains from: both sides start from
the same weights. The completion budget covers a whole episode (TRL counts every call and every tool result in it)
and tool calls stop at the environment's turn limit; no KL term (GRPOConfig's beta 0, as the app's side runs). Then
the held-out questions are played greedily through TRL's own evaluation (environments, tool calls, the server's
reward), ``steps`` GRPO steps run with groups of ``group`` rollouts for ``questions`` training questions each, each
step timed, and the held-out questions are played again. Every rollout's turns (tool calls the server played) and
reward are recorded as the environment hands its reward to TRL.

argv[1]: JSON {"train": [keys], "held_out": [keys], "group", "questions", "steps", "seed", "gguf"}.
Env: HARNESS_LAB_URL, HARNESS_LAB_TOKEN. Prints one JSON object on stdout.
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
sys.path[:0] = [os.path.join(ROOT, "test", "python"), os.path.join(ROOT, "resources", "trainers", "trl"), os.path.join(ROOT, "resources", "trainers")]
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("OMP_NUM_THREADS", "1")
warnings.filterwarnings("ignore")

import torch  # noqa: E402
from datasets import Dataset  # noqa: E402
from transformers import TrainerCallback  # noqa: E402
from transformers.utils import logging as hf_logging  # noqa: E402
from trl import GRPOTrainer  # noqa: E402

from harness_lab_client import HarnessLabClient  # noqa: E402
from harness_lab_trl import environment_factories, prompt_rows, server_urls  # noqa: E402
from llama_gguf import write_gguf  # noqa: E402
from tiny_policy import grpo_config, warmed_policy  # noqa: E402

hf_logging.set_verbosity_error()
torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))
# A whole graph-menu episode: the turn limit's calls and their tool results (a few hundred tokens each here).
MAX_COMPLETION = 4096


class StepTimer(TrainerCallback):
    """Wall seconds of each optimizer step (rollouts, rewards, loss, update: all TRL does in a step)."""

    def __init__(self):
        self.seconds, self.logs, self._t = [], [], None

    def on_step_begin(self, args, state, control, **kwargs):
        self._t = time.perf_counter()

    def on_step_end(self, args, state, control, **kwargs):
        self.seconds.append(time.perf_counter() - self._t)

    def on_log(self, args, state, control, logs=None, **kwargs):
        if logs:
            self.logs.append({k: v for k, v in logs.items() if isinstance(v, (int, float))})


def main():
    spec = json.loads(sys.argv[1])
    seed, group, questions, steps = int(spec["seed"]), int(spec["group"]), int(spec["questions"]), int(spec["steps"])
    torch.manual_seed(seed)
    client = HarnessLabClient(server_urls()[0])
    turn_limit = next(e for e in client.environments() if e["name"] == "graph-menu")["defaults"]["turnLimit"]
    factories = environment_factories(["graph-menu"], probe=spec["train"][0])
    # Each rollout's turns and reward, as the environment hands its reward to TRL; `phase` says whose rollouts they are.
    rollouts, phase = [], ["warm-up"]

    def recording(cls):
        def get_reward(self):
            value = cls.get_reward(self)
            rollouts.append({"phase": phase[0], "turns": ((self.result or {}).get("outcome") or {}).get("turns", 0), "reward": value})
            return value

        return type(cls.__name__, (cls,), {"get_reward": get_reward})

    factories = {name: recording(cls) for name, cls in factories.items()}
    train = [dict(r, environment="graph-menu") for r in prompt_rows("graph-menu", spec["train"])]
    held_out = [dict(r, environment="graph-menu") for r in prompt_rows("graph-menu", spec["held_out"])]

    # Warmed up in both formats at the same states: TRL's tool calls and the app's bare menu ids after its text prompt.
    policy = warmed_policy(factories, train, MAX_COMPLETION, T0, text_client=client)
    tok, model = policy.tok, policy.model
    write_gguf(model, tok, spec["gguf"])
    # What the other side checks the GGUF against: a rendered prompt's ids and the log-probabilities of its last tokens.
    conversation, tools, _ = policy.prompts[0]
    check_text = tok.apply_chat_template(conversation, tools=tools, add_generation_prompt=True, tokenize=False)
    check_ids = tok(check_text, add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        logp = torch.log_softmax(model(torch.tensor([check_ids])).logits[0].float(), -1)
    check_target = [float(logp[i - 1, check_ids[i]]) for i in range(len(check_ids) - 32, len(check_ids))]

    timer = StepTimer()
    args = grpo_config(group, group * questions, steps, seed, MAX_COMPLETION, max_tool_calling_iterations=turn_limit, beta=0.0, num_generations_eval=1, per_device_eval_batch_size=len(held_out))
    trainer = GRPOTrainer(model=model, processing_class=tok, args=args, train_dataset=Dataset.from_list(train), eval_dataset=Dataset.from_list(held_out), environment_factory=factories, callbacks=[timer])

    def held_out_reward(name):
        """TRL's own evaluation, greedy (one reply per held-out question): the mean reward the server gave."""
        trainer.generation_config.do_sample = False
        phase[0] = name
        try:
            with contextlib.redirect_stdout(sys.stderr):
                return trainer.evaluate()["eval_reward"]
        finally:
            trainer.generation_config.do_sample = True

    before = held_out_reward("held-out before")
    stats_before = client.stats()
    phase[0] = "train"
    t_train = time.time()
    with contextlib.redirect_stdout(sys.stderr):
        trainer.train()
    train_s = time.time() - t_train
    stats_after = client.stats()
    after = held_out_reward("held-out after")
    steps_logged = [l for l in timer.logs if "tools/call_frequency" in l and "eval_reward" not in l]
    print(json.dumps({
        "versions": {"trl": __import__("trl").__version__, "transformers": __import__("transformers").__version__, "torch": torch.__version__},
        "parameters": sum(p.numel() for p in model.parameters()),
        "warmup": policy.warmup,
        "step_seconds": timer.seconds,
        "rollouts_per_step": group * questions,
        "train_s": train_s,
        "episodes": stats_after["finished"] - stats_before["finished"],
        "server_steps": stats_after["steps"] - stats_before["steps"],
        "rewards": [l["reward"] for l in steps_logged],
        "tool_calls_per_rollout": [l["tools/call_frequency"] for l in steps_logged],
        "tool_failures": [l["tools/failure_frequency"] for l in steps_logged],
        # Model tokens per rollout (tool results are masked out of TRL's loss), times the step's rollouts.
        "trained_tokens": [l["completions/mean_length"] * group * questions for l in steps_logged],
        "loss": [l.get("loss") for l in steps_logged],
        "rollouts": rollouts,
        "max_completion": MAX_COMPLETION,
        "max_tool_calls": turn_limit,
        "held_out": {"before": before, "after": after},
        "total_s": time.time() - T0,
        "check": {"text": check_text, "ids": check_ids, "target_logp": check_target},
        # The app's prompts the warm-up fitted (its text instructions, the observation, the chat template): the other
        # side checks node-llama-cpp renders the first to the same ids, and sizes the app's context to the longest.
        "app_check": policy.app_prompts[0],
        "app_prompt_tokens": max(len(p["ids"]) for p in policy.app_prompts),
    }))


if __name__ == "__main__":
    main()
