// The fusion report (tlc --report=fusion): the groups the fusion passes formed, read from the
// module after lowering to linalg, and the ops left on their own with the reason.
#ifndef TLC_COMPILER_FUSIONREPORT_H
#define TLC_COMPILER_FUSIONREPORT_H

#include "compiler/MemoryReport.h"
#include "passes/SourceNames.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tlc {

struct FusionGroupReport {
  std::string kind;              // "contraction+epilogue", "elementwise" or "single"
  std::vector<std::string> ops;  // source locations (file:line:col or ONNX node names)
  std::string reason;            // why these ops are one group (or why the op is alone)
};

struct FunctionFusionReport {
  std::string function;
  std::vector<FusionGroupReport> groups;  // fused groups, in program order
  std::vector<FusionGroupReport> unfused; // ops left on their own, in program order
};

/// Reads the groups recorded by tlc-fuse-elementwise and tlc-fuse-epilogues (the
/// `tlc.fusion_group` / `tlc.fusion_unfused` attributes) from a module lowered to linalg; every
/// other loop-forming op of a public function is listed as unfused with the policy's reason.
std::vector<FunctionFusionReport> readFusionGroups(mlir::ModuleOp module);

void printFusionReport(llvm::ArrayRef<FunctionFusionReport> reports, ReportFormat format,
                       llvm::raw_ostream &os);

} // namespace tlc

#endif // TLC_COMPILER_FUSIONREPORT_H
