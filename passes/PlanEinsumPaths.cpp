// tl-plan-einsum-paths: an n-ary einsum becomes a tree of pairwise einsums in the cheapest order.
//
// One loop nest over every label of `ij,jk,kl->il` does n^4 multiply-adds where two matrix
// products do 2 n^3; the order (and what is summed early) decides whether a tensor network
// finishes at all. The path itself is chosen in EinsumPath.cpp; this file builds it.
#include "passes/Passes.h"

#include "TL/Einsum.h"
#include "TL/TLDialect.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

namespace tlc {
#define GEN_PASS_DEF_TLPLANEINSUMPATHS
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;
using namespace tlc;

/// The spec of an einsum of static operand shapes.
static FailureOr<tl::EinsumSpec> staticEinsumSpec(tl::EinsumOp op) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value v : op.getInputs()) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape())
      return failure();
    shapes.push_back(type.getShape());
  }
  // The verifier has checked the equation; stay silent here.
  FailureOr<tl::EinsumSpec> spec = tl::parseEinsum(op.getEquation(), shapes, [&] {
    return InFlightDiagnostic();
  });
  if (failed(spec) || spec->numDims() > kMaxEinsumLabels)
    return failure();
  return spec;
}

FailureOr<tl::EinsumSpec> tlc::splittableEinsum(tl::EinsumOp op) {
  if (op.getInputs().size() < 3)
    return failure();
  return staticEinsumSpec(op);
}

namespace {

/// A value and the loop dimension of each of its axes.
struct Labeled {
  Value value;
  SmallVector<int64_t> dims;
};

char letter(int64_t i) { return i < 26 ? 'a' + i : 'A' + (i - 26); }

/// The equation of `inputs` -> `output`, lettered a, b, ... in order of first appearance, so
/// that the same contraction gets the same equation in every einsum (and CSE merges it).
std::string canonicalEquation(ArrayRef<ArrayRef<int64_t>> inputs, ArrayRef<int64_t> output) {
  llvm::SmallDenseMap<int64_t, char> letters;
  auto term = [&](ArrayRef<int64_t> dims) {
    std::string text;
    for (int64_t d : dims)
      text.push_back(letters.try_emplace(d, letter(letters.size())).first->second);
    return text;
  };
  std::string equation;
  for (auto [i, dims] : llvm::enumerate(inputs))
    equation += (i ? "," : "") + term(dims);
  return equation + "->" + term(output);
}

struct PathBuilder {
  RewriterBase &rewriter;
  Location loc;
  const tl::EinsumSpec &spec;
  Type elementType;

  RankedTensorType typeOf(ArrayRef<int64_t> dims) const {
    SmallVector<int64_t> shape;
    for (int64_t d : dims)
      shape.push_back(spec.dimSizes[d]);
    return RankedTensorType::get(shape, elementType);
  }

  Labeled einsum(ArrayRef<Labeled> inputs, ArrayRef<int64_t> output, Type type = {}) {
    SmallVector<ArrayRef<int64_t>> terms;
    SmallVector<Value> values;
    for (const Labeled &in : inputs) {
      terms.push_back(in.dims);
      values.push_back(in.value);
    }
    std::string equation = canonicalEquation(terms, output);
    Value result = tl::EinsumOp::create(rewriter, loc, type ? type : typeOf(output),
                                        rewriter.getStringAttr(equation), values);
    return Labeled{result, SmallVector<int64_t>(output)};
  }

  /// Operand `i` ready for its first contraction: size-1 broadcast axes reshaped away, its
  /// diagonals taken, and (when the path says so) its unique summed labels reduced.
  Labeled prepare(Value value, int64_t i, const EinsumPath &path) {
    Labeled operand{value, {}};
    for (int64_t d : spec.operandDims[i])
      if (d != tl::EinsumSpec::kBroadcast)
        operand.dims.push_back(d);
    if (operand.dims.size() != spec.operandDims[i].size())
      operand.value = tl::ReshapeOp::create(rewriter, loc, typeOf(operand.dims), value);
    uint64_t dropped = path.reducedFirst[i] ? path.uniqueSummed[i] : 0;
    if (!path.hasDiagonal[i] && !dropped)
      return operand;
    SmallVector<int64_t> kept;
    for (int64_t d : operand.dims)
      if (!((dropped >> d) & 1) && !llvm::is_contained(kept, d))
        kept.push_back(d);
    return einsum({operand}, kept);
  }

  /// The layout of a pairwise result keeping `labels`: batch, left-only, right-only labels,
  /// each in its operand's order. The right operand is the one whose innermost label the
  /// result keeps and the other lacks (the contraction's n), so that label is innermost in
  /// the right operand and in the result alike.
  std::pair<bool, SmallVector<int64_t>> layout(const Labeled &a, const Labeled &b,
                                               uint64_t labels) const {
    auto has = [](const Labeled &x, int64_t d) { return llvm::is_contained(x.dims, d); };
    auto isN = [&](const Labeled &x, const Labeled &other) {
      if (x.dims.empty())
        return false;
      int64_t last = x.dims.back();
      return ((labels >> last) & 1) && !has(other, last);
    };
    bool swap = !isN(b, a) && isN(a, b);
    const Labeled &lhs = swap ? b : a, &rhs = swap ? a : b;
    SmallVector<int64_t> out;
    for (int64_t d : lhs.dims)
      if (((labels >> d) & 1) && has(rhs, d))
        out.push_back(d);
    for (int64_t d : lhs.dims)
      if (((labels >> d) & 1) && !has(rhs, d))
        out.push_back(d);
    for (int64_t d : rhs.dims)
      if (((labels >> d) & 1) && !has(lhs, d))
        out.push_back(d);
    return {swap, out};
  }

  Value build(tl::EinsumOp op, const EinsumPath &path) {
    SmallVector<Labeled> nodes;
    for (auto [i, v] : llvm::enumerate(op.getInputs()))
      nodes.push_back(prepare(v, i, path));
    for (auto [k, step] : llvm::enumerate(path.steps)) {
      const Labeled &a = nodes[step.lhs], &b = nodes[step.rhs];
      if (k + 1 == path.steps.size()) {
        auto [swap, unused] = layout(a, b, step.labels);
        Labeled result = swap ? einsum({b, a}, spec.resultDims, op.getType())
                              : einsum({a, b}, spec.resultDims, op.getType());
        return result.value;
      }
      auto [swap, out] = layout(a, b, step.labels);
      nodes.push_back(swap ? einsum({b, a}, out) : einsum({a, b}, out));
    }
    llvm_unreachable("a path of an einsum with 3+ operands has steps");
  }
};

/// `equation` relabeled a, b, ... in order of first appearance (spaces dropped), or nothing for
/// an implicit output (its labels' sorted order is part of its meaning).
std::optional<std::string> canonicalLabels(StringRef equation) {
  if (!equation.contains("->"))
    return std::nullopt;
  llvm::SmallDenseMap<char, char> letters;
  std::string text;
  for (char c : equation) {
    if (c == ' ')
      continue;
    if (!llvm::isAlpha(c)) {
      text.push_back(c);
      continue;
    }
    if (letters.size() == kMaxEinsumLabels && !letters.count(c))
      return std::nullopt;
    text.push_back(letters.try_emplace(c, letter(letters.size())).first->second);
  }
  return text;
}

/// Mechanism: an einsum that computes what an earlier one of the same block computes (the same
/// operands, the same equation up to the names of its labels) is replaced by it. The path's
/// steps are spelled canonically, so CSE alone merges steps shared by several n-ary einsums;
/// this also finds the same contraction written out by hand with other letters.
void mergeEquivalentEinsums(func::FuncOp func, RewriterBase &rewriter) {
  llvm::StringMap<tl::EinsumOp> seen;
  func.walk([&](tl::EinsumOp op) {
    std::optional<std::string> canonical = canonicalLabels(op.getEquation());
    if (!canonical)
      return;
    std::string key;
    llvm::raw_string_ostream os(key);
    os << op->getBlock() << '|' << *canonical;
    for (Value v : op.getInputs())
      os << '|' << v.getAsOpaquePointer();
    auto [it, inserted] = seen.try_emplace(key, op);
    if (inserted || it->second.getType() != op.getType())
      return;
    rewriter.replaceOp(op, it->second.getResult());
  });
}

/// Folds `consumer`'s operand `i`, made by the einsum `producer`, into one einsum: the
/// producer's output labels become the consumer's labels of that operand, its summed labels new
/// ones. Null when the policy of mergeEinsumChains refuses.
tl::EinsumOp mergeProducer(tl::EinsumOp consumer, unsigned i, RewriterBase &rewriter,
                           int64_t exactLimit) {
  auto producer = consumer.getInputs()[i].getDefiningOp<tl::EinsumOp>();
  if (!producer || !producer->hasOneUse() || producer->getBlock() != consumer->getBlock())
    return nullptr;
  int64_t operands = consumer.getInputs().size() - 1 + producer.getInputs().size();
  if (operands < 3 || operands > exactLimit)
    return nullptr;
  Type elementType = consumer.getType().getElementType();
  auto sameType = [&](Value v) {
    return cast<RankedTensorType>(v.getType()).getElementType() == elementType;
  };
  if (!llvm::all_of(consumer.getInputs(), sameType) ||
      !llvm::all_of(producer.getInputs(), sameType))
    return nullptr;
  FailureOr<tl::EinsumSpec> outer = staticEinsumSpec(consumer);
  FailureOr<tl::EinsumSpec> inner = staticEinsumSpec(producer);
  if (failed(outer) || failed(inner))
    return nullptr;
  auto plain = [](ArrayRef<int64_t> dims) {
    llvm::SmallDenseSet<int64_t> seen;
    return llvm::all_of(dims, [&](int64_t d) {
      return d != tl::EinsumSpec::kBroadcast && seen.insert(d).second;
    });
  };
  if (!plain(outer->operandDims[i]) ||
      !llvm::all_of(inner->operandDims, [](ArrayRef<int64_t> dims) {
        return !llvm::is_contained(dims, tl::EinsumSpec::kBroadcast);
      }))
    return nullptr;
  SmallVector<int64_t> innerToOuter(inner->numDims());
  for (auto [axis, d] : llvm::enumerate(inner->resultDims))
    innerToOuter[d] = outer->operandDims[i][axis];
  int64_t next = outer->numDims();
  for (int64_t d = 0; d < inner->numDims(); ++d)
    if (inner->isReductionDim(d))
      innerToOuter[d] = next++;
  if (next > kMaxEinsumLabels)
    return nullptr;
  SmallVector<SmallVector<int64_t>> terms;
  SmallVector<Value> values;
  for (auto [j, v] : llvm::enumerate(consumer.getInputs())) {
    if (j != i) {
      terms.push_back(outer->operandDims[j]);
      values.push_back(v);
      continue;
    }
    for (auto [k, w] : llvm::enumerate(producer.getInputs())) {
      SmallVector<int64_t> term;
      for (int64_t d : inner->operandDims[k])
        term.push_back(innerToOuter[d]);
      terms.push_back(term);
      values.push_back(w);
    }
  }
  SmallVector<ArrayRef<int64_t>> termRefs(terms.begin(), terms.end());
  std::string equation = canonicalEquation(termRefs, outer->resultDims);
  rewriter.setInsertionPoint(consumer);
  Location loc = rewriter.getFusedLoc({producer.getLoc(), consumer.getLoc()});
  auto merged = tl::EinsumOp::create(rewriter, loc, consumer.getType(),
                                     rewriter.getStringAttr(equation), values);
  rewriter.replaceOp(consumer, merged.getResult());
  rewriter.eraseOp(producer);
  return merged;
}

} // namespace

int64_t tlc::mergeEinsumChains(Operation *root, RewriterBase &rewriter, int64_t exactLimit) {
  SmallVector<tl::EinsumOp> einsums;
  root->walk([&](tl::EinsumOp op) { einsums.push_back(op); });
  // In program order: a producer is visited (and possibly merged into its own producers)
  // before its consumer folds it in; a folded producer is never visited again.
  int64_t merged = 0;
  for (tl::EinsumOp op : einsums) {
    for (unsigned i = 0; i < op.getInputs().size();) {
      if (tl::EinsumOp grown = mergeProducer(op, i, rewriter, exactLimit)) {
        op = grown;
        ++merged;
        i = 0;
        continue;
      }
      ++i;
    }
  }
  return merged;
}

namespace {

struct TLPlanEinsumPathsPass : tlc::impl::TLPlanEinsumPathsBase<TLPlanEinsumPathsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (path == EinsumPathMode::None)
      return;
    IRRewriter rewriter(&getContext());
    // Greedy paths do not see the order as written, so only the exact search merges chains.
    if (path == EinsumPathMode::Optimal && mergeChains)
      mergeEinsumChains(getOperation(), rewriter, exactLimit);
    SmallVector<tl::EinsumOp> einsums;
    getOperation().walk([&](tl::EinsumOp op) {
      if (op.getInputs().size() >= 3)
        einsums.push_back(op);
    });
    for (tl::EinsumOp op : einsums) {
      FailureOr<tl::EinsumSpec> spec = splittableEinsum(op);
      if (failed(spec))
        continue;
      EinsumPath chosen = planEinsumPath(*spec, path, exactLimit);
      rewriter.setInsertionPoint(op);
      PathBuilder builder{rewriter, op.getLoc(), *spec, op.getType().getElementType()};
      rewriter.replaceOp(op, builder.build(op, chosen));
    }
    mergeEquivalentEinsums(getOperation(), rewriter);
  }
};

} // namespace
