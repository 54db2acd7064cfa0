// Builders of linalg.generic ops shared by the tl lowerings.
#include "passes/LinalgBuilders.h"

#include "TL/Einsum.h"
#include "TL/ScalarMath.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace tlc {

AffineMap broadcastMap(MLIRContext *ctx, ArrayRef<int64_t> operandShape,
                       ArrayRef<int64_t> resultShape) {
  int64_t offset = resultShape.size() - operandShape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, d] : llvm::enumerate(operandShape)) {
    int64_t dim = offset + i;
    exprs.push_back(d == 1 && resultShape[dim] != 1 ? getAffineConstantExpr(0, ctx)
                                                    : getAffineDimExpr(dim, ctx));
  }
  return AffineMap::get(resultShape.size(), 0, exprs, ctx);
}

Value buildParallelGeneric(OpBuilder &b, Location loc, RankedTensorType resultType,
                           ValueRange operands, ArrayRef<AffineMap> maps, ScalarBodyFn body) {
  Value init = tensor::EmptyOp::create(b, loc, resultType.getShape(),
                                       resultType.getElementType());
  SmallVector<AffineMap> allMaps(maps);
  allMaps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, operands, ValueRange{init}, allMaps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value v = body(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, v);
      });
  return generic.getResult(0);
}

Value buildElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange operands, ScalarBodyFn body) {
  SmallVector<AffineMap> maps;
  for (Value v : operands)
    maps.push_back(broadcastMap(b.getContext(), cast<RankedTensorType>(v.getType()).getShape(),
                                resultType.getShape()));
  return buildParallelGeneric(b, loc, resultType, operands, maps, body);
}

Value buildReduction(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> axes,
                     TypedAttr identity, CombineFn combine) {
  // Nothing to fold: the input itself. (A generic whose body reads its output but has no
  // reduction loop would look elementwise to fusion and be fused with wrong semantics.)
  if (axes.empty())
    return input;
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> outShape;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = llvm::is_contained(axes, d);
    iterators.push_back(reduced ? utils::IteratorType::reduction : utils::IteratorType::parallel);
    if (!reduced) {
      outShape.push_back(inputType.getDimSize(d));
      outExprs.push_back(b.getAffineDimExpr(d));
    }
  }
  auto outType = RankedTensorType::get(outShape, inputType.getElementType());
  Value empty = tensor::EmptyOp::create(b, loc, outShape, inputType.getElementType());
  Value identityValue = arith::ConstantOp::create(b, loc, identity);
  Value init = linalg::FillOp::create(b, loc, identityValue, empty).getResult(0);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank),
                                 AffineMap::get(rank, 0, outExprs, b.getContext())};
  auto generic = linalg::GenericOp::create(
      b, loc, outType, ValueRange{input}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, combine(nb, nloc, args[1], args[0]));
      });
  return generic.getResult(0);
}

unsigned innermostNonUnitDim(ArrayRef<unsigned> candidates, ArrayRef<int64_t> ranges) {
  for (unsigned d : llvm::reverse(candidates))
    if (ranges[d] > 1)
      return d;
  return candidates.back();
}

SmallVector<ReassociationIndices> allDimsReassociation(int64_t rank) {
  ReassociationIndices group;
  for (int64_t d = 0; d < rank; ++d)
    group.push_back(d);
  return {group};
}

Value reshapeTensor(OpBuilder &b, Location loc, Value value, RankedTensorType type) {
  auto source = cast<RankedTensorType>(value.getType());
  if (source == type)
    return value;
  // Go through rank 1 (rank 0 stays): always valid for row-major reshapes, and views after
  // bufferization.
  Value flat = value;
  if (source.getRank() >= 2) {
    auto flatType = RankedTensorType::get({source.getNumElements()}, source.getElementType());
    flat = tensor::CollapseShapeOp::create(b, loc, flatType, value,
                                           allDimsReassociation(source.getRank()));
  }
  auto flatType = cast<RankedTensorType>(flat.getType());
  if (flatType == type)
    return flat;
  // An empty reassociation maps between rank 0 and all-ones shapes.
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, flat, ArrayRef<ReassociationIndices>{});
  SmallVector<ReassociationIndices> groups =
      flatType.getRank() == 0 ? SmallVector<ReassociationIndices>{}
                              : allDimsReassociation(type.getRank());
  return tensor::ExpandShapeOp::create(b, loc, type, flat, groups);
}

Value buildContraction(OpBuilder &b, Location loc, StringRef equation, ValueRange inputs,
                       Value init) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value v : inputs)
    shapes.push_back(cast<RankedTensorType>(v.getType()).getShape());
  FailureOr<tl::EinsumSpec> spec = tl::parseEinsum(equation, shapes, [&] {
    return emitError(loc) << "internal contraction '" << equation << "': ";
  });
  assert(succeeded(spec) && "builders pass well-formed equations");
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < spec->numDims(); ++d)
    iterators.push_back(spec->isReductionDim(d) ? utils::IteratorType::reduction
                                                : utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), inputs, ValueRange{init}, spec->indexingMaps(b.getContext()),
      iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value product = args[0];
        for (Value v : args.drop_front().drop_back())
          product = tl::scalar::mul(nb, l, product, v);
        linalg::YieldOp::create(nb, l, tl::scalar::add(nb, l, args.back(), product));
      });
  return generic.getResult(0);
}

} // namespace tlc
