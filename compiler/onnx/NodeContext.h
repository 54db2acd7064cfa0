// What a converter sees of one ONNX node: its inputs (values or folded constants), attributes,
// outputs, the builder at the node's location, and helpers that emit checked tl ops.
#ifndef TLC_COMPILER_ONNX_NODECONTEXT_H
#define TLC_COMPILER_ONNX_NODECONTEXT_H

#include "TL/TLDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

#include <onnx/onnx_pb.h>
#include <optional>

namespace tlc::onnx_import {

/// What DequantizeLinear dequantized, kept on its float output (QDQ models): the integers
/// (`integers`: uint8/int8 values computed at run time, widened to i32; or `data`: a constant,
/// the weights), their ONNX 8-bit type, and the scales and zero points (one, or one per
/// position along `axis`). A contraction reading such outputs may run on the integers
/// (OnnxImportOptions::int8Contractions).
struct Dequantized {
  mlir::Value integers;
  mlir::DenseElementsAttr data;
  int onnxType = 0;
  llvm::SmallVector<double> scales;
  llvm::SmallVector<int64_t> zeroPoints;
  int64_t axis = 0;
};

/// One ONNX value during import: an SSA value, a host constant (folded shape subgraphs,
/// initializers), or both once a constant has been materialized.
struct OnnxValue {
  mlir::Value value;
  mlir::DenseElementsAttr constant;
  mlir::RankedTensorType type;
  /// The ONNX element type where it is narrow (uint8, int8, uint16, int16, uint32: computed in
  /// `type`'s wider element type, NarrowIntegers.h); 0 for the others.
  int onnxType = 0;
  /// Set on DequantizeLinear's output.
  std::optional<Dequantized> dequantized;
};

/// The value table of a graph, by ONNX name.
using ValueTable = llvm::StringMap<OnnxValue>;

/// Constants up to this many elements are folded on the host (shape subgraphs); larger ones
/// are computed by the compiled code.
constexpr int64_t kFoldLimit = 1 << 16;

/// The most entries of a table a converter builds at import (index tables, iotas, windows,
/// resampling axes, ranges): built on the host and stored in the object, so a dimension of
/// 2^31 would otherwise mean gigabytes of constant.
constexpr int64_t kMaxTable = int64_t(1) << 24;

class NodeContext {
public:
  NodeContext(const onnx::NodeProto &node, mlir::Location loc, mlir::OpBuilder &builder,
              ValueTable &values, int64_t opset)
      : node(node), loc(loc), b(builder), values(values), opset(opset) {}

  const onnx::NodeProto &node;
  mlir::Location loc;
  mlir::OpBuilder &b;
  ValueTable &values;
  int64_t opset;
  /// Importing for training (--train): BatchNormalization normalizes with the batch's
  /// statistics, as PyTorch's train mode does.
  bool training = false;
  /// Convolutions of dequantized uint8/int8 operands run on the integers (int32 sums, then the
  /// scales): OnnxImportOptions::int8Contractions.
  bool int8Contractions = false;
  /// Nodes that control-flow bodies may still convert in this import (of expansionLimit,
  /// OnnxImportOptions::maxExpandedNodes; ControlFlow.cpp), shared by every NodeContext of the
  /// import; null: no limit.
  int64_t *expansionBudget = nullptr;
  int64_t expansionLimit = 0;

  mlir::MLIRContext *ctx() { return b.getContext(); }
  mlir::InFlightDiagnostic emitError() { return mlir::emitError(loc); }

  // Inputs. An input is present when its name is non-empty (ONNX optional inputs).
  size_t numInputs() const { return node.input_size(); }
  bool hasInput(size_t i) const { return i < (size_t)node.input_size() && !node.input(i).empty(); }
  OnnxValue *input(size_t i);
  mlir::RankedTensorType type(size_t i) { return input(i)->type; }
  mlir::Type elementType(size_t i) { return type(i).getElementType(); }
  llvm::ArrayRef<int64_t> shape(size_t i) { return type(i).getShape(); }
  int64_t rank(size_t i) { return type(i).getRank(); }
  /// The SSA value of input `i` (materializing a constant as tl.constant).
  mlir::Value value(size_t i) { return materialize(*input(i)); }
  /// The SSA value of `v`, materializing a host constant as tl.constant (once: kept in `v`).
  mlir::Value materialize(OnnxValue &v);
  /// The host constant of input `i`, or null.
  mlir::DenseElementsAttr constant(size_t i) { return hasInput(i) ? input(i)->constant : nullptr; }
  /// Whether every present input is a host constant of at most kFoldLimit elements.
  bool allConstant();
  /// Integer values of constant input `i`; a located error naming `what` if it is not constant.
  mlir::FailureOr<llvm::SmallVector<int64_t>> constInts(size_t i, llvm::StringRef what);
  /// Fails with a located error unless window attribute `name` has `per` entries for each of
  /// the `n` spatial dimensions (pads: 2).
  mlir::LogicalResult checkSpatialLength(llvm::StringRef name, size_t size, size_t n,
                                         size_t per = 1);

  // Attributes.
  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  bool hasAttr(llvm::StringRef name) const { return attr(name) != nullptr; }
  int64_t attrInt(llvm::StringRef name, int64_t dflt) const;
  double attrFloat(llvm::StringRef name, double dflt) const;
  std::string attrString(llvm::StringRef name, llvm::StringRef dflt) const;
  llvm::SmallVector<int64_t> attrInts(llvm::StringRef name) const;

  // Outputs.
  size_t numOutputs() const { return node.output_size(); }
  bool hasOutput(size_t i) const {
    return i < (size_t)node.output_size() && !node.output(i).empty();
  }
  void setOutput(size_t i, mlir::Value v);
  void setConstant(size_t i, mlir::DenseElementsAttr c);

  // Checked emission helpers (a failure has already been reported at the node).
  mlir::Value scalar(mlir::Type elementType, double v);
  mlir::Value constantValue(mlir::DenseElementsAttr c);
  /// A constant of rank `rank` holding 0, 1, ..., n-1 along `axis` (size 1 elsewhere), of
  /// integer `elementType`: compared with indices to make one-hot masks. `n` above kMaxTable
  /// is an error.
  mlir::FailureOr<mlir::Value> iota(int64_t rank, int64_t axis, int64_t n,
                                    mlir::Type elementType);
  /// An i64 constant of `shape` whose i-th element (row-major) is i * planeSize: the flat
  /// position of each plane's first element, added to positions within a plane.
  mlir::Value planeStarts(llvm::ArrayRef<int64_t> shape, int64_t planeSize);
  mlir::FailureOr<mlir::Type> broadcastType(llvm::ArrayRef<mlir::Value> operands,
                                            mlir::Type elementType);
  template <typename OpTy> mlir::FailureOr<mlir::Value> binary(mlir::Value a, mlir::Value b2) {
    if (failed(sameElementType(a, b2)))
      return mlir::failure();
    mlir::FailureOr<mlir::Type> t =
        broadcastType({a, b2}, mlir::cast<mlir::RankedTensorType>(a.getType()).getElementType());
    if (mlir::failed(t))
      return mlir::failure();
    return OpTy::create(b, loc, *t, a, b2).getResult();
  }
  template <typename OpTy> mlir::Value unary(mlir::Value a) {
    return OpTy::create(b, loc, a.getType(), a).getResult();
  }
  mlir::FailureOr<mlir::Value> compare(tl::ComparePredicate pred, mlir::Value a, mlir::Value b2);
  mlir::FailureOr<mlir::Value> select(mlir::Value c, mlir::Value t, mlir::Value f);
  /// `a` and `b` (i1 tensors, broadcast): a ? b : false.
  mlir::FailureOr<mlir::Value> logicalAnd(mlir::Value a, mlir::Value b2);
  /// `v` where it is at least 0, else 0, NaN included (its comparison is false): a float
  /// bound for an index is finite below before its conversion (fptosi of NaN is undefined,
  /// and tl.max would keep the NaN).
  mlir::FailureOr<mlir::Value> nonNegativeOrZero(mlir::Value v);
  mlir::Value cast(mlir::Value v, mlir::Type elementType);
  mlir::FailureOr<mlir::Value> reshape(mlir::Value v, llvm::ArrayRef<int64_t> shape);
  mlir::FailureOr<mlir::Value> broadcastTo(mlir::Value v, llvm::ArrayRef<int64_t> shape);
  mlir::FailureOr<mlir::Value> transpose(mlir::Value v, llvm::ArrayRef<int64_t> perm);
  mlir::FailureOr<mlir::Value> einsum(llvm::StringRef equation, mlir::ValueRange operands);
  mlir::LogicalResult sameElementType(mlir::Value a, mlir::Value b2);
};

/// Converts one node: emits tl ops (or folds constants) and sets every output.
using ConvertFn = mlir::LogicalResult (*)(NodeContext &);
/// Lists what in `node` the converter cannot handle (attribute values), for the pre-flight
/// check; each string is one problem.
using CheckFn = void (*)(const onnx::NodeProto &node, llvm::SmallVectorImpl<std::string> &);

struct OpConverter {
  ConvertFn convert = nullptr;
  CheckFn check = nullptr;
};

/// The table from ONNX op type (default domain) to converter.
using ConverterTable = llvm::StringMap<OpConverter>;

const ConverterTable &getConverterTable();

/// The convolution Conv's attributes on `node` describe (1-D to 3-D, groups, padding), of
/// `input` by `weights` plus `bias` (optional): shared with ConvInteger and QLinearConv.
mlir::FailureOr<mlir::Value> convolve(NodeContext &cx, mlir::Value input, mlir::Value weights,
                                      mlir::Value bias);
/// Window attributes of a Conv or pooling node, normalized to 2-D (1-D ops get H = 1); 3-D
/// ones stay 3-D (pads [d0, h0, w0, d1, h1, w1]).
struct Window {
  llvm::SmallVector<int64_t> kernel, strides, pads, dilations;
};
/// The window attributes on `node` over `spatial` input dims with `kernelShape`.
mlir::FailureOr<Window> windowAttrs(NodeContext &cx, llvm::ArrayRef<int64_t> spatial,
                                    llvm::ArrayRef<int64_t> kernelShape, bool ceilMode);
/// A 2-D Conv (no groups) of DequantizeLinear outputs, per-tensor uint8/int8 activations and
/// constant per-channel (or per-tensor) symmetric int8 weights, as tl.quantized_conv2d on the
/// integers, then scaled and biased in float; null when the node is not of that form (it then
/// takes the float path).
mlir::FailureOr<mlir::Value> convolveQuantized(NodeContext &cx);
/// numpy matmul of `a` and `b` (MatMul; MatMulInteger and QLinearMatMul).
mlir::FailureOr<mlir::Value> matmul(NodeContext &cx, mlir::Value a, mlir::Value b);

void registerElementwiseConverters(ConverterTable &table);
void registerTensorConverters(ConverterTable &table);
void registerNNConverters(ConverterTable &table);
void registerResamplingConverters(ConverterTable &table);
void registerReductionConverters(ConverterTable &table);
void registerRecurrentConverters(ConverterTable &table);
void registerLossConverters(ConverterTable &table);
void registerGridSampleConverter(ConverterTable &table);
void registerRoiAlignConverter(ConverterTable &table);
void registerSignalConverters(ConverterTable &table);
void registerScatterConverters(ConverterTable &table);
void registerTrainingOptimizers(ConverterTable &table);
void registerIntegerConverters(ConverterTable &table);
void registerControlFlowConverters(ConverterTable &table);

/// Attribute lookup on a bare node (for checks).
const onnx::AttributeProto *findAttr(const onnx::NodeProto &node, llvm::StringRef name);

} // namespace tlc::onnx_import

/// In a function returning LogicalResult/FailureOr: evaluates `expr` (a FailureOr), returns
/// failure if it failed, else binds its value to `var`. Converters chain many fallible steps.
#define TLC_TRY(var, expr)                                                                     \
  auto var##OrFail = (expr);                                                                   \
  if (failed(var##OrFail))                                                                     \
    return failure();                                                                          \
  auto var = *var##OrFail;

#endif // TLC_COMPILER_ONNX_NODECONTEXT_H
