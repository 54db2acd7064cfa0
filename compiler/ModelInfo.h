// The descriptions embedded in every compiled object: the text `const char NAME_info[]`
// (readable from C without a library) and the FlatBuffers manifest `NAME_manifest` (Manifest.h)
// that tools (tlc-run) read after dlopen, without the header.
#ifndef TLC_COMPILER_MODELINFO_H
#define TLC_COMPILER_MODELINFO_H

#include "compiler/Signature.h"
#include "targets/Target.h"

#include "mlir/IR/BuiltinOps.h"

namespace tlc {

/// The descriptor text, version 1, one record per line:
///   tlc-model-info 1
///   name NAME
///   workspace BYTES
///   input NAME DTYPE DIMS      (DIMS like 1x3x224x224, or "scalar"; DTYPE f32, i64, i1, ...)
///   output NAME DTYPE DIMS
///   cpu CPU                    (objects for several cpus: one per variant, in dispatch order)
std::string formatModelInfo(const ModelSignature &signature,
                            llvm::ArrayRef<std::string> cpuVariants = {});

/// Adds the exported constant `NAME_info` holding formatModelInfo(...) to `module`
/// (an llvm.mlir.global, so it survives every lowering untouched).
void addModelInfo(mlir::ModuleOp module, const ModelSignature &signature,
                  llvm::ArrayRef<std::string> cpuVariants = {});

/// Adds the exported constant `NAME_manifest` holding the bytes of `manifest` (buildManifest).
void addManifest(mlir::ModuleOp module, llvm::StringRef name, llvm::StringRef manifest);

} // namespace tlc

#endif // TLC_COMPILER_MODELINFO_H
