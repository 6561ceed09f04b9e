"""The model in the contract tests: reads the rendered conversation and answers like a small policy
would (menu: two SELECTs then ANSWER; tools: one search, then end_search), or pads a turn to a given
length to hit the trainer's length limit. With a plan (a list of menu ids, one per turn), it replies
with each id wrapped in prose, as a real model's decoded text arrives ("I choose L2.")."""

import json
import re

WRAPS = ["I choose {}.", "{}", "<think>enough evidence</think>{}"]


def reply(conversation: str, pad_to: int = 0, plan=None) -> str:
    turns = conversation.count("<|im_start|>assistant") - 1
    if plan:
        text = WRAPS[turns % len(WRAPS)].format(plan[min(turns, len(plan) - 1)])
    elif "Menu: reply with exactly one id." in conversation:
        menu = conversation[conversation.rfind("Menu: reply with exactly one id."):]
        ids = re.findall(r"^\s+([A-Z]\d*)\s+(SELECT|LOOKUP|ANSWER_WITH|ANSWER)\b", menu, re.M)
        selects = [i for i, kind in ids if kind == "SELECT"]
        text = selects[0] if selects and turns < 2 else "A"
    else:
        question = re.search(r"# Question\n(.*)\n", conversation)
        call = {"name": "search_corpus", "arguments": {"query": question.group(1) if question else "x"}} if turns < 1 else {"name": "end_search", "arguments": {"reasoning": "enough"}}
        text = json.dumps(call)
    return text + " " * max(0, pad_to - len(text))
