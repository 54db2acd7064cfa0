// Converters for ONNX's scatters (ScatterND, ScatterElements and the older Scatter) with
// compile-time indices: each update element's output position is known at import.
//
// All inputs constant: folded on the host. Run-time data or updates: the flat output position
// of every update element gives, per output element, the updates that land on it in order;
// round r gathers each element's r-th update (a table of update indices, a constant) and
// combines it with the result so far (replace, add, mul, max, min) where the element has one.
// Most scatters write each element at most once: one round, one gather and one select.
#include "HostEval.h"
#include "NodeContext.h"
#include "TensorData.h"

#include "TL/Shapes.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

/// Most updates landing on one output element (one round each).
constexpr int64_t kMaxScatterRounds = 64;

enum class Reduction { None, Add, Mul, Max, Min };

FailureOr<Reduction> parseReduction(NodeContext &cx) {
  std::string r = cx.attrString("reduction", "none");
  if (r == "none")
    return Reduction::None;
  if (r == "add")
    return Reduction::Add;
  if (r == "mul")
    return Reduction::Mul;
  if (r == "max")
    return Reduction::Max;
  if (r == "min")
    return Reduction::Min;
  return cx.emitError() << cx.node.op_type() << ": reduction '" << r
                        << "' is not supported (none, add, mul, max, min are)";
}

template <typename T> T combine(Reduction r, T acc, T u) {
  switch (r) {
  case Reduction::None: return u;
  case Reduction::Add:
    if constexpr (std::is_integral_v<T>) // wraps, like the generated code
      return T(uint64_t(acc) + uint64_t(u));
    else
      return acc + u;
  case Reduction::Mul:
    if constexpr (std::is_integral_v<T>)
      return T(uint64_t(acc) * uint64_t(u));
    else
      return acc * u;
  case Reduction::Max: return std::max(acc, u);
  case Reduction::Min: return std::min(acc, u);
  }
  return u;
}

/// `acc` combined with `update` by `reduction` (None: the update).
FailureOr<Value> combine(NodeContext &cx, Reduction reduction, Value acc, Value update) {
  switch (reduction) {
  case Reduction::None: return update;
  case Reduction::Add: return cx.binary<tl::AddOp>(acc, update);
  case Reduction::Mul: return cx.binary<tl::MulOp>(acc, update);
  case Reduction::Max: return cx.binary<tl::MaxOp>(acc, update);
  case Reduction::Min: return cx.binary<tl::MinOp>(acc, update);
  }
  llvm_unreachable("a reduction ScatterConverters parses");
}

/// Input 0 (data) with input 2 (updates) scattered to `positions` (one flat output position per
/// update element, in order).
LogicalResult emitScatter(NodeContext &cx, ArrayRef<int64_t> positions, Reduction reduction) {
  RankedTensorType type = cx.type(0);
  int64_t n = type.getNumElements(), u = cx.type(2).getNumElements();
  if (cx.constant(0) && cx.constant(2) && n <= kFoldLimit * 16) {
    if (isa<FloatType>(type.getElementType())) {
      SmallVector<double> out = toDoubles(cx.constant(0)), upd = toDoubles(cx.constant(2));
      for (int64_t j = 0; j < u; ++j)
        out[positions[j]] = combine(reduction, out[positions[j]], upd[j]);
      cx.setConstant(0, fromDoubles(type, out));
    } else {
      SmallVector<int64_t> out = toInts(cx.constant(0)), upd = toInts(cx.constant(2));
      for (int64_t j = 0; j < u; ++j)
        out[positions[j]] = combine(reduction, out[positions[j]], upd[j]);
      cx.setConstant(0, fromInts(type, out));
    }
    return success();
  }
  if (n > kFoldLimit * 16)
    return cx.emitError() << cx.node.op_type() << " into " << n
                          << " elements is not supported at run time (at most "
                          << kFoldLimit * 16 << ")";
  // The updates landing on each output element, in order; without a reduction only the last
  // counts.
  std::vector<SmallVector<int64_t, 1>> landing(n);
  for (int64_t j = 0; j < u; ++j) {
    if (reduction == Reduction::None)
      landing[positions[j]].clear();
    landing[positions[j]].push_back(j);
  }
  int64_t rounds = 0;
  for (const auto &l : landing)
    rounds = std::max<int64_t>(rounds, l.size());
  if (rounds > kMaxScatterRounds)
    return cx.emitError() << cx.node.op_type() << ": " << rounds
                          << " updates land on one element (at most " << kMaxScatterRounds
                          << " are supported)";
  Type i64 = cx.b.getI64Type(), i1 = cx.b.getI1Type();
  TLC_TRY(acc0, cx.reshape(cx.value(0), {n}));
  TLC_TRY(updates, cx.reshape(cx.value(2), {u}));
  Value acc = acc0;
  for (int64_t r = 0; r < rounds; ++r) {
    SmallVector<int64_t> table(n, 0), has(n, 0);
    for (int64_t i = 0; i < n; ++i)
      if ((int64_t)landing[i].size() > r) {
        table[i] = landing[i][r];
        has[i] = 1;
      }
    auto flat = RankedTensorType::get({n}, i64);
    Value picked =
        tl::GatherOp::create(cx.b, cx.loc, RankedTensorType::get({n}, type.getElementType()),
                             updates, cx.constantValue(fromInts(flat, table)), 0)
            .getResult();
    TLC_TRY(combined, combine(cx, reduction, acc, picked));
    Value mask = cx.constantValue(fromInts(RankedTensorType::get({n}, i1), has));
    TLC_TRY(next, cx.select(mask, combined, acc));
    acc = next;
  }
  TLC_TRY(result, cx.reshape(acc, type.getShape()));
  cx.setOutput(0, result);
  return success();
}

/// Index `i` (negative from the end) checked against a dimension of `dim`.
FailureOr<int64_t> normalizedIndex(NodeContext &cx, int64_t i, int64_t dim, int64_t axis) {
  if (i < -dim || i >= dim)
    return cx.emitError() << cx.node.op_type() << ": index " << i
                          << " is out of range for axis " << axis << " of size " << dim;
  return i < 0 ? i + dim : i;
}

/// ScatterND(data, indices [..., k], updates): each index tuple addresses a slice of data.
LogicalResult convertScatterND(NodeContext &cx) {
  TLC_TRY(reduction, parseReduction(cx));
  TLC_TRY(idx, cx.constInts(1, "indices"));
  ArrayRef<int64_t> shape = cx.shape(0), idxShape = cx.shape(1);
  int64_t k = idxShape.empty() ? 0 : idxShape.back();
  if (idxShape.empty() || k < 1 || k > (int64_t)shape.size())
    return cx.emitError() << "ScatterND: the indices' last dimension must be 1 to the data's rank "
                          << shape.size();
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  int64_t slice = k == (int64_t)shape.size() ? 1 : strides[k - 1];
  int64_t count = cx.type(1).getNumElements() / k;
  if (cx.type(2).getNumElements() != count * slice)
    return cx.emitError() << "ScatterND: updates have " << cx.type(2).getNumElements()
                          << " elements, expected " << count * slice;
  if (cx.elementType(2) != cx.elementType(0))
    return cx.emitError() << "ScatterND: updates and data have different element types";
  SmallVector<int64_t> positions;
  for (int64_t t = 0; t < count; ++t) {
    int64_t base = 0;
    for (int64_t d = 0; d < k; ++d) {
      TLC_TRY(i, normalizedIndex(cx, idx[t * k + d], shape[d], d));
      base += i * strides[d];
    }
    for (int64_t j = 0; j < slice; ++j)
      positions.push_back(base + j);
  }
  return emitScatter(cx, positions, reduction);
}

/// ScatterElements(data, indices, updates) and Scatter (opset 9-10, no reduction): update
/// element u (indices and updates share a shape) goes to u's coordinates with the axis one
/// replaced by indices[u].
LogicalResult convertScatterElements(NodeContext &cx) {
  TLC_TRY(reduction, parseReduction(cx));
  TLC_TRY(idx, cx.constInts(1, "indices"));
  ArrayRef<int64_t> shape = cx.shape(0), idxShape = cx.shape(1);
  int64_t rank = shape.size();
  if ((int64_t)idxShape.size() != rank || cx.shape(2) != idxShape)
    return cx.emitError() << cx.node.op_type()
                          << ": indices and updates must have one shape, of the data's rank "
                          << rank;
  if (cx.elementType(2) != cx.elementType(0))
    return cx.emitError() << cx.node.op_type()
                          << ": updates and data have different element types";
  int64_t axis = cx.attrInt("axis", 0);
  if (axis < -rank || axis >= rank)
    return cx.emitError() << "axis " << axis << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && idxShape[d] > shape[d])
      return cx.emitError() << cx.node.op_type() << ": indices dimension " << d << " ("
                            << idxShape[d] << ") exceeds the data's (" << shape[d] << ")";
  SmallVector<int64_t> strides = rowMajorStrides(shape), idxStrides = rowMajorStrides(idxShape);
  SmallVector<int64_t> positions;
  for (int64_t j = 0, e = idx.size(); j < e; ++j) {
    int64_t pos = 0;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t c = j / idxStrides[d] % idxShape[d];
      if (d == axis) {
        TLC_TRY(i, normalizedIndex(cx, idx[j], shape[d], d));
        c = i;
      }
      pos += c * strides[d];
    }
    positions.push_back(pos);
  }
  return emitScatter(cx, positions, reduction);
}

} // namespace

void tlc::onnx_import::registerScatterConverters(ConverterTable &t) {
  t["ScatterND"] = {convertScatterND};
  t["ScatterElements"] = {convertScatterElements};
  t["Scatter"] = {convertScatterElements};
}
