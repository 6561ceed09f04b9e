"""TRL glue: an ``environment_factory`` class for ``GRPOTrainer`` over the Harness Lab environment server.

Written against TRL 1.x's environment API (GRPOTrainer(environment_factory=...)): TRL makes one
instance per rollout, calls ``reset(**row)`` with the dataset row's fields (its return value is appended
to the prompt), exposes the public methods below as tools (from their signatures and docstrings), and
hands the instances to the reward function as ``environments``. The server keeps the episode state;
tokenisation stays with TRL.

Dataset rows carry ``split`` and ``index`` (or ``question_id``) and, optionally, ``seed``. Environment
and config come from $HARNESS_LAB_ENV (default "stateful") and $HARNESS_LAB_CONFIG (JSON).
"""

from __future__ import annotations

import json
import os
import sys
from typing import List, Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness_lab_client import HarnessLabClient, HarnessLabError  # noqa: E402


class HarnessLabEnv:
    """One Harness-1 episode (tools) or Harness-G episode (the ``choose`` tool) per rollout."""

    environment = os.environ.get("HARNESS_LAB_ENV", "stateful")
    config = json.loads(os.environ.get("HARNESS_LAB_CONFIG", "{}"))

    def __init__(self) -> None:
        self.client = HarnessLabClient()
        self.episode = None
        self.reward = 0.0
        self.result: Optional[dict] = None

    def reset(self, **row) -> str:
        fields = {k: row[k] for k in ("question_id", "split", "index", "seed", "group_id") if k in row}
        self.episode = self.client.episode(self.environment, config=self.config, **fields)
        self.reward, self.result = 0.0, None
        created = self.episode.reset()
        menu = created.get("menu")
        text = created["messages"][-1]["content"]
        return text if not menu else text + "\n\nMenu ids: " + ", ".join(m["id"] for m in menu)

    def _act(self, name: str, arguments: dict) -> str:
        if self.episode is None or self.episode.done:
            raise ValueError("The episode is over.")
        out = self.episode.step({"name": name, "arguments": arguments})
        if out["done"]:
            self.result = self.episode.finish()
            self.reward = float(self.result["reward"])
        return out["observation"] if out["info"]["valid"] else f"Error: {out['info']['format_error']}"

    # Harness-1 tools (environment "stateful" or "transcript"); their schemas are also served by GET /v1/environments.
    def search_corpus(self, query: str) -> str:
        """Search the corpus with one query.

        Args:
            query: One search query.
        """
        return self._act("search_corpus", {"query": query})

    def fan_out_search(self, queries: List[str]) -> str:
        """Run several search queries in parallel.

        Args:
            queries: Search queries (1 to the server's limit).
        """
        return self._act("fan_out_search", {"queries": queries})

    def read_document(self, doc_id: str) -> str:
        """Read one retrieved document in full.

        Args:
            doc_id: Document id, e.g. "D12".
        """
        return self._act("read_document", {"doc_id": doc_id})

    def curate(self, add_ids: List[str], importance: str = "fair") -> str:
        """Add documents to the curated evidence set.

        Args:
            add_ids: Document ids to add.
            importance: Importance tag of the added documents.
        """
        return self._act("curate", {"add_ids": add_ids, "importance": importance})

    def end_search(self, reasoning: str) -> str:
        """End the search when the curated set is enough.

        Args:
            reasoning: Why the curated set is enough.
        """
        return self._act("end_search", {"reasoning": reasoning})

    # Harness-G menu (environment "graph-menu").
    def choose(self, menu_id: str) -> str:
        """Choose one action from the menu by its id (SELECT, LOOKUP, ANSWER_WITH, ANSWER).

        Args:
            menu_id: The id of a menu item, e.g. "S3".
        """
        if self.episode is None or self.episode.done:
            raise ValueError("The episode is over.")
        out = self.episode.step(menu_id=menu_id)
        if out["done"]:
            self.result = self.episode.finish()
            self.reward = float(self.result["reward"])
            return out["observation"]
        return out["observation"] + "\n\nMenu ids: " + ", ".join(m["id"] for m in out.get("menu", []))


def harness_lab_reward(environments, **kwargs) -> List[float]:
    """The configured reward of each rollout; unfinished episodes are finished (scored) here."""
    rewards = []
    for env in environments:
        if env.result is None and env.episode is not None and env.episode.id is not None:
            try:
                env.result = env.episode.finish()
                env.reward = float(env.result["reward"])
            except HarnessLabError:
                env.reward = 0.0
        rewards.append(env.reward)
    return rewards
