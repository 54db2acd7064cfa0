// Merges the code generated for one CPU into the module of a multi-CPU object.
#ifndef TLC_COMPILER_MERGECPUVARIANT_H
#define TLC_COMPILER_MERGECPUVARIANT_H

#include "targets/Target.h"

#include "mlir/IR/BuiltinOps.h"

namespace tlc {

/// The attribute on a variant's entry point `NAME_run.CPU` listing the run-time features its
/// code needs (read by tlc-add-cpu-dispatch).
inline constexpr llvm::StringLiteral kCPUFeaturesAttr = "tlc.cpu_features";

/// Moves the LLVM-dialect `variant` (the model lowered for `cpu`) into `dest`: every function
/// definition is renamed NAME.CPU, made internal and compiled for the cpu (target_cpu,
/// target_features, prefer_vector_width); constants equal to one already in `dest` are shared,
/// other symbols that clash are renamed likewise; external declarations are shared; the
/// descriptors MODEL_info of `models` are dropped (the object gets one each). `variant` is left
/// empty.
mlir::LogicalResult mergeCPUVariant(mlir::ModuleOp dest, mlir::ModuleOp variant,
                                    const CPUVariant &cpu, llvm::ArrayRef<std::string> models);

} // namespace tlc

#endif // TLC_COMPILER_MERGECPUVARIANT_H
