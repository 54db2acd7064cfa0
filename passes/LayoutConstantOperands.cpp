// tl-layout-constant-operands: a constant contraction operand is stored in the layout the
// contraction reads fastest, at compile time.
//
// The code generator vectorizes a contraction along the output's last (contiguous) dimension;
// the operand that carries it should have that dimension innermost too, or each vector is
// gathered element by element. ONNX Gemm with transB=1 and MatMul by a pre-transposed weight
// (e.g. every linear layer PyTorch exports, y = x W^T) give exactly the other layout. For a
// constant operand the fix is free: transpose the constant once and relabel the equation.
#include "TL/ConstantData.h"
#include "passes/Passes.h"

#include "TL/TLDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <array>
#include <optional>

namespace tlc {
#define GEN_PASS_DEF_TLLAYOUTCONSTANTOPERANDS
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;
using namespace tlc;

namespace {

/// The labels {a, b, out} of a two-operand einsum "a,b->out" with plain labels (no "...", no
/// label repeated within an operand, an explicit output).
std::optional<std::array<std::string, 3>> plainLabels(tl::EinsumOp op) {
  StringRef eq = op.getEquation();
  if (op.getInputs().size() != 2 || eq.contains('.') || eq.contains(' '))
    return std::nullopt;
  auto [lhs, out] = eq.split("->");
  if (lhs.size() == eq.size() || out.empty())
    return std::nullopt;
  auto [a, b] = lhs.split(',');
  std::array<std::string, 3> labels = {a.str(), b.str(), out.str()};
  for (const std::string &l : labels)
    if (l.empty() || llvm::any_of(l, [&](char c) { return llvm::count(l, c) != 1; }))
      return std::nullopt;
  return labels;
}

/// Policy + mechanism for one two-operand einsum "A,B->C" with plain labels (no "...", no
/// label repeated within an operand): if the operand holding C's last label is a constant
/// that does not have that label innermost, move that axis innermost (others keep their
/// order) and relabel.
struct LayoutConstantOperand : OpRewritePattern<tl::EinsumOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::EinsumOp op, PatternRewriter &rewriter) const override {
    std::optional<std::array<std::string, 3>> parsed = plainLabels(op);
    if (!parsed)
      return failure();
    SmallVector<std::string> labels = {(*parsed)[0], (*parsed)[1]};
    const std::string &out = (*parsed)[2];
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
      DenseElementsAttr transposed = tl::transposeElements(dense, perm);
      if (!transposed)
        continue;
      std::string relabeled;
      for (int64_t p : perm)
        relabeled.push_back(l[p]);
      l = relabeled;
      SmallVector<Value> inputs(op.getInputs());
      inputs[i] = tl::ConstantOp::create(rewriter, constant.getLoc(), transposed);
      std::string equation = labels[0] + "," + labels[1] + "->" + out;
      rewriter.replaceOpWithNewOp<tl::EinsumOp>(op, op.getType(), rewriter.getStringAttr(equation),
                                                inputs);
      return success();
    }
    return failure();
  }
};

/// Policy + mechanism for a run-time operand (constants: the pattern above) of a two-operand
/// einsum in a layout the contraction code generator reads slowly. Backward graphs are full
/// of them: `g W^T` (the weight with the output's last label outer) and `X^T g` for weight
/// gradients (the summed-over rows outermost in both operands, split over two labels). When
/// each element of the operand is used at least 32 times, the cost of a copy is small next to
/// the contraction's gain (3x on a 1024x1024x256 product), so, one step per application:
///  1. contracted labels adjacent and in one order in both operands merge into one (reshapes);
///  2. the operand with the output's last label gets it innermost (a transpose);
///  3. the other operand, if its innermost label is not contracted, gets its contracted labels
///     innermost (a transpose).
struct LayoutRuntimeOperands : OpRewritePattern<tl::EinsumOp> {
  using OpRewritePattern::OpRewritePattern;
  static constexpr int64_t kMinReuse = 32;

  LogicalResult matchAndRewrite(tl::EinsumOp op, PatternRewriter &rewriter) const override {
    std::optional<std::array<std::string, 3>> parsed = plainLabels(op);
    if (!parsed || llvm::any_of(op->getOperands(), [](Value v) {
          return !cast<RankedTensorType>(v.getType()).hasStaticShape();
        }))
      return failure();
    auto [a, b, out] = *parsed;
    SmallVector<Value> inputs(op.getInputs());
    auto type = [&](unsigned i) { return cast<RankedTensorType>(inputs[i].getType()); };
    if (!isa<FloatType>(type(0).getElementType()) || !isa<FloatType>(type(1).getElementType()))
      return failure();
    llvm::DenseMap<char, int64_t> size;
    std::array<std::string, 2> labels = {a, b};
    for (unsigned i = 0; i < 2; ++i)
      for (auto [d, c] : llvm::enumerate(labels[i]))
        size[c] = type(i).getDimSize(d);
    int64_t work = 1;
    for (auto [c, n] : size)
      work *= n;
    std::string contracted;
    for (char c : a)
      if (b.find(c) != std::string::npos && out.find(c) == std::string::npos)
        contracted.push_back(c);
    auto replace = [&](ArrayRef<Value> newInputs, StringRef la, StringRef lb) {
      std::string equation = (la + "," + lb + "->" + out).str();
      rewriter.replaceOpWithNewOp<tl::EinsumOp>(op, op.getType(),
                                                rewriter.getStringAttr(equation), newInputs);
    };
    auto transpose = [&](unsigned i, const std::string &to) {
      SmallVector<int64_t> perm, shape;
      for (char c : to) {
        perm.push_back(labels[i].find(c));
        shape.push_back(size[c]);
      }
      return tl::TransposeOp::create(rewriter, op.getLoc(),
                                     RankedTensorType::get(shape, type(i).getElementType()),
                                     inputs[i], perm)
          .getResult();
    };
    auto reused = [&](unsigned i) {
      return !inputs[i].getDefiningOp<tl::ConstantOp>() &&
             work / std::max<int64_t>(type(i).getNumElements(), 1) >= kMinReuse;
    };

    // 1. One contracted label for a run of several.
    if (contracted.size() >= 2) {
      size_t pa = a.find(contracted), pb = b.find(contracted);
      if (pa != std::string::npos && pb != std::string::npos) {
        char merged = contracted[0];
        SmallVector<Value> reshaped;
        std::array<std::string, 2> relabeled;
        for (unsigned i = 0; i < 2; ++i) {
          size_t at = i == 0 ? pa : pb;
          relabeled[i] = labels[i].substr(0, at) + merged +
                         labels[i].substr(at + contracted.size());
          SmallVector<int64_t> shape;
          for (char c : relabeled[i]) {
            int64_t n = size[c];
            if (c == merged)
              for (char k : contracted.substr(1))
                n *= size[k];
            shape.push_back(n);
          }
          reshaped.push_back(tl::ReshapeOp::create(
              rewriter, op.getLoc(), RankedTensorType::get(shape, type(i).getElementType()),
              inputs[i]));
        }
        replace(reshaped, relabeled[0], relabeled[1]);
        return success();
      }
    }
    // 2. The output's last label innermost in the operand that has it.
    char last = out.back();
    for (unsigned i = 0; i < 2; ++i) {
      size_t pos = labels[i].find(last);
      if (pos == std::string::npos || pos + 1 == labels[i].size() || !reused(i))
        continue;
      std::string to = labels[i].substr(0, pos) + labels[i].substr(pos + 1) + last;
      inputs[i] = transpose(i, to);
      labels[i] = to;
      replace(inputs, labels[0], labels[1]);
      return success();
    }
    // 3. Contracted labels innermost in the other operand.
    if (contracted.empty())
      return failure();
    for (unsigned i = 0; i < 2; ++i) {
      const std::string &l = labels[i];
      if (l.find(last) != std::string::npos ||
          contracted.find(l.back()) != std::string::npos || !reused(i))
        continue;
      std::string to;
      for (char c : l)
        if (contracted.find(c) == std::string::npos)
          to.push_back(c);
      for (char c : l)
        if (contracted.find(c) != std::string::npos)
          to.push_back(c);
      inputs[i] = transpose(i, to);
      labels[i] = to;
      replace(inputs, labels[0], labels[1]);
      return success();
    }
    return failure();
  }
};

struct TLLayoutConstantOperandsPass
    : tlc::impl::TLLayoutConstantOperandsBase<TLLayoutConstantOperandsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LayoutConstantOperand, LayoutRuntimeOperands>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
