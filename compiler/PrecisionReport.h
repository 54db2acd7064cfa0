// The precision report (tlc --report=precision): how far each demoted op and each output of a
// low-precision compile is from the fp32 compile of the same model, measured by running a
// probe of both (passes/PrecisionProbe.h) on seeded or given inputs through tlc-run.
#ifndef TLC_COMPILER_PRECISIONREPORT_H
#define TLC_COMPILER_PRECISIONREPORT_H

#include "compiler/MemoryReport.h"
#include "passes/Precision.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tlc {

struct PrecisionRow {
  std::string name; // ONNX node name or .tl binding (what --keep-fp32 takes); output name
  std::string op;   // "conv2d", "einsum"; empty for an output
  bool output = false;
  double local = 0;       // max |op alone in low precision - f32| (layers only)
  double accumulated = 0; // max |low-precision run - f32 run|
  double reference = 0;   // max |f32 run|
};

struct PrecisionReport {
  Precision precision = Precision::BF16;
  uint64_t seed = 0;
  std::vector<std::string> inputs; // given input files; the rest are seeded
  std::vector<PrecisionRow> rows;  // layers in graph order, then outputs
};

/// The rows the probe function of `module` computes (its tl.precision_probe attribute), with
/// no numbers yet.
std::vector<PrecisionRow> readPrecisionProbeRows(mlir::ModuleOp module);

/// Runs the probe library `libraryPath` with tlc-run on the report's inputs and fills in the
/// rows' numbers. `workDir` holds tlc-run's outputs.
mlir::LogicalResult runPrecisionProbe(llvm::StringRef libraryPath, llvm::StringRef workDir,
                                      PrecisionReport &report, mlir::Location loc);

void printPrecisionReport(const PrecisionReport &report, ReportFormat format,
                          llvm::raw_ostream &os);

} // namespace tlc

#endif // TLC_COMPILER_PRECISIONREPORT_H
