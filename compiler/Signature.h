// The model's C-visible signature: named, typed inputs and outputs, and the workspace size.
#ifndef TLC_COMPILER_SIGNATURE_H
#define TLC_COMPILER_SIGNATURE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>

#include <string>
#include <vector>

namespace tlc {

struct TensorSpec {
  std::string name; // a C identifier
  mlir::RankedTensorType type;
  bool isUnsigned = false; // an integer tensor read as unsigned (attribute `tl.unsigned`)
};

/// One tensor of a training step's state (a trained param or its optimizer state): the input
/// it is read from, the output its next value is written to, its place in the state buffer and
/// its initial value (null: zeros).
struct StateSpec {
  std::string name;
  mlir::RankedTensorType type;
  unsigned input = 0, output = 0;
  int64_t offset = 0;
  mlir::ElementsAttr init;
};

/// A model compiled from `train LOSS with OPTIMIZER`: the inputs lr (f32) and step (f32, the
/// next one) and the state, which the C ABI keeps in one caller-owned buffer.
struct TrainSpec {
  std::string model; // NAME: NAME_run infers from the state; the step is NAME_train_run
  unsigned lrInput = 0, stepInput = 0;
  std::vector<StateSpec> state;
  int64_t stateSize = 0; // bytes; each tensor starts at a multiple of 64
};

struct ModelSignature {
  std::string name; // the model's C name (prefix of NAME_run)
  std::vector<TensorSpec> inputs, outputs;
  int64_t workspaceSize = 0;
  bool profiled = false; // compiled with --profile: the NAME_profile_* table exists
  bool readsState = false; // the inference beside a training step: input 0 is its state
  std::optional<TrainSpec> train;
};

/// Reads the signature of the model function `func` (arguments and results with their
/// `tl.name` attributes; unnamed ones become inN/outN). Emits located errors for types the C
/// ABI cannot carry (dynamic shapes, unsupported element types) and for bad or clashing names.
mlir::FailureOr<ModelSignature> extractSignature(mlir::func::FuncOp func, llvm::StringRef name);

/// Takes the training state the .tl frontend recorded on `module` (attribute `tl.train`) into
/// `sig.train`, removing the attribute; no-op for other models.
mlir::LogicalResult extractTrainSpec(mlir::ModuleOp module, ModelSignature &sig);

/// The function names a training step's module holds (recorded by the frontend in `tl.train`):
/// the step and the inference from the state. Absent for other models.
struct TrainFunctions {
  std::string step, model;
};
std::optional<TrainFunctions> trainFunctions(mlir::ModuleOp module);

/// The C signature of the inference beside a training step: `func`, whose inputs marked
/// `tl.from_state` are trained params, becomes NAME_run(state, inputs..., outputs...,
/// workspace) with `state` (uint8_t[train.stateSize]) first. Marks each such argument with
/// `tl.state_offset` (its offset in the state buffer) and `func` with `tl.state_size`, which
/// tlc-state-buffer reads once the function is on buffers.
mlir::FailureOr<ModelSignature> extractStateInference(mlir::func::FuncOp func,
                                                      llvm::StringRef name,
                                                      const TrainSpec &train);

/// The bytes of the initial training state (NAME_initial_state).
std::string initialStateBytes(const TrainSpec &train);

/// Whether `name` is a valid C identifier that is not a C keyword.
bool isValidCIdentifier(llvm::StringRef name);

/// The C element type and tlc_dtype macro of an element type ("float", "TLC_DTYPE_F32"), with
/// integers of 8, 16 and 32 bits `isUnsigned` or not ("uint8_t", "TLC_DTYPE_U8").
std::pair<llvm::StringRef, llvm::StringRef> cTypeOf(mlir::Type elementType,
                                                    bool isUnsigned = false);
/// cTypeOf of a tensor of the signature.
inline std::pair<llvm::StringRef, llvm::StringRef> cTypeOf(const TensorSpec &t) {
  return cTypeOf(t.type.getElementType(), t.isUnsigned);
}

} // namespace tlc

#endif // TLC_COMPILER_SIGNATURE_H
