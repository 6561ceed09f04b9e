"""A transformers ``LlamaForCausalLM`` and its byte-level BPE tokenizer as an F32 llama GGUF that node-llama-cpp
(and the app's native trainer) load, written with the ``gguf`` package: the same weights on both sides.

What has to match llama.cpp's reading (as its own convert script does): tensor names (``token_embd``, ``blk.N.attn_q``,
...); the query and key rows permuted from transformers' rotate-half RoPE layout to llama.cpp's interleaved pairs; the
tokenizer as ``gpt2`` BPE with the GPT-2 pre-tokenizer (the ``ByteLevel(use_regex=True)`` split), its merges, and its
special and added tokens typed so they tokenize as single tokens.
"""

import json

import numpy as np
from gguf import GGUFWriter, LlamaFileType, TokenType

NAMES = {
    "model.embed_tokens.weight": "token_embd.weight",
    "model.norm.weight": "output_norm.weight",
    "lm_head.weight": "output.weight",
}
LAYER = {
    "input_layernorm": "attn_norm",
    "self_attn.q_proj": "attn_q",
    "self_attn.k_proj": "attn_k",
    "self_attn.v_proj": "attn_v",
    "self_attn.o_proj": "attn_output",
    "post_attention_layernorm": "ffn_norm",
    "mlp.gate_proj": "ffn_gate",
    "mlp.up_proj": "ffn_up",
    "mlp.down_proj": "ffn_down",
}


def rope_rows(w, heads):
    """transformers' q/k rows (per head: first half, second half) in llama.cpp's order (per head: interleaved pairs)."""
    return w.reshape(heads, 2, w.shape[0] // heads // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def gguf_name(name):
    if name in NAMES:
        return NAMES[name]
    parts = name.split(".")  # model.layers.N.<module...>.weight
    if parts[:2] != ["model", "layers"] or parts[-1] != "weight":
        raise ValueError(f"no GGUF name for tensor {name}")
    module = ".".join(parts[3:-1])
    if module not in LAYER:
        raise ValueError(f"no GGUF name for tensor {name}")
    return f"blk.{parts[2]}.{LAYER[module]}.weight"


def write_gguf(model, tok, path, name="harness-lab-tiny-llama"):
    cfg = model.config
    head_dim = cfg.hidden_size // cfg.num_attention_heads
    w = GGUFWriter(path, "llama")
    w.add_name(name)
    w.add_file_type(LlamaFileType.ALL_F32)
    w.add_context_length(cfg.max_position_embeddings)
    w.add_embedding_length(cfg.hidden_size)
    w.add_block_count(cfg.num_hidden_layers)
    w.add_feed_forward_length(cfg.intermediate_size)
    w.add_head_count(cfg.num_attention_heads)
    w.add_head_count_kv(cfg.num_key_value_heads)
    w.add_rope_dimension_count(head_dim)
    w.add_rope_freq_base(float(getattr(cfg, "rope_theta", None) or (cfg.rope_parameters or {}).get("rope_theta", 10000.0)))
    w.add_layer_norm_rms_eps(cfg.rms_norm_eps)
    w.add_vocab_size(len(tok))

    vocab = tok.get_vocab()
    by_id = sorted(vocab.items(), key=lambda kv: kv[1])
    if [i for _, i in by_id] != list(range(len(by_id))):
        raise ValueError("the tokenizer's ids are not 0..n-1")
    special = set(tok.all_special_tokens)
    added = set(tok.get_added_vocab())
    types = [TokenType.CONTROL if t in special else TokenType.USER_DEFINED if t in added else TokenType.NORMAL for t, _ in by_id]
    merges = json.loads(tok.backend_tokenizer.to_str())["model"]["merges"]
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("gpt-2")
    w.add_token_list([t for t, _ in by_id])
    w.add_token_types([int(t) for t in types])
    w.add_token_merges([m if isinstance(m, str) else " ".join(m) for m in merges])
    w.add_eos_token_id(tok.eos_token_id)
    w.add_pad_token_id(tok.pad_token_id)
    w.add_add_bos_token(False)
    w.add_add_eos_token(False)
    if tok.chat_template:
        w.add_chat_template(tok.chat_template)

    for key, tensor in model.state_dict().items():
        a = tensor.detach().to("cpu").float().numpy()
        if key.endswith("self_attn.q_proj.weight"):
            a = rope_rows(a, cfg.num_attention_heads)
        elif key.endswith("self_attn.k_proj.weight"):
            a = rope_rows(a, cfg.num_key_value_heads)
        w.add_tensor(gguf_name(key), np.ascontiguousarray(a, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
