"""Search-R1's reward for Harness Lab question sets from no benchmark (``data_source`` ``harness-lab/<set>``).

Search-R1 (PeterGriffinJin/Search-R1, ``verl/trainer/main_ppo.py``) picks a scorer by ``data_source`` in
``_select_rm_score_fn`` and raises ``NotImplementedError`` for any name outside its seven benchmarks (nq, triviaqa,
popqa, hotpotqa, 2wikimultihopqa, musique, bamboogle), so rows of a private set stop its reward manager. Put this
folder on ``PYTHONPATH`` and replace that function by ``select_rm_score_fn`` (README.md in this folder):

* ``harness-lab/...`` -> ``compute_score_em`` here: Search-R1's exact match with its calling convention
  ``(solution_str, ground_truth, method='strict', format_score=0., score=1.)``;
* Search-R1's benchmark names -> its own ``verl.utils.reward_score.qa_em.compute_score_em``, unchanged;
* anything else -> ``NotImplementedError`` naming the data_source and what is known.

Search-R1's reward manager passes the decoded prompt *and* response, and its prompt (Harness Lab's Search-R1 export
writes the same) shows one ``<answer>`` example, so as in Search-R1 the answer is the last ``<answer>...</answer>``
when the text holds two or more, and a text with fewer scores 0 (the model gave none). The answer then matches any
of ``ground_truth["target"]`` after SQuAD normalisation (the same ``normalize`` as the verl reward function).
Standard library only.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any, Callable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "verl"))
from harness_lab_reward import normalize, targets_of  # noqa: E402

DATA_SOURCE_PREFIX = "harness-lab/"
#: The data_source values Search-R1's own ``_select_rm_score_fn`` accepts.
SEARCH_R1_BENCHMARKS = ("nq", "triviaqa", "popqa", "hotpotqa", "2wikimultihopqa", "musique", "bamboogle")
_ANSWER = re.compile(r"<answer>(.*?)</answer>", re.S)


def extract_solution(solution_str: str) -> str | None:
    """The model's answer: the last <answer> of two or more (the first is the prompt's example), else None."""
    found = _ANSWER.findall(solution_str)
    return found[-1].strip() if len(found) >= 2 else None


def compute_score_em(solution_str: str, ground_truth: Any, method: str = "strict", format_score: float = 0.0, score: float = 1.0) -> float:
    answer = extract_solution(solution_str)
    if answer is None:
        return 0
    normalised = normalize(answer)
    return score if any(normalize(t) == normalised for t in targets_of(ground_truth)) else format_score


def select_rm_score_fn(data_source: str) -> Callable[..., float]:
    """A drop-in for Search-R1's ``_select_rm_score_fn``: Harness Lab sets here, its benchmarks to its own scorer."""
    source = str(data_source)
    if source.startswith(DATA_SOURCE_PREFIX):
        return compute_score_em
    if source in SEARCH_R1_BENCHMARKS:
        from verl.utils.reward_score import qa_em  # Search-R1's own module (its repository's verl package)

        return qa_em.compute_score_em
    raise NotImplementedError(f"No reward for data_source {source!r}: Search-R1 scores {', '.join(SEARCH_R1_BENCHMARKS)}, and Harness Lab exports of sets from no benchmark use {DATA_SOURCE_PREFIX}<set>")
