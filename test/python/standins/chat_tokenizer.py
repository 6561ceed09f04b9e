"""A byte-level tokenizer with a ChatML-style template, as Hugging Face tokenizers behave for the glue:
``apply_chat_template(messages, tools=None, add_generation_prompt=False, tokenize=True)``, ``decode``,
``__call__(text, add_special_tokens=False) -> {"input_ids"}``, ``eos_token``. Like Qwen's template, it
adds a default system prompt when the conversation has none, so a test can see whether the glue
repeats it."""

import json

DEFAULT_SYSTEM = "You are a helpful assistant (template default)."
EOS = "<|im_end|>"


class ChatTokenizer:
    eos_token = EOS

    def render(self, messages, tools=None, add_generation_prompt=False):
        out = []
        msgs = list(messages)
        if not msgs or msgs[0].get("role") != "system":
            msgs = [{"role": "system", "content": DEFAULT_SYSTEM}] + msgs
        for i, m in enumerate(msgs):
            content = m.get("content", "")
            if i == 0 and tools:
                content += "\n# Tools\n" + "\n".join(json.dumps(t, sort_keys=True) for t in tools)
            out.append(f"<|im_start|>{m.get('role', 'user')}\n{content}{EOS}\n")
        if add_generation_prompt:
            out.append("<|im_start|>assistant\n")
        return "".join(out)

    def apply_chat_template(self, messages, tools=None, add_generation_prompt=False, tokenize=True, **kwargs):
        text = self.render(messages, tools, add_generation_prompt)
        return self.encode(text) if tokenize else text

    def encode(self, text):
        return list(text.encode("utf-8"))

    def decode(self, ids, skip_special_tokens=False):
        text = bytes(ids).decode("utf-8", errors="replace")
        return text.replace(EOS, "") if skip_special_tokens else text

    def __call__(self, text, add_special_tokens=False, return_tensors=None):
        return {"input_ids": self.encode(text)}
