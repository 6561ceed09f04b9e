"""Asyncio front of ``harness_lab_client`` for trainers whose rollouts run on an event loop (verl's agent
loops, OpenRLHF's agent executors).

Each HTTP call runs on a dedicated thread pool (``HARNESS_LAB_HTTP_THREADS``, default 64), so a slow
environment step never blocks the event loop that also drives generation. Standard library only.

``HARNESS_LAB_URL`` may list several servers, comma-separated (one per node, each over its own copy of
the workspace): each new episode goes to the next server in turn, and every later call of that episode
goes to the server that created it.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, Dict, List, Optional

from harness_lab_client import HarnessLabClient

__all__ = ["AsyncHarnessLab", "AsyncEpisode"]

_POOL: Optional[ThreadPoolExecutor] = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=int(os.environ.get("HARNESS_LAB_HTTP_THREADS", "64")), thread_name_prefix="harness-lab-http")
        return _POOL


async def _off_loop(fn, *args, **kwargs):
    return await asyncio.get_running_loop().run_in_executor(_pool(), partial(fn, *args, **kwargs))


class AsyncHarnessLab:
    """One or more servers (``urls``, default $HARNESS_LAB_URL split on commas), one token."""

    def __init__(self, urls: Optional[List[str]] = None, token: Optional[str] = None, timeout: float = 120.0):
        if urls is None:
            urls = [u.strip() for u in (os.environ.get("HARNESS_LAB_URL") or "http://127.0.0.1:8765").split(",") if u.strip()]
        if not urls:
            raise ValueError("no Harness Lab server URL: set HARNESS_LAB_URL")
        self.clients = [HarnessLabClient(u, token, timeout) for u in urls]
        self._next = itertools.count()

    async def episode(self, environment: str, **fields: Any) -> "AsyncEpisode":
        """Creates an episode (POST /v1/episodes) on the next server in turn."""
        client = self.clients[next(self._next) % len(self.clients)]
        created = await _off_loop(client.create, environment, **{k: v for k, v in fields.items() if v is not None})
        return AsyncEpisode(client, created)


class AsyncEpisode:
    def __init__(self, client: HarnessLabClient, created: Dict[str, Any]):
        self.client = client
        self.created = created
        self.id: str = created["episode_id"]
        self.done = bool(created.get("done"))
        self.menu = created.get("menu")
        self.tools = created.get("tools")
        self.result: Optional[Dict[str, Any]] = None

    @property
    def messages(self) -> List[Dict[str, str]]:
        return self.created["messages"]

    async def step(self, **body: Any) -> Dict[str, Any]:
        """One action: ``tool_call=``, ``menu_id=`` or ``text=`` (the server parses raw model text)."""
        out = await _off_loop(self.client.step, self.id, **body)
        self.done = bool(out["done"])
        if "menu" in out:
            self.menu = out["menu"]
        return out

    async def finish(self, answer: Optional[str] = None) -> Dict[str, Any]:
        """Scores the episode (also one that is not done: the reward of what it reached)."""
        if self.result is None:
            self.result = await _off_loop(self.client.finish, self.id, answer)
        return self.result
