// Concats that extend one another lowered as one growing buffer (part of tl-lower-to-linalg).
#include "passes/Passes.h"

#include "TL/TLDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace tlc;

namespace {

int64_t concatAxis(tl::ConcatOp op) {
  int64_t axis = static_cast<int64_t>(op.getAxis());
  return axis < 0 ? axis + op.getType().getRank() : axis;
}

/// `next` extends `prev`: along the same axis, in the same block, prev's inputs are a proper
/// prefix of next's.
bool extends(tl::ConcatOp next, tl::ConcatOp prev) {
  OperandRange a = prev.getInputs(), b = next.getInputs();
  return next->getBlock() == prev->getBlock() && concatAxis(next) == concatAxis(prev) &&
         a.size() < b.size() && llvm::equal(a, b.take_front(a.size()));
}

/// Lowers `chain` (each link extends the one before): the last link's inputs are inserted
/// into one tensor.empty of its shape, each at the first link that reads it, and each link
/// but the last becomes the leading slice of that buffer as it stands then.
void lowerChain(IRRewriter &rewriter, ArrayRef<tl::ConcatOp> chain) {
  tl::ConcatOp last = chain.back();
  RankedTensorType type = last.getType();
  int64_t rank = type.getRank();
  int64_t axis = concatAxis(last);
  tl::ConcatOp first = chain.front();
  rewriter.setInsertionPoint(first);
  Value buffer =
      tensor::EmptyOp::create(rewriter, first.getLoc(), type.getShape(), type.getElementType());
  SmallVector<int64_t> zeros(rank, 0), ones(rank, 1);
  size_t inserted = 0;
  int64_t offset = 0;
  for (tl::ConcatOp link : chain) {
    Location loc = link.getLoc();
    rewriter.setInsertionPoint(link);
    OperandRange inputs = link.getInputs();
    for (; inserted < inputs.size(); ++inserted) {
      Value input = inputs[inserted];
      auto inType = cast<RankedTensorType>(input.getType());
      SmallVector<int64_t> offsets = zeros;
      offsets[axis] = offset;
      buffer =
          tensor::InsertSliceOp::create(rewriter, loc, input, buffer, ValueRange{}, ValueRange{},
                                        ValueRange{}, offsets, inType.getShape(), ones);
      offset += inType.getDimSize(axis);
    }
    if (link == last) {
      rewriter.replaceOp(link, buffer);
      break;
    }
    rewriter.replaceOp(link, tensor::ExtractSliceOp::create(
                                 rewriter, loc, link.getType(), buffer, ValueRange{}, ValueRange{},
                                 ValueRange{}, zeros, link.getType().getShape(), ones));
  }
}

} // namespace

void tlc::lowerConcatChains(Operation *root, unsigned maxInputs) {
  // Chains in program order, found by their first input: a concat joins the chain whose last
  // link it extends.
  SmallVector<SmallVector<tl::ConcatOp>> chains;
  llvm::DenseMap<Value, SmallVector<unsigned, 1>> chainsByFirstInput;
  root->walk([&](tl::ConcatOp op) {
    if (op.getInputs().empty() || op.getInputs().size() > maxInputs ||
        !llvm::all_of(op->getOperandTypes(),
                      [](Type t) { return cast<RankedTensorType>(t).hasStaticShape(); }))
      return;
    SmallVector<unsigned, 1> &candidates = chainsByFirstInput[op.getInputs().front()];
    for (unsigned c : candidates)
      if (extends(op, chains[c].back())) {
        chains[c].push_back(op);
        return;
      }
    candidates.push_back(chains.size());
    chains.push_back({op});
  });
  IRRewriter rewriter(root->getContext());
  for (ArrayRef<tl::ConcatOp> chain : chains)
    if (chain.size() > 1)
      lowerChain(rewriter, chain);
}
