#include "gguf_file.hpp"

#include "ggml.h"
#include "gguf.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

bool tensor_trains(const char * name, int last_blocks, int n_layer) {
  if (strcmp(name, "token_embd.weight") == 0) return false;  // llama.cpp does not train it (upstream FIXME)
  if (strcmp(name, "rope_freqs.weight") == 0) return false;  // nor this one
  if (last_blocks < 0) return true;
  if (strncmp(name, "output", 6) == 0) return true;  // output and output_norm
  if (strncmp(name, "blk.", 4) != 0) return false;
  const int b = atoi(name + 4);
  return b >= n_layer - last_blocks;
}

static uint32_t u32_key(gguf_context * g, const std::string & key) {
  const int64_t id = gguf_find_key(g, key.c_str());
  if (id < 0) return 0;
  const gguf_type t = gguf_get_kv_type(g, id);
  if (t == GGUF_TYPE_UINT32) return gguf_get_val_u32(g, id);
  if (t == GGUF_TYPE_INT32) return (uint32_t) std::max(0, gguf_get_val_i32(g, id));
  if (t == GGUF_TYPE_UINT64) return (uint32_t) gguf_get_val_u64(g, id);
  return 0;
}

// Whether a key holds something other than zero: a non-zero number, or an array with a non-zero integer.
static bool key_nonzero(gguf_context * g, const std::string & key) {
  const int64_t id = gguf_find_key(g, key.c_str());
  if (id < 0) return false;
  const gguf_type t = gguf_get_kv_type(g, id);
  if (t == GGUF_TYPE_ARRAY) {
    const gguf_type et = gguf_get_arr_type(g, id);
    const size_t n = gguf_get_arr_n(g, id);
    const void * data = et == GGUF_TYPE_STRING ? nullptr : gguf_get_arr_data(g, id);
    for (size_t i = 0; i < n && data; i++) {
      if (et == GGUF_TYPE_INT32 && ((const int32_t *) data)[i] != 0) return true;
      if (et == GGUF_TYPE_UINT32 && ((const uint32_t *) data)[i] != 0) return true;
    }
    return false;
  }
  if (t == GGUF_TYPE_UINT32) return gguf_get_val_u32(g, id) != 0;
  if (t == GGUF_TYPE_INT32) return gguf_get_val_i32(g, id) != 0;
  if (t == GGUF_TYPE_UINT64) return gguf_get_val_u64(g, id) != 0;
  if (t == GGUF_TYPE_BOOL) return gguf_get_val_bool(g, id);
  return true;  // a string or another type: there is something
}

Inspection inspect_gguf(const std::string & path, int last_blocks) {
  Inspection r;
  ggml_context * meta = nullptr;
  gguf_init_params gp = {/*no_alloc=*/true, /*ctx=*/&meta};
  gguf_context * g = gguf_init_from_file(path.c_str(), gp);
  if (!g) {
    r.error = "cannot read GGUF file " + path;
    return r;
  }
  const int64_t arch_id = gguf_find_key(g, "general.architecture");
  r.arch = arch_id < 0 || gguf_get_kv_type(g, arch_id) != GGUF_TYPE_STRING ? "" : gguf_get_val_str(g, arch_id);
  r.n_layer = u32_key(g, r.arch + ".block_count");
  r.n_embd = u32_key(g, r.arch + ".embedding_length");
  r.n_ff = u32_key(g, r.arch + ".feed_forward_length");
  r.n_head = u32_key(g, r.arch + ".attention.head_count");
  r.n_head_kv = u32_key(g, r.arch + ".attention.head_count_kv");
  r.ctx_len = u32_key(g, r.arch + ".context_length");
  r.n_tensors = gguf_get_n_tensors(g);
  for (int64_t i = 0; i < r.n_tensors; i++) {
    const char * name = gguf_get_tensor_name(g, i);
    const ggml_type type = gguf_get_tensor_type(g, i);
    const ggml_tensor * t = ggml_get_tensor(meta, name);
    const long long n = t ? ggml_nelements(t) : 0;
    if (strcmp(name, "token_embd.weight") == 0 && t) r.n_vocab = t->ne[1];
    if (type != GGML_TYPE_F32 && r.error.empty()) {
      r.error = std::string("tensor ") + name + " is " + ggml_type_name(type) +
                ": training needs every weight in F32 (quantised and F16 weights have no backward pass here); "
                "convert the original model to an F32 GGUF (e.g. convert_hf_to_gguf.py --outtype f32)";
    }
    r.weight_bytes += gguf_get_tensor_size(g, i);
    r.n_params += n;
    if (tensor_trains(name, last_blocks, (int) r.n_layer)) r.n_trainable += n;
  }
  // What the packed layout cannot express: it rewrites one causal mask and one position per token.
  const struct { const char * suffix; const char * why; } unsupported[] = {
      {".attention.sliding_window", "sliding-window attention (a second, windowed mask)"},
      {".rope.dimension_sections", "multi-section rotary positions (several positions per token)"},
      {".ssm.conv_kernel", "state-space (recurrent) layers"},
      {".wkv.head_size", "RWKV (recurrent) layers"},
  };
  for (const auto & u : unsupported) {
    // present and non-zero: llama.cpp writes every hyperparameter into a saved file, a window of 0 included
    if (r.error.empty() && key_nonzero(g, r.arch + u.suffix)) {
      r.error = r.arch + " has " + u.why + ": the trainer lays out one causal mask and one position per token, so it cannot train this architecture";
    }
  }
  gguf_free(g);
  if (meta) ggml_free(meta);
  if (r.error.empty() && (r.n_layer == 0 || r.n_vocab == 0)) r.error = "not a llama-style GGUF model (no block_count or token_embd)";
  return r;
}

long long estimate_bytes(const Inspection & in, int n_ctx, bool adamw, bool with_base) {
  const long long f = 4;
  const long long weights = in.weight_bytes * (with_base ? 2 : 1);
  // per trainable float: ggml-opt's gradient accumulator and the step's start weights; AdamW adds its two
  // moments and, under a KL guard, the two moments before the step (device_optimizer.hpp)
  const long long state = in.n_trainable * f * (adamw ? 6 : 2);
  // kept for the backward pass per layer: the residual stream and projections (about 24 x embd and 8 x ff
  // floats per position) and one attention matrix per head; measured peaks (stories260K at 5 and 32 layers,
  // context 512) are 70-90 % of this
  const long long per_layer = (long long) n_ctx * (24LL * in.n_embd + 8LL * in.n_ff + 1LL * in.n_head * n_ctx) * f;
  const long long activations = per_layer * in.n_layer;
  // the loss on the logits rows: logits, softmax, log-softmax, products and their gradients (more with the base's rows)
  const long long head = (long long) n_ctx * in.n_vocab * f * (with_base ? 12 : 8);
  const long long kv = 2LL * in.n_layer * n_ctx * in.n_embd * f * (with_base ? 3 : 2);
  // the process itself, llama.cpp's inference contexts and their compute buffers
  const long long fixed = 48LL << 20;
  return fixed + weights + state + activations + head + kv;
}

int training_context(int requested, uint32_t model_ctx) {
  int n = std::max(256, (requested + 255) / 256 * 256);
  if (model_ctx >= 256 && (uint32_t) n > model_ctx) n = (int) (model_ctx / 256 * 256);
  return n;
}

void patch_context_length(const std::string & path, const std::string & arch, uint32_t value) {
  FILE * f = fopen(path.c_str(), "r+b");
  if (!f) throw std::runtime_error("cannot reopen " + path);
  auto fail = [&](const std::string & why) {
    fclose(f);
    throw std::runtime_error("cannot set the context length in " + path + ": " + why);
  };
  auto rd = [&](void * p, size_t n) { if (fread(p, 1, n, f) != n) fail("the file ends early"); };
  auto skip = [&](uint64_t n) { if (fseek(f, (long) n, SEEK_CUR) != 0) fail("a value runs past the end"); };
  auto skip_str = [&]() {
    uint64_t n;
    rd(&n, 8);
    skip(n);
  };
  // byte sizes of GGUF's scalar value types, by type id (8 string and 9 array are walked)
  static const int sizes[] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
  auto scalar_size = [&](uint32_t type) {
    if (type >= sizeof sizes / sizeof sizes[0] || sizes[type] == 0) fail("unknown value type " + std::to_string(type));
    return sizes[type];
  };
  char magic[4];
  uint32_t version;
  uint64_t n_tensors, n_kv;
  rd(magic, 4);
  if (memcmp(magic, "GGUF", 4) != 0) fail("not a GGUF file");
  rd(&version, 4);
  rd(&n_tensors, 8);
  rd(&n_kv, 8);
  const std::string want = arch + ".context_length";
  for (uint64_t i = 0; i < n_kv; i++) {
    uint64_t klen;
    rd(&klen, 8);
    if (klen > 65536) fail("a key is implausibly long");
    std::string key(klen, '\0');
    rd(key.data(), klen);
    uint32_t type;
    rd(&type, 4);
    if (key == want) {
      if (type != GGUF_TYPE_UINT32) fail(want + " is not a uint32");
      if (fseek(f, 0, SEEK_CUR) != 0 || fwrite(&value, 4, 1, f) != 1) fail("the write failed (disk full?)");
      if (fclose(f) != 0) throw std::runtime_error("cannot close " + path + " (disk full?)");
      return;
    }
    if (type == GGUF_TYPE_STRING) skip_str();
    else if (type == GGUF_TYPE_ARRAY) {
      uint32_t et;
      uint64_t n;
      rd(&et, 4);
      rd(&n, 8);
      if (et == GGUF_TYPE_STRING) {
        for (uint64_t k = 0; k < n; k++) skip_str();
      } else skip(n * scalar_size(et));
    } else skip(scalar_size(type));
  }
  fail("it has no key " + want);
}
