// The optimizer step, applied on the host once per update to the gradient ggml accumulated over the
// whole batch. ggml-opt's own step runs after every datapoint (llama.cpp gives no way to accumulate
// several datapoints with full-sequence ubatches), so the trainer runs ggml's in-graph SGD step with
// the smallest normal learning rate (FLT_MIN: no change a float32 weight can hold) and does the real
// step here: AdamW (decoupled weight decay, bias-corrected moments) or SGD, with gradient-norm
// clipping and a scale for backtracking. Its state (step counter, moments) is saved beside the GGUF
// so a resumed run continues exactly where the uninterrupted one would.
#pragma once
#include "ggml-backend.h"
#include "ggml.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

struct OptimizerSettings {
  bool adamw = true;
  float beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f, weight_decay = 0.0f;
};

struct ParamState {
  ggml_tensor * weight = nullptr;  // the model's tensor
  ggml_tensor * grad = nullptr;    // ggml-opt's gradient accumulator for it
  std::vector<float> w0, g, m, v, m_prev, v_prev;
};

class HostOptimizer {
 public:
  OptimizerSettings settings;
  std::vector<ParamState> params;
  long long t = 0;  // completed optimizer steps

  size_t n_floats() const {
    size_t n = 0;
    for (const auto & p : params) n += ggml_nelements(p.weight);
    return n;
  }

  // Before the update's first datapoint: the weights the step starts from.
  void snapshot_weights() {
    for (auto & p : params) {
      p.w0.resize(ggml_nelements(p.weight));
      ggml_backend_tensor_get(p.weight, p.w0.data(), 0, ggml_nbytes(p.weight));
    }
  }

  // After the last datapoint: the batch's summed gradient; returns its L2 norm.
  double read_gradients() {
    double sq = 0;
    for (auto & p : params) {
      if (!p.grad) throw std::runtime_error(std::string("no gradient accumulator for ") + p.weight->name);
      p.g.resize(ggml_nelements(p.weight));
      ggml_backend_tensor_get(p.grad, p.g.data(), 0, ggml_nbytes(p.grad));
      for (float x : p.g) sq += (double) x * x;
    }
    return std::sqrt(sq);
  }

  // Moments after this gradient (times clip); kept apart from the weights so a backtracked step
  // re-uses them and an undone step restores the previous ones.
  void update_moments(float clip) {
    t++;
    for (auto & p : params) {
      if (!settings.adamw) continue;
      if (p.m.empty()) { p.m.assign(p.g.size(), 0.0f); p.v.assign(p.g.size(), 0.0f); }
      p.m_prev = p.m;
      p.v_prev = p.v;
      for (size_t i = 0; i < p.g.size(); i++) {
        const float g = p.g[i] * clip;
        p.m[i] = settings.beta1 * p.m[i] + (1 - settings.beta1) * g;
        p.v[i] = settings.beta2 * p.v[i] + (1 - settings.beta2) * g * g;
      }
    }
  }

  void undo_moments() {
    t--;
    for (auto & p : params) {
      if (!settings.adamw) continue;
      p.m = p.m_prev;
      p.v = p.v_prev;
    }
  }

  // Writes w0 - lr * direction into the model (lr 0 writes w0 back). Returns the step's L2 norm.
  double apply(float lr, float clip) {
    double sq = 0;
    const double bc1 = 1.0 - std::pow((double) settings.beta1, (double) t);
    const double bc2 = 1.0 - std::pow((double) settings.beta2, (double) t);
    std::vector<float> w;
    for (auto & p : params) {
      w.resize(p.w0.size());
      for (size_t i = 0; i < w.size(); i++) {
        double dir;
        if (settings.adamw) {
          const double mh = p.m[i] / bc1, vh = p.v[i] / bc2;
          dir = mh / (std::sqrt(vh) + settings.eps);
        } else {
          dir = (double) p.g[i] * clip;
        }
        const double nw = lr == 0 ? p.w0[i] : p.w0[i] * (1.0 - (double) lr * settings.weight_decay) - (double) lr * dir;
        sq += (nw - p.w0[i]) * (nw - p.w0[i]);
        w[i] = (float) nw;
      }
      ggml_backend_tensor_set(p.weight, w.data(), 0, ggml_nbytes(p.weight));
    }
    return std::sqrt(sq);
  }

  void release_scratch() {
    for (auto & p : params) {
      std::vector<float>().swap(p.w0);
      std::vector<float>().swap(p.g);
      std::vector<float>().swap(p.m_prev);
      std::vector<float>().swap(p.v_prev);
    }
  }

  // State file: "HLOPT1", step count, then per tensor its name, size and moments (empty for SGD).
  void save(const std::string & path) const {
    FILE * f = fopen(path.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write optimizer state " + path);
    auto wr = [&](const void * d, size_t n) { if (fwrite(d, 1, n, f) != n) { fclose(f); throw std::runtime_error("short write to " + path); } };
    wr("HLOPT1", 6);
    const uint8_t adamw = settings.adamw;
    wr(&adamw, 1);
    wr(&t, 8);
    const uint64_t n = params.size();
    wr(&n, 8);
    for (const auto & p : params) {
      const std::string name = p.weight->name;
      const uint64_t len = name.size(), count = settings.adamw && !p.m.empty() ? p.m.size() : 0;
      wr(&len, 8);
      wr(name.data(), len);
      wr(&count, 8);
      if (count) { wr(p.m.data(), count * 4); wr(p.v.data(), count * 4); }
    }
    if (fclose(f) != 0) throw std::runtime_error("cannot close " + path);
  }

  void load(const std::string & path) {
    FILE * f = fopen(path.c_str(), "rb");
    if (!f) throw std::runtime_error("cannot read optimizer state " + path);
    auto rd = [&](void * d, size_t n) { if (fread(d, 1, n, f) != n) { fclose(f); throw std::runtime_error("optimizer state " + path + " is truncated"); } };
    char magic[6];
    rd(magic, 6);
    if (std::string(magic, 6) != "HLOPT1") { fclose(f); throw std::runtime_error(path + " is not an optimizer state file"); }
    uint8_t adamw;
    rd(&adamw, 1);
    if ((bool) adamw != settings.adamw) { fclose(f); throw std::runtime_error("optimizer state " + path + " is for another optimizer"); }
    rd(&t, 8);
    uint64_t n;
    rd(&n, 8);
    if (n != params.size()) { fclose(f); throw std::runtime_error("optimizer state " + path + " has " + std::to_string(n) + " tensors, the model trains " + std::to_string(params.size())); }
    for (auto & p : params) {
      uint64_t len, count;
      rd(&len, 8);
      if (len > 4096) { fclose(f); throw std::runtime_error("optimizer state " + path + " is corrupt"); }
      std::string name(len, '\0');
      rd(name.data(), len);
      rd(&count, 8);
      if (name != p.weight->name || (count != 0 && count != (uint64_t) ggml_nelements(p.weight))) {
        fclose(f);
        throw std::runtime_error("optimizer state " + path + " does not match the model (tensor " + name + ")");
      }
      p.m.assign(count, 0.0f);
      p.v.assign(count, 0.0f);
      if (count) { rd(p.m.data(), count * 4); rd(p.v.data(), count * 4); }
    }
    fclose(f);
  }
};
