// The memory-plan report (tlc --report=memory): read from the planned module, printed.
#ifndef TLC_COMPILER_MEMORYREPORT_H
#define TLC_COMPILER_MEMORYREPORT_H

#include "compiler/RematSearch.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tlc {

enum class ReportFormat { Text, JSON };

struct BufferReport {
  int64_t offset = 0, size = 0, start = 0, end = 0; // live over op positions [start, end]
  std::string type;      // e.g. memref<8x256xf32>
  std::string location;  // file:line:col of the op that produced the tensor
  int64_t inPlaceOf = -1; // index of the buffer whose storage this one took, or -1
};

struct FunctionMemoryReport {
  std::string function;
  int64_t arenaSize = 0, naiveSize = 0, lowerBound = 0, programPoints = 0;
  /// GPU targets: bytes past the arena for the kernels' temporaries (split-k partial sums).
  int64_t scratchSize = 0;
  std::vector<BufferReport> buffers;
};

/// Where a value comes from: the first location a fused one stands for, else as the fusion
/// report describes a location (file:line:col, with the ONNX node or .tl binding name).
std::string describeSource(mlir::Location loc);

/// Reads the `tlc.memory_plan` module attribute written by tlc-plan-workspace (empty if the
/// module has not been planned).
std::vector<FunctionMemoryReport> readMemoryPlan(mlir::ModuleOp module);

/// Prints the plan: per function the arena, the naive sum and the lower bound (the most bytes
/// live at once), then each buffer's offset, size, live range, type and source location; for
/// a model with gradients, what the backward pass keeps and recomputes (`remat`) and the
/// rematerialization policies the driver tried (`search`, may be null).
void printMemoryReport(llvm::ArrayRef<FunctionMemoryReport> reports, ReportFormat format,
                       llvm::raw_ostream &os, const RematPlan *remat = nullptr,
                       const RematSearch *search = nullptr);

/// The rematerialization part of --report=memory: the plan (kept and recomputed values, FLOPs)
/// and the policies the search tried (`search` may be null), as text or as JSON attributes.
void printRematReport(const RematPlan &plan, const RematSearch *search, llvm::raw_ostream &os);
void writeRematJSON(const RematPlan &plan, const RematSearch *search, llvm::json::OStream &j);

} // namespace tlc

#endif // TLC_COMPILER_MEMORYREPORT_H
