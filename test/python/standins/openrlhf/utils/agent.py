"""OpenRLHF 0.11.0's agent API as documented: ``AgentInstanceBase`` (async ``reset(states)`` returning
``{"observation": text}``, async ``step(states)`` returning rewards (a tensor: ``.item()`` is called),
scores, environment_feedback, done, sampling_params, extra_logs), ``AgentExecutorBase.execute(prompt,
label, sampling_params, max_length, hf_tokenizer, llm_engine, images=None)``, and the multi-turn
executor's loop: tokens of observation + action + feedback, the generation budget
``max_length - tokens so far``, stopping on done or when no budget is left."""

from copy import deepcopy


class AgentExecutorBase:
    async def execute(self, prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine, images=None):
        raise NotImplementedError


class AgentInstanceBase:
    def __init__(self, *args, **kwargs):
        pass

    async def reset(self, states, **kwargs):
        return states

    async def step(self, states, **kwargs):
        raise NotImplementedError


class MultiTurnAgentExecutor(AgentExecutorBase):
    def __init__(self, agent_instance_cls):
        assert issubclass(agent_instance_cls, AgentInstanceBase)
        self.agent_instance_cls = agent_instance_cls

    async def execute(self, prompt, label, sampling_params, max_length, hf_tokenizer, llm_engine, images=None):
        agent = self.agent_instance_cls()
        first = await agent.reset({"observation": prompt, "label": label})
        text = first["observation"]
        assert isinstance(text, str)
        tokens = hf_tokenizer(text=text, add_special_tokens=False)["input_ids"]
        ranges, total, scores, logs = [], 0.0, 0.0, {}
        while True:
            sampling_params.max_tokens = max_length - len(tokens)
            if sampling_params.max_tokens <= 0:
                break
            res = await llm_engine.generate(tokens, deepcopy(sampling_params), multi_modal_data=None)
            action_ids, action_text = res.outputs[0].token_ids, res.outputs[0].text
            ranges.append((len(tokens), len(tokens) + len(action_ids)))
            step = await agent.step({"observation_text": text, "action_text": action_text, "label": label, "sampling_params": sampling_params})
            total += step["rewards"].item()
            scores = step.get("scores", total)
            logs = step.get("extra_logs", {})
            for v in logs.values():
                v.item()
            feedback = step["environment_feedback"]
            assert isinstance(feedback, str) and isinstance(step["done"], bool)
            text = text + action_text + feedback
            tokens = tokens + list(action_ids) + hf_tokenizer(text=feedback, add_special_tokens=False)["input_ids"]
            if step.get("sampling_params"):
                sampling_params = step["sampling_params"]
            if step["done"]:
                break
        return {"prompt": prompt, "label": label, "reward": total, "scores": scores, "observation_tokens": tokens, "action_ranges": ranges, "extra_logs": logs}
