// Prefix-tree packing of an update's sequences into training datapoints. Decisions share long prefixes
// (the system prompt; a GRPO group's first prompt is the same for every rollout), so each datapoint is a
// trie of sequences laid out with every node after its parent: a node attends to its ancestors and
// itself only, at the position of its depth. The logits at a node are then exactly those of any of its
// sequences on its own, and because the loss's gradient is linear in the per-row labels, a shared row
// carries the summed weights of every sequence through it: the batch's gradient is the one the
// sequences would give one by one, with each shared prefix computed once and no padding in between.
#pragma once
#include <algorithm>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

struct PackedNode {
  int token = 0;
  int parent = -1;  // -1: a root (position 0)
  int depth = 0;
  double w = 0;     // summed policy-gradient weight of predicting this token from the parent's row
  double b = 0;     // summed KL weight of the parent's row
};

struct Datapoint {
  std::vector<PackedNode> nodes;
};

struct SequenceWeights {
  const std::vector<int> * tokens;
  const std::vector<float> * weights;
  const std::vector<float> * kl_weights;
};

// Packs sequences (none longer than capacity) into datapoints of at most `capacity` nodes. `share`
// false puts each sequence in a datapoint of its own (the reference layout). Deterministic: sequences
// are taken in lexicographic order of their tokens, so neighbours share the most.
// `where`, when given, receives for each input sequence its datapoint and the node of each of its tokens.
inline std::vector<Datapoint> pack_sequences(const std::vector<SequenceWeights> & seqs, size_t capacity, bool share,
                                             std::vector<std::pair<size_t, std::vector<int>>> * where = nullptr) {
  if (where) where->assign(seqs.size(), {});
  std::vector<size_t> order(seqs.size());
  std::iota(order.begin(), order.end(), 0);
  if (share) std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return *seqs[a].tokens < *seqs[b].tokens; });
  std::vector<Datapoint> out;
  std::map<std::pair<int, int>, int> children;  // (parent, token) -> node, for the current datapoint
  auto shared_prefix = [&](const std::vector<int> & tk) {
    int node = -1;
    size_t n = 0;
    for (; n < tk.size(); n++) {
      auto it = children.find({node, tk[n]});
      if (it == children.end()) break;
      node = it->second;
    }
    return n;
  };
  for (size_t k : order) {
    const std::vector<int> & tk = *seqs[k].tokens;
    if (out.empty() || !share || out.back().nodes.size() + (tk.size() - shared_prefix(tk)) > capacity) {
      out.emplace_back();
      children.clear();
    }
    Datapoint & d = out.back();
    if (where) (*where)[k].first = out.size() - 1;
    int node = -1;
    for (size_t t = 0; t < tk.size(); t++) {
      auto it = children.find({node, tk[t]});
      int next;
      if (it != children.end()) next = it->second;
      else {
        next = (int) d.nodes.size();
        PackedNode pn;
        pn.token = tk[t];
        pn.parent = node;
        pn.depth = (int) t;
        d.nodes.push_back(pn);
        children[{node, tk[t]}] = next;
      }
      if (t > 0 && seqs[k].weights) {
        d.nodes[next].w += (*seqs[k].weights)[t];
        d.nodes[next].b += (*seqs[k].kl_weights)[t];
      }
      if (where) (*where)[k].second.push_back(next);
      node = next;
    }
  }
  return out;
}
