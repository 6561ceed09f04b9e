// The trainer's state (one model, its contexts and optimizer per process) and the helpers its commands share.
#pragma once
#include "device_optimizer.hpp"
#include "json.hpp"

#include "ggml-backend.h"
#include "llama.h"

#include <cstdint>
#include <string>
#include <vector>

struct Trainer {
  llama_model * model = nullptr;
  llama_context * ctx_train = nullptr;
  llama_context * ctx_eval = nullptr;        // same weights, inference: log-probabilities
  llama_model * base = nullptr;              // frozen base for KL, optional
  llama_context * ctx_base = nullptr;
  llama_context * ctx_base_train = nullptr;  // the base's forward under a datapoint's layout (never trained)
  int n_ctx = 0;
  int n_vocab = 0;
  uint32_t ctx_len_in_file = 0;  // the model's own context_length, restored in saved files
  std::string arch;
  int last_blocks = -1;  // -1: all tensors train
  int n_layer = 0;
  DeviceOptimizer opt;
  ggml_context * base_rows_ctx = nullptr;  // the base's log-softmax rows, where both graphs reach them
  ggml_tensor * base_rows = nullptr;       // [n_vocab, n_ctx]
  ggml_backend_buffer_t base_rows_buf = nullptr;
};

extern Trainer T;

std::vector<int> int_array(const Json & j, const char * what);
std::vector<float> float_array(const Json & j, const char * what);
// Refuses a sequence the training context cannot hold or with a token outside the vocabulary.
void check_tokens(const std::vector<int> & tokens);
long peak_rss_bytes();

std::string cmd_train(const Json & req);
std::string cmd_kl(const Json & req);
