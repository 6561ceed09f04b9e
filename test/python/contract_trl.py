"""TRL 1.9.0 contract: drives resources/trainers/trl as GRPOTrainer does with a dict environment_factory
(probe one instance per environment, tools = its public methods except reset/get_reward, schemas from
signature + docstring, reset(**row) appended to the last user message, get_reward() per rollout).
Prints JSON."""

import inspect
import json
import os
import re
import sys
import typing

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path[:0] = [os.path.join(ROOT, "resources", "trainers", "trl"), os.path.join(ROOT, "resources", "trainers")]

from harness_lab_client import HarnessLabClient  # noqa: E402
import harness_lab_trl  # noqa: E402
from harness_lab_trl import environment_factories, prompt_rows  # noqa: E402

JSON = {str: "string", int: "integer", float: "number", bool: "boolean", dict: "object"}


def json_type(hint):
    """transformers' get_json_schema mapping of the type hints TRL's tools may use."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union and type(None) in args:
        return json_type([a for a in args if a is not type(None)][0])
    if origin in (list, typing.List):
        return {"type": "array", "items": json_type(args[0])}
    return {"type": JSON[hint]}


def tool_schema(fn):
    """A tool schema from a function, the way transformers builds one: every parameter typed, each described under Args."""
    doc = inspect.getdoc(fn) or ""
    summary, _, rest = doc.partition("\n\nArgs:\n")
    described = dict(re.findall(r"^\s*(\w+):\s*(.+)$", rest, re.M))
    hints = typing.get_type_hints(fn)
    props, required = {}, []
    for name, p in inspect.signature(fn).parameters.items():
        if name not in hints:
            raise TypeError(f"{fn.__name__}: parameter {name} has no type hint")
        if name not in described:
            raise TypeError(f"{fn.__name__}: parameter {name} is not described under Args")
        props[name] = {**json_type(hints[name]), "description": described[name]}
        if p.default is inspect.Parameter.empty:
            required.append(name)
    return {"name": fn.__name__, "description": summary.strip(), "parameters": {"type": "object", "properties": props, "required": required}}


def real_schemas(tools):
    """transformers' own get_json_schema (what TRL calls) where transformers is installed, else None."""
    try:
        from transformers.utils import get_json_schema
    except ImportError:
        return None
    return {t.__name__: get_json_schema(t)["function"]["parameters"] for t in tools}


def enums_of(parameters):
    return {p: s.get("enum") or (s.get("items") or {}).get("enum") for p, s in parameters.get("properties", {}).items() if s.get("enum") or (s.get("items") or {}).get("enum")}


def main():
    key = json.loads(sys.argv[1])
    client = HarnessLabClient(harness_lab_trl.server_urls()[0])
    factories = environment_factories(["stateful", "graph-menu"], probe=key)
    out = {}
    for name, factory in factories.items():
        instance = factory()
        tools = [m for n, m in inspect.getmembers(instance, predicate=inspect.ismethod) if n not in ("reset", "get_reward") and not n.startswith("_")]
        schemas = [tool_schema(t) for t in tools]
        created = client.create(name, instructions="tools", **key)
        client.delete(created["episode_id"])
        server_tools = {t["function"]["name"]: t["function"]["parameters"] for t in created.get("tools") or []}
        row = prompt_rows(name, [key])[0]
        row["environment"] = name
        appended = instance.reset(**{k: v for k, v in row.items() if k != "environment"})
        # One rollout with a scripted model: two actions, then the environment owns the reward.
        by_name = {t.__name__: t for t in tools}
        if name == "graph-menu":
            first = re.search(r"^\s+(S\d+)\s+SELECT", appended, re.M).group(1)
            obs = [by_name["choose"](menu_id=first), by_name["choose"](menu_id="A")]
        else:
            obs = [by_name["search_corpus"](query="head office"), by_name["end_search"](reasoning="enough")]
        try:
            by_name[list(by_name)[0]](**({"menu_id": "A"} if name == "graph-menu" else {"query": "more"}))
            after_end = "accepted"
        except ValueError as e:
            after_end = "refused: " + str(e)
        reward = instance.get_reward()
        credit_steps = len(instance.turn_credit)
        real = real_schemas(tools)
        server_enums = {n: enums_of(p) for n, p in server_tools.items() if enums_of(p)}
        described = {t.__name__: t.__doc__ for t in tools}
        out[name] = {
            "tools": sorted(s["name"] for s in schemas),
            "server_tools": sorted(server_tools),
            "required_match": all(sorted(s["parameters"]["required"]) == sorted(server_tools[s["name"]].get("required", [])) for s in schemas if s["name"] in server_tools),
            "params_match": all(sorted(s["parameters"]["properties"]) == sorted(server_tools[s["name"]].get("properties", {})) for s in schemas if s["name"] in server_tools),
            "row_system": row["prompt"][0]["role"],
            "reset_is_str": isinstance(appended, str),
            "reset_repeats_system": appended.startswith("You are a search agent"),
            "reset_without_system_row": instance.reset(**key).startswith("You are a search agent"),
            "obs_types": [type(o).__name__ for o in obs],
            "after_end": after_end,
            "reward_type": type(reward).__name__,
            "reward": reward,
            "credit_steps": credit_steps,
            "server_enums": server_enums,
            "real_enums": None if real is None else {n: enums_of(real[n]) for n in server_enums},
            "docs_with_limits": sorted(n for n, d in described.items() if "at most" in (d or "") or "matching" in (d or "")),
            "system": row["prompt"][0]["content"],
            "menu_text": appended if name == "graph-menu" else None,
            "menu_obs": obs[0] if name == "graph-menu" else None,
        }
        instance._episode.close()
    # Several servers: instances take them in turn.
    out["urls"] = [factories["stateful"]()._client.url for _ in range(4)]
    print(json.dumps(out))


main()
