// tlc: the compiler driver (a model in, an object file and a C header out).
#include "compiler/Compile.h"
#include "compiler/Registration.h"
#include "compiler/onnx/OnnxImporter.h"
#include "targets/Target.h"
#include "tools/tlc/HeapSetup.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace {
cl::OptionCategory category("tlc options");

cl::opt<std::string> inputPath(cl::Positional, cl::desc("<input .tl or .mlir>"), cl::Required,
                               cl::cat(category));
cl::opt<std::string> outputPath("o", cl::desc("Output file (default: stdout for text output)"),
                                cl::value_desc("file"), cl::cat(category));
cl::opt<std::string> headerPath("header", cl::desc("Also write the C header to <file>"),
                                cl::value_desc("file"), cl::cat(category));
cl::opt<std::string> modelName("name",
                               cl::desc("C name of the model (default: the input file's stem); "
                                        "the entry point is NAME_run"),
                               cl::value_desc("name"), cl::cat(category));
cl::opt<std::string> targetName("target",
                                cl::desc("Target: x86_64 (default), aarch64, cuda, vulkan or "
                                         "metal (MSL source; no Metal launcher in the runtime "
                                         "yet)"),
                                cl::init("x86_64"), cl::cat(category));
cl::opt<std::string> cpuName("cpu",
                             cl::desc("CPU to tune and select instructions for: x86-64-v3 "
                                      "(AVX2), x86-64-v4 / skylake-avx512 / znver4 (AVX-512), "
                                      "native; for aarch64: generic, neoverse-n1, ... A "
                                      "list (x86-64-v3,x86-64-v4) makes one object whose "
                                      "NAME_run picks a variant at run time"),
                             cl::value_desc("cpu"), cl::cat(category));
cl::opt<std::string> gpuName("gpu",
                             cl::desc("GPU architecture for --target=cuda: sm_80 (default), "
                                      "sm_86, sm_89, sm_90"),
                             cl::value_desc("arch"), cl::cat(category));
cl::opt<tlc::EmitKind> emitKind(
    "emit", cl::desc("What to write"), cl::init(tlc::EmitKind::Object),
    cl::values(clEnumValN(tlc::EmitKind::TL, "tl", "the tl dialect after import"),
               clEnumValN(tlc::EmitKind::Linalg, "linalg", "linalg on tensors after lowering"),
               clEnumValN(tlc::EmitKind::LLVMIR, "llvm", "optimized LLVM IR"),
               clEnumValN(tlc::EmitKind::Assembly, "asm",
                          "target assembly (GPU targets: the kernels, PTX or SPIR-V)"),
               clEnumValN(tlc::EmitKind::Object, "obj", "an object file (default)")),
    cl::cat(category));
cl::opt<bool> shared("shared", cl::desc("Link the object into a shared library (for tlc-run)"),
                     cl::cat(category));
cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimization level (0-3, default 2)"),
                           cl::init(tlc::kDefaultOptLevel), cl::Prefix, cl::cat(category));
cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Pin the shape of an ONNX model input (symbolic dimensions in particular), "
             "e.g. --input-shape input=1x3x224x224; repeatable"),
    cl::value_desc("NAME=DIMS"), cl::cat(category));
cl::list<std::string> constantInputs(
    "constant-input",
    cl::desc("Bind an ONNX model input to a constant read from an ONNX TensorProto file, "
             "specializing the model (e.g. a shape fed as an input); repeatable"),
    cl::value_desc("NAME=FILE.pb"), cl::cat(category));
cl::opt<std::string> report("report",
                            cl::desc("Also print a report: 'memory' (the workspace plan: each "
                                     "buffer's offset, size and live range; arena vs naive sum vs "
                                     "lower bound), 'fusion' (the fusion groups formed and "
                                     "why, and the ops left on their own and why), 'einsum' "
                                     "(each n-ary einsum's contraction path: FLOPs and largest "
                                     "intermediate against one loop nest and the worst order), "
                                     "or 'precision' (with --precision=bf16/fp16: each "
                                     "low-precision op's and output's error against fp32, "
                                     "measured by running both on this machine)"),
                            cl::value_desc("kind"), cl::cat(category));
cl::opt<uint64_t> reportSeed("report-seed",
                             cl::desc("--report=precision: seed of the random inputs (as "
                                      "tlc-run --seed)"),
                             cl::init(0), cl::cat(category));
cl::list<std::string> reportInputs("report-input",
                                   cl::desc("--report=precision: an input tensor file (.npy or "
                                            ".pb), in order; the rest are seeded; repeatable"),
                                   cl::value_desc("file"), cl::cat(category));
cl::opt<tlc::EinsumPathMode> einsumPath(
    "einsum-path", cl::desc("Contraction order of einsums with 3+ operands"),
    cl::init(tlc::EinsumPathMode::Optimal),
    cl::values(clEnumValN(tlc::EinsumPathMode::Optimal, "optimal",
                          "fewest FLOPs, exhaustive search up to 10 operands, greedy beyond "
                          "(default)"),
               clEnumValN(tlc::EinsumPathMode::Greedy, "greedy",
                          "pairwise contractions chosen greedily"),
               clEnumValN(tlc::EinsumPathMode::None, "none",
                          "one loop nest over all labels")),
    cl::cat(category));
cl::opt<tlc::Precision> precision(
    "precision",
    cl::desc("Element type of contraction and convolution operands (f32 accumulation; other "
             "ops stay fp32)"),
    cl::init(tlc::Precision::F32),
    cl::values(clEnumValN(tlc::Precision::F32, "fp32", "fp32 everywhere (default)"),
               clEnumValN(tlc::Precision::BF16, "bf16", "bfloat16 operands"),
               clEnumValN(tlc::Precision::F16, "fp16", "IEEE half operands"),
               clEnumValN(tlc::Precision::Auto, "auto",
                          "bf16 where the target CPU has bf16 dot products (AVX-512 BF16, "
                          "AArch64 BF16), else fp32")),
    cl::cat(category));
cl::list<std::string> keepFP32("keep-fp32",
                               cl::desc("With --precision: ops that stay fp32, by ONNX node "
                                        "name or .tl binding (comma-separated; repeatable)"),
                               cl::value_desc("NAME[,NAME...]"), cl::CommaSeparated,
                               cl::cat(category));
cl::opt<tlc::ReportFormat> reportFormat(
    "report-format", cl::desc("Format of --report"), cl::init(tlc::ReportFormat::Text),
    cl::values(clEnumValN(tlc::ReportFormat::Text, "text", "a table (default)"),
               clEnumValN(tlc::ReportFormat::JSON, "json", "JSON")),
    cl::cat(category));
cl::opt<bool> timeReport("time-report",
                         cl::desc("Print the wall and CPU time of each compilation stage and "
                                  "pass to stderr"),
                         cl::cat(category));
cl::opt<bool> profile("profile",
                      cl::desc("Time each kernel of the model at run time into a table in the "
                               "object (NAME_profile_*; tlc-run --profile prints it); CPU "
                               "targets, one --cpu"),
                      cl::cat(category));
cl::opt<bool> winograd(
    "winograd", cl::init(true),
    cl::desc("Compute 3x3 stride-1 convolutions of constant filters by Winograd's F(2x2, 3x3) "
             "where the compiler estimates it pays (2.25x fewer multiply-adds; CPU and GPU "
             "targets; --winograd=false keeps im2col, direct and implicit-GEMM convolutions)"),
    cl::cat(category));
cl::opt<bool> int8Contractions(
    "int8-contractions",
    cl::desc("Run the convolutions of QDQ models (uint8/int8 activations, int8 weights) on the "
             "integers, summed exactly in int32 and scaled afterwards, instead of dequantized to "
             "float (default: on where the target cpu, every one of a --cpu list, has AVX-512 "
             "VNNI, the only kind where it is faster; =false keeps float)"),
    cl::cat(category));
cl::opt<std::string> reportFile("report-file",
                                cl::desc("Write the report to <file> (default: stdout, or "
                                         "stderr when the output goes to stdout)"),
                                cl::value_desc("file"), cl::cat(category));
cl::opt<bool> train("train",
                    cl::desc("Compile an ONNX model into one training step (see --loss, "
                             "--optimizer, --freeze; docs/usage.md)"),
                    cl::cat(category));
cl::opt<std::string> lossName("loss",
                              cl::desc("With --train: cross_entropy (an i64 labels input), mse "
                                       "or bce (a target input)"),
                              cl::init("cross_entropy"), cl::cat(category));
cl::opt<std::string> optimizerSpec(
    "optimizer",
    cl::desc("With --train: sgd, adam, adamw or lion, with keywords as in .tl, e.g. "
             "'adamw(weight_decay=0.01)'"),
    cl::init("sgd"), cl::cat(category));
cl::list<std::string> freeze("freeze", cl::desc("With --train: ONNX weights not to train"),
                             cl::CommaSeparated, cl::cat(category));
cl::opt<std::string> remat(
    "remat",
    cl::desc("For models with gradients: which forward values the backward pass recomputes "
             "instead of keeping: none, auto (searched against the memory plan; the smallest "
             "workspace, or with --max-workspace the least recomputation that fits), cheap, "
             "segments=N"),
    cl::value_desc("policy"), cl::cat(category));
cl::opt<std::string> maxWorkspace(
    "max-workspace",
    cl::desc("The largest workspace (NAME_WORKSPACE_SIZE) to accept, in bytes (suffixes K, M, "
             "G: powers of 1024); with gradients it implies --remat=auto unless --remat=none"),
    cl::value_desc("bytes"), cl::cat(category));
cl::opt<std::string> largeDataThreshold(
    "large-data-threshold",
    cl::desc("x86-64: when the constant data passes this many bytes in all (default 1G; "
             "suffixes K, M, G), constants of 64 KiB or more go to the large data sections, "
             "addressed with 64-bit offsets, so objects with weights over 2 GiB link"),
    cl::value_desc("bytes"), cl::Hidden, cl::cat(category));
cl::opt<bool> listOnnxOps("list-onnx-ops",
                          cl::desc("List the ONNX operators the importer converts and exit"),
                          cl::cat(category));
cl::opt<bool> listTargets("list-targets", cl::desc("List the targets and exit"),
                          cl::cat(category));

/// A positive number of bytes, optionally with K, M or G (powers of 1024), at most 2^50; prints
/// the error for `--flag=text` otherwise.
std::optional<uint64_t> parseBytes(llvm::StringRef flag, llvm::StringRef text) {
  llvm::StringRef digits = text;
  uint64_t scale = 1;
  if (digits.consume_back("K") || digits.consume_back("k"))
    scale = uint64_t(1) << 10;
  else if (digits.consume_back("M"))
    scale = uint64_t(1) << 20;
  else if (digits.consume_back("G"))
    scale = uint64_t(1) << 30;
  uint64_t value = 0;
  if (digits.getAsInteger(10, value) || value == 0 || value > (uint64_t(1) << 50) / scale) {
    WithColor::error(errs(), "tlc") << "--" << flag << "=" << text
                                    << ": expected a positive number of bytes, optionally "
                                       "with K, M or G (at most 2^50 bytes)\n";
    return std::nullopt;
  }
  return value * scale;
}

/// Errors without a source position print as "tlc: error: ...", file-level ones as
/// "FILE: error: ..."; the rest go to the source manager handler (file:line:col + caret).
LogicalResult printUnpositioned(mlir::Diagnostic &diag) {
  mlir::Location loc = diag.getLocation();
  std::string prefix = "tlc";
  auto name = dyn_cast<mlir::NameLoc>(loc);
  auto nodeFile = name ? dyn_cast<mlir::FileLineColLoc>(name.getChildLoc()) : nullptr;
  if (nodeFile && nodeFile.getLine() == 0) {
    // An ONNX node: its name around the model file's location.
    prefix = nodeFile.getFilename().str() + ": node '" + name.getName().str() + "'";
  } else if (auto file = dyn_cast<mlir::FileLineColLoc>(loc)) {
    if (file.getLine() != 0)
      return failure();
    prefix = file.getFilename().str();
  } else if (!isa<mlir::UnknownLoc>(loc)) {
    return failure();
  }
  errs() << prefix << ": ";
  switch (diag.getSeverity()) {
  case mlir::DiagnosticSeverity::Error:
    WithColor(errs(), raw_ostream::RED, true) << "error: ";
    break;
  case mlir::DiagnosticSeverity::Warning:
    WithColor(errs(), raw_ostream::MAGENTA, true) << "warning: ";
    break;
  default:
    errs() << "note: ";
  }
  errs() << diag << "\n";
  return success();
}
} // namespace

int main(int argc, char **argv) {
  tlc::setUpCompilerHeap(argv);
  InitLLVM init(argc, argv);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "tlc " << tlc::kTLCVersion << " (LLVM/MLIR " << LLVM_VERSION_STRING << ")\n";
  });
  // --list-targets and --list-onnx-ops need no input; let them through the Required positional.
  for (int i = 1; i < argc; ++i) {
    if (StringRef(argv[i]) == "--list-targets") {
      tlc::registerAllTargets();
      for (const tlc::Target *t : tlc::getRegisteredTargets())
        outs() << t->getName() << "\t" << t->getDescription() << "\n";
      return 0;
    }
    if (StringRef(argv[i]) == "--list-onnx-ops") {
      for (const std::string &op : tlc::supportedOnnxOperators())
        outs() << op << "\n";
      return 0;
    }
  }
  // MLIR's pass manager options (--mlir-print-ir-after=PASS, --mlir-print-ir-after-all, ...)
  // stay available for debugging the pipeline, hidden from --help.
  tlc::registerAllPasses(); // first, so those options can name them
  mlir::registerPassManagerCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "tlc: ahead-of-time compiler for tensor programs\n\n"
                              "  tlc model.tl -o model.o --header model.h [--target T] "
                              "[--cpu C]\n");

  mlir::DialectRegistry registry;
  tlc::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  // Dialects load on demand: the frontends load the ones they build, each pass pipeline the
  // ones its passes declare, the .mlir parser the ones the input names. Loading every
  // registered dialect up front took 0.8% of the MLP example's instructions (0.4% net), and
  // each dialect loaded early adds its canonicalization patterns to every canonicalizer run.
  context.allowUnregisteredDialects(false);
  // A user's error names a line of their model; the IR of the op it came from is noise.
  context.printOpOnDiagnostic(false);

  SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler sourceHandler(sourceMgr, &context);
  context.getDiagEngine().registerHandler(printUnpositioned);

  tlc::CompileOptions options;
  options.inputPath = inputPath;
  options.outputPath = outputPath;
  options.headerPath = headerPath;
  options.modelName = modelName;
  options.target = targetName;
  options.cpu = cpuName;
  options.gpu = gpuName;
  options.emit = emitKind;
  options.shared = shared;
  options.optLevel = std::min(optLevel.getValue(), 3u);
  for (const std::string &spec : constantInputs) {
    std::string error = tlc::parseConstantInputSpec(spec, options.onnx);
    if (!error.empty()) {
      errs() << "tlc: ";
      WithColor(errs(), raw_ostream::RED, true) << "error: ";
      errs() << error << "\n";
      return 1;
    }
  }
  for (const std::string &spec : inputShapes) {
    std::string error = tlc::parseInputShapeSpec(spec, options.onnx);
    if (!error.empty()) {
      errs() << "tlc: ";
      WithColor(errs(), raw_ostream::RED, true) << "error: ";
      errs() << error << "\n";
      return 1;
    }
  }
  if (optLevel > 3) {
    WithColor::error(errs(), "tlc") << "-O" << optLevel.getValue()
                                    << ": the optimization level must be 0 to 3\n";
    return 1;
  }
  if (!report.empty()) {
    if (report != "memory" && report != "fusion" && report != "einsum" &&
        report != "precision") {
      WithColor::error(errs(), "tlc") << "unknown report '" << report
                                      << "' (available: memory, fusion, einsum, precision)\n";
      return 1;
    }
    options.reportMemory = report == "memory";
    options.reportFusion = report == "fusion";
    options.reportEinsum = report == "einsum";
    options.reportPrecision = report == "precision";
  }
  if (report != "precision" && (reportSeed.getNumOccurrences() || !reportInputs.empty())) {
    WithColor::error(errs(), "tlc") << "--report-seed and --report-input apply to "
                                       "--report=precision\n";
    return 1;
  }
  options.reportSeed = reportSeed;
  options.reportInputs.assign(reportInputs.begin(), reportInputs.end());
  options.einsumPath = einsumPath;
  options.precision = precision;
  options.keepFP32.assign(keepFP32.begin(), keepFP32.end());
  options.reportFormat = reportFormat;
  options.reportPath = reportFile;
  options.timeReport = timeReport;
  options.profile = profile;
  options.winograd = winograd;
  if (int8Contractions.getNumOccurrences())
    options.int8Contractions = int8Contractions;
  options.remat = remat;
  if (!maxWorkspace.empty()) {
    std::optional<uint64_t> bytes = parseBytes("max-workspace", maxWorkspace);
    if (!bytes)
      return 1;
    options.maxWorkspace = int64_t(*bytes);
  }
  if (!largeDataThreshold.empty()) {
    std::optional<uint64_t> bytes = parseBytes("large-data-threshold", largeDataThreshold);
    if (!bytes)
      return 1;
    options.largeDataThreshold = *bytes;
  }
  options.train = train;
  options.trainOptions.loss = lossName;
  options.trainOptions.optimizer = optimizerSpec;
  options.trainOptions.freeze.assign(freeze.begin(), freeze.end());
  return mlir::failed(tlc::compile(options, context, sourceMgr)) ? 1 : 0;
}
