// tl-layout-constant-operands: a constant contraction operand is stored in the layout the
// contraction reads fastest, at compile time.
//
// The code generator vectorizes a contraction along the output's last (contiguous) dimension;
// the operand that carries it should have that dimension innermost too, or each vector is
// gathered element by element. ONNX Gemm with transB=1 and MatMul by a pre-transposed weight
// (e.g. every linear layer PyTorch exports, y = x W^T) give exactly the other layout. For a
// constant operand the fix is free: transpose the constant once and relabel the equation.
#include "passes/Passes.h"

#include "TL/TLDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tlc {
#define GEN_PASS_DEF_TLLAYOUTCONSTANTOPERANDS
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;
using namespace tlc;

namespace {

/// `attr` with its axes permuted: result axis i is `attr`'s axis perm[i]. Byte-wise, so any
/// element type of whole bytes; nullptr for bit-packed (i1) data.
DenseElementsAttr transposeConstant(DenseElementsAttr attr, ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(attr.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  auto newType = RankedTensorType::get(shape, type.getElementType());
  if (attr.isSplat())
    return attr.reshape(newType);
  unsigned bits = type.getElementTypeBitWidth();
  if (bits % 8 != 0)
    return nullptr;
  int64_t width = bits / 8, rank = type.getRank();
  ArrayRef<char> src = attr.getRawData();
  SmallVector<int64_t> srcStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    srcStrides[d] = srcStrides[d + 1] * type.getDimSize(d + 1);
  std::vector<char> dst(src.size());
  SmallVector<int64_t> index(rank, 0); // index into the result
  for (int64_t linear = 0, n = type.getNumElements(); linear < n; ++linear) {
    int64_t from = 0;
    for (int64_t d = 0; d < rank; ++d)
      from += index[d] * srcStrides[perm[d]];
    std::memcpy(&dst[linear * width], &src[from * width], width);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return DenseElementsAttr::getFromRawBuffer(newType, dst);
}

/// Policy + mechanism for one two-operand einsum "A,B->C" with plain labels (no "...", no
/// label repeated within an operand): if the operand holding C's last label is a constant
/// that does not have that label innermost, move that axis innermost (others keep their
/// order) and relabel.
struct LayoutConstantOperand : OpRewritePattern<tl::EinsumOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::EinsumOp op, PatternRewriter &rewriter) const override {
    StringRef eq = op.getEquation();
    if (op.getInputs().size() != 2 || eq.contains('.') || eq.contains(' '))
      return failure();
    auto [lhs, out] = eq.split("->");
    if (out.empty() || lhs.size() == eq.size())
      return failure();
    auto [a, b] = lhs.split(',');
    SmallVector<std::string> labels = {a.str(), b.str()};
    for (const std::string &l : labels)
      if (l.empty() || llvm::any_of(l, [&](char c) { return llvm::count(l, c) != 1; }))
        return failure();
    char last = out.back();
    for (unsigned i = 0; i < 2; ++i) {
      std::string &l = labels[i];
      size_t pos = l.find(last);
      if (pos == std::string::npos || pos + 1 == l.size())
        continue;
      auto constant = op.getInputs()[i].getDefiningOp<tl::ConstantOp>();
      auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue()) : nullptr;
      if (!dense)
        continue;
      SmallVector<int64_t> perm;
      for (int64_t d = 0, r = l.size(); d < r; ++d)
        if (d != (int64_t)pos)
          perm.push_back(d);
      perm.push_back(pos);
      DenseElementsAttr transposed = transposeConstant(dense, perm);
      if (!transposed)
        continue;
      std::string relabeled;
      for (int64_t p : perm)
        relabeled.push_back(l[p]);
      l = relabeled;
      SmallVector<Value> inputs(op.getInputs());
      inputs[i] = tl::ConstantOp::create(rewriter, constant.getLoc(), transposed);
      std::string equation = labels[0] + "," + labels[1] + "->" + out.str();
      rewriter.replaceOpWithNewOp<tl::EinsumOp>(op, op.getType(), rewriter.getStringAttr(equation),
                                                inputs);
      return success();
    }
    return failure();
  }
};

struct TLLayoutConstantOperandsPass
    : tlc::impl::TLLayoutConstantOperandsBase<TLLayoutConstantOperandsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LayoutConstantOperand>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
