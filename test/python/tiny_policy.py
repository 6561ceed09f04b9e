"""The tiny policy of the TRL runs (test/python/trl_grpo.py, bench/trl-vs-app.ts): a llama made with ``LlamaConfig``
(hidden 64, 2 layers), a byte-level BPE tokenizer trained with ``tokenizers`` on the prompts the server gives (so a
prompt is hundreds of tokens, not thousands of bytes) and TRL's own Qwen2.5 chat template (TRL knows how to parse its
``<tool_call>`` replies). A randomly initialised model never writes a parseable tool call, so a short supervised
warm-up teaches the tool-call format on a few correct calls built from the environment's own episodes: on graph-menu,
``choose`` with ids from the menu at each of the first WARMUP_TURNS turns of a scripted episode played on the server
(each later turn's prompt is the earlier turns' calls and tool results, token for token as TRL 1.13 builds them), and
after each other first call's tool result, ANSWER among the choices from the second turn on, so a sampled episode goes
on after a tool result and ends on its own;
``search_corpus`` with the question on stateful. The share of sampled replies that parse as a tool call is measured
before and after the warm-up.
"""

import copy
import json
import math
import re
import tempfile
import time
from types import SimpleNamespace

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import AddedToken, LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast
from trl import GRPOConfig
from trl.chat_template_utils import add_response_schema, parse_response, qwen2_5_chat_template

from harness_lab_client import question_key
from harness_lab_trl import KEY_FIELDS

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
# The warm-up stops once the mean loss per call token is within this margin of its floor (the entropy of choosing
# uniformly among a prompt's target calls), or after so many steps.
WARMUP_MARGIN = 0.002
WARMUP_MAX_STEPS = 300
# Graph-menu warm-up turns per training question (the scripted episode's first turns).
WARMUP_TURNS = 4
# Tokens sampled per reply when measuring the share of parseable calls (a call is a few dozen).
VALID_SHARE_TOKENS = 96


def tool_call_text(name, arguments):
    """An assistant turn with one tool call, exactly as the Qwen2.5 template renders it (after the generation prompt)."""
    return '<tool_call>\n{"name": "' + name + '", "arguments": ' + json.dumps(arguments) + "}\n</tool_call><|im_end|>"


def byte_tokenizer(texts=None):
    """A byte-level tokenizer (BPE; merges learnt from ``texts`` when given) with the Qwen2.5 chat template."""
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=4096 if texts else 0, special_tokens=SPECIAL, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    bpe.train_from_iterator(texts or [""], trainer=trainer)
    tok = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>", bos_token=None)
    tok.add_tokens([AddedToken("<tool_call>", special=False, normalized=False), AddedToken("</tool_call>", special=False, normalized=False)])
    tok.chat_template = qwen2_5_chat_template
    return tok


def tools_of(instance):
    import inspect

    return [m for n, m in inspect.getmembers(instance, predicate=inspect.ismethod) if n not in ("reset", "get_reward") and not n.startswith("_")]


def menu_targets(text, answer):
    """Correct ``choose`` ids from a menu observation: its first two SELECTs, first LOOKUP and first WIDEN, and ANSWER when ``answer``."""
    ids = re.findall(r"^\s{2}([A-Z]\d*)\s{2}", text, re.M)
    return [i for i in ids if i[0] == "S"][:2] + [i for i in ids if i[0] == "L"][:1] + [i for i in ids if i[0] == "W"][:1] + (["A"] if answer and "A" in ids else [])


def tool_suffix_ids(tok, name, content):
    """The ids TRL 1.13 appends after a generated call for its tool result (GRPOTrainer._get_tool_suffix_ids: the chat
    template over a dummy call with and without the tool message, cut after the call's end-of-turn token)."""
    call = [{"role": "user", "content": "dummy"}, {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": name, "arguments": {}}}]}]
    prefix = tok.apply_chat_template(call, add_generation_prompt=False, tokenize=True, return_dict=False)
    full = tok.apply_chat_template(call + [{"role": "tool", "name": name, "content": content}], add_generation_prompt=True, tokenize=True, return_dict=False)
    eos = [i for i, t in enumerate(prefix) if t == tok.eos_token_id]
    prefix = prefix[: eos[-1] + 1] if eos else prefix
    assert full[: len(prefix)] == prefix, "the chat template's tool turn does not extend the call"
    return full[len(prefix):]


def warmed_policy(factories, rows, max_completion, t0, text_client=None):
    """The tokenizer and the model, warmed up on correct tool calls for ``rows`` (each with its ``environment``).

    With ``text_client`` (a HarnessLabClient), each graph-menu row's scripted episode is also played on an episode with
    the server's text-policy instructions, and the warm-up fits the same choices there as bare menu ids after that
    prompt (system + observation through the chat template, no tools): what the app's own GGUF policy reads and
    writes, so a model warmed up here starts as competent in the app's format as in TRL's.
    """
    # The warm-up episodes: each row's conversation as TRL renders it (reset's text appended to the user turn, that
    # environment's tools), then on graph-menu a scripted episode's turns: at each, the correct calls of that menu
    # (the targets), the call played, and the tool result it got from the server.
    plain = byte_tokenizer()
    prompts, episodes, texts = [], [], []
    for row in rows:
        env = factories[row["environment"]]()
        key = {k: v for k, v in row.items() if k != "environment"}
        created_text = env.reset(**key)
        conversation = row["prompt"][:-1] + [{**row["prompt"][-1], "content": row["prompt"][-1]["content"] + created_text}]
        turns = []
        if row["environment"] == "graph-menu":
            text_episode = text_client.episode("graph-menu", seed=int(row.get("seed", 0)), **question_key({k: key[k] for k in KEY_FIELDS if key.get(k) is not None})) if text_client else None
            if text_episode is not None:
                created = text_episode.reset()
                system_text, observation = created["messages"][0]["content"], created["messages"][-1]["content"]
            text = created_text
            for t in range(WARMUP_TURNS):
                targets = menu_targets(text, answer=t > 0)
                played = next((i for i in targets if i[0] == "S"), targets[0])
                if text_episode is not None:
                    texts.append(([{"role": "system", "content": system_text}, {"role": "user", "content": observation}], targets))
                result = env.choose(menu_id=played) if t < WARMUP_TURNS - 1 else None
                turns.append(([tool_call_text("choose", {"menu_id": i}) for i in targets], tool_call_text("choose", {"menu_id": played}), result))
                if result is None or env._episode.done:
                    break
                text = result
                if text_episode is not None:
                    observation = text_episode.step(menu_id=played)["observation"]
            if text_episode is not None:
                text_episode.close()
        else:
            question = re.search(r"# Question\n(.+)", created_text).group(1).strip()
            # A short query: the question's first multi-word name after its first word, else its first three words.
            names = re.findall(r"[A-Z][a-z]+(?: [A-Z][a-z]+)+", question.split(" ", 1)[-1])
            turns.append(([tool_call_text("search_corpus", {"query": names[0] if names else " ".join(question.split()[:3])})], None, None))
        env._episode.close()
        # Branches: each other first call of the scripted episode, played on an episode of its own, and the correct
        # calls after its tool result (so a call follows any first tool result, not only the scripted one's).
        branches = []
        if row["environment"] == "graph-menu" and len(turns) > 1:
            for call in turns[0][0]:
                if call == turns[0][1]:
                    continue
                branch = factories[row["environment"]]()
                branch.reset(**key)
                result = branch.choose(menu_id=json.loads(call[len("<tool_call>\n"): call.index("\n</tool_call>")])["arguments"]["menu_id"])
                if not branch._episode.done:
                    branches.append((call, result, [tool_call_text("choose", {"menu_id": i}) for i in menu_targets(result, answer=True)]))
                branch._episode.close()
        prompts.append((conversation, tools_of(env), row["environment"]))
        episodes.append((turns, branches))
    rendered = [plain.apply_chat_template(c, tools=t, add_generation_prompt=True, tokenize=False) for c, t, _ in prompts]
    rendered += [plain.apply_chat_template(m, add_generation_prompt=True, tokenize=False) for m, _ in texts]
    tok = byte_tokenizer(rendered + [x for turns, branches in episodes for calls, _, result in turns for x in calls + [result or ""]] + [x for _, branches in episodes for _, result, calls in branches for x in calls + [result]])
    tok = add_response_schema(tok)

    config = LlamaConfig(vocab_size=len(tok), hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=8192, rms_norm_eps=1e-5, tie_word_embeddings=False, bos_token_id=None, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)
    model = LlamaForCausalLM(config)
    model.generation_config.eos_token_id = tok.eos_token_id
    model.generation_config.pad_token_id = tok.pad_token_id
    prompt_ids = [tok.apply_chat_template(c, tools=t, add_generation_prompt=True, tokenize=True, return_dict=False) for c, t, _ in prompts]
    # The warm-up sequences: per episode its last turn's prompt (the whole prefix), each turn's prompt length in it
    # and that turn's target calls. A later turn's prompt is the earlier turn's prompt, the call played (as the model
    # would have generated it) and the tool result's ids, as TRL concatenates them; the app's format adds one sequence
    # per turn (its prompt is that turn's observation alone) with the bare ids as targets.
    items = []
    ids_of = lambda calls: [tok(c, add_special_tokens=False)["input_ids"] for c in calls]  # noqa: E731
    for first, (turns, branches) in zip(prompt_ids, episodes):
        ids, cuts = first, []
        for calls, played, result in turns:
            cuts.append((len(ids), ids_of(calls)))
            if result is not None:
                ids = ids + tok(played, add_special_tokens=False)["input_ids"] + tool_suffix_ids(tok, "choose", result)
        items.append((ids[: cuts[-1][0]], cuts))
        for call, result, calls in branches:
            seq = first + tok(call, add_special_tokens=False)["input_ids"] + tool_suffix_ids(tok, "choose", result)
            items.append((seq, [(len(seq), ids_of(calls))]))
    app_prompts = []
    for messages, targets in texts:
        ids = tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=True, return_dict=False)
        app_prompts.append({"system": messages[0]["content"], "user": messages[1]["content"], "ids": ids})
        items.append((ids, [(len(ids), [tok(i, add_special_tokens=False)["input_ids"] for i in targets])]))
    setup_s = time.time() - t0

    def valid_share(samples=4):
        """Share of sampled replies (temperature 1) that parse as a tool call of that environment's tools."""
        model.eval()
        good = total = 0
        with torch.no_grad():
            for ids, (_, tools, _) in zip(prompt_ids, prompts):
                names = {t.__name__ for t in tools}
                out = model.generate(torch.tensor([ids] * samples), attention_mask=torch.ones(samples, len(ids), dtype=torch.long), do_sample=True, temperature=1.0, top_k=0, max_new_tokens=min(max_completion, VALID_SHARE_TOKENS))
                for seq in out[:, len(ids):].tolist():
                    parsed = parse_response(tok, seq, prefix=ids)
                    calls = parsed.get("tool_calls") or []
                    good += bool(calls) and all(c["function"]["name"] in names for c in calls)
                    total += 1
        model.train()
        return good / total

    before = valid_share()
    # Supervised warm-up: cross-entropy on the target tokens only. Each sequence's keys and values are computed once
    # per step without gradient (a prompt is hundreds of tokens, a call a few dozen), every turn's prompt a prefix of it.
    t_warm = time.time()
    targets = [cs for _, cuts in items for _, cs in cuts]
    examples = sum(len(cs) for cs in targets)
    # The loss cannot go below the entropy of a uniform choice among each prompt's calls (a call's id is that choice).
    floor = sum(len(cs) * math.log(len({tuple(c) for c in cs})) for cs in targets) / sum(len(c) for cs in targets for c in cs)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-3)
    losses = []
    steps = 0
    for steps in range(1, WARMUP_MAX_STEPS + 1):
        opt.zero_grad()
        total = count = 0
        for seq, cuts in items:
            with torch.no_grad():
                full = model(input_ids=torch.tensor([seq[:-1]]), use_cache=True).past_key_values
            for length, cs in cuts:
                cache = copy.deepcopy(full) if len(cuts) > 1 else full
                cache.crop(length - 1)
                cache.batch_repeat_interleave(len(cs))
                width = max(len(c) for c in cs)
                x = torch.full((len(cs), width), tok.pad_token_id)
                y = torch.full((len(cs), width), -100)
                for b, c in enumerate(cs):
                    x[b, : len(c)] = torch.tensor([seq[length - 1]] + c[:-1])
                    y[b, : len(c)] = torch.tensor(c)
                logits = model(input_ids=x, past_key_values=cache, attention_mask=torch.ones(len(cs), length - 1 + width, dtype=torch.long)).logits
                loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1), ignore_index=-100, reduction="sum")
                loss.backward()
                total += loss.item()
                count += int((y != -100).sum())
        opt.step()
        losses.append(total / count)
        if losses[-1] < floor + WARMUP_MARGIN:
            break
    warm_s = time.time() - t_warm
    after = valid_share()

    return SimpleNamespace(
        tok=tok, model=model, prompts=prompts, prompt_ids=prompt_ids, targets=[[c for calls, _, _ in turns for c in calls] for turns, _ in episodes], setup_s=setup_s, app_prompts=app_prompts,
        warmup={"steps": steps, "examples": examples, "turns": len(targets), "loss_first": losses[0], "loss_last": losses[-1], "loss_floor": floor, "seconds": warm_s, "valid_before": before, "valid_after": after},
    )


# GRPO's AdamW step size: small enough that the first updates leave the warmed-up call format intact (Adam's first step
# moves every weight by about the learning rate: at 1e-3, 5% of this tiny model's typical weight, and the next step's
# rollouts stopped calling tools), large enough that the weights visibly move.
LEARNING_RATE = 1e-4


def grpo_config(group, batch, steps, seed, max_completion, learning_rate=LEARNING_RATE, **extra):
    """TRL's GRPOConfig as the TRL runs use it: CPU, no reports or checkpoints, sampling at temperature 1 with no top-k."""
    return GRPOConfig(
        output_dir=tempfile.mkdtemp(prefix="harness-lab-trl-"),
        use_cpu=True,
        report_to=[],
        num_generations=group,
        per_device_train_batch_size=batch,
        max_completion_length=max_completion,
        max_steps=steps,
        logging_steps=1,
        learning_rate=learning_rate,
        save_strategy="no",
        disable_tqdm=True,
        seed=seed,
        temperature=1.0,
        top_k=0,
        dataloader_num_workers=0,
        **extra,
    )
