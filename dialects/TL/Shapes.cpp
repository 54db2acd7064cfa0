// Shape rules of tl ops, shared by the op verifiers and the frontends.
#include "TL/Shapes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace tlc::tl;

std::string tlc::tl::formatShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? "x" : "") + std::to_string(d);
  return s;
}

bool tlc::tl::isAccumulatorType(Type operand, Type result) {
  return operand == result || ((operand.isBF16() || operand.isF16()) && result.isF32());
}

FailureOr<SmallVector<int64_t>> tlc::tl::broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes,
                                                         EmitErrorFn emitError) {
  size_t rank = 0;
  for (ArrayRef<int64_t> s : shapes)
    rank = std::max(rank, s.size());
  SmallVector<int64_t> out(rank, 1);
  for (size_t k = 0; k < rank; ++k) {
    for (ArrayRef<int64_t> s : shapes) {
      if (k >= s.size())
        continue;
      int64_t d = s[s.size() - 1 - k];
      int64_t &o = out[rank - 1 - k];
      if (d == o || d == 1)
        continue;
      if (o != 1) {
        InFlightDiagnostic diag = emitError();
        diag << "shapes ";
        for (auto [i, t] : llvm::enumerate(shapes))
          diag << (i ? " and " : "") << formatShape(t);
        diag << " do not broadcast (dimension " << o << " against " << d << ")";
        return failure();
      }
      o = d;
    }
  }
  return out;
}

FailureOr<SmallVector<int64_t>> tlc::tl::normalizeAxes(ArrayRef<int64_t> axes, int64_t rank,
                                                       EmitErrorFn emitError) {
  SmallVector<int64_t> out;
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t a : axes) {
    int64_t n = a < 0 ? a + rank : a;
    if (n < 0 || n >= rank) {
      emitError() << "axis " << a << " is out of range for rank " << rank;
      return failure();
    }
    if (!seen.insert(n).second) {
      emitError() << "axis " << a << " is repeated";
      return failure();
    }
    out.push_back(n);
  }
  llvm::sort(out);
  return out;
}

SmallVector<int64_t> tlc::tl::reducedShape(ArrayRef<int64_t> shape, ArrayRef<int64_t> axes,
                                           bool keepDims) {
  SmallVector<int64_t> out;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (!llvm::is_contained(axes, (int64_t)i))
      out.push_back(d);
    else if (keepDims)
      out.push_back(1);
  }
  return out;
}

FailureOr<RankedTensorType> tlc::tl::transposeType(RankedTensorType input, ArrayRef<int64_t> perm,
                                                   EmitErrorFn emitError) {
  int64_t rank = input.getRank();
  SmallVector<bool> seen(rank, false);
  bool ok = (int64_t)perm.size() == rank;
  for (int64_t p : perm) {
    if (!ok || p < 0 || p >= rank || seen[p]) {
      ok = false;
      break;
    }
    seen[p] = true;
  }
  if (!ok) {
    InFlightDiagnostic diag = emitError();
    diag << "perm [";
    llvm::interleaveComma(perm, diag);
    diag << "] is not a permutation of the axes of a rank-" << rank << " tensor";
    return failure();
  }
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(input.getDimSize(p));
  return RankedTensorType::get(shape, input.getElementType());
}

FailureOr<RankedTensorType> tlc::tl::concatType(ArrayRef<RankedTensorType> inputs, int64_t axis,
                                                EmitErrorFn emitError) {
  if (inputs.empty()) {
    emitError() << "concat needs at least one input";
    return failure();
  }
  RankedTensorType first = inputs.front();
  int64_t rank = first.getRank();
  if (rank == 0) {
    emitError() << "cannot concat scalars";
    return failure();
  }
  FailureOr<SmallVector<int64_t>> norm = normalizeAxes({axis}, rank, emitError);
  if (failed(norm))
    return failure();
  int64_t a = (*norm)[0];
  SmallVector<int64_t> shape(first.getShape());
  shape[a] = 0;
  for (auto [i, t] : llvm::enumerate(inputs)) {
    if (t.getElementType() != first.getElementType()) {
      emitError() << "concat input " << i << " has element type " << t.getElementType()
                  << " but input 0 has " << first.getElementType();
      return failure();
    }
    bool compatible = t.getRank() == rank;
    for (int64_t k = 0; compatible && k < rank; ++k)
      compatible = k == a || t.getDimSize(k) == first.getDimSize(k);
    if (!compatible) {
      emitError() << "concat input " << i << " has shape " << formatShape(t.getShape())
                  << ", which does not match " << formatShape(first.getShape())
                  << " outside axis " << a;
      return failure();
    }
    shape[a] += t.getDimSize(a);
  }
  return RankedTensorType::get(shape, first.getElementType());
}

FailureOr<RankedTensorType> tlc::tl::sliceType(RankedTensorType input, ArrayRef<int64_t> offsets,
                                               ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides,
                                               EmitErrorFn emitError) {
  int64_t rank = input.getRank();
  if ((int64_t)offsets.size() != rank || (int64_t)sizes.size() != rank ||
      (int64_t)strides.size() != rank) {
    emitError() << "slice needs " << rank << " offsets, sizes and strides (got "
                << offsets.size() << ", " << sizes.size() << " and " << strides.size() << ")";
    return failure();
  }
  for (int64_t k = 0; k < rank; ++k) {
    int64_t dim = input.getDimSize(k);
    if (strides[k] <= 0) {
      emitError() << "slice of axis " << k << " has stride " << strides[k]
                  << "; strides must be positive";
      return failure();
    }
    if (sizes[k] < 0) {
      emitError() << "slice of axis " << k << " has size " << sizes[k]
                  << "; sizes must not be negative";
      return failure();
    }
    if (offsets[k] < 0 ||
        (sizes[k] > 0 && (offsets[k] >= dim || offsets[k] + (sizes[k] - 1) * strides[k] >= dim))) {
      emitError() << "slice of axis " << k << " (offset " << offsets[k] << ", size " << sizes[k]
                  << ", stride " << strides[k] << ") is outside the dimension of extent " << dim;
      return failure();
    }
  }
  return RankedTensorType::get(sizes, input.getElementType());
}

LogicalResult tlc::tl::checkBroadcastTo(ArrayRef<int64_t> input, ArrayRef<int64_t> shape,
                                        EmitErrorFn emitError) {
  bool ok = input.size() <= shape.size();
  for (size_t k = 0; ok && k < input.size(); ++k) {
    int64_t d = input[input.size() - 1 - k], o = shape[shape.size() - 1 - k];
    ok = d == o || d == 1;
  }
  if (!ok) {
    emitError() << "cannot broadcast shape " << formatShape(input) << " to "
                << formatShape(shape);
    return failure();
  }
  return success();
}
