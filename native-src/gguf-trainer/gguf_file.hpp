// What the trainer reads from and writes into GGUF files without llama.cpp: the checks before a model
// loads (architecture, shapes, every tensor F32), the memory a run needs, and the saved file's context length.
#pragma once
#include <cstdint>
#include <string>

struct Inspection {
  std::string error;  // why the file cannot be trained ("" when it can)
  std::string arch;
  uint32_t n_layer = 0, n_embd = 0, n_ff = 0, n_head = 0, n_head_kv = 0, ctx_len = 0;
  long long weight_bytes = 0, n_params = 0, n_trainable = 0, n_vocab = 0, n_tensors = 0;
};

// Which tensors train: all llama.cpp trains (not token_embd, not rope_freqs), or output, output_norm and the last blocks.
bool tensor_trains(const char * name, int last_blocks, int n_layer);

Inspection inspect_gguf(const std::string & path, int last_blocks);

// A planning estimate, not a measurement, of the bytes a run holds at its peak.
long long estimate_bytes(const Inspection & in, int n_ctx, bool adamw, bool with_base);

// The training context for a requested length: a multiple of 256 (llama.cpp pads to it, and training
// needs the sequence, batch and ubatch all equal to the context), at most the model's own context.
int training_context(int requested, uint32_t model_ctx);

// Writes `value` into "<arch>.context_length" of a saved GGUF, in place (llama_opt_init overwrote it with
// the training context). Throws when the file is not a GGUF it can walk or the key is missing.
void patch_context_length(const std::string & path, const std::string & arch, uint32_t value);
