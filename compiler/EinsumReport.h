// The einsum report (tlc --report=einsum): for each einsum of three or more operands, the
// contraction path tl-plan-einsum-paths takes and what it saves.
#ifndef TLC_COMPILER_EINSUMREPORT_H
#define TLC_COMPILER_EINSUMREPORT_H

#include "compiler/MemoryReport.h"
#include "passes/EinsumPath.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tlc {

struct EinsumStepReport {
  int64_t lhs, rhs;     // nodes: operands 0..n-1, then step results n, n+1, ...
  std::string equation; // in the einsum's own labels, e.g. "ij,jk->ik"
  double flops, size;
};

struct EinsumPathReport {
  std::string location; // file:line:col or ONNX node name
  std::string equation;
  int64_t operands = 0;
  std::string method;   // "optimal" (exhaustive search), "greedy", or "none" (one loop nest)
  std::vector<std::string> prepared; // one-operand steps first (diagonals, unique sums)
  std::vector<EinsumStepReport> steps;
  double flops = 0, largestIntermediate = 0;
  double singleLoopNestFlops = 0;
  bool hasWorst = false; // the worst order is searched up to the exact limit only
  double worstFlops = 0, worstLargestIntermediate = 0;
};

struct FunctionEinsumReport {
  std::string function;
  std::vector<EinsumPathReport> einsums;
};

/// Plans every n-ary einsum of the module's public functions as tl-plan-einsum-paths would with
/// `mode` (run it before that pass), with the single-loop-nest and worst-order costs beside;
/// with `mode` Optimal, chains of einsums are merged first, as the pass does.
std::vector<FunctionEinsumReport> planEinsumReport(mlir::ModuleOp module, EinsumPathMode mode,
                                                   int64_t exactLimit = 10);

void printEinsumReport(llvm::ArrayRef<FunctionEinsumReport> reports, ReportFormat format,
                       llvm::raw_ostream &os);

} // namespace tlc

#endif // TLC_COMPILER_EINSUMREPORT_H
