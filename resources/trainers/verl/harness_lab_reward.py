"""Reward for Harness Lab question sets from no benchmark (``data_source`` ``harness-lab/<set>``), which
verl's ``default_compute_score`` does not know. Give it to verl as a custom reward function:

    custom_reward_function.path=$PWD/resources/trainers/verl/harness_lab_reward.py custom_reward_function.name=compute_score

``compute_score(data_source, solution_str, ground_truth, extra_info=None)``: exact match (SQuAD
normalisation: lower case, no punctuation, no articles, single spaces) of the model's answer against any
of ``ground_truth["target"]`` (a list or a string), 1.0 or 0.0. The answer is the last
``<answer>...</answer>`` of the text when there is one (Search-R1's convention, the Search-R1 export's
prompt), else the text's last non-empty line. Rows of a benchmark (``searchR1_<benchmark>``) go to verl's
own scorer when it can be imported, so one function serves a mixed dataset. Standard library only.
"""

from __future__ import annotations

import re
import string
from typing import Any, Iterable

_ANSWER = re.compile(r"<answer>(.*?)</answer>", re.S | re.I)


def normalize(text: str) -> str:
    text = text.lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def extract_answer(solution_str: str) -> str:
    found = _ANSWER.findall(solution_str)
    if found:
        return found[-1].strip()
    lines = [line.strip() for line in solution_str.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


def targets_of(ground_truth: Any) -> Iterable[str]:
    target = ground_truth.get("target") if isinstance(ground_truth, dict) else ground_truth
    if target is None:
        raise ValueError(f"ground_truth has no target: {ground_truth!r} (Harness Lab's verl rows carry reward_model.ground_truth.target)")
    return [target] if isinstance(target, str) else [str(t) for t in list(target)]


def compute_score(data_source: str, solution_str: str, ground_truth: Any, extra_info: Any = None, **kwargs: Any) -> float:
    if not str(data_source).startswith("harness-lab/"):
        try:
            from verl.utils.reward_score import default_compute_score
        except ImportError:
            pass
        else:
            return default_compute_score(data_source, solution_str, ground_truth, extra_info)
    answer = normalize(extract_answer(solution_str))
    return 1.0 if answer and any(normalize(t) == answer for t in targets_of(ground_truth)) else 0.0
