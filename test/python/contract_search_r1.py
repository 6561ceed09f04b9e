"""Search-R1's reward manager on Harness Lab's Search-R1 export (rows of a set from no benchmark): the scorer that
resources/trainers/search-r1/harness_lab_search_r1.py's ``select_rm_score_fn`` picks for each row's data_source,
called as Search-R1's ``RewardManager`` calls it (the decoded prompt + response, ``format_score``). argv[1]: a JSON
file of exported rows. Prints JSON: per row the scores of a right, a wrong and a missing answer."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "resources", "trainers", "search-r1"))
from harness_lab_search_r1 import select_rm_score_fn  # noqa: E402


def decoded(prompt, response):
    """What Search-R1 scores: tokenizer.decode(prompt ids + response ids) of a chat-templated prompt."""
    turns = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in prompt)
    return f"{turns}<|im_start|>assistant\n{response}"


def main():
    rows = json.load(open(sys.argv[1]))
    out = []
    for row in rows:
        fn = select_rm_score_fn(row["data_source"])
        gold = list(row["reward_model"]["ground_truth"]["target"])[0]
        ground_truth = row["reward_model"]["ground_truth"]
        score = lambda response: fn(solution_str=decoded(row["prompt"], response), ground_truth=ground_truth, format_score=0.0)  # noqa: E731
        out.append({
            "data_source": row["data_source"],
            "right": score(f"<think>found it</think>\n<answer> {gold.upper()}. </answer>"),
            "wrong": score("<answer> not the answer at all </answer>"),
            "missing": score("<search> " + gold + " </search>"),
        })
    try:
        select_rm_score_fn("my-own-set")
        refused = None
    except NotImplementedError as err:
        refused = str(err)
    print(json.dumps({"rows": out, "refused": refused}))


if __name__ == "__main__":
    main()
