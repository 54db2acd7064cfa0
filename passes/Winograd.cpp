// Winograd F(2x2, 3x3): the convolutions it applies to, its compile-time filter transform and
// the steps of its input and output transforms.
#include "passes/Winograd.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace {

/// The values of a strides or dilations attribute are all 1.
bool allOnes(DenseIntElementsAttr values) {
  return llvm::all_of(values.getValues<int64_t>(), [](int64_t v) { return v == 1; });
}

} // namespace

bool tlc::isWinogradConvolution(linalg::Conv2DNchwFchwOp op) {
  auto inType = dyn_cast<RankedTensorType>(op.getInputs()[0].getType());
  auto fType = dyn_cast<RankedTensorType>(op.getInputs()[1].getType());
  auto outType = dyn_cast<RankedTensorType>(op.getOutputs()[0].getType());
  if (!inType || !fType || !outType || !inType.hasStaticShape() || !fType.hasStaticShape() ||
      !outType.hasStaticShape() || !outType.getElementType().isF32())
    return false;
  if (fType.getDimSize(2) != 3 || fType.getDimSize(3) != 3 || !allOnes(op.getStrides()) ||
      !allOnes(op.getDilations()))
    return false;
  if (inType.getDimSize(2) != outType.getDimSize(2) + 2 ||
      inType.getDimSize(3) != outType.getDimSize(3) + 2)
    return false;
  DenseElementsAttr filter;
  if (!matchPattern(op.getInputs()[1], m_Constant(&filter)))
    return false;
  auto fill = op.getOutputs()[0].getDefiningOp<linalg::FillOp>();
  return fill && matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
}

DenseElementsAttr tlc::winogradFilter(DenseElementsAttr filter) {
  auto type = cast<RankedTensorType>(filter.getType());
  int64_t f = type.getDimSize(0), c = type.getDimSize(1);
  static const double g[kWinogradTile][3] = {
      {1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
  SmallVector<float> w(filter.getValues<float>());
  SmallVector<float> u(kWinogradProducts * f * c);
  for (int64_t fi = 0; fi < f; ++fi)
    for (int64_t ci = 0; ci < c; ++ci) {
      const float *k = &w[(fi * c + ci) * 9];
      double gk[kWinogradTile][3];
      for (int a = 0; a < kWinogradTile; ++a)
        for (int x = 0; x < 3; ++x)
          gk[a][x] = g[a][0] * k[x] + g[a][1] * k[3 + x] + g[a][2] * k[6 + x];
      for (int a = 0; a < kWinogradTile; ++a)
        for (int b = 0; b < kWinogradTile; ++b) {
          double v = gk[a][0] * g[b][0] + gk[a][1] * g[b][1] + gk[a][2] * g[b][2];
          u[((a * kWinogradTile + b) * f + fi) * c + ci] = static_cast<float>(v);
        }
    }
  auto uType = RankedTensorType::get({kWinogradProducts, f, c}, type.getElementType());
  return DenseElementsAttr::get(uType, ArrayRef<float>(u));
}

std::array<Value, tlc::kWinogradTile> tlc::winogradInputRows(OpBuilder &b, Location loc,
                                                             Value d0, Value d1, Value d2,
                                                             Value d3) {
  return {arith::SubFOp::create(b, loc, d0, d2), arith::AddFOp::create(b, loc, d1, d2),
          arith::SubFOp::create(b, loc, d2, d1), arith::SubFOp::create(b, loc, d1, d3)};
}

std::array<Value, 2> tlc::winogradOutputRows(OpBuilder &b, Location loc, Value m0, Value m1,
                                             Value m2, Value m3) {
  Value first = arith::AddFOp::create(b, loc, arith::AddFOp::create(b, loc, m0, m1), m2);
  Value second = arith::SubFOp::create(b, loc, arith::SubFOp::create(b, loc, m1, m2), m3);
  return {first, second};
}
