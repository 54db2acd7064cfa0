// Contraction paths for n-ary einsums: exhaustive search over operand subsets, greedy beyond.
#include "passes/EinsumPath.h"

#include "TL/Einsum.h"

#include "llvm/ADT/bit.h"

#include <algorithm>
#include <functional>
#include <limits>

using namespace tlc;

namespace {

/// The operands of an einsum as label sets, and the sizes the costs need.
struct Problem {
  int64_t n = 0;
  uint64_t result = 0;
  llvm::SmallVector<double> dimSizes;
  llvm::SmallVector<uint64_t> raw;     // labels of each operand (diagonals taken)
  llvm::SmallVector<uint64_t> reduced; // ... without the labels only it has and that are summed
  llvm::SmallVector<bool> diagonal;

  double size(uint64_t labels) const {
    double s = 1;
    for (; labels; labels &= labels - 1)
      s *= dimSizes[llvm::countr_zero(labels)];
    return s;
  }
};

Problem makeProblem(const tl::EinsumSpec &spec) {
  Problem p;
  p.n = spec.operandDims.size();
  for (int64_t s : spec.dimSizes)
    p.dimSizes.push_back(s);
  for (int64_t d : spec.resultDims)
    p.result |= uint64_t(1) << d;
  for (const auto &dims : spec.operandDims) {
    uint64_t labels = 0;
    bool repeated = false;
    for (int64_t d : dims) {
      if (d == tl::EinsumSpec::kBroadcast)
        continue;
      repeated |= (labels >> d) & 1;
      labels |= uint64_t(1) << d;
    }
    p.raw.push_back(labels);
    p.diagonal.push_back(repeated);
  }
  for (int64_t i = 0; i < p.n; ++i) {
    uint64_t elsewhere = p.result;
    for (int64_t j = 0; j < p.n; ++j)
      if (j != i)
        elsewhere |= p.raw[j];
    p.reduced.push_back(p.raw[i] & elsewhere);
  }
  return p;
}

/// FLOPs of one contraction of `terms` operands over the loop nest `loops` that keeps `kept`.
double contractionFlops(const Problem &p, uint64_t loops, uint64_t kept, int64_t terms) {
  double factor = std::max<int64_t>(1, terms - 1) + ((loops & ~kept) ? 1 : 0);
  return p.size(loops) * factor;
}

/// One side of a pairwise step: a subtree's kept labels, or a leaf that may still carry its
/// unique summed labels.
struct Side {
  uint64_t labels;
  int64_t leaf = -1; // operand number when the side is a single operand
};

/// The cheapest way to contract `a` and `b` into `kept`: a leaf with unique summed labels is
/// reduced first (a one-operand step) unless summing them in this contraction costs less.
/// Returns FLOPs and sets, per side, whether it is reduced first.
double pairFlops(const Problem &p, Side a, Side b, uint64_t kept, bool &reduceA, bool &reduceB) {
  double best = std::numeric_limits<double>::infinity();
  auto options = [&](Side s) { return s.leaf >= 0 && p.raw[s.leaf] != p.reduced[s.leaf] ? 2 : 1; };
  for (int ra = 0; ra < options(a); ++ra)
    for (int rb = 0; rb < options(b); ++rb) {
      // Option 0 is "reduced first" (the default, also on ties).
      uint64_t la = a.leaf >= 0 ? (ra ? p.raw[a.leaf] : p.reduced[a.leaf]) : a.labels;
      uint64_t lb = b.leaf >= 0 ? (rb ? p.raw[b.leaf] : p.reduced[b.leaf]) : b.labels;
      double flops = contractionFlops(p, la | lb, kept, 2);
      if (a.leaf >= 0 && !ra && options(a) == 2)
        flops += contractionFlops(p, p.raw[a.leaf], p.reduced[a.leaf], 1);
      if (b.leaf >= 0 && !rb && options(b) == 2)
        flops += contractionFlops(p, p.raw[b.leaf], p.reduced[b.leaf], 1);
      if (flops < best) {
        best = flops;
        reduceA = options(a) == 2 && !ra;
        reduceB = options(b) == 2 && !rb;
      }
    }
  return best;
}

EinsumPath startPath(const Problem &p) {
  EinsumPath path;
  for (int64_t i = 0; i < p.n; ++i) {
    path.operandLabels.push_back(p.raw[i]);
    path.uniqueSummed.push_back(p.raw[i] & ~p.reduced[i]);
    path.reducedFirst.push_back(false);
    path.hasDiagonal.push_back(p.diagonal[i]);
  }
  return path;
}

void finishPath(const Problem &p, EinsumPath &path) {
  path.flops = 0;
  path.largestIntermediate = 0;
  for (auto [k, step] : llvm::enumerate(path.steps)) {
    path.flops += step.flops;
    if (k + 1 != path.steps.size())
      path.largestIntermediate = std::max(path.largestIntermediate, step.size);
  }
  for (int64_t i = 0; i < p.n; ++i)
    if (path.reducedFirst[i])
      path.largestIntermediate = std::max(path.largestIntermediate, p.size(p.reduced[i]));
}

/// Exhaustive search over subsets of operands (3^n split pairs). `worst` maximizes FLOPs.
EinsumPath searchPath(const Problem &p, bool worst) {
  int64_t n = p.n;
  uint64_t full = (uint64_t(1) << n) - 1;
  std::vector<uint64_t> reducedUnion(full + 1, 0), rawUnion(full + 1, 0);
  for (uint64_t s = 1; s <= full; ++s) {
    int64_t i = llvm::countr_zero(s);
    reducedUnion[s] = reducedUnion[s & (s - 1)] | p.reduced[i];
    rawUnion[s] = rawUnion[s & (s - 1)] | p.raw[i];
  }
  // A subset's result keeps the labels the other operands or the einsum's result still need.
  auto kept = [&](uint64_t s) { return reducedUnion[s] & (p.result | rawUnion[full ^ s]); };
  struct Best {
    double flops, largest;
    uint64_t split; // the subset's left part (0 for a single operand)
  };
  std::vector<Best> best(full + 1, Best{0, 0, 0});
  for (uint64_t s = 1; s <= full; ++s) {
    if (llvm::popcount(s) < 2)
      continue;
    uint64_t keep = s == full ? p.result : kept(s);
    double size = s == full ? 0 : p.size(keep);
    Best b{worst ? -1.0 : std::numeric_limits<double>::infinity(), 0, 0};
    // Each unordered split once: the part holding the lowest operand is the left one.
    uint64_t low = s & -s;
    for (uint64_t a = (s - 1) & s; a; a = (a - 1) & s) {
      if (!(a & low))
        continue;
      uint64_t c = s ^ a;
      Side left{llvm::popcount(a) == 1 ? 0 : kept(a), llvm::popcount(a) == 1 ? (int64_t)llvm::countr_zero(a) : -1};
      Side right{llvm::popcount(c) == 1 ? 0 : kept(c), llvm::popcount(c) == 1 ? (int64_t)llvm::countr_zero(c) : -1};
      bool ra, rb;
      double flops = best[a].flops + best[c].flops + pairFlops(p, left, right, keep, ra, rb);
      double largest = std::max({best[a].largest, best[c].largest, size});
      bool better = worst ? flops > b.flops
                          : (flops < b.flops || (flops == b.flops && largest < b.largest));
      if (better)
        b = Best{flops, largest, a};
    }
    best[s] = b;
  }
  // Rebuild the steps, children before parents.
  EinsumPath path = startPath(p);
  path.exact = true;
  std::function<int64_t(uint64_t)> emit = [&](uint64_t s) -> int64_t {
    if (llvm::popcount(s) == 1)
      return llvm::countr_zero(s);
    uint64_t a = best[s].split, c = s ^ a;
    int64_t lhs = emit(a), rhs = emit(c);
    uint64_t keep = s == full ? p.result : kept(s);
    Side left{lhs < n ? 0 : kept(a), lhs < n ? lhs : -1};
    Side right{rhs < n ? 0 : kept(c), rhs < n ? rhs : -1};
    bool ra, rb;
    double flops = pairFlops(p, left, right, keep, ra, rb);
    if (lhs < n)
      path.reducedFirst[lhs] = ra;
    if (rhs < n)
      path.reducedFirst[rhs] = rb;
    path.steps.push_back(EinsumStep{lhs, rhs, keep, flops, p.size(keep)});
    return n + path.steps.size() - 1;
  };
  emit(full);
  finishPath(p, path);
  return path;
}

/// Greedy: repeatedly contract the pair (sharing a label, if any pair does) whose result
/// grows memory least (result size minus the operands' sizes), then fewer FLOPs.
EinsumPath greedyPath(const Problem &p) {
  EinsumPath path = startPath(p);
  struct Node {
    int64_t id;
    Side side;
  };
  std::vector<Node> nodes;
  for (int64_t i = 0; i < p.n; ++i)
    nodes.push_back(Node{i, Side{p.reduced[i], i}});
  auto needed = [&](const Side &s) { return s.leaf >= 0 ? p.raw[s.leaf] : s.labels; };
  while (nodes.size() > 1) {
    size_t bi = 0, bj = 1;
    bool bestShares = false;
    double bestScore = 0, bestFlops = 0;
    bool found = false;
    for (size_t i = 0; i < nodes.size(); ++i)
      for (size_t j = i + 1; j < nodes.size(); ++j) {
        uint64_t outside = p.result;
        for (size_t k = 0; k < nodes.size(); ++k)
          if (k != i && k != j)
            outside |= needed(nodes[k].side);
        uint64_t keep = (nodes[i].side.labels | nodes[j].side.labels) & outside;
        bool shares = needed(nodes[i].side) & needed(nodes[j].side);
        bool ra, rb;
        double flops = pairFlops(p, nodes[i].side, nodes[j].side, keep, ra, rb);
        double score = p.size(keep) - p.size(nodes[i].side.labels) - p.size(nodes[j].side.labels);
        bool better = !found || (shares && !bestShares) ||
                      (shares == bestShares &&
                       (score < bestScore || (score == bestScore && flops < bestFlops)));
        if (better) {
          found = true;
          bi = i, bj = j, bestShares = shares, bestScore = score, bestFlops = flops;
        }
      }
    uint64_t outside = p.result;
    for (size_t k = 0; k < nodes.size(); ++k)
      if (k != bi && k != bj)
        outside |= needed(nodes[k].side);
    uint64_t keep = nodes.size() == 2
                        ? p.result
                        : (nodes[bi].side.labels | nodes[bj].side.labels) & outside;
    bool ra, rb;
    double flops = pairFlops(p, nodes[bi].side, nodes[bj].side, keep, ra, rb);
    if (nodes[bi].side.leaf >= 0)
      path.reducedFirst[nodes[bi].id] = ra;
    if (nodes[bj].side.leaf >= 0)
      path.reducedFirst[nodes[bj].id] = rb;
    path.steps.push_back(EinsumStep{nodes[bi].id, nodes[bj].id, keep, flops, p.size(keep)});
    Node merged{p.n + (int64_t)path.steps.size() - 1, Side{keep, -1}};
    nodes.erase(nodes.begin() + bj);
    nodes[bi] = merged;
  }
  finishPath(p, path);
  return path;
}

int64_t cappedLimit(int64_t exactLimit) { return std::min<int64_t>(exactLimit, 16); }

} // namespace

EinsumPath tlc::planEinsumPath(const tl::EinsumSpec &spec, EinsumPathMode mode,
                               int64_t exactLimit) {
  Problem p = makeProblem(spec);
  if (mode == EinsumPathMode::Optimal && p.n <= cappedLimit(exactLimit))
    return searchPath(p, /*worst=*/false);
  return greedyPath(p);
}

EinsumPath tlc::worstEinsumPath(const tl::EinsumSpec &spec, int64_t exactLimit) {
  Problem p = makeProblem(spec);
  if (p.n > cappedLimit(exactLimit))
    return EinsumPath();
  return searchPath(p, /*worst=*/true);
}

double tlc::singleLoopNestFlops(const tl::EinsumSpec &spec) {
  Problem p = makeProblem(spec);
  uint64_t all = 0;
  for (int64_t d = 0; d < spec.numDims(); ++d)
    all |= uint64_t(1) << d;
  return contractionFlops(p, all, p.result, p.n);
}
