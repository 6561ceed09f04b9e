// The optimizer step, on the backend that holds each weight (the GPU when layers are offloaded): AdamW
// (decoupled weight decay, bias-corrected moments) or SGD through ggml's own step ops, applied once per
// update to the gradient ggml-opt accumulated over the whole batch, with gradient-norm clipping and a
// scale for backtracking. Its state (the step's start weights, the moments, the moments before the step
// when a KL guard may undo it) sits beside each weight in the same buffer type, so an update never copies
// the weights through the host; only scalars (norms) come back. The state file (step counter, moments)
// lets a resumed run continue exactly where the uninterrupted one would.
#pragma once
#include "ggml-backend.h"
#include "ggml.h"

#include <functional>
#include <string>
#include <vector>

struct OptimizerSettings {
  bool adamw = true;
  float beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f, weight_decay = 0.0f;
};

struct DeviceParam {
  ggml_tensor * weight = nullptr;  // the model's tensor
  ggml_tensor * grad = nullptr;    // ggml-opt's gradient accumulator for it
  ggml_tensor * w0 = nullptr;      // the weights the update started from
  ggml_tensor * m = nullptr, * v = nullptr;            // AdamW moments
  ggml_tensor * m_prev = nullptr, * v_prev = nullptr;  // the moments before the step (KL guard only)
};

class DeviceOptimizer {
 public:
  OptimizerSettings settings;
  std::vector<DeviceParam> params;
  long long t = 0;  // completed optimizer steps

  ~DeviceOptimizer();
  // Frees the state and the scheduler (before the llama contexts whose backends it uses go).
  void release();
  // After llama_opt_init has chosen the trainable tensors: their state on their own buffer types, and a
  // scheduler over the training context's backends for the step graphs.
  void attach(const std::vector<ggml_backend_t> & backends);
  long long n_floats() const;
  long long state_bytes() const;

  void snapshot();                   // w0 <- w, before the update's first datapoint
  void restore();                    // w <- w0: the update is dropped
  double gradient_norm();            // L2 norm of the accumulated gradient
  void scale_gradients(float scale);  // in place (clipping)
  // One step at rate lr from w0 and the moments before it (the same moments whatever lr is, so a
  // backtracked step re-uses them). begin() counts the step and keeps the moments an undo restores.
  void begin(bool keep_previous);
  double step(float lr);             // returns ||w - w0||
  void undo();                       // weights and moments as before begin()

  void save(const std::string & path) const;
  void load(const std::string & path);

 private:
  ggml_backend_sched_t sched = nullptr;
  std::vector<ggml_context *> contexts;
  std::vector<ggml_backend_buffer_t> buffers;
  ggml_context * par_ctx = nullptr;
  ggml_backend_buffer_t par_buf = nullptr;
  ggml_tensor * step_params = nullptr;  // AdamW's 7 or SGD's 2 floats, on the host
  bool keeps_previous = false;
  bool kept = false;     // begin(true) kept the moments before the step
  bool stepped = false;  // step() ran since begin(): a further step starts again from w0 and those moments

  void allocate_state(const std::function<ggml_tensor *&(DeviceParam &)> & slot, const char * what);
  // Builds one graph over every parameter, runs it on the scheduler and returns the value of its output scalar (0 when none).
  double run(const std::function<ggml_tensor *(ggml_context *, ggml_cgraph *)> & build);
};
