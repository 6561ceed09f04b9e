#include "training_graph.hpp"

#include "ggml-opt.h"
#include "ggml.h"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>

namespace {

// The training graph (forward, backward, ggml-opt's accumulation and step per parameter) outgrows the size
// llama.cpp gives the forward graph; twice that size was measured to hold it for 1 to 48 layers, and this
// leaves room beyond. The scheduler hashes nodes and leafs together: twice again.
constexpr size_t GRAPH_SCALE = 4;
// log(p + EPS) keeps a probability that underflowed to 0 finite (about -85 nats); p's own gradient is unchanged above it.
constexpr float EPS = 1e-37f;
constexpr const char * POS_NAME = "hl_inp_pos";
constexpr const char * MASK_NAME = "attn_inp_kq_mask";

struct Plan {
  const Datapoint * layout = nullptr;
  bool base = false;  // the base's graph: store the log-softmax rows
  const HeadTargets * targets = nullptr;
  HeadReadout * out = nullptr;
  bool zero_gradients = false;
  bool train = false;
};

// The tensors the trainer added to the graph being evaluated.
struct Built {
  ggml_context * ctx = nullptr;
  ggml_cgraph * gf = nullptr;
  ggml_tensor * pos = nullptr, * mask = nullptr;
  ggml_tensor * eps = nullptr, * index = nullptr, * weight = nullptr, * kl_weight = nullptr;
  ggml_tensor * logp = nullptr, * neg_entropy = nullptr, * kl = nullptr;
};

struct State {
  bool creating = false;  // a training context is being created
  size_t graph_size = 0;  // our graphs' capacity
  std::vector<ggml_backend_t> backends;
  GraphSetup setup;
  DeviceOptimizer * optimizer = nullptr;
  const Plan * plan = nullptr;
  Built built;
  std::map<ggml_opt_context_t, int> node_counts;  // ggml-opt indexes its gradient accumulators by node: the count must not change
  std::string error;
  long prepared = 0, evaluated = 0;
};
State G;

template <typename F>
F real_fn(const char * name) {
  static_assert(sizeof(F) == sizeof(void *));
  void * p = dlsym(RTLD_NEXT, name);
  if (!p) {
    fprintf(stderr, "gguf-trainer: cannot find %s in the llama.cpp libraries\n", name);
    abort();
  }
  return reinterpret_cast<F>(p);
}

void free_built() {
  if (G.built.ctx) ggml_free(G.built.ctx);
  G.built = Built{};
}

bool is_copy_of(const ggml_tensor * t, const ggml_tensor * original) {
  if (t == original) return true;
  // the scheduler's per-backend copy of an input: "<backend>#<name>#<copy>"
  const std::string name = t->name, want = std::string("#") + original->name + "#";
  return name.find(want) != std::string::npos;
}

// The graph's single position input (every RoPE reads it) and its causal mask (every attention softmax reads it).
std::string find_layout_inputs(ggml_cgraph * gf, int n, Built & b) {
  for (int i = 0; i < ggml_graph_n_nodes(gf); i++) {
    ggml_tensor * node = ggml_graph_node(gf, i);
    if (node->op == GGML_OP_ROPE) {
      if (!b.pos) b.pos = node->src[1];
      else if (node->src[1] != b.pos) return "the model's rotary embeddings read positions from more than one tensor";
    }
  }
  if (!b.pos || b.pos->type != GGML_TYPE_I32 || ggml_nelements(b.pos) != n || !(b.pos->flags & GGML_TENSOR_FLAG_INPUT)) {
    return "the graph has no rotary position input of the expected shape (a llama-style model with RoPE is needed)";
  }
  if (b.pos->name[0] == '\0') ggml_set_name(b.pos, POS_NAME);
  b.mask = ggml_graph_get_tensor(gf, MASK_NAME);
  if (!b.mask || b.mask->type != GGML_TYPE_F32 || b.mask->ne[1] != n || b.mask->ne[0] < n || b.mask->ne[2] != 1 || b.mask->ne[3] != 1) {
    return "the graph has no attention mask of the expected shape";
  }
  for (int i = 0; i < ggml_graph_n_nodes(gf); i++) {
    ggml_tensor * node = ggml_graph_node(gf, i);
    if (node->op == GGML_OP_SOFT_MAX && node->src[1] && node->src[1] != b.mask) return "an attention layer reads another mask (sliding-window attention is not supported)";
  }
  return "";
}

// The policy's loss on its logits z [V, N], with the readouts; returns the [1, N] column ggml-opt trains on.
ggml_tensor * build_policy_head(ggml_context * ctx, ggml_cgraph * gf, ggml_tensor * z, Built & b) {
  const int64_t V = z->ne[0], N = z->ne[1];
  const HeadTargets & tg = *G.plan->targets;
  b.eps = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 1);
  b.index = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, (int64_t) tg.index.size());
  b.weight = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 1, (int64_t) tg.index.size());
  for (ggml_tensor * t : {b.eps, b.index, b.weight}) ggml_set_input(t);
  ggml_tensor * p = ggml_soft_max(ctx, z);
  ggml_tensor * ls = ggml_log(ctx, ggml_add(ctx, p, b.eps));
  // log p of each target: a gather over the rows flattened (indices row * V + token)
  b.logp = ggml_get_rows(ctx, ggml_reshape_2d(ctx, ls, 1, V * N), b.index);
  b.neg_entropy = ggml_sum_rows(ctx, ggml_mul(ctx, p, ls));
  ggml_tensor * loss = ggml_scale(ctx, ggml_sum(ctx, ggml_mul(ctx, b.logp, b.weight)), -1.0f);
  if (G.setup.base_logsoftmax) {
    b.kl_weight = ggml_new_tensor_2d(ctx, GGML_TYPE_F32, 1, N);
    ggml_set_input(b.kl_weight);
    b.kl = ggml_sum_rows(ctx, ggml_mul(ctx, p, ggml_sub(ctx, ls, G.setup.base_logsoftmax)));
    loss = ggml_add(ctx, loss, ggml_sum(ctx, ggml_mul(ctx, b.kl, b.kl_weight)));
  }
  for (ggml_tensor * t : {b.logp, b.neg_entropy, b.kl}) {
    if (!t) continue;
    ggml_set_output(t);
    ggml_build_forward_expand(gf, t);
  }
  // every row carries loss / N, and each row's gradient is 1: the gradient of the loss
  return ggml_scale(ctx, ggml_repeat_4d(ctx, loss, 1, N, 1, 1), 1.0f / (float) N);
}

// The base's graph keeps its log-softmax rows where the policy's graph reads them.
ggml_tensor * build_base_head(ggml_context * ctx, ggml_cgraph * gf, ggml_tensor * z, Built & b) {
  b.eps = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 1);
  ggml_set_input(b.eps);
  ggml_tensor * ls = ggml_log(ctx, ggml_add(ctx, ggml_soft_max(ctx, z), b.eps));
  ggml_build_forward_expand(gf, ggml_cpy(ctx, ls, G.setup.base_logsoftmax));
  return ggml_sum_rows(ctx, z);  // ggml-opt needs a [1, N] output; the base never trains
}

void set_inputs(ggml_opt_context_t opt_ctx, Built & b) {
  const int n = G.setup.n_ctx;
  ggml_backend_tensor_set(b.eps, &EPS, 0, sizeof EPS);
  if (!G.plan->base) {
    const HeadTargets & tg = *G.plan->targets;
    ggml_backend_tensor_set(b.index, tg.index.data(), 0, ggml_nbytes(b.index));
    ggml_backend_tensor_set(b.weight, tg.weight.data(), 0, ggml_nbytes(b.weight));
    if (b.kl_weight) {
      if ((int) tg.kl_weight.size() != n) G.error = "the KL weights must have one entry per row";
      else ggml_backend_tensor_set(b.kl_weight, tg.kl_weight.data(), 0, ggml_nbytes(b.kl_weight));
    }
  }
  // labels 1 - N on the width-1 column: ggml's cross-entropy gradient (softmax - label) / N is then 1 per row
  std::vector<float> labels(n, 1.0f - (float) n);
  ggml_tensor * lab = ggml_opt_labels(opt_ctx);
  if (ggml_nbytes(lab) != labels.size() * sizeof(float)) {
    G.error = "the label tensor does not have one entry per row";
    return;
  }
  ggml_backend_tensor_set(lab, labels.data(), 0, ggml_nbytes(lab));
}

// The prefix tree into the graph's own inputs (where every backend's copy is filled from): each node attends
// to its ancestors and itself at the position of its depth; padding rows attend to themselves only (no row may
// see nothing: softmax of -inf is NaN). Every RoPE and attention layer must read those inputs or their copies.
void write_layout(const Built & b, const Datapoint & dp, int n) {
  for (int i = 0; i < ggml_graph_n_nodes(b.gf); i++) {
    const ggml_tensor * node = ggml_graph_node(b.gf, i);
    if (node->op == GGML_OP_ROPE && !is_copy_of(node->src[1], b.pos)) {
      G.error = std::string("RoPE node ") + node->name + " reads positions from " + node->src[1]->name + ", not the input the trainer writes";
      return;
    }
    if (node->op == GGML_OP_SOFT_MAX && node->src[1] && !is_copy_of(node->src[1], b.mask)) {
      G.error = std::string("attention node ") + node->name + " reads its mask from " + node->src[1]->name + ", not the input the trainer writes";
      return;
    }
  }
  const int64_t n_kv = b.mask->ne[0];
  std::vector<float> m((size_t) n_kv * n);
  ggml_backend_tensor_get(b.mask, m.data(), 0, ggml_nbytes(b.mask));
  // llama.cpp's own mask for one sequence from an empty cache must be causal over cells 0..n-1: the layout
  // rewrites exactly that, so anything else (another cache layout) is refused, not guessed at.
  for (int i : {0, n / 2, n - 1}) {
    for (int j = 0; j < n; j++) {
      const bool open = m[(size_t) i * n_kv + j] == 0.0f;
      if (open != (j <= i)) {
        G.error = "llama.cpp's attention mask is not the causal layout the trainer rewrites";
        return;
      }
    }
  }
  std::fill(m.begin(), m.end(), -INFINITY);
  std::vector<int32_t> p(n, 0);
  const int nodes = (int) dp.nodes.size();
  for (int i = 0; i < n; i++) {
    float * row = &m[(size_t) i * n_kv];
    if (i >= nodes) {
      row[i] = 0;
      continue;
    }
    p[i] = dp.nodes[i].depth;
    for (int j = i; j >= 0; j = dp.nodes[j].parent) row[j] = 0;
  }
  ggml_backend_tensor_set(b.mask, m.data(), 0, ggml_nbytes(b.mask));
  ggml_backend_tensor_set(b.pos, p.data(), 0, ggml_nbytes(b.pos));
}

void read_outputs(const Built & b, HeadReadout & out) {
  auto get = [](const ggml_tensor * t, std::vector<float> & v) {
    if (!t) {
      v.clear();
      return;
    }
    v.resize(ggml_nelements(t));
    ggml_backend_tensor_get(t, v.data(), 0, ggml_nbytes(t));
  };
  get(b.logp, out.logp);
  get(b.neg_entropy, out.neg_entropy);
  get(b.kl, out.kl);
}

// One llama_opt_epoch over one datapoint, with the plan the hooks follow.
void run_epoch(llama_context * ctx, const Datapoint & dp, Plan & plan, bool train) {
  plan.train = train;
  const size_t N = G.setup.n_ctx;
  ggml_opt_dataset_t ds = ggml_opt_dataset_init(GGML_TYPE_I32, GGML_TYPE_I32, N, N, 1, 1);
  int32_t * data = (int32_t *) ggml_opt_dataset_data(ds)->data;
  int32_t * lab = (int32_t *) ggml_opt_dataset_labels(ds)->data;
  for (size_t p = 0; p < N; p++) data[p] = p < dp.nodes.size() ? dp.nodes[p].token : dp.nodes.back().token;
  // llama.cpp writes one-hot labels at these indices of the trainer's width-1 column; the hook replaces them
  for (size_t p = 0; p < N; p++) lab[p] = 0;
  ggml_opt_result_t res = ggml_opt_result_init();
  ggml_opt_result_t res_eval = ggml_opt_result_init();
  const long prepared = G.prepared, evaluated = G.evaluated;
  G.plan = &plan;
  llama_opt_epoch(ctx, ds, res, res_eval, train ? 1 : 0, nullptr, nullptr);
  G.plan = nullptr;
  free_built();
  ggml_opt_result_free(res);
  ggml_opt_result_free(res_eval);
  ggml_opt_dataset_free(ds);
  if (!G.error.empty()) {
    // a graph the trainer cannot lay out is the same graph every time: the error comes back at each datapoint
    const std::string e = G.error;
    G.error.clear();
    throw std::runtime_error("cannot train on this model's graph: " + e);
  }
  if (G.prepared != prepared + 1 || G.evaluated != evaluated + 1) {
    throw std::runtime_error("the training hooks did not run (ggml_opt_prepare_alloc / ggml_opt_eval were bound elsewhere): refusing to train with plain cross-entropy");
  }
}

}  // namespace

// ---- interposers ----------------------------------------------------------------------------

extern "C" ggml_backend_sched_t ggml_backend_sched_new(ggml_backend_t * backends, ggml_backend_buffer_type_t * bufts, int n_backends, size_t graph_size, bool parallel, bool op_offload) {
  using fn = ggml_backend_sched_t (*)(ggml_backend_t *, ggml_backend_buffer_type_t *, int, size_t, bool, bool);
  static fn real = real_fn<fn>("ggml_backend_sched_new");
  if (G.creating) {
    G.graph_size = std::max(G.graph_size, graph_size * GRAPH_SCALE);
    graph_size *= 2 * GRAPH_SCALE;
    if (G.backends.empty()) G.backends.assign(backends, backends + n_backends);
  }
  return real(backends, bufts, n_backends, graph_size, parallel, op_offload);
}

extern "C" void ggml_opt_prepare_alloc(ggml_opt_context_t opt_ctx, ggml_context * ctx_compute, ggml_cgraph * gf, ggml_tensor * inputs, ggml_tensor * outputs) {
  using fn = void (*)(ggml_opt_context_t, ggml_context *, ggml_cgraph *, ggml_tensor *, ggml_tensor *);
  static fn real = real_fn<fn>("ggml_opt_prepare_alloc");
  free_built();
  if (!G.plan || !G.error.empty()) {
    real(opt_ctx, ctx_compute, gf, inputs, outputs);
    return;
  }
  G.prepared++;
  const int n = G.setup.n_ctx;
  if (outputs->ne[0] != G.setup.n_vocab || outputs->ne[1] != n) {
    G.error = "the graph's logits are not one row of the vocabulary per position";
    real(opt_ctx, ctx_compute, gf, inputs, outputs);
    return;
  }
  Built b;
  G.error = find_layout_inputs(gf, n, b);
  if (!G.error.empty()) {
    real(opt_ctx, ctx_compute, gf, inputs, outputs);
    return;
  }
  const size_t size = std::max(G.graph_size, (size_t) ggml_graph_size(gf));
  ggml_init_params ip = {4 * size * ggml_tensor_overhead() + 3 * ggml_graph_overhead_custom(size, true), nullptr, true};
  b.ctx = ggml_init(ip);
  b.gf = ggml_new_graph_custom(b.ctx, size, false);
  ggml_graph_cpy(gf, b.gf);
  ggml_tensor * column = G.plan->base ? build_base_head(b.ctx, b.gf, outputs, b) : build_policy_head(b.ctx, b.gf, outputs, b);
  ggml_build_forward_expand(b.gf, column);
  const int nodes = ggml_graph_n_nodes(b.gf);
  auto known = G.node_counts.find(opt_ctx);
  if (known == G.node_counts.end()) G.node_counts[opt_ctx] = nodes;
  else if (known->second != nodes) {
    // ggml-opt would index its gradient accumulators out of bounds: stop before it can
    fprintf(stderr, "gguf-trainer: the training graph changed from %d to %d nodes between datapoints\n", known->second, nodes);
    abort();
  }
  G.built = b;
  real(opt_ctx, b.ctx, b.gf, inputs, column);
}

extern "C" void ggml_opt_eval(ggml_opt_context_t opt_ctx, ggml_opt_result_t result) {
  using fn = void (*)(ggml_opt_context_t, ggml_opt_result_t);
  static fn real = real_fn<fn>("ggml_opt_eval");
  if (!G.plan || !G.built.ctx) {
    real(opt_ctx, result);
    return;
  }
  Built & b = G.built;
  write_layout(b, *G.plan->layout, G.setup.n_ctx);
  set_inputs(opt_ctx, b);
  if (G.plan->zero_gradients) ggml_opt_reset(opt_ctx, false);  // an update's first datapoint: accumulators to 0
  // the trainable tensors' accumulators exist once ggml-opt has built a training graph
  if (G.optimizer && !G.plan->base && G.plan->train) {
    for (auto & p : G.optimizer->params) {
      if (!p.grad) p.grad = ggml_opt_grad_acc(opt_ctx, p.weight);
    }
  }
  real(opt_ctx, result);
  if (G.plan->out) read_outputs(b, *G.plan->out);
  G.evaluated++;
}

// ---- the trainer's side ----------------------------------------------------------------------

void graph_begin_training_context(int) {
  G.creating = true;
}

std::vector<ggml_backend_t> graph_end_training_context() {
  G.creating = false;
  return G.backends;
}

void graph_setup(const GraphSetup & setup, DeviceOptimizer * optimizer) {
  G.setup = setup;
  G.optimizer = optimizer;
}

void graph_run_policy(llama_context * ctx, const Datapoint & dp, const HeadTargets & targets, bool train, bool zero_gradients, HeadReadout & out) {
  if (targets.index.empty() || targets.index.size() != targets.weight.size()) throw std::logic_error("a policy datapoint needs at least one (padding) target");
  Plan plan;
  plan.layout = &dp;
  plan.targets = &targets;
  plan.out = &out;
  plan.zero_gradients = zero_gradients;
  run_epoch(ctx, dp, plan, train);
  if (train && G.optimizer) {
    for (const auto & p : G.optimizer->params) {
      if (!p.grad) throw std::runtime_error(std::string("ggml-opt kept no gradient for ") + p.weight->name);
    }
  }
}

void graph_run_base(llama_context * ctx, const Datapoint & dp) {
  if (!G.setup.base_logsoftmax) throw std::logic_error("no base log-softmax tensor");
  Plan plan;
  plan.layout = &dp;
  plan.base = true;
  run_epoch(ctx, dp, plan, false);
}
