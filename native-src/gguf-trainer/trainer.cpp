// gguf-trainer: trains an F32 GGUF model's own weights through llama.cpp's training API
// (llama_opt_init / llama_opt_epoch), driven by JSON lines on stdin, one reply line per request
// on stdout. Run as a child process so a crash or an out-of-memory kill cannot take the app down
// and all memory goes back to the system when a run ends.
//
// The loss. llama_opt_epoch fills the label tensor with one-hot next tokens for every position
// (no mask, no per-sample weight) and ggml's cross-entropy backward is (softmax - label) / rows,
// linear in the label. So any gradient g on a row's logits is had with label = softmax - rows * g:
// w * (softmax - onehot) for the advantage-weighted -log p of the policy's tokens (0 on the prompt
// and padding), plus b * softmax * (log softmax - log base - KL) for a KL(policy || base) term.
// Before each datapoint a forward pass in a second (inference) context on the same weights gives
// the softmax; the labels go into the label tensor just before ggml evaluates the graph: this
// program defines ggml_opt_eval itself, which the dynamic linker binds libllama's call to, writes
// the labels through the public ggml_opt_labels(), then calls the real ggml_opt_eval. Every
// training step checks that the interposer ran, so plain cross-entropy is never used silently.
//
// The update. One `train` request is one optimizer step over the whole batch: gradients accumulate
// in ggml-opt's accumulators over the batch's datapoints (zeroed at the update's first one), and
// HostOptimizer (optimizer.hpp) applies AdamW or SGD once, with clipping and a KL guard.
#include "json.hpp"
#include "optimizer.hpp"
#include "packing.hpp"

#include "ggml-backend.h"
#include "ggml-opt.h"
#include "gguf.h"
#include "llama.h"

#include <dlfcn.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

// ---- interposer ---------------------------------------------------------------------------

// What the interposer does at the next evaluation of a training graph (llama_opt_epoch). layout: the
// datapoint's prefix tree, written into the graph's attention mask and positions (packing.hpp).
// capture: where the logits go after a forward evaluation. labels: [nCtx rows][nVocab] soft labels.
// zero_pending: the first datapoint of an update zeroes ggml-opt's gradient accumulators (llama.cpp's
// graphs are rebuilt per call, so ggml-opt accumulates and only zeroes them when opt_period > 1;
// ggml_opt_reset works only between ggml_opt_alloc and ggml_opt_eval, i.e. here).
struct Interposer {
  const Datapoint * layout = nullptr;
  int n_rows = 0;
  std::vector<float> * capture = nullptr;
  const std::vector<float> * labels = nullptr;
  bool zero_pending = false;
  long calls = 0, layouts = 0, captures = 0;
  std::string error;                    // a layout the graph did not have room for, reported after the epoch
  HostOptimizer * optimizer = nullptr;  // its params get their gradient accumulators on first use
  std::map<ggml_opt_context_t, ggml_cgraph *> graphs;  // each context's forward graph, from ggml_opt_prepare_alloc
};
static Interposer g_ip;

extern "C" void ggml_opt_prepare_alloc(ggml_opt_context_t opt_ctx, ggml_context * ctx_compute, ggml_cgraph * gf, ggml_tensor * inputs, ggml_tensor * outputs) {
  using fn = void (*)(ggml_opt_context_t, ggml_context *, ggml_cgraph *, ggml_tensor *, ggml_tensor *);
  static fn real = reinterpret_cast<fn>(dlsym(RTLD_NEXT, "ggml_opt_prepare_alloc"));
  if (!real) { fprintf(stderr, "gguf-trainer: cannot find ggml_opt_prepare_alloc in libggml-base\n"); abort(); }
  g_ip.graphs[opt_ctx] = gf;
  real(opt_ctx, ctx_compute, gf, inputs, outputs);
}

// The prefix tree into the graph's inputs: each node attends to its ancestors and itself at the position
// of its depth; padding rows attend to themselves only (no row may see nothing: softmax of -inf is NaN).
static void apply_layout(ggml_cgraph * gf, const Datapoint & dp, int n) {
  ggml_tensor * pos = nullptr;
  ggml_tensor * mask = ggml_graph_get_tensor(gf, "attn_inp_kq_mask");
  for (int i = 0; i < ggml_graph_n_nodes(gf) && !pos; i++) {
    ggml_tensor * node = ggml_graph_node(gf, i);
    if (node->op == GGML_OP_ROPE) pos = node->src[1];
  }
  if (!pos || pos->type != GGML_TYPE_I32 || ggml_nelements(pos) != n) { g_ip.error = "the graph has no rotary positions of the expected shape"; return; }
  if (!mask || mask->type != GGML_TYPE_F32 || mask->ne[1] != n || mask->ne[0] < n || mask->ne[2] != 1 || mask->ne[3] != 1) {
    g_ip.error = "the graph has no attention mask of the expected shape";
    return;
  }
  const int64_t n_kv = mask->ne[0];
  std::vector<float> m((size_t) n_kv * n);
  ggml_backend_tensor_get(mask, m.data(), 0, ggml_nbytes(mask));
  // llama.cpp's own mask for one sequence from an empty cache must be causal over cells 0..n-1: the
  // layout rewrites exactly that, so anything else (another cache layout) is refused, not guessed at.
  for (int i : {0, n / 2, n - 1}) {
    for (int j = 0; j < n; j++) {
      const bool open = m[(size_t) i * n_kv + j] == 0.0f;
      if (open != (j <= i)) { g_ip.error = "llama.cpp's attention mask is not the causal layout the trainer rewrites"; return; }
    }
  }
  std::fill(m.begin(), m.end(), -INFINITY);
  std::vector<int32_t> p(n, 0);
  const int nodes = (int) dp.nodes.size();
  for (int i = 0; i < n; i++) {
    float * row = &m[(size_t) i * n_kv];
    if (i >= nodes) { row[i] = 0; continue; }
    p[i] = dp.nodes[i].depth;
    for (int j = i; j >= 0; j = dp.nodes[j].parent) row[j] = 0;
  }
  ggml_backend_tensor_set(mask, m.data(), 0, ggml_nbytes(mask));
  ggml_backend_tensor_set(pos, p.data(), 0, ggml_nbytes(pos));
  g_ip.layouts++;
}

extern "C" void ggml_opt_eval(ggml_opt_context_t opt_ctx, ggml_opt_result_t result) {
  using eval_fn = void (*)(ggml_opt_context_t, ggml_opt_result_t);
  static eval_fn real = reinterpret_cast<eval_fn>(dlsym(RTLD_NEXT, "ggml_opt_eval"));
  if (!real) { fprintf(stderr, "gguf-trainer: cannot find ggml_opt_eval in libggml-base\n"); abort(); }
  if (g_ip.layout) {
    auto it = g_ip.graphs.find(opt_ctx);
    if (it == g_ip.graphs.end()) g_ip.error = "ggml_opt_prepare_alloc was not seen (bound elsewhere)";
    else apply_layout(it->second, *g_ip.layout, g_ip.n_rows);
  }
  if (g_ip.labels) {
    ggml_tensor * labels = ggml_opt_labels(opt_ctx);
    if (ggml_nbytes(labels) != g_ip.labels->size() * sizeof(float)) {
      fprintf(stderr, "gguf-trainer: label tensor is %zu bytes, expected %zu\n", ggml_nbytes(labels), g_ip.labels->size() * sizeof(float));
      abort();
    }
    ggml_backend_tensor_set(labels, g_ip.labels->data(), 0, ggml_nbytes(labels));
    if (g_ip.zero_pending) {
      ggml_opt_reset(opt_ctx, false);
      g_ip.zero_pending = false;
    }
    if (g_ip.optimizer) {
      for (auto & p : g_ip.optimizer->params) {
        if (!p.grad) p.grad = ggml_opt_grad_acc(opt_ctx, p.weight);
      }
    }
    g_ip.calls++;
  }
  real(opt_ctx, result);
  if (g_ip.capture) {
    ggml_tensor * out = ggml_opt_outputs(opt_ctx);
    g_ip.capture->resize(ggml_nelements(out));
    ggml_backend_tensor_get(out, g_ip.capture->data(), 0, ggml_nbytes(out));
    g_ip.captures++;
  }
}

// ---- state --------------------------------------------------------------------------------

struct Trainer {
  llama_model * model = nullptr;
  llama_context * ctx_train = nullptr;
  llama_context * ctx_eval = nullptr;  // same weights, forward passes for soft labels and log-probs
  llama_model * base = nullptr;         // frozen base for KL, optional
  llama_context * ctx_base = nullptr;
  llama_context * ctx_base_train = nullptr;  // the base's forward under a datapoint's layout (never trained)
  int n_ctx = 0;
  int n_vocab = 0;
  int n_layer = 0;
  uint32_t ctx_len_in_file = 0;  // the model's own context_length, restored in saved files
  std::string arch;
  int last_blocks = -1;  // -1: all tensors train
  HostOptimizer opt;
};

static Trainer T;

// ggml-opt's own step after each datapoint: SGD at the smallest normal rate, a step no float32 weight
// can register (the real step is HostOptimizer's, once per update; ggml asserts a rate > 0).
static ggml_opt_optimizer_params opt_pars(void *) {
  ggml_opt_optimizer_params p = ggml_opt_get_default_optimizer_params(nullptr);
  p.sgd.alpha = std::numeric_limits<float>::min();
  p.sgd.wd = 0.0f;
  return p;
}

// "blk.<i>." prefix -> i, else -1
static int block_index(const char * name) {
  if (strncmp(name, "blk.", 4) != 0) return -1;
  return atoi(name + 4);
}

static bool trains(const char * name) {
  if (strcmp(name, "token_embd.weight") == 0) return false;  // llama.cpp does not train it (upstream FIXME)
  if (strcmp(name, "rope_freqs.weight") == 0) return false;  // nor this one
  if (T.last_blocks < 0) return true;
  if (strncmp(name, "output", 6) == 0) return true;  // output and output_norm
  int b = block_index(name);
  return b >= 0 && b >= T.n_layer - T.last_blocks;
}

// llama_opt_init asks this of every F32 model tensor: the ones it trains are the host optimizer's.
static bool param_filter(const ggml_tensor * tensor, void *) {
  if (!trains(tensor->name)) return false;
  for (const auto & p : T.opt.params) if (p.weight == tensor) return true;
  ParamState ps;
  ps.weight = const_cast<ggml_tensor *>(tensor);
  T.opt.params.push_back(std::move(ps));
  return true;
}

// The base model's training context only ever runs forward passes (the KL term's base distribution under
// a datapoint's layout); llama_opt_init needs one parameter to build its graphs: the smallest tensor.
static bool base_param_filter(const ggml_tensor * tensor, void *) { return strcmp(tensor->name, "output_norm.weight") == 0; }

static long peak_rss_bytes() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return atol(line.c_str() + 6) * 1024;
  }
  return 0;
}

static void log_cb(ggml_log_level level, const char * text, void *) {
  if (level == GGML_LOG_LEVEL_ERROR || level == GGML_LOG_LEVEL_WARN) fputs(text, stderr);
}

// ---- GGUF inspection ------------------------------------------------------------------------

struct Inspection {
  std::string error;
  std::string arch;
  uint32_t n_layer = 0, n_embd = 0, n_ff = 0, n_head = 0, n_head_kv = 0, ctx_len = 0;
  long long weight_bytes = 0, n_params = 0, n_trainable = 0;
  long long n_vocab = 0;
};

static uint32_t u32_key(gguf_context * g, const std::string & key) {
  int64_t id = gguf_find_key(g, key.c_str());
  return id < 0 ? 0 : gguf_get_val_u32(g, id);
}

static Inspection inspect(const std::string & path) {
  Inspection r;
  gguf_init_params gp = {/*no_alloc=*/true, /*ctx=*/nullptr};
  ggml_context * meta = nullptr;
  gp.ctx = &meta;
  gguf_context * g = gguf_init_from_file(path.c_str(), gp);
  if (!g) { r.error = "cannot read GGUF file " + path; return r; }
  int64_t arch_id = gguf_find_key(g, "general.architecture");
  r.arch = arch_id < 0 ? "" : gguf_get_val_str(g, arch_id);
  r.n_layer = u32_key(g, r.arch + ".block_count");
  r.n_embd = u32_key(g, r.arch + ".embedding_length");
  r.n_ff = u32_key(g, r.arch + ".feed_forward_length");
  r.n_head = u32_key(g, r.arch + ".attention.head_count");
  r.n_head_kv = u32_key(g, r.arch + ".attention.head_count_kv");
  r.ctx_len = u32_key(g, r.arch + ".context_length");
  T.n_layer = r.n_layer;
  for (int64_t i = 0; i < gguf_get_n_tensors(g); i++) {
    const char * name = gguf_get_tensor_name(g, i);
    ggml_type type = gguf_get_tensor_type(g, i);
    ggml_tensor * t = ggml_get_tensor(meta, name);
    long long n = t ? ggml_nelements(t) : 0;
    if (strcmp(name, "token_embd.weight") == 0 && t) r.n_vocab = t->ne[1];
    if (type != GGML_TYPE_F32 && r.error.empty()) {
      r.error = std::string("tensor ") + name + " is " + ggml_type_name(type) +
                ": training needs every weight in F32 (quantised and F16 weights have no backward pass here); "
                "convert the original model to an F32 GGUF (e.g. convert_hf_to_gguf.py --outtype f32)";
    }
    r.weight_bytes += gguf_get_tensor_size(g, i);
    r.n_params += n;
    if (trains(name)) r.n_trainable += n;
  }
  gguf_free(g);
  if (meta) ggml_free(meta);
  return r;
}

// A planning estimate, not a measurement: weights (policy, plus base when KL is on), optimizer
// state per trainable float, activations kept for the
// backward pass of one n_ctx sequence, and the logits / label rows.
static long long estimate_bytes(const Inspection & in, int n_ctx, bool adamw, bool with_base) {
  const long long f = 4;
  long long weights = in.weight_bytes * (with_base ? 2 : 1);
  // ggml's gradient accumulator, and on the host the step's start weights, the gradient and AdamW's moments
  long long opt = in.n_trainable * f * (adamw ? 5 : 3);
  long long per_layer = (long long) n_ctx * (12LL * in.n_embd + 4LL * in.n_ff + 3LL * in.n_head * n_ctx) * f;
  long long activations = per_layer * in.n_layer * 2;
  long long logits = (long long) n_ctx * in.n_vocab * f * 6;
  long long kv = 2LL * in.n_layer * n_ctx * in.n_embd * f * (with_base ? 3 : 2);
  return weights + opt + activations + logits + kv;
}

// llama.cpp pads a context to a multiple of 256 tokens, and training needs the sequence length,
// the batch and the ubatch all equal to that context, so round the request up the same way.
static int training_context(int requested, uint32_t model_ctx) {
  int n = std::max(256, (requested + 255) / 256 * 256);
  if (model_ctx >= 256 && (uint32_t) n > model_ctx) n = (int) (model_ctx / 256 * 256);
  return n;
}

// ---- helpers ----------------------------------------------------------------------------------

static std::vector<int> int_array(const Json & j, const char * what) {
  if (j.kind != Json::Arr) throw std::runtime_error(std::string(what) + " must be an array");
  std::vector<int> v;
  v.reserve(j.a.size());
  for (const Json & x : j.a) v.push_back((int) x.n);
  return v;
}

static std::vector<float> float_array(const Json & j, const char * what) {
  if (j.kind != Json::Arr) throw std::runtime_error(std::string(what) + " must be an array");
  std::vector<float> v;
  for (const Json & x : j.a) v.push_back((float) x.n);
  return v;
}

static void check_tokens(const std::vector<int> & tokens) {
  if (tokens.size() < 2) throw std::runtime_error("a sequence needs at least 2 tokens");
  if ((int) tokens.size() > T.n_ctx) {
    throw std::runtime_error("sequence of " + std::to_string(tokens.size()) + " tokens is longer than the training context (" +
                             std::to_string(T.n_ctx) + "); start the trainer with a larger contextSize");
  }
  for (int t : tokens) if (t < 0 || t >= T.n_vocab) throw std::runtime_error("token id " + std::to_string(t) + " out of vocabulary");
}

// Forward pass over tokens (padded to n_ctx when pad is set); returns log-softmax rows.
static std::vector<float> forward_log_softmax(llama_context * ctx, const std::vector<int> & tokens, int n_rows) {
  llama_memory_clear(llama_get_memory(ctx), true);
  llama_batch batch = llama_batch_init(n_rows, 0, 1);
  batch.n_tokens = n_rows;
  for (int i = 0; i < n_rows; i++) {
    batch.token[i] = tokens[i];
    batch.pos[i] = i;
    batch.n_seq_id[i] = 1;
    batch.seq_id[i][0] = 0;
    batch.logits[i] = true;
  }
  int rc = llama_decode(ctx, batch);
  llama_batch_free(batch);
  if (rc != 0) throw std::runtime_error("llama_decode failed with code " + std::to_string(rc));
  std::vector<float> out((size_t) n_rows * T.n_vocab);
  for (int i = 0; i < n_rows; i++) {
    const float * lg = llama_get_logits_ith(ctx, i);
    float * row = &out[(size_t) i * T.n_vocab];
    float mx = -INFINITY;
    for (int v = 0; v < T.n_vocab; v++) mx = std::max(mx, lg[v]);
    double sum = 0;
    for (int v = 0; v < T.n_vocab; v++) sum += std::exp((double) lg[v] - mx);
    float lse = mx + (float) std::log(sum);
    for (int v = 0; v < T.n_vocab; v++) row[v] = lg[v] - lse;
  }
  return out;
}

static llama_context * new_context(llama_model * m, int threads) {
  llama_context_params cp = llama_context_default_params();
  cp.n_ctx = T.n_ctx;
  cp.n_batch = T.n_ctx;
  cp.n_ubatch = T.n_ctx;  // one ubatch per sequence: the backward pass sees the whole sequence
  cp.n_seq_max = 1;
  cp.n_threads = threads;
  cp.n_threads_batch = threads;
  cp.type_k = GGML_TYPE_F32;  // OUT_PROD has no F16 support in the backward pass
  cp.type_v = GGML_TYPE_F32;
  cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;  // FLASH_ATTN_EXT has no backward pass
  cp.no_perf = true;
  return llama_init_from_model(m, cp);
}

static llama_model * load_model(const std::string & path, int gpu_layers) {
  llama_model_params mp = llama_model_default_params();
  mp.load_mode = LLAMA_LOAD_MODE_NONE;  // weights must be writable, not mmapped
  mp.use_extra_bufts = false;           // repacked weights cannot be trained
  mp.n_gpu_layers = gpu_layers;
  return llama_model_load_from_file(path.c_str(), mp);
}

// GGUF stores "<arch>.context_length"; llama_opt_init overwrote it with the training context,
// so write the original value back into the saved file in place (same 4-byte slot).
static void patch_context_length(const std::string & path, uint32_t value) {
  FILE * f = fopen(path.c_str(), "r+b");
  if (!f) throw std::runtime_error("cannot reopen " + path);
  auto rd = [&](void * p, size_t n) { if (fread(p, 1, n, f) != n) throw std::runtime_error("short read in " + path); };
  auto skip_str = [&]() { uint64_t n; rd(&n, 8); fseek(f, (long) n, SEEK_CUR); };
  std::function<void(uint32_t)> skip_val = [&](uint32_t type) {
    static const int sizes[] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
    if (type == 8) { skip_str(); return; }
    if (type == 9) {
      uint32_t et; uint64_t n; rd(&et, 4); rd(&n, 8);
      if (et == 8) { for (uint64_t i = 0; i < n; i++) skip_str(); }
      else fseek(f, (long) (n * sizes[et]), SEEK_CUR);
      return;
    }
    fseek(f, sizes[type], SEEK_CUR);
  };
  char magic[4]; uint32_t version; uint64_t n_tensors, n_kv;
  rd(magic, 4); rd(&version, 4); rd(&n_tensors, 8); rd(&n_kv, 8);
  const std::string want = T.arch + ".context_length";
  for (uint64_t i = 0; i < n_kv; i++) {
    uint64_t klen; rd(&klen, 8);
    std::string key(klen, '\0'); rd(key.data(), klen);
    uint32_t type; rd(&type, 4);
    if (key == want && type == 4) {
      fseek(f, 0, SEEK_CUR);
      fwrite(&value, 4, 1, f);
      fclose(f);
      return;
    }
    skip_val(type);
  }
  fclose(f);
}

// ---- commands ---------------------------------------------------------------------------------

// Every option comes from the app (one declaration, in TypeScript): nothing here has a default.
static std::string cmd_load(const Json & req) {
  if (T.model) throw std::runtime_error("a model is already loaded; start a new trainer process");
  const std::string path = req.need_str("model");
  const std::string optimizer = req.need_str("optimizer");
  if (optimizer != "adamw" && optimizer != "sgd") throw std::runtime_error("optimizer must be adamw or sgd");
  T.opt.settings.adamw = optimizer == "adamw";
  T.opt.settings.weight_decay = (float) req.need_num("weightDecay");
  T.opt.settings.beta1 = (float) req.need_num("beta1");
  T.opt.settings.beta2 = (float) req.need_num("beta2");
  T.opt.settings.eps = (float) req.need_num("eps");
  if (T.opt.settings.weight_decay < 0 || T.opt.settings.beta1 < 0 || T.opt.settings.beta1 >= 1 || T.opt.settings.beta2 < 0 || T.opt.settings.beta2 >= 1 || !(T.opt.settings.eps > 0)) {
    throw std::runtime_error("optimizer settings out of range (weightDecay >= 0, 0 <= beta < 1, eps > 0)");
  }
  T.last_blocks = (int) req.need_num("lastBlocks");
  const int threads = (int) req.need_num("threads");
  const int gpu_layers = (int) req.need_num("gpuLayers");
  const std::string base_path = req.at("baseModel").kind == Json::Str ? req.at("baseModel").s : "";
  const std::string state_path = req.at("optimizerState").kind == Json::Str ? req.at("optimizerState").s : "";

  Inspection in = inspect(path);
  if (!in.error.empty()) throw std::runtime_error(in.error);
  if (in.n_layer == 0 || in.n_vocab == 0) throw std::runtime_error("not a llama-style GGUF model (no block_count or token_embd)");
  T.arch = in.arch;
  T.ctx_len_in_file = in.ctx_len;
  T.n_ctx = training_context((int) req.need_num("contextSize"), in.ctx_len);
  const long long est = estimate_bytes(in, T.n_ctx, T.opt.settings.adamw, !base_path.empty());
  const long long limit = (long long) req.need_num("memoryLimitBytes");
  if (limit > 0 && est > limit) {
    throw std::runtime_error("training needs about " + std::to_string(est >> 20) + " MiB but the limit is " + std::to_string(limit >> 20) +
                             " MiB: train fewer blocks (lastBlocks), a shorter contextSize, or SGD");
  }

  T.model = load_model(path, gpu_layers);
  if (!T.model) throw std::runtime_error("llama.cpp could not load " + path);
  T.n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(T.model));
  T.ctx_train = new_context(T.model, threads);
  T.ctx_eval = new_context(T.model, threads);
  if (T.ctx_train && (int) llama_n_ctx(T.ctx_train) != T.n_ctx) {
    throw std::runtime_error("llama.cpp made a context of " + std::to_string(llama_n_ctx(T.ctx_train)) + " tokens instead of " + std::to_string(T.n_ctx));
  }
  if (!T.ctx_train || !T.ctx_eval) throw std::runtime_error("could not create a context of " + std::to_string(T.n_ctx) + " tokens");
  if (!base_path.empty()) {
    T.base = load_model(base_path, gpu_layers);
    if (!T.base) throw std::runtime_error("llama.cpp could not load base model " + base_path);
    T.ctx_base = new_context(T.base, threads);
    T.ctx_base_train = new_context(T.base, threads);
    if (!T.ctx_base || !T.ctx_base_train) throw std::runtime_error("could not create a context of " + std::to_string(T.n_ctx) + " tokens for the base model");
    if (llama_vocab_n_tokens(llama_model_get_vocab(T.base)) != T.n_vocab) throw std::runtime_error("base model has a different vocabulary");
  }

  // ggml_opt computes the training graph on the context's CPU backend without passing a thread
  // count, so that backend keeps ggml's default of 4 threads (which on a 2-core machine spin at
  // barriers, measured 28 s instead of well under a second per step) until one llama_decode on
  // this context has set its threads from the context parameters.
  {
    std::vector<int> one = {0, 0};
    forward_log_softmax(T.ctx_train, one, 1);
    llama_memory_clear(llama_get_memory(T.ctx_train), true);
  }

  llama_opt_params op{};
  op.n_ctx_train = 0;
  op.param_filter = param_filter;
  op.param_filter_ud = nullptr;
  op.get_opt_pars = opt_pars;
  op.get_opt_pars_ud = nullptr;
  op.optimizer_type = GGML_OPT_OPTIMIZER_TYPE_SGD;  // the in-graph no-op step (opt_pars); HostOptimizer steps
  llama_opt_init(T.ctx_train, T.model, op);
  if (T.opt.params.empty()) throw std::runtime_error("no tensor of this model can train (lastBlocks too small?)");
  if (T.ctx_base_train) {
    std::vector<int> one = {0, 0};
    forward_log_softmax(T.ctx_base_train, one, 1);  // threads, as for ctx_train above
    llama_memory_clear(llama_get_memory(T.ctx_base_train), true);
    llama_opt_params bp = op;
    bp.param_filter = base_param_filter;
    llama_opt_init(T.ctx_base_train, T.base, bp);
  }
  if (!state_path.empty()) T.opt.load(state_path);
  g_ip.optimizer = &T.opt;

  std::ostringstream o;
  o << "{\"ok\":true,\"event\":\"loaded\",\"arch\":" << jsonQuote(in.arch) << ",\"nParams\":" << in.n_params
    << ",\"nTrainable\":" << in.n_trainable << ",\"nLayer\":" << in.n_layer << ",\"nVocab\":" << T.n_vocab
    << ",\"contextSize\":" << T.n_ctx << ",\"estimatedBytes\":" << est << ",\"peakRssBytes\":" << peak_rss_bytes()
    << ",\"optimizerSteps\":" << T.opt.t << ",\"systemInfo\":" << jsonQuote(llama_print_system_info()) << "}";
  return o.str();
}

static std::string cmd_estimate(const Json & req) {
  const std::string path = req.need_str("model");
  T.last_blocks = (int) req.need_num("lastBlocks");
  Inspection in = inspect(path);
  const int n_ctx = training_context((int) req.need_num("contextSize"), in.ctx_len);
  std::ostringstream o;
  o << "{\"ok\":true,\"event\":\"estimate\",\"trainable\":" << (in.error.empty() ? "true" : "false")
    << ",\"reason\":" << jsonQuote(in.error) << ",\"nParams\":" << in.n_params << ",\"nTrainable\":" << in.n_trainable
    << ",\"contextSize\":" << n_ctx << ",\"estimatedBytes\":"
    << estimate_bytes(in, n_ctx, req.need_str("optimizer") == "adamw", req.need_bool("withBase")) << "}";
  return o.str();
}

struct Sequence {
  std::vector<int> tokens;
  std::vector<float> weights;    // policy-gradient weight of -log p(token i | tokens < i)
  std::vector<float> kl_weights; // weight of KL(policy || base) of the distribution predicting token i
};

// One llama_opt_epoch over one datapoint in a training context (the policy's or the base's): a forward
// pass whose logits go to `capture`, or a training step with the interposer's labels.
static void run_epoch(llama_context * ctx, const Datapoint & dp, const std::vector<float> * labels, std::vector<float> * capture) {
  const size_t N = T.n_ctx;
  ggml_opt_dataset_t ds = ggml_opt_dataset_init(GGML_TYPE_I32, GGML_TYPE_I32, N, N, 1, 1);
  int32_t * data = (int32_t *) ggml_opt_dataset_data(ds)->data;
  int32_t * lab = (int32_t *) ggml_opt_dataset_labels(ds)->data;
  for (size_t p = 0; p < N; p++) data[p] = p < dp.nodes.size() ? dp.nodes[p].token : dp.nodes.back().token;
  for (size_t p = 0; p < N; p++) lab[p] = data[p];  // llama.cpp's one-hot labels: replaced (train) or unused (forward)
  ggml_opt_result_t res = ggml_opt_result_init();
  ggml_opt_result_t res_eval = ggml_opt_result_init();
  const long calls = g_ip.calls, layouts = g_ip.layouts, captures = g_ip.captures;
  g_ip.layout = &dp;
  g_ip.n_rows = (int) N;
  g_ip.capture = capture;
  g_ip.labels = labels;
  llama_opt_epoch(ctx, ds, res, res_eval, labels ? 1 : 0, nullptr, nullptr);
  g_ip.layout = nullptr;
  g_ip.capture = nullptr;
  g_ip.labels = nullptr;
  ggml_opt_result_free(res);
  ggml_opt_result_free(res_eval);
  ggml_opt_dataset_free(ds);
  if (!g_ip.error.empty()) {
    const std::string e = g_ip.error;
    g_ip.error.clear();
    throw std::runtime_error("cannot lay out the packed sequences: " + e);
  }
  if (g_ip.layouts != layouts + 1 || (capture && g_ip.captures != captures + 1) || (labels && g_ip.calls != calls + 1)) {
    throw std::runtime_error("the training interposer did not run (ggml_opt_eval was bound elsewhere): refusing to train with plain cross-entropy");
  }
  if (capture && capture->size() != N * (size_t) T.n_vocab) throw std::runtime_error("unexpected logits size from the training graph");
}

// Rows of logits to rows of log-softmax.
static void log_softmax_rows(const std::vector<float> & lg, std::vector<float> & out) {
  const size_t V = T.n_vocab, N = lg.size() / V;
  out.resize(V * N);
  for (size_t p = 0; p < N; p++) {
    const float * r = &lg[p * V];
    float mx = -INFINITY;
    for (size_t v = 0; v < V; v++) mx = std::max(mx, r[v]);
    double sum = 0;
    for (size_t v = 0; v < V; v++) sum += std::exp((double) r[v] - mx);
    const float lse = mx + (float) std::log(sum);
    for (size_t v = 0; v < V; v++) out[p * V + v] = r[v] - lse;
  }
}

static double row_kl(const float * lp, const float * lb) {
  double kl = 0;
  for (int v = 0; v < T.n_vocab; v++) kl += std::exp((double) lp[v]) * ((double) lp[v] - lb[v]);
  return kl;
}

// Mean KL(policy || base) of the next-token distribution after the given positions (the probe), the
// prompts packed into shared-prefix trees as an update's sequences are (they share the system prompt).
static double probe_kl(const std::vector<std::pair<std::vector<int>, std::vector<int>>> & probe, double * max_out = nullptr) {
  if (!T.ctx_base_train) throw std::runtime_error("KL needs a base model (load with baseModel)");
  std::vector<SequenceWeights> views;
  for (const auto & it : probe) views.push_back({&it.first, nullptr, nullptr});
  std::vector<std::pair<size_t, std::vector<int>>> where;
  const std::vector<Datapoint> dps = pack_sequences(views, T.n_ctx, true, &where);
  const size_t V = T.n_vocab;
  double total = 0, mx = 0;
  long count = 0;
  std::vector<float> lg, lp, lb;
  for (size_t d = 0; d < dps.size(); d++) {
    run_epoch(T.ctx_train, dps[d], nullptr, &lg);
    log_softmax_rows(lg, lp);
    run_epoch(T.ctx_base_train, dps[d], nullptr, &lg);
    log_softmax_rows(lg, lb);
    for (size_t k = 0; k < probe.size(); k++) {
      if (where[k].first != d) continue;
      for (int p : probe[k].second) {
        const size_t row = (size_t) where[k].second[(size_t) p];
        const double kl = row_kl(&lp[row * V], &lb[row * V]);
        total += kl;
        mx = std::max(mx, kl);
        count++;
      }
    }
  }
  if (max_out) *max_out = mx;
  return count ? total / count : 0;
}

static std::vector<std::pair<std::vector<int>, std::vector<int>>> read_probe(const Json & j) {
  std::vector<std::pair<std::vector<int>, std::vector<int>>> out;
  if (j.kind != Json::Arr) throw std::runtime_error("probe must be an array");
  for (const Json & it : j.a) {
    std::vector<int> tk = int_array(it.at("tokens"), "tokens");
    check_tokens(tk);
    std::vector<int> pos = int_array(it.at("positions"), "positions");
    for (int p : pos) if (p < 0 || p >= (int) tk.size()) throw std::runtime_error("probe position out of range");
    out.emplace_back(std::move(tk), std::move(pos));
  }
  return out;
}

// One update: the gradient of the whole batch's loss (sum over sequences of weight * -log p plus
// klWeight * KL(policy || base), the weights already normalised by the app), accumulated over one
// datapoint per sequence, then one optimizer step. With a KL target the step is halved until the
// probe's KL is under it, and undone when it still is not after maxBacktracks halvings.
static std::string cmd_train(const Json & req) {
  if (!T.model) throw std::runtime_error("load a model first");
  const Json & items = req.at("items");
  if (items.kind != Json::Arr) throw std::runtime_error("train needs \"items\"");
  const float lr = (float) req.need_num("lr");
  if (!(lr > 0)) throw std::runtime_error("lr must be > 0");
  const double max_grad_norm = req.need_num("maxGradNorm");
  const double kl_target = req.need_num("klTarget");
  const int max_backtracks = (int) req.need_num("maxBacktracks");
  const auto probe = read_probe(req.at("probe"));
  const bool pack = req.need_bool("pack");
  // validate everything before the first step, so bad input changes no weight
  std::vector<Sequence> seqs;
  bool needs_base = false;
  for (const Json & it : items.a) {
    Sequence s;
    s.tokens = int_array(it.at("tokens"), "tokens");
    s.weights = float_array(it.at("weights"), "weights");
    s.kl_weights = float_array(it.at("klWeights"), "klWeights");
    check_tokens(s.tokens);
    if (s.weights.size() != s.tokens.size() || s.kl_weights.size() != s.tokens.size()) throw std::runtime_error("weights and klWeights must have one entry per token");
    bool any = false;
    for (size_t i = 0; i < s.tokens.size(); i++) {
      if (!std::isfinite(s.weights[i]) || !std::isfinite(s.kl_weights[i])) throw std::runtime_error("weights must be finite numbers");
      any = any || s.weights[i] != 0 || s.kl_weights[i] != 0;
      needs_base = needs_base || s.kl_weights[i] != 0;
    }
    if (any) seqs.push_back(std::move(s));  // a zero-weight sequence has zero gradient
  }
  if ((needs_base || (kl_target > 0 && !probe.empty())) && !T.base) throw std::runtime_error("a KL term or KL target needs a base model (load with baseModel)");

  const auto t0 = std::chrono::steady_clock::now();
  const size_t V = T.n_vocab, N = T.n_ctx;
  std::vector<SequenceWeights> views;
  long weighted_tokens = 0, sequence_tokens = 0;
  for (const Sequence & s : seqs) {
    views.push_back({&s.tokens, &s.weights, &s.kl_weights});
    sequence_tokens += (long) s.tokens.size();
    for (size_t i = 1; i < s.weights.size(); i++) weighted_tokens += s.weights[i] != 0;
  }
  const std::vector<Datapoint> datapoints = pack_sequences(views, N, pack);
  std::vector<float> labels(V * N), logits, base_logits;
  std::vector<float> lsm(V * N), lsb;
  double pg_objective = 0, kl_objective = 0, entropy_sum = 0;
  long entropy_rows = 0, packed_tokens = 0;
  if (!seqs.empty()) {
    T.opt.snapshot_weights();
    g_ip.zero_pending = true;
  }
  try {
    for (const Datapoint & dp : datapoints) {
      packed_tokens += (long) dp.nodes.size();
      run_epoch(T.ctx_train, dp, nullptr, &logits);
      log_softmax_rows(logits, lsm);
      bool any_kl = false;
      for (const PackedNode & n : dp.nodes) any_kl = any_kl || n.b != 0;
      if (any_kl) {
        run_epoch(T.ctx_base_train, dp, nullptr, &base_logits);
        log_softmax_rows(base_logits, lsb);
      }
      // ggml's cross-entropy backward per row is (softmax - label) / N, linear in the label: a label of
      // softmax - N * g puts any gradient g on the row's logits. Every row starts at its softmax (no gradient).
      for (size_t p = 0; p < N; p++)
        for (size_t v = 0; v < V; v++) labels[p * V + v] = std::exp(lsm[p * V + v]);
      std::vector<double> row_b(N, 0.0);
      std::vector<char> row_pg(N, 0);
      for (const PackedNode & c : dp.nodes) {
        if (c.parent < 0) continue;
        const size_t p = (size_t) c.parent;
        const float * ls = &lsm[p * V];
        float * row = &labels[p * V];
        if (c.w != 0) {
          // g = w * (softmax - onehot(token))
          for (size_t v = 0; v < V; v++) row[v] -= (float) ((double) N * c.w * std::exp(ls[v]));
          row[c.token] += (float) ((double) N * c.w);
          pg_objective += -c.w * ls[c.token];
          row_pg[p] = 1;
        }
        row_b[p] += c.b;
      }
      for (size_t p = 0; p < N; p++) {
        const float * ls = &lsm[p * V];
        if (row_pg[p]) {
          double h = 0;
          for (size_t v = 0; v < V; v++) h -= std::exp(ls[v]) * ls[v];
          entropy_sum += h;
          entropy_rows++;
        }
        if (row_b[p] == 0) continue;
        // g = b * softmax * (log softmax - log base - KL): the gradient of b * KL(policy || base)
        const float * lb = &lsb[p * V];
        float * row = &labels[p * V];
        const double kl = row_kl(ls, lb);
        for (size_t v = 0; v < V; v++) row[v] -= (float) ((double) N * row_b[p] * std::exp(ls[v]) * (ls[v] - lb[v] - kl));
        kl_objective += row_b[p] * kl;
      }
      run_epoch(T.ctx_train, dp, &labels, nullptr);
    }
  } catch (...) {
    if (!seqs.empty()) {
      T.opt.apply(0, 1);  // the weights the update started from (ggml's per-datapoint steps are below float resolution)
      T.opt.release_scratch();
    }
    throw;
  }
  const double forward_backward_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  double grad_norm = 0, step_norm = 0, scale = 0, kl_after = -1, kl_max = 0;
  int backtracks = 0;
  float clip = 1;
  if (!seqs.empty()) {
    grad_norm = T.opt.read_gradients();
    if (!std::isfinite(grad_norm)) {
      T.opt.apply(0, 1);
      T.opt.release_scratch();
      throw std::runtime_error("the gradient is not finite (NaN or infinity): the update was not applied");
    }
    clip = max_grad_norm > 0 && grad_norm > max_grad_norm ? (float) (max_grad_norm / grad_norm) : 1.0f;
    T.opt.update_moments(clip);
    scale = 1;
    for (;;) {
      step_norm = T.opt.apply(lr * (float) scale, clip);
      if (!(kl_target > 0) || probe.empty()) break;
      kl_after = probe_kl(probe, &kl_max);
      if (kl_after <= kl_target) break;
      if (backtracks >= max_backtracks) {
        // still above the target at the smallest step: undo it (weights and moments as before)
        T.opt.apply(0, clip);
        T.opt.undo_moments();
        scale = 0;
        step_norm = 0;
        kl_after = probe_kl(probe, &kl_max);
        break;
      }
      backtracks++;
      scale *= 0.5;
    }
    T.opt.release_scratch();
  }  // no sequence: no step, the KL is what it was (the app keeps the last measurement)
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::ostringstream o;
  o << "{\"ok\":true,\"event\":\"trained\",\"objective\":" << pg_objective + kl_objective << ",\"pgObjective\":" << pg_objective
    << ",\"klObjective\":" << kl_objective << ",\"entropy\":" << (entropy_rows ? entropy_sum / entropy_rows : 0)
    << ",\"gradNorm\":" << grad_norm << ",\"clipped\":" << (clip < 1 ? "true" : "false") << ",\"stepNorm\":" << step_norm
    << ",\"stepScale\":" << scale << ",\"backtracks\":" << backtracks << ",\"probeKl\":";
  if (kl_after >= 0) o << kl_after; else o << "null";
  o << ",\"probeKlMax\":" << kl_max << ",\"optimizerSteps\":" << (scale > 0 ? 1 : 0) << ",\"totalOptimizerSteps\":" << T.opt.t
    << ",\"sequences\":" << seqs.size() << ",\"datapoints\":" << datapoints.size() << ",\"weightedTokens\":" << weighted_tokens
    << ",\"sequenceTokens\":" << sequence_tokens << ",\"packedTokens\":" << packed_tokens
    << ",\"tokensProcessed\":" << (long) datapoints.size() * (long) N << ",\"forwardBackwardSeconds\":" << forward_backward_s
    << ",\"seconds\":" << secs << ",\"peakRssBytes\":" << peak_rss_bytes() << "}";
  return o.str();
}

static std::string cmd_logprobs(const Json & req) {
  if (!T.model) throw std::runtime_error("load a model first");
  const bool use_base = req.at("base").b;
  if (use_base && !T.base) throw std::runtime_error("no base model loaded");
  std::ostringstream o;
  o << "{\"ok\":true,\"event\":\"logprobs\",\"items\":[";
  const Json & items = req.at("items");
  for (size_t k = 0; k < items.a.size(); k++) {
    std::vector<int> tk = int_array(items.a[k].at("tokens"), "tokens");
    check_tokens(tk);
    std::vector<float> lsm = forward_log_softmax(use_base ? T.ctx_base : T.ctx_eval, tk, (int) tk.size());
    o << (k ? "," : "") << "[0";
    for (size_t i = 1; i < tk.size(); i++) o << "," << lsm[(i - 1) * T.n_vocab + tk[i]];
    o << "]";
  }
  o << "]}";
  return o.str();
}

// KL(policy || base) of the next-token distribution after each listed position.
static std::string cmd_kl(const Json & req) {
  if (!T.base) throw std::runtime_error("kl needs a base model (load with baseModel)");
  const auto probe = read_probe(req.at("items"));
  long count = 0;
  for (const auto & it : probe) count += (long) it.second.size();
  double mx = 0;
  const double mean = probe_kl(probe, &mx);
  std::ostringstream o;
  o << "{\"ok\":true,\"event\":\"kl\",\"mean\":" << mean << ",\"max\":" << mx << ",\"positions\":" << count << "}";
  return o.str();
}

// The weights as a GGUF (with the model's own context length) and, when asked, the optimizer state
// beside it, so a run resumed from this file continues as the uninterrupted one.
static std::string cmd_save(const Json & req) {
  if (!T.model) throw std::runtime_error("load a model first");
  const std::string path = req.need_str("path");
  llama_model_save_to_file(T.model, path.c_str());
  if (T.ctx_len_in_file > 0) patch_context_length(path, T.ctx_len_in_file);
  const std::string state = req.at("optimizerState").kind == Json::Str ? req.at("optimizerState").s : "";
  if (!state.empty()) T.opt.save(state);
  std::ostringstream o;
  o << "{\"ok\":true,\"event\":\"saved\",\"path\":" << jsonQuote(path) << ",\"optimizerSteps\":" << T.opt.t << "}";
  return o.str();
}

int main(int argc, char ** argv) {
  llama_log_set(log_cb, nullptr);
  // the CPU/GPU backends are separate libraries next to libllama: load them from there
  if (argc > 1) ggml_backend_load_all_from_path(argv[1]);
  else ggml_backend_load_all();
  llama_backend_init();
  std::cout << "{\"ok\":true,\"event\":\"ready\",\"protocol\":2}" << std::endl;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::string reply;
    std::string cmd;
    try {
      Json req = JsonParser(line).parse();
      cmd = req.str("cmd", "");
      if (cmd == "load") reply = cmd_load(req);
      else if (cmd == "estimate") reply = cmd_estimate(req);
      else if (cmd == "train") reply = cmd_train(req);
      else if (cmd == "logprobs") reply = cmd_logprobs(req);
      else if (cmd == "kl") reply = cmd_kl(req);
      else if (cmd == "save") reply = cmd_save(req);
      else if (cmd == "exit") break;
      else throw std::runtime_error("unknown command \"" + cmd + "\"");
    } catch (const std::exception & e) {
      reply = std::string("{\"ok\":false,\"error\":") + jsonQuote(e.what()) + "}";
    }
    std::cout << reply << std::endl;
  }
  if (T.ctx_base_train) llama_free(T.ctx_base_train);
  if (T.ctx_base) llama_free(T.ctx_base);
  if (T.base) llama_model_free(T.base);
  if (T.ctx_eval) llama_free(T.ctx_eval);
  if (T.ctx_train) llama_free(T.ctx_train);
  if (T.model) llama_model_free(T.model);
  llama_backend_free();
  return 0;
}
