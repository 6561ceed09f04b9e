// The update and the KL probe: an update's sequences packed into shared-prefix trees, the loss of each
// datapoint on the backend (training_graph.cpp), one optimizer step over the batch (device_optimizer.cpp)
// with clipping and the KL guard.
#include "packing.hpp"
#include "trainer_state.hpp"
#include "training_graph.hpp"

#include <chrono>
#include <cmath>
#include <ctime>
#include <stdexcept>

namespace {

// CPU time of the whole process (every thread): unlike wall time, it barely moves with the machine's load.
double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct Sequence {
  std::vector<int> tokens;
  std::vector<float> weights;     // weight of -log p(token i | tokens < i)
  std::vector<float> kl_weights;  // weight of KL(policy || base) of the distribution predicting token i
};

struct Probe {
  std::vector<int> tokens;
  std::vector<int> positions;
};

std::vector<Probe> read_probe(const Json & j) {
  if (j.kind != Json::Arr) throw std::runtime_error("probe must be an array");
  std::vector<Probe> out;
  for (const Json & it : j.a) {
    require_keys(it, {"tokens", "positions"});
    Probe p{int_array(it.at("tokens"), "tokens"), int_array(it.at("positions"), "positions")};
    check_tokens(p.tokens);
    for (int q : p.positions) if (q < 0 || q >= (int) p.tokens.size()) throw std::runtime_error("probe position out of range");
    out.push_back(std::move(p));
  }
  return out;
}

// Targets with no policy-gradient weight still need one entry for the graph's gather.
HeadTargets empty_targets() {
  HeadTargets t;
  t.index = {0};
  t.weight = {0.0f};
  t.kl_weight.assign(T.n_ctx, 0.0f);
  return t;
}

// The base is frozen and a run's probe fixed: the base's rows at the probe's positions are computed once
// (a base forward per probe datapoint) and kept on the host, so each later measurement is one policy
// forward per datapoint with those rows written back where the policy's graph reads them.
struct ProbeRows {
  std::string key;                                    // the probe's tokens and positions
  std::vector<std::vector<std::pair<int, std::vector<float>>>> rows;  // per datapoint: (row, base log-softmax)
};
ProbeRows probe_rows;

std::string probe_key(const std::vector<Probe> & probe) {
  std::string k;
  for (const auto & p : probe) {
    k.append((const char *) p.tokens.data(), p.tokens.size() * sizeof(int)).push_back('|');
    k.append((const char *) p.positions.data(), p.positions.size() * sizeof(int)).push_back(';');
  }
  return k;
}

// Mean KL(policy || base) of the next-token distribution after the given positions, the prompts packed into
// shared-prefix trees as an update's sequences are; the max beside it.
double probe_kl(const std::vector<Probe> & probe, double * max_out) {
  if (!T.ctx_base_train) throw std::runtime_error("KL needs a base model (load with baseModel)");
  std::vector<SequenceWeights> views;
  for (const auto & it : probe) views.push_back({&it.tokens, nullptr, nullptr});
  std::vector<std::pair<size_t, std::vector<int>>> where;
  const std::vector<Datapoint> dps = pack_sequences(views, T.n_ctx, true, &where);
  const std::string key = probe_key(probe);
  const bool cached = probe_rows.key == key;
  if (!cached) {
    probe_rows.key.clear();
    probe_rows.rows.assign(dps.size(), {});
  }
  const size_t row_bytes = (size_t) T.n_vocab * sizeof(float);
  double total = 0, mx = 0;
  long count = 0;
  const HeadTargets none = empty_targets();
  HeadReadout out;
  for (size_t d = 0; d < dps.size(); d++) {
    std::vector<int> rows;
    for (size_t k = 0; k < probe.size(); k++) {
      if (where[k].first != d) continue;
      for (int p : probe[k].positions) rows.push_back(where[k].second[(size_t) p]);
    }
    auto & kept = probe_rows.rows[d];
    if (cached) {
      for (const auto & [row, values] : kept) ggml_backend_tensor_set(T.base_rows, values.data(), (size_t) row * row_bytes, row_bytes);
    } else {
      graph_run_base(T.ctx_base_train, dps[d]);
      for (int row : rows) {
        std::vector<float> values(T.n_vocab);
        ggml_backend_tensor_get(T.base_rows, values.data(), (size_t) row * row_bytes, row_bytes);
        kept.emplace_back(row, std::move(values));
      }
    }
    graph_run_policy(T.ctx_train, dps[d], none, false, false, out);
    for (int row : rows) {
      const double kl = out.kl[(size_t) row];
      total += kl;
      mx = std::max(mx, kl);
      count++;
    }
  }
  probe_rows.key = key;
  if (max_out) *max_out = mx;
  return count ? total / count : 0;
}

// One update: the gradient of the whole batch's loss (sum over sequences of weight * -log p plus klWeight *
// KL(policy || base), the weights already normalised by the app), accumulated over the batch's datapoints,
// then one optimizer step. With a KL target the step is halved until the probe's KL is under it, and undone
// when it still is not after maxBacktracks halvings.
}  // namespace

std::string cmd_train(const Json & req) {
  require_keys(req, {"cmd", "items", "lr", "maxGradNorm", "klTarget", "maxBacktracks", "probe", "pack"});
  if (!T.model) throw std::runtime_error("load a model first");
  const Json & items = req.at("items");
  if (items.kind != Json::Arr) throw std::runtime_error("train needs \"items\"");
  const float lr = (float) req.need_num("lr");
  if (!(lr > 0)) throw std::runtime_error("lr must be > 0");
  const double max_grad_norm = req.need_num("maxGradNorm");
  const double kl_target = req.need_num("klTarget");
  const int max_backtracks = (int) req.need_num("maxBacktracks");
  const std::vector<Probe> probe = read_probe(req.at("probe"));
  const bool pack = req.need_bool("pack");
  // validate everything before the first step, so bad input changes no weight
  std::vector<Sequence> seqs;
  bool needs_base = false;
  for (const Json & it : items.a) {
    require_keys(it, {"tokens", "weights", "klWeights"});
    Sequence s{int_array(it.at("tokens"), "tokens"), float_array(it.at("weights"), "weights"), float_array(it.at("klWeights"), "klWeights")};
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
  const bool guard = kl_target > 0 && !probe.empty();
  if ((needs_base || guard) && !T.base) throw std::runtime_error("a KL term or KL target needs a base model (load with baseModel)");

  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  std::vector<SequenceWeights> views;
  long weighted_tokens = 0, sequence_tokens = 0;
  for (const Sequence & s : seqs) {
    views.push_back({&s.tokens, &s.weights, &s.kl_weights});
    sequence_tokens += (long) s.tokens.size();
    for (size_t i = 1; i < s.weights.size(); i++) weighted_tokens += s.weights[i] != 0;
  }
  const std::vector<Datapoint> datapoints = pack_sequences(views, T.n_ctx, pack);
  double pg_objective = 0, kl_objective = 0, entropy_sum = 0;
  long entropy_rows = 0, packed_tokens = 0;
  if (!seqs.empty()) T.opt.snapshot();
  HeadReadout out;
  try {
    bool first = true;
    for (const Datapoint & dp : datapoints) {
      packed_tokens += (long) dp.nodes.size();
      HeadTargets tg;
      tg.kl_weight.assign(T.n_ctx, 0.0f);
      std::vector<char> row_pg(T.n_ctx, 0);
      bool any_kl = false;
      for (const PackedNode & c : dp.nodes) {
        if (c.parent < 0) continue;
        if (c.w != 0) {
          tg.index.push_back((int32_t) ((long long) c.parent * T.n_vocab + c.token));
          tg.weight.push_back((float) c.w);
          row_pg[(size_t) c.parent] = 1;
        }
        if (c.b != 0) {
          tg.kl_weight[(size_t) c.parent] += (float) c.b;
          any_kl = true;
        }
      }
      if (tg.index.empty()) {
        tg.index = {0};
        tg.weight = {0.0f};
      }
      // klCoef 0 sends no KL weight: no base forward
      if (any_kl) graph_run_base(T.ctx_base_train, dp);
      graph_run_policy(T.ctx_train, dp, tg, true, first, out);
      first = false;
      for (size_t k = 0; k < tg.weight.size(); k++) pg_objective += -(double) tg.weight[k] * out.logp[k];
      for (int r = 0; r < T.n_ctx; r++) {
        if (row_pg[(size_t) r]) {
          entropy_sum += -(double) out.neg_entropy[(size_t) r];
          entropy_rows++;
        }
        if (any_kl && tg.kl_weight[(size_t) r] != 0) kl_objective += (double) tg.kl_weight[(size_t) r] * out.kl[(size_t) r];
      }
    }
  } catch (...) {
    if (!seqs.empty()) T.opt.restore();  // the weights the update started from (ggml's per-datapoint steps are below float resolution)
    throw;
  }
  const double forward_backward_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  double grad_norm = 0, step_norm = 0, scale = 0, kl_after = -1, kl_max = 0;
  int backtracks = 0;
  float clip = 1;
  if (!seqs.empty()) {
    grad_norm = T.opt.gradient_norm();
    if (!std::isfinite(grad_norm)) {
      T.opt.restore();
      throw std::runtime_error("the gradient is not finite (NaN or infinity): the update was not applied");
    }
    clip = max_grad_norm > 0 && grad_norm > max_grad_norm ? (float) (max_grad_norm / grad_norm) : 1.0f;
    if (clip < 1) T.opt.scale_gradients(clip);
    T.opt.begin(guard);
    scale = 1;
    for (;;) {
      step_norm = T.opt.step(lr * (float) scale);
      if (!guard) break;
      kl_after = probe_kl(probe, &kl_max);
      if (kl_after <= kl_target) break;
      if (backtracks >= max_backtracks) {
        // still above the target at the smallest step: undo it (weights and moments as before)
        T.opt.undo();
        scale = 0;
        step_norm = 0;
        kl_after = probe_kl(probe, &kl_max);
        break;
      }
      backtracks++;
      scale *= 0.5;
    }
  }  // no sequence: no step, the KL is what it was (the app keeps the last measurement)
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  JsonOut o;
  o.boolean("ok", true)
      .str("event", "trained")
      .num("objective", pg_objective + kl_objective)
      .num("pgObjective", pg_objective)
      .num("klObjective", kl_objective)
      .num("entropy", entropy_rows ? entropy_sum / entropy_rows : 0)
      .num("gradNorm", grad_norm)
      .boolean("clipped", clip < 1)
      .num("stepNorm", step_norm)
      .num("stepScale", scale)
      .integer("backtracks", backtracks);
  if (kl_after >= 0) o.num("probeKl", kl_after);
  else o.null("probeKl");
  return o.num("probeKlMax", kl_max)
      .integer("optimizerSteps", scale > 0 ? 1 : 0)
      .integer("totalOptimizerSteps", T.opt.t)
      .integer("sequences", (long long) seqs.size())
      .integer("datapoints", (long long) datapoints.size())
      .integer("weightedTokens", weighted_tokens)
      .integer("sequenceTokens", sequence_tokens)
      .integer("packedTokens", packed_tokens)
      .integer("tokensProcessed", (long long) datapoints.size() * T.n_ctx)
      .num("forwardBackwardSeconds", forward_backward_s)
      .num("seconds", secs)
      .num("cpuSeconds", process_cpu_seconds() - cpu0)
      .integer("peakRssBytes", peak_rss_bytes())
      .done();
}

// KL(policy || base) of the next-token distribution after each listed position.
std::string cmd_kl(const Json & req) {
  require_keys(req, {"cmd", "items"});
  if (!T.base) throw std::runtime_error("kl needs a base model (load with baseModel)");
  const std::vector<Probe> probe = read_probe(req.at("items"));
  long count = 0;
  for (const auto & it : probe) count += (long) it.positions.size();
  double mx = 0;
  const double mean = probe_kl(probe, &mx);
  return JsonOut().boolean("ok", true).str("event", "kl").num("mean", mean).num("max", mx).integer("positions", count).done();
}

