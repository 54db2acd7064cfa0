// Host-side evaluation of small constant tensors (shape-subgraph folding).
#include "HostEval.h"

#include "TensorData.h"

#include "TL/ConstantData.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace tlc::onnx_import;

SmallVector<int64_t> tlc::onnx_import::rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = (int64_t)shape.size() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

namespace {
/// For each result element, the flat index into an operand broadcast to `resultShape`.
SmallVector<int64_t> broadcastIndices(ArrayRef<int64_t> operandShape,
                                      ArrayRef<int64_t> resultShape) {
  int64_t numel = 1;
  for (int64_t d : resultShape)
    numel *= d;
  SmallVector<int64_t> rStrides = rowMajorStrides(resultShape);
  SmallVector<int64_t> oStrides = rowMajorStrides(operandShape);
  int64_t offset = resultShape.size() - operandShape.size();
  SmallVector<int64_t> out;
  out.reserve(numel);
  for (int64_t i = 0; i < numel; ++i) {
    int64_t src = 0;
    for (size_t d = 0; d < operandShape.size(); ++d) {
      int64_t coord = (i / rStrides[d + offset]) % resultShape[d + offset];
      if (operandShape[d] != 1)
        src += coord * oStrides[d];
    }
    out.push_back(src);
  }
  return out;
}
} // namespace

DenseElementsAttr tlc::onnx_import::hostElementwise(ArrayRef<DenseElementsAttr> operands,
                                                    ArrayRef<int64_t> resultShape,
                                                    Type resultElementType, IntFn intFn,
                                                    FloatFn floatFn) {
  auto type = RankedTensorType::get(resultShape, resultElementType);
  bool allInt = llvm::all_of(operands, [](DenseElementsAttr a) {
    return isa<IntegerType>(a.getElementType());
  });
  SmallVector<SmallVector<int64_t>> index;
  for (DenseElementsAttr a : operands)
    index.push_back(
        broadcastIndices(cast<RankedTensorType>(a.getType()).getShape(), resultShape));
  int64_t numel = type.getNumElements();
  if (allInt) {
    SmallVector<SmallVector<int64_t>> vals;
    for (DenseElementsAttr a : operands)
      vals.push_back(toInts(a));
    SmallVector<int64_t> out, args(operands.size());
    for (int64_t i = 0; i < numel; ++i) {
      for (size_t k = 0; k < operands.size(); ++k)
        args[k] = vals[k][index[k][i]];
      out.push_back(intFn(args));
    }
    return fromInts(type, out);
  }
  SmallVector<SmallVector<double>> vals;
  for (DenseElementsAttr a : operands)
    vals.push_back(toDoubles(a));
  SmallVector<double> out, args(operands.size());
  for (int64_t i = 0; i < numel; ++i) {
    for (size_t k = 0; k < operands.size(); ++k)
      args[k] = vals[k][index[k][i]];
    out.push_back(floatFn(args));
  }
  return fromDoubles(type, out);
}

DenseElementsAttr tlc::onnx_import::hostRemap(DenseElementsAttr input, RankedTensorType type,
                                              llvm::function_ref<int64_t(int64_t)> sourceIndex) {
  // A splat (a failed node's placeholder, a ConstantOfShape) stays one: gathered element by
  // element it took up to 2^26 doubles.
  if (input.isSplat() && input.getElementType() == type.getElementType())
    return input.resizeSplat(type);
  int64_t numel = type.getNumElements();
  if (isa<IntegerType>(input.getElementType())) {
    SmallVector<int64_t> in = toInts(input), out;
    for (int64_t i = 0; i < numel; ++i)
      out.push_back(in[sourceIndex(i)]);
    return fromInts(type, out);
  }
  SmallVector<double> in = toDoubles(input), out;
  for (int64_t i = 0; i < numel; ++i)
    out.push_back(in[sourceIndex(i)]);
  return fromDoubles(type, out);
}

DenseElementsAttr tlc::onnx_import::hostTranspose(DenseElementsAttr input,
                                                  ArrayRef<int64_t> perm) {
  if (DenseElementsAttr moved = tl::transposeElements(input, perm))
    return moved;
  // Sub-byte elements (i1) are bit-packed: move them as values instead.
  auto inType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(inType.getDimSize(p));
  SmallVector<int64_t> inStrides = rowMajorStrides(inType.getShape());
  SmallVector<int64_t> outStrides = rowMajorStrides(shape);
  return hostRemap(input, RankedTensorType::get(shape, inType.getElementType()), [&](int64_t i) {
    int64_t src = 0;
    for (size_t d = 0; d < perm.size(); ++d)
      src += (i / outStrides[d] % shape[d]) * inStrides[perm[d]];
    return src;
  });
}

DenseElementsAttr tlc::onnx_import::hostCast(DenseElementsAttr input, Type elementType) {
  auto type = cast<RankedTensorType>(input.getType()).clone(elementType);
  if (isa<IntegerType>(input.getElementType()))
    return fromInts(type, toInts(input));
  if (elementType.isInteger(1)) {
    SmallVector<int64_t> v;
    for (double d : toDoubles(input))
      v.push_back(d != 0);
    return fromInts(type, v);
  }
  return fromDoubles(type, toDoubles(input));
}
