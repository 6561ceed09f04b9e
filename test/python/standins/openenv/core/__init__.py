"""Stand-in of openenv-core's ``GenericEnvClient`` (OpenEnv, src/openenv/core/{env_client,generic_client,sync_client}.py,
read at 685de41, 2026-05): an async WebSocket client of ``<base_url>/ws`` (http:// becomes ws://) that sends
``{"type": "reset", "data": kwargs}`` and ``{"type": "step", "data": action}``, waits for the one reply, raises
``RuntimeError`` on a reply of type "error", and answers ``StepResult(observation, reward, done)`` from the reply's
data; ``.sync()`` wraps it for synchronous code. Written from that documented API (no code of theirs), for the
README's TRL + OpenEnv example where openenv-core is not installed.
"""

import asyncio
import json
import threading
from dataclasses import dataclass
from typing import Any, Dict, Optional

from websockets.asyncio.client import connect as ws_connect

__all__ = ["GenericEnvClient", "StepResult", "SyncEnvClient"]


@dataclass
class StepResult:
    observation: Dict[str, Any]
    reward: Optional[float] = None
    done: bool = False


class GenericEnvClient:
    def __init__(self, base_url: str, message_timeout_s: float = 60.0):
        url = base_url.rstrip("/")
        url = "ws://" + url[len("http://"):] if url.startswith("http://") else "wss://" + url[len("https://"):] if url.startswith("https://") else url
        self._ws_url = f"{url}/ws"
        self._timeout = message_timeout_s
        self._ws = None

    async def connect(self) -> "GenericEnvClient":
        if self._ws is None:
            self._ws = await ws_connect(self._ws_url, proxy=None)
        return self

    async def _send_and_receive(self, message: Dict[str, Any]) -> Dict[str, Any]:
        await self.connect()
        await self._ws.send(json.dumps(message))
        response = json.loads(await asyncio.wait_for(self._ws.recv(), timeout=self._timeout))
        if response.get("type") == "error":
            data = response.get("data", {})
            raise RuntimeError(f"Server error: {data.get('message', 'Unknown error')} (code: {data.get('code', 'UNKNOWN')})")
        return response

    def _parse_result(self, payload: Dict[str, Any]) -> StepResult:
        return StepResult(observation=payload.get("observation", {}), reward=payload.get("reward"), done=payload.get("done", False))

    async def reset(self, **kwargs: Any) -> StepResult:
        return self._parse_result((await self._send_and_receive({"type": "reset", "data": kwargs})).get("data", {}))

    async def step(self, action: Dict[str, Any], **kwargs: Any) -> StepResult:
        return self._parse_result((await self._send_and_receive({"type": "step", "data": dict(action)})).get("data", {}))

    async def close(self) -> None:
        if self._ws is not None:
            try:
                await self._ws.send(json.dumps({"type": "close"}))
            except Exception:
                pass
            await self._ws.close()
            self._ws = None

    def sync(self) -> "SyncEnvClient":
        return SyncEnvClient(self)


class SyncEnvClient:
    """The async client's calls run on one background event loop (the connection stays bound to it)."""

    def __init__(self, async_client: GenericEnvClient):
        self._async = async_client
        self._loop = asyncio.new_event_loop()
        threading.Thread(target=self._loop.run_forever, daemon=True).start()

    def _run(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def reset(self, **kwargs: Any) -> StepResult:
        return self._run(self._async.reset(**kwargs))

    def step(self, action: Dict[str, Any], **kwargs: Any) -> StepResult:
        return self._run(self._async.step(action, **kwargs))

    def close(self) -> None:
        self._run(self._async.close())
