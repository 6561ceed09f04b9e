// gguf-trainer: trains an F32 GGUF model's own weights through llama.cpp's training API
// (llama_opt_init / llama_opt_epoch), driven by JSON lines on stdin, one reply line per request
// on stdout. Run as a child process so a crash or an out-of-memory kill cannot take the app down
// and all memory goes back to the system when a run ends.
//
// The loss: for every sequence of an update, weight * -log p(token | prefix) of each token plus
// klWeight * KL(policy || base) of each predicting distribution, the weights set by the app (advantages,
// credit, the KL coefficient). training_graph.cpp builds it on the backend inside llama.cpp's own training
// graph, over shared-prefix trees of the sequences (packing.hpp); device_optimizer.cpp takes one AdamW or
// SGD step per update from the gradient accumulated over all of the update's datapoints, with clipping and
// a KL guard that halves or undoes the step.
#include "gguf_file.hpp"
#include "trainer_state.hpp"
#include "training_graph.hpp"

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-opt.h"
#include "llama.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

Trainer T;

long peak_rss_bytes() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return atol(line.c_str() + 6) * 1024;
  }
  return 0;
}

// ---- helpers ----------------------------------------------------------------------------------

std::vector<int> int_array(const Json & j, const char * what) {
  if (j.kind != Json::Arr) throw std::runtime_error(std::string(what) + " must be an array");
  std::vector<int> v;
  v.reserve(j.a.size());
  for (const Json & x : j.a) {
    if (x.kind != Json::Num || x.n != std::floor(x.n)) throw std::runtime_error(std::string(what) + " must hold integers");
    v.push_back((int) x.n);
  }
  return v;
}

std::vector<float> float_array(const Json & j, const char * what) {
  if (j.kind != Json::Arr) throw std::runtime_error(std::string(what) + " must be an array");
  std::vector<float> v;
  v.reserve(j.a.size());
  for (const Json & x : j.a) {
    if (x.kind != Json::Num) throw std::runtime_error(std::string(what) + " must hold numbers");
    v.push_back((float) x.n);
  }
  return v;
}

void check_tokens(const std::vector<int> & tokens) {
  if (tokens.size() < 2) throw std::runtime_error("a sequence needs at least 2 tokens");
  if ((int) tokens.size() > T.n_ctx) {
    throw std::runtime_error("sequence of " + std::to_string(tokens.size()) + " tokens is longer than the training context (" +
                             std::to_string(T.n_ctx) + "); start the trainer with a larger contextSize");
  }
  for (int t : tokens) if (t < 0 || t >= T.n_vocab) throw std::runtime_error("token id " + std::to_string(t) + " out of vocabulary");
}

// ---- the commands' own ----------------------------------------------------------------------

namespace {

// ggml-opt's own step after each datapoint: SGD at the smallest normal rate, a step no float32 weight
// can register (the real step is the DeviceOptimizer's, once per update; ggml asserts a rate > 0).
ggml_opt_optimizer_params opt_pars(void *) {
  ggml_opt_optimizer_params p = ggml_opt_get_default_optimizer_params(nullptr);
  p.sgd.alpha = std::numeric_limits<float>::min();
  p.sgd.wd = 0.0f;
  return p;
}

// llama_opt_init asks this of every F32 model tensor: the ones it trains are the optimizer's.
bool param_filter(const ggml_tensor * tensor, void *) {
  if (!tensor_trains(tensor->name, T.last_blocks, T.n_layer)) return false;
  for (const auto & p : T.opt.params) if (p.weight == tensor) return true;
  DeviceParam dp;
  dp.weight = const_cast<ggml_tensor *>(tensor);
  T.opt.params.push_back(dp);
  return true;
}

// The base model's training context only ever runs forward passes; llama_opt_init needs one parameter to build its graphs.
bool base_param_filter(const ggml_tensor * tensor, void *) { return strcmp(tensor->name, "output_norm.weight") == 0; }

void log_cb(ggml_log_level level, const char * text, void *) {
  if (level == GGML_LOG_LEVEL_ERROR || level == GGML_LOG_LEVEL_WARN) fputs(text, stderr);
}

// A failed ggml/llama.cpp assertion ends the process; the request in flight gets the assertion as its error
// (no backtrace: ggml's would attach a debugger and print its frames on stdout, the reply channel).
void abort_cb(const char * message) {
  fprintf(stderr, "llama.cpp stopped the trainer: %s\n", message);
  std::cout << std::string("{\"ok\":false,\"error\":") + jsonQuote(std::string("llama.cpp stopped the trainer: ") + message) + "}" << std::endl;
}

// Forward pass in an inference context; returns log-softmax rows (the logprobs request's, on the host).
std::vector<float> forward_log_softmax(llama_context * ctx, const std::vector<int> & tokens, int n_rows) {
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
  const int rc = llama_decode(ctx, batch);
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
    const float lse = mx + (float) std::log(sum);
    for (int v = 0; v < T.n_vocab; v++) row[v] = lg[v] - lse;
  }
  return out;
}

llama_context * new_context(llama_model * m, int threads) {
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

// A training context: its scheduler and graphs sized for the backward pass of the whole model.
llama_context * new_training_context(llama_model * m, int threads, std::vector<ggml_backend_t> * backends) {
  graph_begin_training_context(0);
  llama_context * ctx = new_context(m, threads);
  const std::vector<ggml_backend_t> seen = graph_end_training_context();
  if (backends) *backends = seen;
  if (!ctx) return nullptr;
  // ggml_opt computes the training graph without passing a thread count, so the CPU backend keeps ggml's
  // default of 4 threads (which on a 2-core machine spin at barriers) until one llama_decode has set them.
  std::vector<int> one = {0, 0};
  forward_log_softmax(ctx, one, 1);
  llama_memory_clear(llama_get_memory(ctx), true);
  return ctx;
}

llama_model * load_model(const std::string & path, int gpu_layers) {
  llama_model_params mp = llama_model_default_params();
  mp.load_mode = LLAMA_LOAD_MODE_NONE;  // weights must be writable, not mmapped
  mp.use_extra_bufts = false;           // repacked weights cannot be trained
  mp.n_gpu_layers = gpu_layers;
  return llama_model_load_from_file(path.c_str(), mp);
}

// ---- commands ---------------------------------------------------------------------------------

// Every option comes from the app (one declaration, in TypeScript): nothing here has a default.
std::string cmd_load(const Json & req) {
  require_keys(req, {"cmd", "model", "baseModel", "optimizerState", "optimizer", "weightDecay", "beta1", "beta2", "eps", "lastBlocks", "contextSize", "threads", "gpuLayers", "memoryLimitBytes"});
  if (T.model) throw std::runtime_error("a model is already loaded; start a new trainer process");
  const std::string path = req.need_str("model");
  const std::string optimizer = req.need_str("optimizer");
  if (optimizer != "adamw" && optimizer != "sgd") throw std::runtime_error("optimizer must be adamw or sgd");
  OptimizerSettings & s = T.opt.settings;
  s.adamw = optimizer == "adamw";
  s.weight_decay = (float) req.need_num("weightDecay");
  s.beta1 = (float) req.need_num("beta1");
  s.beta2 = (float) req.need_num("beta2");
  s.eps = (float) req.need_num("eps");
  if (s.weight_decay < 0 || s.beta1 < 0 || s.beta1 >= 1 || s.beta2 < 0 || s.beta2 >= 1 || !(s.eps > 0)) {
    throw std::runtime_error("optimizer settings out of range (weightDecay >= 0, 0 <= beta < 1, eps > 0)");
  }
  T.last_blocks = (int) req.need_num("lastBlocks");
  const int threads = (int) req.need_num("threads");
  const int gpu_layers = (int) req.need_num("gpuLayers");
  const std::string base_path = req.need_str_or_null("baseModel");
  const std::string state_path = req.need_str_or_null("optimizerState");

  const Inspection in = inspect_gguf(path, T.last_blocks);
  if (!in.error.empty()) throw std::runtime_error(in.error);
  T.arch = in.arch;
  T.n_layer = (int) in.n_layer;
  T.ctx_len_in_file = in.ctx_len;
  T.n_ctx = training_context((int) req.need_num("contextSize"), in.ctx_len);
  if ((long long) T.n_ctx * in.n_vocab >= (1LL << 31)) {
    throw std::runtime_error("a training context of " + std::to_string(T.n_ctx) + " tokens over a vocabulary of " + std::to_string(in.n_vocab) +
                             " has more than 2^31 logits per datapoint: train with a shorter contextSize");
  }
  const long long est = estimate_bytes(in, T.n_ctx, s.adamw, !base_path.empty());
  const long long limit = (long long) req.need_num("memoryLimitBytes");
  if (limit > 0 && est > limit) {
    throw std::runtime_error("training needs about " + std::to_string(est >> 20) + " MiB but the limit is " + std::to_string(limit >> 20) +
                             " MiB: train fewer blocks (lastBlocks), a shorter contextSize, or SGD");
  }

  T.model = load_model(path, gpu_layers);
  if (!T.model) throw std::runtime_error("llama.cpp could not load " + path);
  T.n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(T.model));
  std::vector<ggml_backend_t> backends;
  T.ctx_train = new_training_context(T.model, threads, &backends);
  T.ctx_eval = new_context(T.model, threads);
  if (!T.ctx_train || !T.ctx_eval) throw std::runtime_error("could not create a context of " + std::to_string(T.n_ctx) + " tokens");
  if ((int) llama_n_ctx(T.ctx_train) != T.n_ctx) {
    throw std::runtime_error("llama.cpp made a context of " + std::to_string(llama_n_ctx(T.ctx_train)) + " tokens instead of " + std::to_string(T.n_ctx));
  }
  llama_opt_params op{};
  op.n_ctx_train = 0;
  op.param_filter = param_filter;
  op.param_filter_ud = nullptr;
  op.get_opt_pars = opt_pars;
  op.get_opt_pars_ud = nullptr;
  op.optimizer_type = GGML_OPT_OPTIMIZER_TYPE_SGD;  // the in-graph no-op step (opt_pars); the DeviceOptimizer steps
  llama_opt_init(T.ctx_train, T.model, op);
  T.opt.attach(backends);

  GraphSetup setup;
  setup.n_ctx = T.n_ctx;
  setup.n_vocab = T.n_vocab;
  if (!base_path.empty()) {
    T.base = load_model(base_path, gpu_layers);
    if (!T.base) throw std::runtime_error("llama.cpp could not load base model " + base_path);
    if (llama_vocab_n_tokens(llama_model_get_vocab(T.base)) != T.n_vocab) throw std::runtime_error("base model has a different vocabulary");
    T.ctx_base = new_context(T.base, threads);
    T.ctx_base_train = new_training_context(T.base, threads, nullptr);
    if (!T.ctx_base || !T.ctx_base_train) throw std::runtime_error("could not create a context of " + std::to_string(T.n_ctx) + " tokens for the base model");
    llama_opt_params bp = op;
    bp.param_filter = base_param_filter;
    llama_opt_init(T.ctx_base_train, T.base, bp);
    // the base's rows live on the first backend (the GPU when there is one), as the logits do
    ggml_init_params ip = {ggml_tensor_overhead(), nullptr, true};
    T.base_rows_ctx = ggml_init(ip);
    setup.base_logsoftmax = T.base_rows = ggml_new_tensor_2d(T.base_rows_ctx, GGML_TYPE_F32, T.n_vocab, T.n_ctx);
    ggml_set_name(setup.base_logsoftmax, "hl_base_logsoftmax");
    T.base_rows_buf = ggml_backend_alloc_ctx_tensors_from_buft(T.base_rows_ctx, ggml_backend_get_default_buffer_type(backends.front()));
    if (!T.base_rows_buf) throw std::runtime_error("cannot allocate the base model's log-probability rows (out of memory?)");
    ggml_backend_buffer_clear(T.base_rows_buf, 0);
  }
  graph_setup(setup, &T.opt);
  if (!state_path.empty()) T.opt.load(state_path);

  return JsonOut()
      .boolean("ok", true)
      .str("event", "loaded")
      .str("arch", in.arch)
      .integer("nParams", in.n_params)
      .integer("nTrainable", in.n_trainable)
      .integer("nLayer", in.n_layer)
      .integer("nVocab", T.n_vocab)
      .integer("contextSize", T.n_ctx)
      .integer("estimatedBytes", est)
      .integer("optimizerStateBytes", T.opt.state_bytes())
      .integer("peakRssBytes", peak_rss_bytes())
      .integer("optimizerSteps", T.opt.t)
      .str("systemInfo", llama_print_system_info())
      .done();
}

std::string cmd_estimate(const Json & req) {
  require_keys(req, {"cmd", "model", "optimizer", "contextSize", "lastBlocks", "withBase"});
  const std::string optimizer = req.need_str("optimizer");
  if (optimizer != "adamw" && optimizer != "sgd") throw std::runtime_error("optimizer must be adamw or sgd");
  const Inspection in = inspect_gguf(req.need_str("model"), (int) req.need_num("lastBlocks"));
  const int n_ctx = training_context((int) req.need_num("contextSize"), in.ctx_len);
  std::string reason = in.error;
  if (reason.empty() && (long long) n_ctx * in.n_vocab >= (1LL << 31)) reason = "a training context of " + std::to_string(n_ctx) + " tokens has more than 2^31 logits per datapoint over this vocabulary: use a shorter contextSize";
  // the devices a run could use, with their memory: the app compares the estimate with them
  std::string devices = "[";
  for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
    ggml_backend_dev_t dev = ggml_backend_dev_get(i);
    const enum ggml_backend_dev_type type = ggml_backend_dev_type(dev);
    if (type != GGML_BACKEND_DEVICE_TYPE_CPU && type != GGML_BACKEND_DEVICE_TYPE_GPU) continue;
    size_t free = 0, total = 0;
    ggml_backend_dev_memory(dev, &free, &total);
    devices += (devices.size() > 1 ? "," : "") + JsonOut()
                   .str("name", ggml_backend_dev_name(dev))
                   .str("type", type == GGML_BACKEND_DEVICE_TYPE_GPU ? "gpu" : "cpu")
                   .integer("freeBytes", (long long) free)
                   .integer("totalBytes", (long long) total)
                   .done();
  }
  devices += "]";
  return JsonOut()
      .boolean("ok", true)
      .str("event", "estimate")
      .raw("devices", devices)
      .boolean("trainable", reason.empty())
      .str("reason", reason)
      .integer("nParams", in.n_params)
      .integer("nTrainable", in.n_trainable)
      .integer("nLayer", in.n_layer)
      .integer("contextSize", n_ctx)
      .integer("estimatedBytes", estimate_bytes(in, n_ctx, optimizer == "adamw", req.need_bool("withBase")))
      .done();
}

std::string cmd_logprobs(const Json & req) {
  require_keys(req, {"cmd", "items", "base"});
  if (!T.model) throw std::runtime_error("load a model first");
  const bool use_base = req.need_bool("base");
  if (use_base && !T.base) throw std::runtime_error("no base model loaded");
  const Json & items = req.at("items");
  if (items.kind != Json::Arr) throw std::runtime_error("logprobs needs \"items\"");
  std::string arr = "[";
  for (size_t k = 0; k < items.a.size(); k++) {
    require_keys(items.a[k], {"tokens"});
    const std::vector<int> tk = int_array(items.a[k].at("tokens"), "tokens");
    check_tokens(tk);
    const std::vector<float> lsm = forward_log_softmax(use_base ? T.ctx_base : T.ctx_eval, tk, (int) tk.size());
    std::string row = "[0";
    for (size_t i = 1; i < tk.size(); i++) {
      char buf[32];
      snprintf(buf, sizeof buf, ",%.9g", lsm[(i - 1) * T.n_vocab + tk[i]]);
      row += buf;
    }
    arr += (k ? "," : "") + row + "]";
  }
  return JsonOut().boolean("ok", true).str("event", "logprobs").raw("items", arr + "]").done();
}

// The weights as a GGUF (with the model's own context length) and, when asked, the optimizer state
// beside it, so a run resumed from this file continues as the uninterrupted one.
std::string cmd_save(const Json & req) {
  require_keys(req, {"cmd", "path", "optimizerState"});
  if (!T.model) throw std::runtime_error("load a model first");
  const std::string path = req.need_str("path");
  llama_model_save_to_file(T.model, path.c_str());
  if (T.ctx_len_in_file > 0) patch_context_length(path, T.arch, T.ctx_len_in_file);
  const std::string state = req.need_str_or_null("optimizerState");
  if (!state.empty()) T.opt.save(state);
  return JsonOut().boolean("ok", true).str("event", "saved").str("path", path).integer("optimizerSteps", T.opt.t).done();
}

void free_all() {
  T.opt.release();
  if (T.base_rows_buf) ggml_backend_buffer_free(T.base_rows_buf);
  if (T.base_rows_ctx) ggml_free(T.base_rows_ctx);
  if (T.ctx_base_train) llama_free(T.ctx_base_train);
  if (T.ctx_base) llama_free(T.ctx_base);
  if (T.base) llama_model_free(T.base);
  if (T.ctx_eval) llama_free(T.ctx_eval);
  if (T.ctx_train) llama_free(T.ctx_train);
  if (T.model) llama_model_free(T.model);
}

}  // namespace

int main(int argc, char ** argv) {
  llama_log_set(log_cb, nullptr);
  ggml_set_abort_callback(abort_cb);
  // the CPU/GPU backends are separate libraries next to libllama: load them from there
  if (argc > 1) ggml_backend_load_all_from_path(argv[1]);
  else ggml_backend_load_all();
  llama_backend_init();
  std::cout << "{\"ok\":true,\"event\":\"ready\",\"protocol\":3}" << std::endl;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::string reply;
    try {
      const Json req = JsonParser(line).parse();
      const std::string cmd = req.str("cmd", "");
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
  free_all();
  llama_backend_free();
  return 0;
}
