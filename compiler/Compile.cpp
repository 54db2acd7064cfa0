// The C++ API of the compiler: frontend, pipeline, target serialization, header.
#include "compiler/Compile.h"

#include "compiler/CPUDispatch.h"
#include "compiler/CopyRepeatedResults.h"
#include "compiler/HeaderWriter.h"
#include "compiler/InputFile.h"
#include "compiler/Manifest.h"
#include "compiler/ModelInfo.h"
#include "compiler/Pipeline.h"
#include "compiler/PrecisionReport.h"
#include "compiler/RematSearch.h"
#include "compiler/Signature.h"
#include "compiler/frontend/TLFrontend.h"
#include "passes/Passes.h"
#include "passes/Rematerialize.h"
#include "targets/Target.h"
#include "targets/gpu/GPUProgram.h"
#include "TL/TLDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdlib>

using namespace mlir;
using namespace tlc;

std::string tlc::modelNameFromPath(llvm::StringRef path) {
  std::string name = llvm::sys::path::stem(path).str();
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  if (name.empty() || llvm::isDigit(name[0]))
    name = "model_" + name;
  return name;
}

namespace {

/// The workspace tlc-plan-workspace gave `function` (its arena in `plan`), 0 if none.
int64_t plannedArena(llvm::ArrayRef<FunctionMemoryReport> plan, llvm::StringRef function) {
  for (const FunctionMemoryReport &f : plan)
    if (f.function == function)
      return f.arenaSize;
  return 0;
}

/// Parses the input by extension into a module whose model function is named `name`;
/// `int8Contractions` is OnnxImportOptions::int8Contractions, resolved for the target.
OwningOpRef<ModuleOp> loadModel(const CompileOptions &options, bool int8Contractions,
                                MLIRContext &context,
                                llvm::SourceMgr &sourceMgr, llvm::StringRef name) {
  Location fileLoc = FileLineColLoc::get(&context, options.inputPath, 0, 0);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      readInputFile(options.inputPath, options.inputPath, error);
  if (!file) {
    emitError(fileLoc) << error;
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  llvm::StringRef ext = llvm::sys::path::extension(options.inputPath);
  if (ext == ".tl")
    return parseTLProgram(sourceMgr, &context, name);
  if (ext == ".onnx") {
    const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
    OnnxImportOptions onnx = options.onnx;
    onnx.trainableWeights = options.train;
    onnx.int8Contractions = int8Contractions;
    OwningOpRef<ModuleOp> module =
        importOnnxModel(buffer->getBuffer(), options.inputPath, &context, name, onnx);
    if (module && options.train && failed(addOnnxTraining(*module, name, options.trainOptions)))
      return nullptr;
    return module;
  }
  if (ext != ".mlir") {
    emitError(fileLoc) << "unknown input kind '" << ext
                       << "': expected a .tl einsum graph, an .onnx model or a .mlir module";
    return nullptr;
  }
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return nullptr;
  // The model is the module's one public function with a body.
  func::FuncOp model;
  for (auto func : module->getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    if (model) {
      func.emitError() << "the module has more than one public function ('" << model.getName()
                       << "' and '" << func.getName() << "'); make helpers private";
      return nullptr;
    }
    model = func;
  }
  if (!model) {
    emitError(module->getLoc()) << "the module has no public function to compile";
    return nullptr;
  }
  if (model.getName() != name &&
      failed(SymbolTable::replaceAllSymbolUses(model, StringAttr::get(&context, name),
                                               *module))) {
    model.emitError() << "cannot rename the model function to '" << name << "'";
    return nullptr;
  }
  model.setName(name);
  return module;
}

/// Runs the passes `build` adds; with timing on, their times nest under `timing` as `stage`.
LogicalResult runPasses(ModuleOp module, TimingScope &timing, llvm::StringRef stage,
                        llvm::function_ref<void(OpPassManager &)> build) {
  PassManager pm(module->getContext());
  build(pm);
  // The driver's --mlir-print-ir-* options (registered by tools/tlc; without them this does
  // nothing).
  (void)applyPassManagerCLOptions(pm);
  // The IR is verified once per stage rather than after every pass (that cost up to a tenth
  // of the compile time on large models); tlc-opt keeps verifying after each pass.
  pm.enableVerifier(false);
  TimingScope stageTiming = timing.nest(stage);
  pm.enableTiming(stageTiming);
  if (failed(pm.run(module)))
    return failure();
  TimingScope verifyTiming = stageTiming.nest("verify");
  return verify(module);
}

/// Whether `path` names a regular file of one link, not through a symbolic link, in a folder
/// new files can be made in: one a target may replace by renaming a new file over it
/// (TargetOptions::objectPath) with the same effect as writing it (not so /dev/null, a
/// symbolic link or a file with other names).
bool isPlainFile(llvm::StringRef path) {
  llvm::sys::fs::file_status status;
  llvm::SmallString<128> folder(path);
  llvm::sys::fs::make_absolute(folder);
  llvm::sys::path::remove_filename(folder);
  return !path.empty() && path != "-" &&
         !llvm::sys::fs::status(path, status, /*Follow=*/false) &&
         status.type() == llvm::sys::fs::file_type::regular_file && status.getLinkCount() == 1 &&
         !llvm::sys::fs::access(folder, llvm::sys::fs::AccessMode::Write);
}

/// Flushes and keeps `out`. A failed write (a full disk) is an error naming the path, instead
/// of LLVM's fatal "IO failure" when the stream is destroyed; the partial file is removed.
LogicalResult keepOutput(llvm::ToolOutputFile &out, llvm::StringRef path, Location loc) {
  out.os().flush();
  if (std::error_code ec = out.os().error()) {
    out.os().clear_error();
    return emitError(loc) << "cannot write '" << path << "': " << ec.message();
  }
  out.keep();
  return success();
}

/// Whether two output paths name one file (which the second write would overwrite).
bool sameFile(llvm::StringRef a, llvm::StringRef b) {
  if (a.empty() || b.empty() || a == "-" || b == "-")
    return false;
  bool equivalent = false;
  if (!llvm::sys::fs::equivalent(a, b, equivalent) && equivalent)
    return true;
  auto normalize = [](llvm::StringRef p) {
    llvm::SmallString<256> s(p);
    llvm::sys::fs::make_absolute(s);
    llvm::sys::path::remove_dots(s, /*remove_dot_dot=*/true);
    return std::string(s);
  };
  return normalize(a) == normalize(b);
}

LogicalResult printModule(ModuleOp module, llvm::StringRef path) {
  std::string error;
  auto out = openOutputFile(path, &error);
  if (!out)
    return emitError(module.getLoc()) << error;
  module.print(out->os());
  return keepOutput(*out, path, module.getLoc());
}

/// The host's libtlcrt.a for `--shared`: $TLC_RUNTIME_LIB, else next to this executable in an
/// install (bin/../lib) or a build tree (bin/../runtime).
std::optional<std::string> findRuntimeLibrary() {
  if (const char *env = std::getenv("TLC_RUNTIME_LIB"))
    return std::string(env);
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::SmallString<256> bin(llvm::sys::path::parent_path(exe));
  for (const char *dir : {"lib", "runtime"}) {
    llvm::SmallString<256> candidate(bin);
    llvm::sys::path::append(candidate, "..", dir, "libtlcrt.a");
    if (llvm::sys::fs::exists(candidate))
      return std::string(candidate);
  }
  return std::nullopt;
}

/// Links `objectPath` and the runtime (generated code calls its thread pool) into a shared
/// library with the target's C compiler driver.
LogicalResult linkShared(const Target &target, llvm::StringRef objectPath,
                         llvm::StringRef outputPath, Location loc) {
  if (!target.isHost())
    return emitError(loc) << "--shared links the host's runtime; for --target="
                          << target.getName()
                          << " link the object with that target's toolchain instead";
  std::optional<std::string> runtime = findRuntimeLibrary();
  if (!runtime)
    return emitError(loc) << "--shared cannot find libtlcrt.a next to tlc; set TLC_RUNTIME_LIB";
  llvm::ErrorOr<std::string> driver = llvm::sys::findProgramByName(target.getLinkerDriver());
  if (!driver)
    return emitError(loc) << "--shared needs '" << target.getLinkerDriver()
                          << "' on PATH to link the shared library";
  llvm::SmallVector<llvm::StringRef> args = {*driver, "-shared", "-o", outputPath, objectPath};
  // A GPU model's library carries the whole runtime, so tools (tlc-run) can open a device and
  // make buffers with the same runtime the model uses.
  if (target.getGPUBackend())
    args.append({"-Wl,--whole-archive", *runtime, "-Wl,--no-whole-archive", "-ldl"});
  else
    args.push_back(*runtime);
  args.append({"-lpthread", "-lm"});
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*driver, args, std::nullopt, {}, 0, 0, &message);
  if (rc != 0)
    return emitError(loc) << "linking the shared library failed (" << *driver << " exited with "
                          << rc << (message.empty() ? "" : ": ") << message << ")";
  return success();
}

/// Writes a report to --report-file, else to stdout, or stderr when the output goes to stdout.
LogicalResult writeReport(const CompileOptions &options, Location loc,
                          llvm::function_ref<void(llvm::raw_ostream &)> print) {
  if (!options.reportPath.empty() && options.reportPath != "-") {
    std::string error;
    auto report = openOutputFile(options.reportPath, &error);
    if (!report)
      return emitError(loc) << error;
    print(report->os());
    return keepOutput(*report, options.reportPath, loc);
  }
  bool outputOnStdout = options.outputPath.empty() || options.outputPath == "-";
  print(outputOnStdout ? llvm::errs() : llvm::outs());
  return success();
}

/// What compile() settles before loading the model: the target and its options, the
/// lowering strategy, the cpu variants, the model's name.
struct CompileSetup {
  const Target *target;
  TargetOptions targetOptions;
  LoweringStrategy strategy;
  bool gpu;
  std::vector<CPUVariant> variants;
  std::string name;
  Location fileLoc;
};

/// Compiles a loaded model from the graph passes to the outputs `options` names;
/// `afterGraph` sees the module once the graph passes have run.
LogicalResult compileLoaded(OwningOpRef<ModuleOp> &module, const CompileOptions &options,
                            const CompileSetup &setup, const GraphOptions &graphOptions,
                            TimingScope &timing,
                            llvm::function_ref<void(ModuleOp)> afterGraph = nullptr);

/// --report=precision: compiles the probe of `module` (as loaded) into a temporary shared
/// library, runs it with tlc-run and writes the report.
LogicalResult writePrecisionReport(OwningOpRef<ModuleOp> &module, const CompileOptions &options,
                                   const CompileSetup &setup, GraphOptions graph,
                                   TimingScope &timing);

} // namespace

LogicalResult tlc::compile(const CompileOptions &options, MLIRContext &context,
                           llvm::SourceMgr &sourceMgr) {
  Location fileLoc = FileLineColLoc::get(&context, options.inputPath, 0, 0);
  registerAllTargets();
  const Target *target = lookupTarget(options.target);
  if (!target) {
    InFlightDiagnostic diag = emitError(UnknownLoc::get(&context));
    diag << "unknown target '" << options.target << "' (available:";
    for (const Target *t : getRegisteredTargets())
      diag << " " << t->getName();
    return diag << ")";
  }
  TargetOptions targetOptions{options.cpu, options.optLevel, options.gpu,
                              options.largeDataThreshold};
  LoweringStrategy strategy = target->getLoweringStrategy();
  strategy.winograd = options.winograd;
  bool gpu = target->getGPUBackend() != 0;
  if (!options.gpu.empty() && !gpu)
    return emitError(UnknownLoc::get(&context))
           << "--gpu applies to GPU targets only (--target=cuda), not to " << target->getName();
  // --cpu=a,b,...: one variant per cpu in one object, chosen at run time (CPUDispatch.h).
  FailureOr<SmallVector<std::string>> cpus = splitCPUList(options.cpu, UnknownLoc::get(&context));
  if (failed(cpus))
    return failure();
  std::vector<CPUVariant> variants;
  if (cpus->size() > 1) {
    FailureOr<std::vector<CPUVariant>> resolved =
        resolveCPUVariants(*cpus, *target, options.optLevel, UnknownLoc::get(&context));
    if (failed(resolved))
      return failure();
    variants = std::move(*resolved);
  } else if (failed(target->verifyOptions(targetOptions, UnknownLoc::get(&context)))) {
    return failure();
  }
  if (options.profile && gpu)
    return emitError(UnknownLoc::get(&context))
           << "--profile times CPU kernels; the GPU targets have no profile yet";
  if (options.profile && !variants.empty())
    return emitError(UnknownLoc::get(&context))
           << "--profile takes one --cpu (a model of several cpu variants has one table per "
              "variant)";
  bool binary = options.emit == EmitKind::Object;
  if (binary && (options.outputPath.empty() || options.outputPath == "-"))
    return emitError(UnknownLoc::get(&context))
           << "an object file needs an output path (-o FILE)";
  if (options.shared && !binary)
    return emitError(UnknownLoc::get(&context)) << "--shared only applies to --emit=obj";
  if (options.reportMemory &&
      (options.emit == EmitKind::TL || options.emit == EmitKind::Linalg))
    return emitError(UnknownLoc::get(&context))
           << "--report=memory needs the memory plan, which is made after --emit="
           << (options.emit == EmitKind::TL ? "tl" : "linalg")
           << " (use --emit=llvm, asm or obj)";

  if (!options.remat.empty() && options.remat != "auto") {
    RematPolicy policy;
    std::string error = parseRematPolicy(options.remat, policy);
    if (!error.empty())
      return emitError(UnknownLoc::get(&context))
             << "--remat=" << options.remat << ": expected auto, none, cheap or segments=N "
             << "with N >= 2";
  }
  if (options.maxWorkspace < 0)
    return emitError(UnknownLoc::get(&context)) << "--max-workspace must not be negative";

  if (options.reportFusion && options.emit == EmitKind::TL)
    return emitError(UnknownLoc::get(&context))
           << "--report=fusion needs the fusion groups, which are formed after --emit=tl "
              "(use --emit=linalg, llvm, asm or obj)";

  // One file named twice would be overwritten by the later write (the header over the object).
  std::pair<const char *, llvm::StringRef> outputs[] = {{"-o", options.outputPath},
                                                        {"--header", options.headerPath},
                                                        {"--report-file", options.reportPath},
                                                        {"the input", options.inputPath}};
  for (size_t i = 0; i < std::size(outputs); ++i)
    for (size_t j = i + 1; j < std::size(outputs); ++j)
      if (sameFile(outputs[i].second, outputs[j].second))
        return emitError(UnknownLoc::get(&context))
               << outputs[i].first << " and " << outputs[j].first << " name the same file '"
               << outputs[j].second << "'";

  // --time-report: a tree of wall/user times per stage and pass, printed to stderr at the end.
  DefaultTimingManager timingManager;
  timingManager.setEnabled(options.timeReport);
  timingManager.setDisplayMode(DefaultTimingManager::DisplayMode::Tree);
  TimingScope timing = timingManager.getRootScope();

  std::string name = options.modelName.empty() ? modelNameFromPath(options.inputPath)
                                               : options.modelName;
  if (!isValidCIdentifier(name))
    return emitError(UnknownLoc::get(&context))
           << "model name '" << name << "' is not a valid C identifier (use --name)";
  if (options.train && !llvm::StringRef(options.inputPath).ends_with(".onnx"))
    return emitError(fileLoc) << "--train builds a training step from an ONNX model; a .tl "
                                 "program states its own with 'train LOSS with OPTIMIZER(...)'";
  // Whether the object's cpu, or every cpu variant of it, has `feature` (a Target query that
  // builds a target machine per cpu).
  auto everyCPUHas = [&](bool (Target::*feature)(const TargetOptions &) const) {
    if (variants.empty())
      return (target->*feature)(targetOptions);
    return llvm::all_of(variants, [&](const CPUVariant &v) {
      return (target->*feature)(TargetOptions{v.name, options.optLevel, options.gpu});
    });
  };
  // QDQ convolutions on the integers by default where every variant has int8 dot products
  // (elsewhere the int32 sums run slower than float: tiles without vpdpbusd).
  bool int8Contractions =
      options.int8Contractions.value_or(false) ||
      (!options.int8Contractions && everyCPUHas(&Target::hasInt8Dot));
  TimingScope loadTiming = timing.nest("load (parse / import)");
  OwningOpRef<ModuleOp> module =
      loadModel(options, int8Contractions, context, sourceMgr, name);
  loadTiming.stop();
  if (!module)
    return failure();
  if (failed(verify(*module)))
    return failure();
  if (options.reportEinsum) {
    std::vector<FunctionEinsumReport> paths = planEinsumReport(*module, options.einsumPath);
    if (failed(writeReport(options, fileLoc, [&](llvm::raw_ostream &os) {
          printEinsumReport(paths, options.reportFormat, os);
        })))
      return failure();
  }
  GraphOptions graph;
  graph.einsumPath = options.einsumPath;
  graph.keepFP32 = options.keepFP32;
  graph.precision = options.precision;
  // Whether every variant of the object multiplies bf16 natively (asked only where bf16 may
  // be chosen: it builds a target machine per variant).
  bool nativeBF16 = (graph.precision == Precision::Auto || graph.precision == Precision::BF16) &&
                    everyCPUHas(&Target::hasNativeBF16Dot);
  if (graph.precision == Precision::Auto)
    graph.precision = nativeBF16 ? Precision::BF16 : Precision::F32;
  strategy.bf16Dots = nativeBF16;
  if (!options.keepFP32.empty() && graph.precision == Precision::F32)
    return emitError(UnknownLoc::get(&context))
           << "--keep-fp32 applies to a low-precision compile (--precision=bf16, fp16, or "
              "auto on a CPU with bf16 dot products)";
  CompileSetup setup{target, targetOptions, strategy, gpu, std::move(variants), name, fileLoc};
  if (!options.reportPrecision)
    return compileLoaded(module, options, setup, graph, timing);
  if (graph.precision == Precision::F32)
    return emitError(UnknownLoc::get(&context))
           << "--report=precision compares a low-precision compile with fp32: pass "
              "--precision=bf16 or fp16"
           << (options.precision == Precision::Auto
                   ? " (--precision=auto chose fp32: the cpu has no bf16 dot products)"
                   : "");
  if (gpu || !target->isHost())
    return emitError(UnknownLoc::get(&context))
           << "--report=precision runs the model on this machine; it needs the host's CPU "
              "target, not "
           << target->getName();
  bool training = false;
  module->walk([&](tl::GradOp) { training = true; });
  if (training)
    return emitError(fileLoc) << "--report=precision compares inference: the model computes "
                                 "gradients (a training step)";
  // The probe compiles from the model as loaded, before the graph passes change it.
  OwningOpRef<ModuleOp> probe = module->clone();
  if (failed(compileLoaded(module, options, setup, graph, timing)))
    return failure();
  TimingScope reportTiming = timing.nest("precision report (probe compile and run)");
  return writePrecisionReport(probe, options, setup, graph, reportTiming);
}

namespace {

LogicalResult compileLoaded(OwningOpRef<ModuleOp> &module, const CompileOptions &options,
                            const CompileSetup &setup, const GraphOptions &graphOptions,
                            TimingScope &timing, llvm::function_ref<void(ModuleOp)> afterGraph) {
  MLIRContext &context = *module->getContext();
  const Target *target = setup.target;
  TargetOptions targetOptions = setup.targetOptions;
  const LoweringStrategy &strategy = setup.strategy;
  bool gpu = setup.gpu;
  const std::vector<CPUVariant> &variants = setup.variants;
  const std::string &name = setup.name;
  Location fileLoc = setup.fileLoc;
  GraphOptions graph = graphOptions;
  // Rematerialization: a policy given, or the one the search finds (--remat=auto, or a
  // --max-workspace budget unless --remat=none) among copies compiled through memory planning.
  bool hasGradients = false;
  module->walk([&](tl::GradOp) { hasGradients = true; });
  std::optional<RematSearch> search;
  if (!hasGradients && !options.remat.empty() && options.remat != "none")
    emitWarning(fileLoc) << "--remat=" << options.remat
                         << " has no effect: the model computes no gradient";
  if (hasGradients) {
    bool automatic =
        options.remat == "auto" || (options.remat.empty() && options.maxWorkspace > 0);
    if (automatic) {
      TimingScope searchTiming = timing.nest("rematerialization search");
      FailureOr<RematSearch> found = searchRematPolicies(*module, graph, strategy, name,
                                                         options.maxWorkspace, fileLoc);
      if (failed(found))
        return failure();
      search = std::move(*found);
      graph.remat = search->tried[*search->chosen].policy;
    } else if (!options.remat.empty()) {
      graph.remat = options.remat;
    } else if (options.reportMemory) {
      graph.remat = "none"; // recorded, so the report lists what the backward pass keeps
    }
  }
  if (failed(runPasses(*module, timing, "graph passes", [&](OpPassManager &pm) {
        buildGraphPipeline(pm, graph);
      })))
    return failure();
  if (afterGraph)
    afterGraph(*module);
  std::optional<RematPlan> remat = takeRematRecord(*module);
  // A training step's object holds two models: the step (NAME_train_run, wrapped by
  // NAME_train_step) and the inference with the params read from its state (NAME_run).
  std::optional<TrainFunctions> trainFns = trainFunctions(*module);
  std::string stepName = trainFns ? trainFns->step : name;
  auto model = module->lookupSymbol<func::FuncOp>(stepName);
  FailureOr<ModelSignature> signature = extractSignature(model, stepName);
  if (failed(signature) || failed(extractTrainSpec(*module, *signature)))
    return failure();
  std::optional<ModelSignature> inference;
  if (trainFns) {
    FailureOr<ModelSignature> infer = extractStateInference(
        module->lookupSymbol<func::FuncOp>(trainFns->model), trainFns->model,
        *signature->train);
    if (failed(infer))
      return failure();
    inference = std::move(*infer);
  }
  SmallVector<ModelSignature *> models{&*signature};
  if (inference)
    models.push_back(&*inference);
  if (signature->train && gpu)
    return emitError(model.getLoc())
           << "training steps compile for the CPU targets only (for now)";
  if (options.emit == EmitKind::TL)
    return printModule(*module, options.outputPath.empty() ? "-" : options.outputPath);
  // NAME_train_step passes each next-state output the memory of the state it replaces
  // (tlc-alias-state-outputs makes that correct).
  if (signature->train)
    for (const StateSpec &st : signature->train->state)
      model.setResultAttr(st.output, "tl.updates",
                          IntegerAttr::get(IntegerType::get(&context, 64), st.input));

  if (failed(runPasses(*module, timing, "lowering to linalg", [&](OpPassManager &pm) {
        buildLowerToLinalgPipeline(pm, strategy);
      })))
    return failure();
  if (options.reportFusion) {
    std::vector<FunctionFusionReport> groups = readFusionGroups(*module);
    if (failed(writeReport(options, fileLoc, [&](llvm::raw_ostream &os) {
          printFusionReport(groups, options.reportFormat, os);
        })))
      return failure();
  }
  if (options.emit == EmitKind::Linalg)
    return printModule(*module, options.outputPath.empty() ? "-" : options.outputPath);

  copyRepeatedResults(*module);
  if (failed(runPasses(*module, timing, "bufferization and memory planning",
                       [&](OpPassManager &pm) {
                         std::vector<std::string> names;
                         for (ModelSignature *m : models)
                           names.push_back(m->name);
                         buildBufferizationPipeline(pm, names, strategy);
                       })))
    return failure();
  int64_t workspace = 0;
  if (auto size = (*module)->getAttrOfType<IntegerAttr>("tlc.workspace_size"))
    workspace = size.getInt();
  if (models.size() == 1) {
    signature->workspaceSize = workspace;
  } else {
    std::vector<FunctionMemoryReport> planned = readMemoryPlan(*module);
    for (ModelSignature *m : models)
      m->workspaceSize = plannedArena(planned, m->name);
  }
  if (options.maxWorkspace > 0 && workspace > options.maxWorkspace) {
    InFlightDiagnostic diag = emitError(fileLoc)
                              << "the workspace needs " << workspace
                              << " bytes, more than --max-workspace=" << options.maxWorkspace;
    if (!hasGradients)
      diag << " (the model computes no gradient: there is nothing to rematerialize)";
    else if (options.remat == "none")
      diag << " (--remat=auto would recompute forward values to fit it)";
    return diag;
  }
  if (options.profile) {
    if (failed(runPasses(*module, timing, "profile instrumentation", [&](OpPassManager &pm) {
          TLCInstrumentProfileOptions profile;
          profile.modelName = signature->name;
          pm.addPass(createTLCInstrumentProfile(profile));
        })))
      return failure();
    signature->profiled = true;
  }
  if (!variants.empty()) {
    TimingScope dispatchTiming = timing.nest("code generation per cpu, merging, dispatch");
    FailureOr<OwningOpRef<ModuleOp>> merged =
        lowerForCPUDispatch(*module, *target, variants, options.optLevel, models);
    if (failed(merged))
      return failure();
    module = std::move(*merged);
    targetOptions = target->getDispatchBaseline(targetOptions);
  } else {
    // The descriptor NAME_info lets tools introspect the object without its header; the GPU
    // host object is written by the target, which also needs to know the inputs from the
    // outputs among the host function's arguments (GPUProgram.h).
    if (gpu)
      (*module)->setAttr(kNumInputsAttr, IntegerAttr::get(IntegerType::get(&context, 64),
                                                          signature->inputs.size()));
    else
      for (ModelSignature *m : models)
        addModelInfo(*module, *m);
    if (failed(runPasses(*module, timing, "code generation to the LLVM dialect",
                         [&](OpPassManager &pm) {
                           target->addCodegenPasses(pm, targetOptions);
                         })))
      return failure();
    if (gpu) {
      // The GPU kernels' temporaries (split-k partial sums) may have widened the workspace.
      if (auto size = (*module)->getAttrOfType<IntegerAttr>("tlc.workspace_size"))
        signature->workspaceSize = size.getInt();
      (*module)->setAttr(kModelInfoAttr,
                         StringAttr::get(&context, formatModelInfo(*signature, {})));
    }
  }

  // The manifest describes the lowered model: its final workspace, plan and GPU kernels.
  std::vector<FunctionMemoryReport> plan = readMemoryPlan(*module);
  std::vector<GPUKernelLaunch> kernels;
  if (gpu) {
    FailureOr<GPUProgram> program = describeGPUProgram(*module);
    if (failed(program))
      return failure();
    kernels = std::move(program->kernels);
  }
  std::vector<std::string> cpuNames;
  for (const CPUVariant &v : variants)
    cpuNames.push_back(v.name);
  for (ModelSignature *m : models) {
    std::vector<FunctionMemoryReport> own = plan;
    if (models.size() > 1)
      llvm::erase_if(own, [&](const FunctionMemoryReport &f) { return f.function != m->name; });
    std::string manifest = buildManifest({*m, options, *target, cpuNames, own, kernels});
    if (gpu)
      (*module)->setAttr(kManifestAttr, StringAttr::get(&context, manifest));
    else
      addManifest(*module, m->name, manifest);
  }

  if (options.reportMemory) {
    if (failed(writeReport(options, fileLoc, [&](llvm::raw_ostream &os) {
          printMemoryReport(plan, options.reportFormat, os, remat ? &*remat : nullptr,
                            search ? &*search : nullptr);
        })))
      return failure();
  }

  OutputKind kind = options.emit == EmitKind::LLVMIR     ? OutputKind::LLVMIR
                    : options.emit == EmitKind::Assembly ? OutputKind::Assembly
                                                         : OutputKind::Object;
  std::string error;
  if (options.shared) {
    llvm::SmallString<128> objectPath;
    int fd;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile("tlc", "o", fd, objectPath))
      return emitError(fileLoc) << "cannot create a temporary file: " << ec.message();
    llvm::FileRemover remover(objectPath);
    {
      llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
      TimingScope llvmTiming = timing.nest("LLVM: translate, optimize, emit");
      TargetOptions fileOptions = targetOptions;
      fileOptions.objectPath = objectPath.str().str();
      if (failed(target->serialize(*module, fileOptions, kind, os, llvmTiming)))
        return failure();
      os.flush();
      if (std::error_code ec = os.error()) {
        os.clear_error();
        return emitError(fileLoc) << "cannot write '" << objectPath << "': " << ec.message();
      }
    }
    TimingScope linkTiming = timing.nest("link the shared library");
    if (failed(linkShared(*target, objectPath, options.outputPath, fileLoc)))
      return failure();
  } else {
    auto out = openOutputFile(options.outputPath.empty() ? "-" : options.outputPath, &error);
    if (!out)
      return emitError(fileLoc) << error;
    TimingScope llvmTiming = timing.nest("LLVM: translate, optimize, emit");
    // The object writer seeks back to patch headers: into a pipe or a terminal (-o /dev/stdout)
    // it would die with "Illegal seek", so such an output gets the object through memory.
    if (out->os().supportsSeeking()) {
      TargetOptions fileOptions = targetOptions;
      if (kind == OutputKind::Object && isPlainFile(options.outputPath))
        fileOptions.objectPath = options.outputPath;
      if (failed(target->serialize(*module, fileOptions, kind, out->os(), llvmTiming)))
        return failure();
    } else {
      llvm::SmallVector<char, 0> buffer;
      llvm::raw_svector_ostream os(buffer);
      if (failed(target->serialize(*module, targetOptions, kind, os, llvmTiming)))
        return failure();
      out->os() << llvm::StringRef(buffer.data(), buffer.size());
    }
    llvmTiming.stop();
    if (failed(keepOutput(*out, options.outputPath.empty() ? "-" : options.outputPath, fileLoc)))
      return failure();
  }

  if (!options.headerPath.empty()) {
    auto header = openOutputFile(options.headerPath, &error);
    if (!header)
      return emitError(fileLoc) << error;
    std::string cpu = options.cpu.empty() ? "" : " (cpu " + options.cpu + ")";
    if (!variants.empty()) {
      cpu = " (cpus";
      for (const CPUVariant &v : variants)
        cpu += " " + v.name;
      cpu += ", chosen at run time; TLC_STATUS_UNSUPPORTED if none runs)";
    }
    std::string provenance = kTLCVersion.str() + " from " +
                             llvm::sys::path::filename(options.inputPath).str() + " for " +
                             options.target + cpu;
    if (gpu) {
      GPUHeaderInfo info;
      info.target = target->getName();
      info.backendMacro = gpuBackendMacro(target->getGPUBackend());
      info.macros = target->getHeaderMacros(targetOptions);
      writeGPUHeader(*signature, provenance + (options.gpu.empty() ? "" : " " + options.gpu),
                     info, header->os());
    } else {
      std::vector<ModelSignature> headerModels;
      for (ModelSignature *m : llvm::reverse(models)) // NAME (the inference) first
        headerModels.push_back(*m);
      writeHeader(headerModels, provenance, header->os());
    }
    if (failed(keepOutput(*header, options.headerPath, fileLoc)))
      return failure();
  }
  return success();
}

LogicalResult writePrecisionReport(OwningOpRef<ModuleOp> &module, const CompileOptions &options,
                                   const CompileSetup &setup, GraphOptions graph,
                                   TimingScope &timing) {
  Location loc = setup.fileLoc;
  llvm::SmallString<128> dir;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("tlc-precision", dir))
    return emitError(loc) << "cannot create a temporary directory: " << ec.message();
  // Everything tlc and tlc-run write there goes with it, whatever the outcome.
  llvm::scope_exit removeDir([&] { (void)llvm::sys::fs::remove_directories(dir); });
  CompileOptions probe = options;
  probe.emit = EmitKind::Object;
  probe.shared = true;
  llvm::SmallString<128> library(dir);
  llvm::sys::path::append(library, "probe.so");
  probe.outputPath = std::string(library);
  probe.headerPath.clear();
  probe.reportMemory = probe.reportFusion = probe.reportEinsum = probe.reportPrecision = false;
  probe.profile = false;
  probe.maxWorkspace = 0; // the probe holds two runs of the model; the budget is the object's
  graph.precisionProbe = true;
  PrecisionReport report;
  report.precision = graph.precision;
  report.seed = options.reportSeed;
  report.inputs = options.reportInputs;
  if (failed(compileLoaded(module, probe, setup, graph, timing, [&](ModuleOp m) {
        report.rows = readPrecisionProbeRows(m);
      })))
    return failure();
  if (failed(runPrecisionProbe(library, dir, report, loc)))
    return failure();
  return writeReport(options, loc, [&](llvm::raw_ostream &os) {
    printPrecisionReport(report, options.reportFormat, os);
  });
}

} // namespace
