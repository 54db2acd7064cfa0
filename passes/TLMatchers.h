// Small matchers over tl values shared by the graph-level lifting passes.
#ifndef TLC_PASSES_TLMATCHERS_H
#define TLC_PASSES_TLMATCHERS_H

#include "TL/TLDialect.h"

#include <optional>

namespace tlc {

/// The value of a splat floating-point tl.constant, if `v` is one.
inline std::optional<double> getSplatFloat(mlir::Value v) {
  auto c = v.getDefiningOp<tl::ConstantOp>();
  if (!c)
    return std::nullopt;
  auto dense = mlir::dyn_cast<mlir::DenseFPElementsAttr>(c.getValue());
  if (!dense || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<llvm::APFloat>().convertToDouble();
}

} // namespace tlc

#endif // TLC_PASSES_TLMATCHERS_H
