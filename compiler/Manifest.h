// The model manifest (compiler/manifest/tlc_manifest.fbs), built with FlatBuffers: the bytes
// every compiled object exports as NAME_manifest.
#ifndef TLC_COMPILER_MANIFEST_H
#define TLC_COMPILER_MANIFEST_H

#include "compiler/Compile.h"
#include "compiler/MemoryReport.h"
#include "compiler/Signature.h"
#include "targets/gpu/GPUProgram.h"

#include <string>

namespace tlc {

/// What a manifest describes, gathered when the module has been lowered.
struct ManifestContents {
  const ModelSignature &signature;
  const CompileOptions &options;
  const Target &target;
  llvm::ArrayRef<std::string> cpuVariants; // objects for several cpus, in dispatch order
  llvm::ArrayRef<FunctionMemoryReport> memoryPlan;
  llvm::ArrayRef<GPUKernelLaunch> kernels; // GPU targets
};

/// The manifest: a size-prefixed FlatBuffer with file identifier "TLCM". It holds no path
/// and no time, so an object stays a function of the input's contents and the options.
std::string buildManifest(const ManifestContents &contents);

} // namespace tlc

#endif // TLC_COMPILER_MANIFEST_H
