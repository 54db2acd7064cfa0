// Converters for ONNX's window functions (HannWindow, HammingWindow, BlackmanWindow, opset 17):
// constants of a compile-time size, folded at import.
#include "NodeContext.h"
#include "TensorData.h"

#include <cmath>

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

/// The longest window folded at import (a constant in the object).
constexpr int64_t kMaxWindow = 1 << 24;

/// A generalized cosine window: w[n] = a0 - a1 cos(2 pi n / N') + a2 cos(4 pi n / N'), with
/// N' = size (periodic) or size - 1 (symmetric), as the ONNX spec and reference compute it (a
/// symmetric window of size 1 divides 0 by 0 there, NaN, and here).
template <int A0Num, int A0Den, int A2Num, int A2Den> LogicalResult convertWindow(NodeContext &cx) {
  TLC_TRY(sizes, cx.constInts(0, "size"));
  if (sizes.size() != 1)
    return cx.emitError() << cx.node.op_type() << ": size must be a scalar, got "
                          << sizes.size() << " elements";
  int64_t size = sizes[0];
  if (size < 1 || size > kMaxWindow)
    return cx.emitError() << cx.node.op_type() << ": size " << size << " is not in [1, 2^24]";
  Type et = elementTypeOf(cx.ctx(), static_cast<int>(cx.attrInt("output_datatype", 1)));
  if (!et)
    return cx.emitError() << cx.node.op_type() << ": unsupported output_datatype "
                          << onnxTypeName(static_cast<int>(cx.attrInt("output_datatype", 1)));
  bool periodic = cx.attrInt("periodic", 1) != 0;
  double a0 = double(A0Num) / A0Den, a1 = 1.0 - a0 - double(A2Num) / A2Den;
  double a2 = double(A2Num) / A2Den;
  double span = double(periodic ? size : size - 1);
  SmallVector<double> w(size);
  for (int64_t n = 0; n < size; ++n) {
    double x = 2 * M_PI * double(n) / span;
    w[n] = a0 - a1 * std::cos(x) + a2 * std::cos(2 * x);
  }
  cx.setConstant(0, fromDoubles(RankedTensorType::get({size}, et), w));
  return success();
}

} // namespace

void tlc::onnx_import::registerWindowConverters(ConverterTable &t) {
  t["HannWindow"] = {convertWindow<1, 2, 0, 1>};      // 0.5 - 0.5 cos
  t["HammingWindow"] = {convertWindow<25, 46, 0, 1>}; // 25/46 - 21/46 cos
  t["BlackmanWindow"] = {convertWindow<42, 100, 8, 100>};
}
