"""The arithmetic of Harness Lab's per-step credit in verl, NumPy only (no torch, no verl), so it is
tested on its own (test/python/test_snc_math.py).

Two halves, matching where verl lets each happen:

* ``credit_scores`` (in the reward manager, which sees the whole batch and its ``extra_fields``):
  each step's credit on the footing of the outcome advantage, as the app combines them
  (main/rl/credit/combine.ts): ``lambda * clamp(credit / s, -C, C)`` with ``s = max(s_min, scale)``,
  scale the population std (or mean absolute value) of the batch's non-zero step credits; that term
  is written on every token of its turn, and the episode's outcome reward on the response's last
  slot, which the agent loop keeps free (a padding position: response mask 0).
* ``snc_advantages`` (the registered advantage estimator, which sees only the token-level rewards,
  the response mask and the group ids): the GRPO outcome advantage of each rollout (its reward,
  normalised within its group) plus its turn term, on the response tokens.

Token turn map: one entry per response token, the 0-based model turn it belongs to, -1 for
observation (environment) tokens.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Hashable, List, Sequence

import numpy as np


def credit_scale(credits: Sequence[Sequence[float]], kind: str = "std") -> float:
    """Population std ('std') or mean |c| ('mean-abs') of the batch's non-zero step credits; 0 when none."""
    values = np.array([c for episode in credits for c in episode if c != 0], dtype=np.float64)
    if values.size == 0:
        return 0.0
    if kind == "mean-abs":
        return float(np.abs(values).mean())
    if kind != "std":
        raise ValueError(f"unknown credit scale {kind!r} (known: std, mean-abs)")
    return float(values.std())


def turn_terms(credits: Sequence[Sequence[float]], lam: float, s_min: float = 5e-4, clamp: float = 3.0, kind: str = "std") -> List[List[float]]:
    """``lambda * clamp(c / s, -C, C)`` for every step of every rollout in the batch."""
    if not np.isfinite(lam) or lam < 0:
        raise ValueError(f"lambda must be finite and non-negative, got {lam}")
    if not s_min > 0 or not clamp > 0:
        raise ValueError("s_min and clamp must be positive")
    s = max(s_min, credit_scale(credits, kind))
    return [[lam * float(np.clip(c / s, -clamp, clamp)) for c in episode] for episode in credits]


def credit_scores(token_turn: Sequence[int], terms: Sequence[float], outcome: float, length: int) -> np.ndarray:
    """One rollout's row of token-level scores (``length`` = the batch's response length).

    Model tokens of turn k get ``terms[k]`` (0 for a turn with no step, e.g. one cut by the length
    budget); observation tokens and padding get 0; slot ``length - 1`` gets the outcome reward.
    """
    if len(token_turn) > length - 1:
        raise ValueError(f"{len(token_turn)} response tokens leave no free last slot in a response length of {length}: the agent loop keeps at most length - 1")
    row = np.zeros(length, dtype=np.float64)
    for t, k in enumerate(token_turn):
        if 0 <= k < len(terms):
            row[t] = terms[k]
    row[length - 1] = outcome
    return row


def snc_advantages(scores: np.ndarray, response_mask: np.ndarray, index: Sequence[Hashable], norm_by_std: bool = True, eps: float = 1e-6) -> np.ndarray:
    """Token-level advantages from ``credit_scores`` rows (B x L): group-normalised outcome + turn term, masked.

    The outcome is read from the last slot; the group statistics follow verl's GRPO (mean, unbiased
    std; a group of one gets mean 0 and std 1).
    """
    scores = np.asarray(scores, dtype=np.float64)
    mask = np.asarray(response_mask, dtype=np.float64)
    if scores.shape != mask.shape or scores.ndim != 2:
        raise ValueError(f"scores {scores.shape} and response_mask {mask.shape} must be the same B x L shape")
    if np.any(mask[:, -1] != 0):
        raise ValueError("the last response slot carries the outcome and must be masked out (agent loop keeps responses below the response length)")
    outcome = scores[:, -1]
    groups = defaultdict(list)
    for i, g in enumerate(index):
        groups[g].append(i)
    adv = np.empty_like(outcome)
    for members in groups.values():
        r = outcome[members]
        mean, std = (0.0, 1.0) if len(members) == 1 else (r.mean(), r.std(ddof=1))
        adv[members] = (r - mean) / (std + eps) if norm_by_std else r - mean
    turn = scores * mask
    return (adv[:, None] + turn) * mask
