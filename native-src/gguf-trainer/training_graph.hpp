// The training graph, as the trainer reshapes it inside llama_opt_epoch. llama.cpp builds one graph per
// datapoint and hands it to ggml-opt (ggml_opt_prepare_alloc), then evaluates it (ggml_opt_eval); this
// program defines both functions, which the dynamic linker binds libllama's calls to, and
//  - gives the graph room for the backward pass of any depth (llama.cpp sizes it for the forward pass:
//    max(1024, 8 x tensors) nodes, outgrown by the backward graph of 9+ layers), and its scheduler too;
//  - puts the loss on the backend: the per-row sum of weighted -log p of the chosen tokens and weighted
//    KL(policy || base), built from the logits with ggml ops, so no logits or labels cross to the host;
//  - writes the datapoint's prefix-tree layout (packing.hpp) into the graph's own position and mask
//    inputs, the tensors every backend's copy is filled from.
// ggml-opt's cross-entropy then only carries the gradient: its output is a column of width 1 (softmax 1),
// and a label of 1 - rows gives every row's value a gradient of exactly 1.
#pragma once
#include "device_optimizer.hpp"
#include "packing.hpp"

#include "ggml-backend.h"
#include "llama.h"

#include <cstdint>
#include <string>
#include <vector>

// What the policy's graph computes for one datapoint.
struct HeadTargets {
  std::vector<int32_t> index;    // row * n_vocab + token of each weighted prediction (at least one: a zero weight pads)
  std::vector<float> weight;     // its weight w: the loss has w * -log p(token | row)
  std::vector<float> kl_weight;  // per row: the weight of KL(policy || base) of that row's distribution (with a base)
};

// What comes back from it: a few floats per row, never the logits.
struct HeadReadout {
  std::vector<float> logp;         // log p of each target
  std::vector<float> neg_entropy;  // per row: sum_v p log p
  std::vector<float> kl;           // per row: KL(policy || base) (with a base)
};

struct GraphSetup {
  int n_ctx = 0;
  int n_vocab = 0;
  // The base's log-softmax rows [n_vocab, n_ctx], on a backend: written by the base's graph, read by the policy's.
  ggml_tensor * base_logsoftmax = nullptr;
};

// While a training context is created: its scheduler gets room for the training graph, and its backends are recorded.
void graph_begin_training_context(int n_tensors);
std::vector<ggml_backend_t> graph_end_training_context();
void graph_setup(const GraphSetup & setup, DeviceOptimizer * optimizer);

// One datapoint of the policy: a training step (gradients accumulate; zero_gradients at an update's first
// datapoint) or a forward pass. Throws when the layout or the hooks could not be applied.
void graph_run_policy(llama_context * ctx, const Datapoint & dp, const HeadTargets & targets, bool train, bool zero_gradients, HeadReadout & out);
// One datapoint of the frozen base: a forward pass that leaves its log-softmax rows in setup.base_logsoftmax.
void graph_run_base(llama_context * ctx, const Datapoint & dp);
