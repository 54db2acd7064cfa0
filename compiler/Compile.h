// The C++ API of the compiler: one model in, an object (or IR) plus a C header out.
#ifndef TLC_COMPILER_COMPILE_H
#define TLC_COMPILER_COMPILE_H

#include "compiler/EinsumReport.h"
#include "compiler/FusionReport.h"
#include "compiler/MemoryReport.h"
#include "compiler/OnnxTraining.h"
#include "compiler/onnx/OnnxImporter.h"
#include "passes/Precision.h"
#include "targets/Target.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>
#include <string>
#include <vector>

namespace tlc {

/// tlc's version, as the header's provenance, the manifest and `tlc --version` state it.
inline constexpr llvm::StringLiteral kTLCVersion = "0.1.0";

enum class EmitKind { TL, Linalg, LLVMIR, Assembly, Object };

struct CompileOptions {
  std::string inputPath;
  std::string outputPath;  // "-" is stdout (text kinds only)
  std::string headerPath;  // empty: no header
  std::string modelName;   // empty: derived from the input file name
  std::string target = "x86_64";
  std::string cpu;         // empty: the target's default
  std::string gpu;         // GPU targets' architecture (--gpu), empty: the target's default
  EmitKind emit = EmitKind::Object;
  bool shared = false;     // link the object into a shared library
  unsigned optLevel = kDefaultOptLevel; // LLVM's -O level (tlc -O)
  OnnxImportOptions onnx;  // --input-shape pins for .onnx inputs
  /// --int8-contractions (onnx.int8Contractions); unset: on where the target, every cpu
  /// variant of it, has int8 dot products (Target::hasInt8Dot).
  std::optional<bool> int8Contractions;
  bool reportMemory = false; // print the memory plan (--report=memory)
  bool reportFusion = false; // print the fusion groups (--report=fusion)
  bool reportEinsum = false; // print the n-ary einsums' contraction paths (--report=einsum)
  bool reportPrecision = false; // compare with fp32 on a run (--report=precision)
  uint64_t reportSeed = 0;              // --report-seed: inputs not given are seeded random
  std::vector<std::string> reportInputs; // --report-input: .npy/.pb input files, in order
  EinsumPathMode einsumPath = EinsumPathMode::Optimal; // --einsum-path
  Precision precision = Precision::F32;                 // --precision
  std::vector<std::string> keepFP32;                    // --keep-fp32
  ReportFormat reportFormat = ReportFormat::Text;
  std::string reportPath;    // empty: stdout, or stderr when the output goes to stdout
  bool timeReport = false;   // print the time of each stage and pass to stderr (--time-report)
  bool profile = false;      // time each kernel into NAME_profile_ns (--profile)
  bool winograd = true;      // 3x3 stride-1 convolutions may take Winograd (--winograd)
  bool train = false;        // --train: an ONNX model becomes one training step
  OnnxTrainOptions trainOptions; // --loss, --optimizer, --freeze
  std::string remat;         // --remat: empty (unset), none, auto, cheap or segments=N
  int64_t maxWorkspace = 0;  // --max-workspace in bytes; 0: no budget
  uint64_t largeDataThreshold = uint64_t(1) << 30; // --large-data-threshold (TargetOptions)
};

/// Compiles `options.inputPath` (.tl, .onnx or .mlir). Errors are reported through the context's
/// diagnostic engine (install a handler first); returns failure after any error.
mlir::LogicalResult compile(const CompileOptions &options, mlir::MLIRContext &context,
                            llvm::SourceMgr &sourceMgr);

/// A C identifier derived from a file name ("my-model.tl" -> "my_model").
std::string modelNameFromPath(llvm::StringRef path);

} // namespace tlc

#endif // TLC_COMPILER_COMPILE_H
