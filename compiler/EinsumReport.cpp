// The einsum report (tlc --report=einsum): n-ary einsums' contraction paths and their costs.
#include "compiler/EinsumReport.h"

#include "compiler/FusionReport.h"

#include "TL/TLDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace tlc;

namespace {

/// The letter of each loop dimension in the einsum's own equation; dimensions under `...` get
/// letters the equation does not use (upper case first).
SmallVector<char> dimLetters(StringRef equation, const tl::EinsumSpec &spec) {
  SmallVector<char> letters(spec.numDims(), 0);
  StringRef lhs = equation.split("->").first;
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  for (auto [term, dims] : llvm::zip(terms, spec.operandDims)) {
    int64_t named = llvm::count_if(term, [](char c) { return llvm::isAlpha(c); });
    int64_t axis = 0;
    for (size_t i = 0; i < term.size(); ++i) {
      if (llvm::isAlpha(term[i])) {
        if (dims[axis] != tl::EinsumSpec::kBroadcast)
          letters[dims[axis]] = term[i];
        ++axis;
      } else if (term.substr(i).starts_with("...")) {
        axis += dims.size() - named; // the ellipsis axes
        i += 2;
      }
    }
  }
  std::string spare = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  for (char &l : letters)
    if (!l)
      for (char c : spare)
        if (!equation.contains(c) && !llvm::is_contained(letters, c)) {
          l = c;
          break;
        }
  return letters;
}

/// `labels` spelled in the order of `order` (an operand's axes), then of the dimensions.
std::string term(uint64_t labels, ArrayRef<char> letters, ArrayRef<int64_t> order = {}) {
  std::string text;
  for (int64_t d : order)
    if (d >= 0 && ((labels >> d) & 1) && !llvm::is_contained(text, letters[d]))
      text.push_back(letters[d]);
  for (int64_t d = 0; d < (int64_t)letters.size(); ++d)
    if (((labels >> d) & 1) && !llvm::is_contained(text, letters[d]))
      text.push_back(letters[d]);
  return text;
}

EinsumPathReport describe(tl::EinsumOp op, const tl::EinsumSpec &spec, EinsumPathMode mode,
                          int64_t exactLimit) {
  EinsumPathReport r;
  r.location = describeLocation(op.getLoc());
  r.equation = op.getEquation().str();
  r.operands = op.getInputs().size();
  r.singleLoopNestFlops = singleLoopNestFlops(spec);
  EinsumPath worst = worstEinsumPath(spec, exactLimit);
  r.hasWorst = !worst.steps.empty();
  r.worstFlops = worst.flops;
  r.worstLargestIntermediate = worst.largestIntermediate;
  if (mode == EinsumPathMode::None) {
    r.method = "none";
    r.flops = r.singleLoopNestFlops;
    return r;
  }
  EinsumPath path = planEinsumPath(spec, mode, exactLimit);
  r.method = path.exact ? "optimal" : "greedy";
  r.flops = path.flops;
  r.largestIntermediate = path.largestIntermediate;
  SmallVector<char> letters = dimLetters(op.getEquation(), spec);
  int64_t n = spec.operandDims.size();
  SmallVector<uint64_t> nodeLabels;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t kept = path.operandLabels[i] & ~(path.reducedFirst[i] ? path.uniqueSummed[i] : 0);
    nodeLabels.push_back(kept);
    if (kept != path.operandLabels[i] || path.hasDiagonal[i])
    {
      std::string axes; // as written: a diagonal's label repeated
      for (int64_t d : spec.operandDims[i])
        if (d != tl::EinsumSpec::kBroadcast)
          axes.push_back(letters[d]);
      r.prepared.push_back(llvm::formatv("operand {0}: {1}->{2}", i, axes,
                                         term(kept, letters, spec.operandDims[i])));
    }
  }
  for (auto [k, step] : llvm::enumerate(path.steps)) {
    // A leaf summed in this step shows its own labels (they are summed here).
    auto spell = [&](int64_t node) {
      if (node >= n)
        return term(nodeLabels[node], letters);
      uint64_t labels = path.reducedFirst[node] ? nodeLabels[node] : path.operandLabels[node];
      return term(labels, letters, spec.operandDims[node]);
    };
    std::string out;
    if (k + 1 == path.steps.size())
      for (int64_t d : spec.resultDims)
        out.push_back(letters[d]);
    else
      out = term(step.labels, letters);
    r.steps.push_back(EinsumStepReport{
        step.lhs, step.rhs,
        spell(step.lhs) + "," + spell(step.rhs) + "->" + out,
        step.flops, step.size});
    nodeLabels.push_back(step.labels);
  }
  return r;
}

/// Large counts stay readable: 2147483648 as 2.15e9; exact below a million.
std::string count(double v) {
  if (v < 1e6)
    return llvm::formatv("{0}", (int64_t)v).str();
  return llvm::formatv("{0:e2}", v).str();
}

std::string ratio(double a, double b) {
  if (b <= 0)
    return "-";
  return llvm::formatv(a / b < 1e4 ? "{0:f1}x" : "{0:e2}x", a / b).str();
}

} // namespace

std::vector<FunctionEinsumReport> tlc::planEinsumReport(ModuleOp module, EinsumPathMode mode,
                                                        int64_t exactLimit) {
  // Chains of einsums are planned whole (as the pass merges them first): report them merged,
  // from a copy, so the compile itself still sees the module as loaded.
  OwningOpRef<ModuleOp> merged;
  if (mode == EinsumPathMode::Optimal) {
    merged = module.clone();
    IRRewriter rewriter(module.getContext());
    mergeEinsumChains(*merged, rewriter, exactLimit);
    module = *merged;
  }
  std::vector<FunctionEinsumReport> reports;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isDeclaration())
      continue;
    FunctionEinsumReport r;
    r.function = func.getName().str();
    func.walk([&](tl::EinsumOp op) {
      if (FailureOr<tl::EinsumSpec> spec = splittableEinsum(op); succeeded(spec))
        r.einsums.push_back(describe(op, *spec, mode, exactLimit));
    });
    reports.push_back(std::move(r));
  }
  return reports;
}

void tlc::printEinsumReport(llvm::ArrayRef<FunctionEinsumReport> reports, ReportFormat format,
                            llvm::raw_ostream &os) {
  if (format == ReportFormat::JSON) {
    llvm::json::OStream j(os, 2);
    j.object([&] {
      j.attributeArray("functions", [&] {
        for (const FunctionEinsumReport &r : reports)
          j.object([&] {
            j.attribute("function", r.function);
            j.attributeArray("einsums", [&] {
              for (const EinsumPathReport &e : r.einsums)
                j.object([&] {
                  j.attribute("location", e.location);
                  j.attribute("equation", e.equation);
                  j.attribute("operands", e.operands);
                  j.attribute("method", e.method);
                  j.attributeArray("prepared", [&] {
                    for (const std::string &p : e.prepared)
                      j.value(p);
                  });
                  j.attributeArray("steps", [&] {
                    for (const EinsumStepReport &s : e.steps)
                      j.object([&] {
                        j.attributeArray("operands", [&] {
                          j.value(s.lhs);
                          j.value(s.rhs);
                        });
                        j.attribute("equation", s.equation);
                        j.attribute("flops", s.flops);
                        j.attribute("size", s.size);
                      });
                  });
                  j.attribute("flops", e.flops);
                  j.attribute("largest_intermediate", e.largestIntermediate);
                  j.attribute("single_loop_nest_flops", e.singleLoopNestFlops);
                  if (e.hasWorst) {
                    j.attribute("worst_flops", e.worstFlops);
                    j.attribute("worst_largest_intermediate", e.worstLargestIntermediate);
                  } else {
                    j.attribute("worst_flops", nullptr);
                    j.attribute("worst_largest_intermediate", nullptr);
                  }
                });
            });
          });
      });
    });
    os << "\n";
    return;
  }
  for (const FunctionEinsumReport &r : reports) {
    os << "einsum paths of " << r.function << ": " << r.einsums.size()
       << " einsum(s) of 3+ operands\n";
    for (const EinsumPathReport &e : r.einsums) {
      os << llvm::formatv("  {0} \"{1}\" ({2} operands, {3})\n", e.location, e.equation,
                          e.operands, e.method);
      for (const std::string &p : e.prepared)
        os << "    first  " << p << "\n";
      for (auto [k, s] : llvm::enumerate(e.steps))
        os << llvm::formatv("    step {0,-3} ({1},{2}) {3,-24} flops {4,-9} size {5}\n",
                            e.operands + k, s.lhs, s.rhs, s.equation, count(s.flops),
                            count(s.size));
      os << llvm::formatv("    path           flops {0,-9} largest intermediate {1}\n",
                          count(e.flops), count(e.largestIntermediate));
      os << llvm::formatv("    one loop nest  flops {0,-9} ({1} the path)\n",
                          count(e.singleLoopNestFlops), ratio(e.singleLoopNestFlops, e.flops));
      if (e.hasWorst)
        os << llvm::formatv("    worst order    flops {0,-9} ({1} the path), largest "
                            "intermediate {2}\n",
                            count(e.worstFlops), ratio(e.worstFlops, e.flops),
                            count(e.worstLargestIntermediate));
      else
        os << "    worst order    not searched (more operands than the exact limit)\n";
    }
  }
}
