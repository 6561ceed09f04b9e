"""Harness Lab's per-step credit (SNC for graph-menu) as token-level advantages in verl 0.7.0.

verl calls an advantage estimator with the token-level rewards, the response mask and the group ids
only, so the credit reaches it through the rewards: this file's reward manager (loaded by verl with
``reward_manager.source=importlib``) writes, from the agent loop's ``extra_fields``, each turn's
combined credit term on that turn's tokens and the outcome reward on the response's free last slot;
the estimator ``harness_lab_snc`` (registered with ``register_adv_est`` when verl imports this file)
turns that into ``group-normalised outcome + turn term`` per token. The arithmetic is
harness_lab_snc_math (NumPy, tested without torch or verl).

Settings, as the app's (main/rl/credit/combine.ts), through ``+reward_model.reward_kwargs.*``:
``snc_lambda`` (default 0.5), ``snc_clamp`` (3.0), ``snc_s_min`` (5e-4), ``snc_scale`` ('std' | 'mean-abs').
Needs ``algorithm.use_kl_in_reward=False`` (use the KL loss instead), since a KL penalty in the
rewards would be mixed into the credit terms; validation scores get the outcome only.
"""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import torch  # noqa: E402
from harness_lab_snc_math import credit_scores, snc_advantages, turn_terms  # noqa: E402

from verl import DataProto  # noqa: E402
from verl.trainer.ppo import core_algos  # noqa: E402
from verl.workers.reward_manager.abstract import AbstractRewardManager  # noqa: E402

ESTIMATOR = "harness_lab_snc"


def compute_harness_lab_snc_advantage(token_level_rewards: torch.Tensor, response_mask: torch.Tensor, index: np.ndarray, config: Any = None, **kwargs):
    """verl estimator signature: (B, L) rewards and mask, group ids; returns (advantages, returns)."""
    if config is not None and config.get("use_kl_in_reward", False):
        raise ValueError(f"{ESTIMATOR} reads the outcome and the credit from the rewards: set algorithm.use_kl_in_reward=False (use the actor's KL loss)")
    norm = True if config is None else bool(config.get("norm_adv_by_std_in_grpo", True))
    adv = snc_advantages(token_level_rewards.detach().cpu().double().numpy(), response_mask.detach().cpu().numpy(), list(index), norm_by_std=norm)
    out = torch.as_tensor(adv, dtype=token_level_rewards.dtype, device=token_level_rewards.device)
    return out, out


# verl imports a reward-manager file once for training and once for validation: register once.
if ESTIMATOR not in core_algos.ADV_ESTIMATOR_REGISTRY:
    core_algos.register_adv_est(ESTIMATOR)(compute_harness_lab_snc_advantage)


class HarnessLabCreditRewardManager(AbstractRewardManager):
    """Token-level scores from the agent loop's reward and per-step credit (no scoring of text here: the server scored the episode)."""

    def __init__(self, tokenizer, num_examine, compute_score=None, reward_fn_key="data_source", snc_lambda=0.5, snc_clamp=3.0, snc_s_min=5e-4, snc_scale="std", **kwargs):
        self.validation = num_examine > 0  # verl builds the validation manager with num_examine=1
        self.lam, self.clamp, self.s_min, self.scale = float(snc_lambda), float(snc_clamp), float(snc_s_min), str(snc_scale)

    def __call__(self, data: DataProto, return_dict: bool = False):
        batch, extra = data.batch, data.non_tensor_batch
        missing = [k for k in ("harness_lab_reward", "harness_lab_turn_credit", "harness_lab_token_turn") if k not in extra]
        if missing:
            raise KeyError(f"no {', '.join(missing)} in the batch: the rollouts must come from the harness_lab agent loop")
        length = batch["responses"].shape[-1]
        rewards = [float(r) for r in extra["harness_lab_reward"]]
        if self.validation:
            scores = np.zeros((len(rewards), length))
            scores[:, -1] = rewards
        else:
            terms = turn_terms([list(c) for c in extra["harness_lab_turn_credit"]], self.lam, self.s_min, self.clamp, self.scale)
            scores = np.stack([credit_scores(list(turns), terms[i], rewards[i], length) for i, turns in enumerate(extra["harness_lab_token_turn"])])
        tensor = torch.as_tensor(scores, dtype=torch.float32)
        if return_dict:
            return {"reward_tensor": tensor, "reward_extra_info": {"harness_lab_reward": rewards}}
        return tensor
