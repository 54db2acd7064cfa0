// CPU targets: loops to the LLVM dialect, then LLVM's optimizer and code generator.
#include "targets/cpu/CPUTarget.h"

#include "passes/Passes.h"
#include "targets/Target.h"
#include "targets/cpu/ByteConstantData.h"
#include "targets/cpu/CPUPasses.h"
#include "targets/cpu/LLVMOptimizer.h"
#include "targets/cpu/BF16MaskedMemory.h"
#include "targets/cpu/OneLaneMaskedStores.h"
#include "targets/cpu/RuntimeFeatures.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace tlc;

namespace {

class CPUTarget final : public Target {
public:
  CPUTarget(llvm::StringRef name, llvm::StringRef triple, llvm::StringRef defaultCPU,
            llvm::StringRef description, llvm::StringRef linker)
      : name(name), triple(triple), defaultCPU(defaultCPU), description(description),
        linker(linker) {}

  llvm::StringRef getName() const override { return name; }
  llvm::StringRef getDescription() const override { return description; }
  llvm::StringRef getLinkerDriver() const override { return linker; }
  bool isHost() const override {
    return llvm::Triple(llvm::sys::getProcessTriple()).getArch() == llvm::Triple(triple).getArch();
  }

  void addCodegenPasses(OpPassManager &pm, const TargetOptions &options) const override {
    VectorRegisters regs = getVectorRegisters(options);
    TLCLowerMemRefCopyOptions copies;
    copies.slabLoops = true;
    pm.addNestedPass<func::FuncOp>(createTLCLowerMemRefCopy(copies));
    // Bufferized scf.forall loops (e.g. the attention kernel's batch loop) are independent
    // iterations: as scf.parallel they run on the thread pool (tlc-outline-parallel-loops).
    pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
    // Sliding-window reads (direct convolutions) as strided views: contractions like any other.
    pm.addNestedPass<func::FuncOp>(createTLCViewWindowOperands());
    // Contractions: cache and register tiling, then register tiles to FMAs on full vectors.
    TLCTileContractionsOptions tiles = contractionTiles(regs);
    // Whether the CPU has bf16 dot products (AVX512_BF16, AArch64 +bf16), and with them a
    // one-instruction f32 -> bf16 conversion (vcvtneps2bf16, bfcvtn).
    bool nativeBF16 = hasNativeBF16Dot(options);
    // bf16 contractions as dot products where the CPU has them: AVX-512 BF16's vdpbf16ps
    // (16 f32 lanes), AArch64 +bf16's BFDOT (4 lanes: the NEON 8x8 register tile is 8 rows of
    // two BFDOTs per k pair).
    tiles.bf16Pairs = (regs.x86Avx512 || regs.aarch64) && nativeBF16;
    tiles.dotLanes = regs.bits / 32;
    // Measured on Zen 5 (768 x 3072 bf16 weight, 1 thread): with 16 rows the k pairs are
    // 1.15x faster than converting in the register tiles, with 8 about even, with 1 slower.
    tiles.pairsMinRows = 2 * tiles.registerM;
    // uint8 x int8 contractions (tl.quantized_conv2d) as vpdpbusd where the CPU has AVX-512
    // VNNI (4.2x the fp32 FMA rate on the Xeon of the session: bench-peak vnni).
    tiles.int8Quads = regs.x86Avx512 && hasInt8Dot(options);
    pm.addNestedPass<func::FuncOp>(createTLCTileContractions(tiles));
    // Depthwise convolutions: rows of the output accumulated in registers over all taps.
    TLCTileDepthwiseOptions depthwise;
    depthwise.vectorBits = regs.bits;
    depthwise.registers = regs.count;
    pm.addNestedPass<func::FuncOp>(createTLCTileDepthwise(depthwise));
    // The model is still one function here, so these two run on one thread; their region
    // simplification (dead blocks and arguments over the whole function at every iteration)
    // found nothing to do on the models compared (objects byte-identical: densenet201,
    // resnet50, mobilenet_v3_large, vit_b_16 and swin_t at the default target,
    // squeezenet1_1, efficientnet_b0 and mnasnet1_0 at --cpu=native) and took 0.15 s of
    // densenet201's compile.
    GreedyRewriteConfig noRegions;
    noRegions.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    pm.addPass(createCanonicalizerPass(noRegions));
    TLCVectorizeOptions vectorize;
    vectorize.dotLanes = tiles.dotLanes;
    pm.addNestedPass<func::FuncOp>(createTLCVectorize(vectorize));
    pm.addPass(createCanonicalizerPass(noRegions));
    // Large elementwise/reduction/copy ops split into chunks along a parallel dimension.
    pm.addNestedPass<func::FuncOp>(createTLCParallelizeLoops());
    // Rows (reductions and elementwise loops along the contiguous axis) to full-width vectors.
    TLCVectorizeRowsOptions rows;
    rows.vectorBits = regs.bits;
    // With AVX-512's mask registers a masked load or store is one instruction, so rows of
    // 4-15 floats (the 7x7 and 14x14 stages' padding copies) take one masked step instead of
    // LLVM's scalar moves (with the dynamic-chunk change, mobilenet_v2 and resnet18 5-8%
    // faster on Zen 5; README, Performance). Narrower targets keep whole-vector rows (not
    // measured there; AVX2 has no mask registers, and its vmaskmov stores are slow on several
    // x86 cores).
    if (regs.bits >= 512)
      rows.minRow = 4;
    pm.addNestedPass<func::FuncOp>(createTLCVectorizeRows(rows));
    // Outer parallel loops run on the runtime's thread pool.
    pm.addPass(createTLCOutlineParallelLoops());
    // Bodies repeated layer after layer are compiled once.
    pm.addPass(createTLCMergeParallelBodies());
    pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
    VectorTransferToSCFOptions toSCF;
    toSCF.enableFullUnroll();
    pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(toSCF));
    // Before the expansion: a fused chain of hundreds of tanh would be thousands of
    // instructions in one loop body.
    pm.addPass(createTLCOutlineMath());
    TLCApproximateMathOptions approximate;
    approximate.x86Avx512 = regs.x86Avx512;
    pm.addPass(createTLCApproximateMath(approximate));
    pm.addPass(createConvertMathToFuncs());
    // bf16 conversions. With a conversion instruction LLVM emits it for each truncation (it
    // rounds to nearest even like the expansion below; x86's vcvtneps2bf16 also flushes
    // subnormal inputs to zero) and shifts for each extension. Without one, LLVM would call
    // __truncsfbf2 per element, which libgcc before GCC 13 lacks: truncations become integer
    // arithmetic that vectorizes (tlc-expand-bf16-truncation), and arith-expand expands the
    // rest. (LLVM still calls __truncsfbf2 where it promotes a bf16 vector op, e.g. a select
    // of a constant with undefined lanes in a masked tail: libtlcrt defines it, weakly, in
    // bf16_support.c.)
    if (!nativeBF16)
      pm.addPass(createTLCExpandBF16Truncation());
    arith::ArithExpandOpsPassOptions expand;
    expand.includeBf16 = !nativeBF16;
    pm.addPass(arith::createArithExpandOpsPass(expand));
    pm.addPass(createLowerAffinePass());
    // LLVM's loop passes take time quadratic in the number of loops in one function, its
    // register allocator and machine scheduler more than linear in a function's size.
    pm.addPass(createTLCSplitLongFunctions());
    // The calling thread's packing buffers share one frame buffer by live range.
    pm.addNestedPass<func::FuncOp>(createTLCShareEntryAllocas());
    pm.addNestedPass<func::FuncOp>(createSCFToControlFlowPass());
    // One flat constant per weight: LLVM's nested constant arrays were slow to build and emit.
    pm.addPass(createTLCFlattenConstantGlobals());
    // From here to the function conversion the passes convert ops inside functions, nested
    // so they run on the split functions in parallel.
    pm.addNestedPass<func::FuncOp>(memref::createExpandStridedMetadataPass());
    pm.addNestedPass<func::FuncOp>(createLowerAffinePass());
    // Reductions may reassociate (tlc-set-fast-math grants it to every reduction combiner;
    // vectorization drops the flag): horizontal vector reductions become shuffle trees.
    ConvertVectorToLLVMPassOptions vectorToLLVM;
    vectorToLLVM.reassociateFPReductions = true;
    // tlc-approximate-math's AVX-512 exp2 uses x86vector ops (vscalefps).
    vectorToLLVM.x86Vector = approximate.x86Avx512;
    pm.addNestedPass<func::FuncOp>(createConvertVectorToLLVMPass(vectorToLLVM));
    pm.addPass(createFinalizeMemRefToLLVMConversionPass());
    pm.addNestedPass<func::FuncOp>(createConvertMathToLLVMPass());
    pm.addNestedPass<func::FuncOp>(createArithToLLVMConversionPass());
    pm.addNestedPass<func::FuncOp>(createConvertIndexToLLVMPass());
    ConvertFuncToLLVMPassOptions funcOptions;
    funcOptions.useBarePtrCallConv = true;
    pm.addPass(createConvertFuncToLLVMPass(funcOptions));
    pm.addPass(createConvertControlFlowToLLVMPass());
    // Function by function, on the worker threads (module-wide they ran on one).
    pm.addNestedPass<LLVM::LLVMFuncOp>(createUBToLLVMConversionPass());
    pm.addNestedPass<LLVM::LLVMFuncOp>(createReconcileUnrealizedCastsPass());
    pm.addPass(createTLCLowerParallelLaunch());
    // From -O1 on LLVM's optimizer subsumes a canonicalization of the LLVM dialect here: the
    // objects of every example, benchmark, e2e and ONNX test model came out byte-identical
    // without it, which saved ~1% of the compile (the MLP example, resnet18).
    if (options.optLevel == 0)
      pm.addPass(createCanonicalizerPass());
  }

  bool knowsCPU(llvm::StringRef cpu) const override {
    std::string error;
    return createTargetMachine(TargetOptions{cpu.str(), 0, ""}, error) != nullptr;
  }

  FailureOr<CPUVariant> describeDispatchVariant(const TargetOptions &options,
                                                Location loc) const override {
    std::string error;
    std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, error);
    if (!tm)
      return emitError(loc) << error;
    const llvm::Triple &targetTriple = tm->getTargetTriple();
    if (!targetTriple.isX86() && !targetTriple.isAArch64())
      return emitError(loc) << "run-time CPU dispatch (--cpu with a list) is not implemented "
                               "for "
                            << name;
    DispatchArch arch = targetTriple.isX86() ? DispatchArch::X86_64 : DispatchArch::AArch64;
    CPUVariant variant;
    variant.name = options.cpu;
    variant.llvmCPU = tm->getTargetCPU().str();
    variant.llvmFeatures = tm->getTargetFeatureString().str();
    llvm::StringMap<bool> features;
    if (options.cpu == "native")
      features = llvm::sys::getHostCPUFeatures();
    else if (arch == DispatchArch::X86_64)
      features = x86CPUFeatures(variant.llvmCPU);
    else
      features = aarch64CPUFeatures(variant.llvmCPU);
    std::string unknown;
    const llvm::MCSubtargetInfo *subtarget = tm->getMCSubtargetInfo();
    std::optional<std::vector<std::string>> runtime = runtimeFeatures(
        arch, features,
        [&](llvm::StringRef f) { return subtarget->checkFeatures(("+" + f).str()); },
        unknown);
    if (!runtime)
      return emitError(loc) << "cpu '" << options.cpu << "' enables '" << unknown
                            << "', which the runtime cannot detect, so it cannot be a "
                               "run-time dispatch variant";
    variant.runtimeFeatures = std::move(*runtime);
    if (arch == DispatchArch::X86_64 && subtarget->checkFeatures("+avx512f"))
      variant.preferVectorWidth = "512"; // as serialize() does for one cpu
    return variant;
  }

  bool hasNativeBF16Dot(const TargetOptions &options) const override {
    return hasFeature(options, "+avx512bf16", "+bf16");
  }

  /// vpdpbusd (DotProductTiles.cpp). AArch64's sdot has no tiles yet.
  bool hasInt8Dot(const TargetOptions &options) const override {
    return hasFeature(options, "+avx512vnni", "");
  }

  /// Whether the target CPU of `options` has the subtarget feature `x86Feature` (an x86
  /// target) or `otherFeature` (AArch64), "+name"; an empty name: no.
  bool hasFeature(const TargetOptions &options, llvm::StringRef x86Feature,
                  llvm::StringRef otherFeature) const {
    std::string error;
    std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, error);
    if (!tm)
      return false;
    llvm::StringRef feature = tm->getTargetTriple().isX86() ? x86Feature : otherFeature;
    return !feature.empty() && tm->getMCSubtargetInfo()->checkFeatures(feature.str());
  }

  TargetOptions getDispatchBaseline(const TargetOptions &options) const override {
    TargetOptions baseline = options;
    baseline.cpu = llvm::Triple(triple).isX86() ? "x86-64" : defaultCPU;
    return baseline;
  }

  LogicalResult verifyOptions(const TargetOptions &options, Location loc) const override {
    std::string error;
    if (!createTargetMachine(options, error)) {
      emitError(loc) << error;
      return failure();
    }
    return success();
  }

  LogicalResult serialize(ModuleOp module, const TargetOptions &options, OutputKind kind,
                          llvm::raw_pwrite_stream &os, TimingScope &timing) const override {
    std::string error;
    std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, error);
    if (!tm)
      return module.emitError() << error;
    llvm::LLVMContext llvmContext;
    TimingScope translateTiming = timing.nest("translate to LLVM IR");
    std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(module, llvmContext);
    if (!llvmModule)
      return module.emitError() << "failed to translate the module to LLVM IR";
    translateTiming.stop();
    llvmModule->setDataLayout(tm->createDataLayout());
    llvmModule->setTargetTriple(tm->getTargetTriple());
    if (tm->getTargetTriple().getArch() == llvm::Triple::x86_64)
      placeLargeConstantData(*llvmModule, options.largeDataThreshold);
    bool wide = tm->getTargetTriple().isX86() &&
                tm->getMCSubtargetInfo()->checkFeatures("+avx512f");
    for (llvm::Function &f : *llvmModule) {
      if (f.isDeclaration() || f.hasFnAttribute("target-cpu"))
        continue;
      f.addFnAttr("target-cpu", tm->getTargetCPU());
      f.addFnAttr("target-features", tm->getTargetFeatureString());
      // LLVM prefers 256-bit vectors on AVX-512 parts; dense tensor loops want all 512 bits.
      if (wide)
        f.addFnAttr("prefer-vector-width", "512");
    }
    // After the optimizer, which would not recreate them, and before the x86 back end that
    // miscompiles them (OneLaneMaskedStores.h) and the AArch64 one that cannot select masked
    // bf16 loads (BF16MaskedMemory.h); constant data as bytes for a fast emission.
    bool x86 = tm->getTargetTriple().isX86(), aarch64 = tm->getTargetTriple().isAArch64();
    auto beforeCodegen = [x86, aarch64](llvm::Module &m) {
      if (x86)
        scalarizeOneLaneMaskedStores(m);
      if (aarch64)
        bf16MaskedMemoryAsI16(m);
      emitConstantDataAsBytes(m);
    };
    if (x86)
      disableLoopStrengthReduction();
    PartitionCodegen partitionCodegen;
    partitionCodegen.beforeCodegen = beforeCodegen;
    partitionCodegen.out = &os;
    partitionCodegen.outPath = options.objectPath;
    bool objectFile = kind == OutputKind::Object;
    TimingScope optimizeTiming =
        timing.nest("optimize (LLVM -O" + std::to_string(options.optLevel) + ")");
    unsigned threads = module->getContext()->isMultithreadingEnabled()
                           ? llvm::hardware_concurrency().compute_thread_count()
                           : 1;
    auto makeTargetMachine = [&] {
      std::string ignored; // the same options made `tm` above
      return createTargetMachine(options, ignored);
    };
    llvm::Expected<unsigned> partitions =
        optimizeLLVMModuleInParallel(*llvmModule, *tm, options.optLevel, threads,
                                     makeTargetMachine, objectFile ? &partitionCodegen : nullptr);
    if (!partitions) {
      std::string message = llvm::toString(partitions.takeError());
      return module.emitError() << "LLVM optimization or code generation failed: " << message;
    }
    if (*partitions > 1) // a name in --time-report
      optimizeTiming.nest("in " + std::to_string(*partitions) + " partitions on " +
                          std::to_string(std::min(threads, *partitions)) + " threads" +
                          (partitionCodegen.emitted
                               ? ", with their code generation; objects joined by lld -r"
                               : ""));
    optimizeTiming.stop();
    if (partitionCodegen.emitted)
      return success();
    beforeCodegen(*llvmModule);
    if (kind == OutputKind::LLVMIR) {
      llvmModule->print(os, nullptr);
      return success();
    }
    TimingScope emitTiming = timing.nest("code generation and emission");
    llvm::legacy::PassManager codegen;
    auto fileType = kind == OutputKind::Assembly ? llvm::CodeGenFileType::AssemblyFile
                                                 : llvm::CodeGenFileType::ObjectFile;
    if (tm->addPassesToEmitFile(codegen, os, nullptr, fileType))
      return module.emitError() << "target " << name << " cannot emit this file type";
    codegen.run(*llvmModule);
    return success();
  }

private:
  /// The SIMD registers code generation may assume: vector width in bits, register count, and
  /// whether they are x86's AVX-512 ones (the x86vector ops tlc-approximate-math may use).
  struct VectorRegisters {
    unsigned bits = 128, count = 16;
    bool x86Avx512 = false, aarch64 = false;
  };

  VectorRegisters getVectorRegisters(const TargetOptions &options) const {
    std::string error;
    std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, error);
    if (!tm)
      return {};
    const llvm::MCSubtargetInfo *sti = tm->getMCSubtargetInfo();
    if (tm->getTargetTriple().isX86()) {
      if (sti->checkFeatures("+avx512f"))
        return {512, 32, true};
      if (sti->checkFeatures("+avx"))
        return {256, 16};
      return {128, 16};
    }
    if (tm->getTargetTriple().isAArch64())
      return {128, 32, false, true};
    return {};
  }

  /// Policy: a register tile of `registerM` rows of two vectors each, leaving room for the
  /// right operand's two vectors and a broadcast (8x32 f32 on AVX-512, 6x16 on AVX2, 8x8 on
  /// NEON); cache blocks sized for a 32-48 KiB L1 (a 256 x registerN panel) and a >= 512 KiB L2.
  TLCTileContractionsOptions contractionTiles(const VectorRegisters &regs) const {
    TLCTileContractionsOptions tiles;
    int64_t lanes = regs.bits / 32;
    tiles.registerN = 2 * lanes;
    tiles.registerM = std::min<int64_t>(8, (regs.count - 4) / 2);
    tiles.cacheK = 256;
    tiles.cacheN = std::max<int64_t>(tiles.registerN, 256 / tiles.registerN * tiles.registerN);
    tiles.cacheM = 8 * tiles.registerM;
    tiles.packRhs = true;
    // A packed panel read by fewer rows (e.g. a convolution's 64-filter output tile, which
    // would copy its whole im2col panel for 8 register tiles) costs about as much to copy as
    // its conflict-free reads save.
    tiles.packMinRows = 16 * tiles.registerM;
    // Unless its rows cannot stay in L1 unpacked (a row stride of 2 KiB puts a 256-row panel
    // in 2 of L1's 64 sets): then every register tile reads it from L2, and the copy pays for
    // itself at 8 tiles (an MLP's 64-row batch times a 784x512 or 512x512 weight: the training
    // step's three such products 1.3-1.35x faster, Zen 3); at 32 rows (GPT-2 block's 32 tokens
    // times its 2048-wide weights, copied whole for 5 tiles) the copy cost more than it saved.
    tiles.packConflictMinRows = 8 * tiles.registerM;
    // A left-operand block is re-read by every register strip of its n block, and the whole
    // operand once per n block. Packed, its rows are cache-k apart, not one operand row (set
    // and page conflicts at k = 1024-2048), and each copy reads long contiguous rows. That
    // paid only where the operand comes from memory again at each n block (16 MiB, 2048^2
    // f32), and most with n blocks twice as wide (half the copies and re-reads; alone, the
    // wider block was slower); at 4 MiB (1024^2), cached between n blocks, the copies cost
    // 2-6%.
    tiles.packLhs = true;
    tiles.packLhsMinCols = 4 * tiles.registerN;
    tiles.packLhsMinBytes = 8 << 20;
    tiles.packLhsCacheN = 2 * tiles.cacheN;
    // An epilogue-fused output tile (64 x 256 f32) is written once the contraction has
    // gone through all of it; what its epilogue reads (a residual, GELU's input in a training
    // step's backward) is prefetched into L2 meanwhile, tile by tile.
    tiles.prefetchEpilogueMaxBytes = 256 << 10;
    tiles.prefetchLocality = 2;
    return tiles;
  }

  std::unique_ptr<llvm::TargetMachine> createTargetMachine(const TargetOptions &options,
                                                           std::string &error) const {
    llvm::Triple tt(triple);
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(tt, error);
    if (!target)
      return nullptr;
    std::string cpu = options.cpu.empty() ? defaultCPU : options.cpu;
    std::string features;
    if (cpu == "native") {
      if (llvm::Triple(llvm::sys::getProcessTriple()).getArch() != tt.getArch()) {
        error = "--cpu=native needs a " + name + " host";
        return nullptr;
      }
      cpu = llvm::sys::getHostCPUName().str();
      // Joined by SubtargetFeatures: a trailing comma (an empty feature) makes the IR's
      // "target-features" attribute invalid for the LLVM verifier (`opt` rejects it).
      llvm::SubtargetFeatures hostFeatures;
      for (const auto &feature : llvm::sys::getHostCPUFeatures())
        hostFeatures.AddFeature(feature.first(), feature.second);
      features = hostFeatures.getString();
    }
    // Check the CPU name first: an unknown one makes LLVM print warnings and carry on.
    std::unique_ptr<llvm::MCSubtargetInfo> probe(target->createMCSubtargetInfo(tt, "", ""));
    if (!probe || !probe->isCPUStringValid(cpu)) {
      error = "unknown cpu '" + cpu + "' for target " + name;
      return nullptr;
    }
    // LLVM knows 32-bit x86 cores (pentium, i686, athlon) too; asked for 64-bit code for one, it
    // stops the process with a fatal error.
    if (tt.isX86() && tt.isArch64Bit()) {
      std::unique_ptr<llvm::MCSubtargetInfo> withCPU(target->createMCSubtargetInfo(tt, cpu, ""));
      if (!withCPU || !withCPU->checkFeatures("+64bit")) {
        error = "cpu '" + cpu + "' is a 32-bit x86 cpu; target " + name + " needs a 64-bit one";
        return nullptr;
      }
    }
    std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
        tt, cpu, features, llvm::TargetOptions(), llvm::Reloc::PIC_, std::nullopt,
        options.optLevel >= 3 ? llvm::CodeGenOptLevel::Aggressive
                              : llvm::CodeGenOptLevel::Default));
    if (!tm) {
      error = "cannot create a code generator for " + triple;
      return nullptr;
    }
    return tm;
  }

  std::string name, triple, defaultCPU, description, linker;
};

} // namespace

void tlc::registerCPUTargets() {
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86Target();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86AsmPrinter();
  LLVMInitializeAArch64TargetInfo();
  LLVMInitializeAArch64Target();
  LLVMInitializeAArch64TargetMC();
  LLVMInitializeAArch64AsmPrinter();
  registerTarget(std::make_unique<CPUTarget>(
      "x86_64", "x86_64-unknown-linux-gnu", "x86-64-v3",
      "x86-64 Linux; --cpu x86-64-v3 (AVX2, default), x86-64-v4/skylake-avx512/znver4 "
      "(AVX-512), native",
      "cc"));
  registerTarget(std::make_unique<CPUTarget>("aarch64", "aarch64-unknown-linux-gnu", "generic",
                                             "AArch64 Linux with NEON; --cpu generic (default), "
                                             "neoverse-n1, cortex-a76, ...",
                                             "aarch64-linux-gnu-gcc"));
}
