#include "device_optimizer.hpp"

#include "ggml-alloc.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <stdexcept>

DeviceOptimizer::~DeviceOptimizer() { release(); }

void DeviceOptimizer::release() {
  if (sched) ggml_backend_sched_free(sched);
  sched = nullptr;
  for (auto * b : buffers) ggml_backend_buffer_free(b);
  buffers.clear();
  for (auto * c : contexts) ggml_free(c);
  contexts.clear();
  if (par_buf) ggml_backend_buffer_free(par_buf);
  par_buf = nullptr;
  if (par_ctx) ggml_free(par_ctx);
  par_ctx = nullptr;
}

long long DeviceOptimizer::n_floats() const {
  long long n = 0;
  for (const auto & p : params) n += ggml_nelements(p.weight);
  return n;
}

long long DeviceOptimizer::state_bytes() const {
  long long n = 0;
  for (auto * b : buffers) n += (long long) ggml_backend_buffer_get_size(b);
  return n;
}

// One tensor per parameter in `slot`, shaped like its weight, in the weight's own buffer type, zeroed.
void DeviceOptimizer::allocate_state(const std::function<ggml_tensor *&(DeviceParam &)> & slot, const char * what) {
  std::map<ggml_backend_buffer_type_t, std::vector<DeviceParam *>> by_buft;
  for (auto & p : params) by_buft[ggml_backend_buffer_get_type(p.weight->buffer)].push_back(&p);
  for (auto & [buft, ps] : by_buft) {
    ggml_init_params ip = {ps.size() * ggml_tensor_overhead(), nullptr, true};
    ggml_context * ctx = ggml_init(ip);
    contexts.push_back(ctx);
    for (DeviceParam * p : ps) {
      ggml_tensor *& t = slot(*p);
      t = ggml_dup_tensor(ctx, p->weight);
      ggml_format_name(t, "%s %s", what, p->weight->name);
    }
    ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors_from_buft(ctx, buft);
    if (!buf) throw std::runtime_error(std::string("cannot allocate the optimizer's ") + what + " in " + ggml_backend_buft_name(buft) + " memory (out of memory?)");
    ggml_backend_buffer_clear(buf, 0);
    buffers.push_back(buf);
  }
}

void DeviceOptimizer::attach(const std::vector<ggml_backend_t> & backends) {
  if (params.empty()) throw std::runtime_error("no tensor of this model can train (lastBlocks too small?)");
  if (backends.empty()) throw std::runtime_error("the training context's backends were not seen");
  allocate_state([](DeviceParam & p) -> ggml_tensor *& { return p.w0; }, "w0");
  if (settings.adamw) {
    allocate_state([](DeviceParam & p) -> ggml_tensor *& { return p.m; }, "m");
    allocate_state([](DeviceParam & p) -> ggml_tensor *& { return p.v; }, "v");
  }
  ggml_init_params ip = {ggml_tensor_overhead(), nullptr, true};
  par_ctx = ggml_init(ip);
  step_params = ggml_new_tensor_1d(par_ctx, GGML_TYPE_F32, settings.adamw ? 7 : 2);
  ggml_set_name(step_params, settings.adamw ? "adamw_params" : "sgd_params");
  par_buf = ggml_backend_alloc_ctx_tensors_from_buft(par_ctx, ggml_backend_cpu_buffer_type());
  std::vector<ggml_backend_t> bk(backends);
  sched = ggml_backend_sched_new(bk.data(), nullptr, (int) bk.size(), params.size() * 8 + 64, false, false);
  if (!sched) throw std::runtime_error("cannot create the optimizer's scheduler");
}

double DeviceOptimizer::run(const std::function<ggml_tensor *(ggml_context *, ggml_cgraph *)> & build) {
  const size_t n = params.size() * 8 + 64;
  ggml_init_params ip = {n * ggml_tensor_overhead() + ggml_graph_overhead_custom(n, false), nullptr, true};
  ggml_context * ctx = ggml_init(ip);
  ggml_cgraph * gf = ggml_new_graph_custom(ctx, n, false);
  ggml_tensor * out = build(ctx, gf);
  if (out) {
    ggml_set_output(out);
    ggml_build_forward_expand(gf, out);
  }
  double value = 0;
  ggml_backend_sched_reset(sched);
  const bool ok = ggml_backend_sched_alloc_graph(sched, gf) && ggml_backend_sched_graph_compute(sched, gf) == GGML_STATUS_SUCCESS;
  if (ok && out) {
    float f = 0;
    ggml_backend_tensor_get(out, &f, 0, sizeof f);
    value = f;
  }
  ggml_backend_sched_reset(sched);
  ggml_free(ctx);
  if (!ok) throw std::runtime_error("the optimizer's graph could not be allocated or computed on the backend");
  return value;
}

void DeviceOptimizer::snapshot() {
  for (auto & p : params) ggml_backend_tensor_copy(p.weight, p.w0);
}

void DeviceOptimizer::restore() {
  for (auto & p : params) ggml_backend_tensor_copy(p.w0, p.weight);
}

double DeviceOptimizer::gradient_norm() {
  for (const auto & p : params) {
    if (!p.grad) throw std::runtime_error(std::string("no gradient accumulator for ") + p.weight->name);
  }
  const double sq = run([&](ggml_context * ctx, ggml_cgraph *) {
    ggml_tensor * acc = nullptr;
    for (auto & p : params) {
      ggml_tensor * s = ggml_sum(ctx, ggml_sqr(ctx, p.grad));
      acc = acc ? ggml_add(ctx, acc, s) : s;
    }
    return acc;
  });
  return std::sqrt(sq);
}

void DeviceOptimizer::scale_gradients(float scale) {
  run([&](ggml_context * ctx, ggml_cgraph * gf) -> ggml_tensor * {
    for (auto & p : params) ggml_build_forward_expand(gf, ggml_scale_inplace(ctx, p.grad, scale));
    return nullptr;
  });
}

void DeviceOptimizer::begin(bool keep_previous) {
  t++;
  kept = false;
  stepped = false;
  if (!settings.adamw || !keep_previous) return;
  if (!params.front().m_prev) {
    allocate_state([](DeviceParam & p) -> ggml_tensor *& { return p.m_prev; }, "m_prev");
    allocate_state([](DeviceParam & p) -> ggml_tensor *& { return p.v_prev; }, "v_prev");
  }
  for (auto & p : params) {
    ggml_backend_tensor_copy(p.m, p.m_prev);
    ggml_backend_tensor_copy(p.v, p.v_prev);
  }
  kept = true;
}

double DeviceOptimizer::step(float lr) {
  // A second step of the same update starts again from the weights and moments before the first.
  if (stepped) {
    if (settings.adamw && !kept) throw std::logic_error("a repeated AdamW step needs the moments kept by begin(true)");
    for (auto & p : params) {
      ggml_backend_tensor_copy(p.w0, p.weight);
      if (kept) {
        ggml_backend_tensor_copy(p.m_prev, p.m);
        ggml_backend_tensor_copy(p.v_prev, p.v);
      }
    }
  } else {
    restore();  // ggml-opt's per-datapoint no-op steps leave the weights where they were, bit for bit or nearly: start exactly at w0
  }
  stepped = true;
  float * par = (float *) step_params->data;
  if (settings.adamw) {
    par[0] = lr;
    par[1] = settings.beta1;
    par[2] = settings.beta2;
    par[3] = settings.eps;
    par[4] = settings.weight_decay;
    par[5] = (float) (1.0 / (1.0 - std::pow((double) settings.beta1, (double) t)));
    par[6] = (float) (1.0 / (1.0 - std::pow((double) settings.beta2, (double) t)));
  } else {
    par[0] = lr;
    par[1] = settings.weight_decay;
  }
  run([&](ggml_context * ctx, ggml_cgraph * gf) -> ggml_tensor * {
    for (auto & p : params) {
      ggml_tensor * op = settings.adamw ? ggml_opt_step_adamw(ctx, p.weight, p.grad, p.m, p.v, step_params)
                                        : ggml_opt_step_sgd(ctx, p.weight, p.grad, step_params);
      ggml_build_forward_expand(gf, op);
    }
    return nullptr;
  });
  const double sq = run([&](ggml_context * ctx, ggml_cgraph *) {
    ggml_tensor * acc = nullptr;
    for (auto & p : params) {
      ggml_tensor * s = ggml_sum(ctx, ggml_sqr(ctx, ggml_sub(ctx, p.weight, p.w0)));
      acc = acc ? ggml_add(ctx, acc, s) : s;
    }
    return acc;
  });
  return std::sqrt(sq);
}

void DeviceOptimizer::undo() {
  if (settings.adamw && !kept) throw std::logic_error("undo needs the moments kept by begin(true)");
  for (auto & p : params) {
    ggml_backend_tensor_copy(p.w0, p.weight);
    if (kept) {
      ggml_backend_tensor_copy(p.m_prev, p.m);
      ggml_backend_tensor_copy(p.v_prev, p.v);
    }
  }
  t--;
  stepped = false;
}

// State file: "HLOPT1", the optimizer, step count, then per tensor its name, size and moments (none for SGD).
void DeviceOptimizer::save(const std::string & path) const {
  FILE * f = fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write optimizer state " + path);
  auto wr = [&](const void * d, size_t n) {
    if (fwrite(d, 1, n, f) != n) {
      fclose(f);
      throw std::runtime_error("short write to " + path + " (disk full?)");
    }
  };
  wr("HLOPT1", 6);
  const uint8_t adamw = settings.adamw;
  wr(&adamw, 1);
  wr(&t, 8);
  const uint64_t n = params.size();
  wr(&n, 8);
  std::vector<float> host;
  for (const auto & p : params) {
    const std::string name = p.weight->name;
    const uint64_t len = name.size(), count = settings.adamw ? (uint64_t) ggml_nelements(p.weight) : 0;
    wr(&len, 8);
    wr(name.data(), len);
    wr(&count, 8);
    if (!count) continue;
    host.resize(count);
    ggml_backend_tensor_get(p.m, host.data(), 0, count * 4);
    wr(host.data(), count * 4);
    ggml_backend_tensor_get(p.v, host.data(), 0, count * 4);
    wr(host.data(), count * 4);
  }
  if (fclose(f) != 0) throw std::runtime_error("cannot close " + path + " (disk full?)");
}

void DeviceOptimizer::load(const std::string & path) {
  FILE * f = fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot read optimizer state " + path);
  auto fail = [&](const std::string & why) {
    fclose(f);
    throw std::runtime_error("optimizer state " + path + " " + why);
  };
  auto rd = [&](void * d, size_t n) { if (fread(d, 1, n, f) != n) fail("is truncated"); };
  char magic[6];
  rd(magic, 6);
  if (std::string(magic, 6) != "HLOPT1") fail("is not an optimizer state file");
  uint8_t adamw;
  rd(&adamw, 1);
  if ((bool) adamw != settings.adamw) fail("is for another optimizer");
  long long steps;
  rd(&steps, 8);
  uint64_t n;
  rd(&n, 8);
  if (n != params.size()) fail("has " + std::to_string(n) + " tensors, the model trains " + std::to_string(params.size()));
  std::vector<float> host;
  for (auto & p : params) {
    uint64_t len, count;
    rd(&len, 8);
    if (len > 4096) fail("is corrupt");
    std::string name(len, '\0');
    rd(name.data(), len);
    rd(&count, 8);
    // a state saved before any AdamW step has no moments: they start at zero, as they are
    if (name != p.weight->name || (count != 0 && count != (uint64_t) ggml_nelements(p.weight))) fail("does not match the model (tensor " + name + ")");
    if (!count) continue;
    host.resize(count);
    rd(host.data(), count * 4);
    ggml_backend_tensor_set(p.m, host.data(), 0, count * 4);
    rd(host.data(), count * 4);
    ggml_backend_tensor_set(p.v, host.data(), 0, count * 4);
  }
  fclose(f);
  t = steps;
}
