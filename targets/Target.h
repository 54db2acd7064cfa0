// The small interface every code generation backend implements, and the registry of backends.
#ifndef TLC_TARGETS_TARGET_H
#define TLC_TARGETS_TARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace tlc {

/// One CPU of an object compiled for several (`--cpu=a,b,...`): its functions carry these
/// attributes, and the run-time check tests `runtimeFeatures` (names from tlc/cpu_features.h).
struct CPUVariant {
  std::string name;                         // as given to --cpu ("x86-64-v4", "native")
  std::string llvmCPU;                      // the CPU LLVM compiles for ("znver5" for native)
  std::string llvmFeatures;                 // extra LLVM target features ("" for the CPU's own)
  std::string preferVectorWidth;            // LLVM's prefer-vector-width, "" for its default
  std::vector<std::string> runtimeFeatures; // every detectable feature its code may use
};

/// Alignment of the model manifest NAME_manifest in every object, whoever writes it:
/// FlatBuffers reads its scalars (8 bytes at most) in place.
inline constexpr unsigned kManifestAlignment = 16;

/// What a target writes.
enum class OutputKind { LLVMIR, Assembly, Object };

/// How a target wants the shared lowering done: the CPU's code generation strategies (tiled
/// loop nests sized for caches and registers) only fit CPUs, and a GPU's kernels need their
/// bindings aligned for the device.
struct LoweringStrategy {
  /// tl-lower-attention's flash-attention loop nest (CPU tiles); else attention is lowered as
  /// its linalg definition.
  bool tiledAttention = true;
  /// Without tiledAttention: attention as one tl.fused_attention op that the target maps
  /// whole (the GPU targets' flash-attention kernel) where it can; else by its definition.
  bool fusedAttention = false;
  /// tlc-lower-convolutions (im2col, direct and row-phase tiles) and tlc-fuse-epilogues
  /// (contraction output tiles with their epilogue).
  bool cpuContractionTiles = true;
  /// 3x3 stride-1 convolutions may take Winograd's F(2x2, 3x3) (tlc --winograd): in
  /// tlc-lower-convolutions with cpuContractionTiles, else in the GPU targets' tlc-gpu-winograd.
  bool winograd = true;
  /// Every CPU of the object has bf16 dot products: bf16 convolutions keep bf16 operands for
  /// them (tlc-lower-convolutions' bf16-dots).
  bool bf16Dots = false;
  /// softmax, log_softmax and layer_norm as an scf.forall over rows (tl-lower-to-linalg's
  /// row-loops); else as whole-tensor reductions and elementwise ops.
  bool rowLoops = true;
  /// tlc-interchange-loops (innermost loop along contiguous memory, for CPU vector rows).
  bool interchangeLoops = true;
  /// The C entry point NAME_run over host buffers (tlc-add-entry-point).
  bool hostEntryPoint = true;
  /// Alignment, in bytes, of every buffer's offset in the workspace.
  int64_t workspaceAlignment = 64;
  /// The code generator runs a contraction and its elementwise epilogue as one kernel after
  /// bufferization (the GPU's tiled contractions): the memory plan keeps the contraction's
  /// inputs live through the epilogue (tlc-plan-workspace inputs-through-epilogues).
  bool epiloguesFusedOnBuffers = false;
};

/// LLVM's optimization level when none is asked for (tlc -O). 2, not 3: LLVM's -O3 pipeline
/// compiled resnet18 1.7x slower (its larger full-unroll threshold unrolls loops MLIR already
/// unrolled and vectorized) for no faster code on any model measured (docs/architecture.md,
/// "LLVM's optimization level").
constexpr unsigned kDefaultOptLevel = 2;

/// Options a target reads; `cpu` empty means the target's default, "native" the host.
struct TargetOptions {
  std::string cpu;
  unsigned optLevel = kDefaultOptLevel;
  std::string gpu; // GPU targets' architecture (--gpu), "" for the target's default
  /// x86-64: constant data past this many bytes in all goes to the large data sections
  /// (--large-data-threshold; see ByteConstantData.h).
  uint64_t largeDataThreshold = uint64_t(1) << 30;
  /// The regular file the stream given to serialize writes (empty: none, or not known). A
  /// target that makes the object as a file of its own (the CPU targets' `ld.lld -r` of their
  /// partitions) may put it at this path instead (renamed over the file, which the stream
  /// then leaves untouched) rather than copy it through the stream: a model's weights are
  /// written once less (a 2.5 GB object: ~6 s of kernel copying on a loaded VM).
  std::string objectPath = "";
};

class Target {
public:
  virtual ~Target() = default;
  /// The name users pass to `--target` (e.g. "x86_64").
  virtual llvm::StringRef getName() const = 0;
  virtual llvm::StringRef getDescription() const = 0;
  /// Adds the passes that take bufferized IR (linalg on memrefs, with the entry point built) to
  /// the LLVM dialect.
  virtual void addCodegenPasses(mlir::OpPassManager &pm, const TargetOptions &options) const = 0;
  /// Checks options (e.g. that the CPU exists) before any work; emits errors at `loc`.
  virtual mlir::LogicalResult verifyOptions(const TargetOptions &options,
                                            mlir::Location loc) const = 0;
  /// Whether `cpu` is one of this target's CPUs (to explain a --cpu list that mixes targets).
  virtual bool knowsCPU(llvm::StringRef cpu) const = 0;
  /// Describes `options.cpu` as one variant of a run-time dispatched object; fails with an
  /// error at `loc` when the target cannot dispatch at run time, or when the runtime could not
  /// detect an instruction set extension the CPU enables.
  virtual mlir::FailureOr<CPUVariant> describeDispatchVariant(const TargetOptions &options,
                                                              mlir::Location loc) const {
    return mlir::emitError(loc) << "target " << getName()
                                << " has no run-time CPU dispatch; give --cpu one cpu";
  }
  /// The options the dispatcher (and the object as a whole) is compiled with: a CPU every
  /// variant's host has.
  virtual TargetOptions getDispatchBaseline(const TargetOptions &options) const { return options; }
  /// Translates an LLVM-dialect module and writes it as `kind`. Functions that already carry a
  /// target CPU (variants of a dispatched object) keep it; the rest get `options.cpu`'s. Its
  /// steps (translation, optimization, emission) are timed as scopes nested in `timing`.
  virtual mlir::LogicalResult serialize(mlir::ModuleOp module, const TargetOptions &options,
                                        OutputKind kind, llvm::raw_pwrite_stream &os,
                                        mlir::TimingScope &timing) const = 0;
  /// Whether code for `options` multiplies bf16 pairs into f32 in one instruction (AVX-512
  /// BF16's vdpbf16ps, AArch64's BFDOT): what --precision=auto picks bf16 for.
  virtual bool hasNativeBF16Dot(const TargetOptions &) const { return false; }
  /// Whether tlc's int8 contraction tiles have a dot-product instruction for `options`
  /// (AVX-512 VNNI's vpdpbusd): where --int8-contractions is on by default.
  virtual bool hasInt8Dot(const TargetOptions &) const { return false; }
  /// The shared lowering's strategy for this target.
  virtual LoweringStrategy getLoweringStrategy() const { return {}; }
  /// For GPU targets the runtime backend (tlc_gpu_backend in tlc/gpu.h), else 0: the object
  /// then holds a tlc_gpu_program and the header declares NAME_init/NAME_run/NAME_release.
  virtual int getGPUBackend() const { return 0; }
  /// Macros the header states about the compiled code (name without the model prefix, value,
  /// comment), e.g. CUDA's PTX ISA version the user's driver must support.
  struct HeaderMacro {
    std::string name, value, comment;
  };
  virtual std::vector<HeaderMacro> getHeaderMacros(const TargetOptions &) const { return {}; }
  /// Whether this target's code runs on the machine tlc runs on.
  virtual bool isHost() const = 0;
  /// The C compiler driver that links objects of this target (for `--shared`).
  virtual llvm::StringRef getLinkerDriver() const = 0;
};

/// Registers the built-in targets (idempotent).
void registerAllTargets();
void registerTarget(std::unique_ptr<Target> target);
/// The target named `name`, or null.
const Target *lookupTarget(llvm::StringRef name);
std::vector<const Target *> getRegisteredTargets();

} // namespace tlc

#endif // TLC_TARGETS_TARGET_H
