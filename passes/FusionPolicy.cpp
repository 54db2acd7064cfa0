// Fusion policy: which ops form a fusion group and why (the fusion passes and the report share it).
#include "passes/FusionPolicy.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

AffineMap tlc::fusion::dropConstantResults(AffineMap map) {
  SmallVector<AffineExpr> results;
  for (AffineExpr e : map.getResults())
    if (!isa<AffineConstantExpr>(e))
      results.push_back(e);
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(), results, map.getContext());
}

bool tlc::fusion::isEpilogueRoot(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape() || op->getNumResults() != 1 ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return false;
  if (!isa<func::FuncOp>(op->getParentOp()) || !linalg::isaContractionOpInterface(op))
    return false;
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(op);
  return succeeded(dims) && !dims->m.empty() && !dims->n.empty() && !dims->k.empty();
}

std::optional<tlc::fusion::EpilogueCandidate>
tlc::fusion::decideEpilogue(linalg::LinalgOp contraction, std::string &reason) {
  auto consumersOf = [](Value v) {
    return static_cast<int64_t>(std::distance(v.getUses().begin(), v.getUses().end()));
  };
  Value result = contraction->getResult(0);
  int64_t uses = consumersOf(result);
  if (uses != 1) {
    reason = uses == 0 ? "result unused"
                       : llvm::formatv("result has {0} uses: fusing into one consumer would "
                                       "compute the contraction again for the others",
                                       uses)
                             .str();
    return std::nullopt;
  }
  EpilogueCandidate candidate{contraction, {}, {}};
  Value consumed = result;
  Operation *user = result.getUses().begin()->getOwner();
  if (auto reshape = dyn_cast<tensor::ExpandShapeOp>(user)) {
    if (consumersOf(reshape.getResult()) != 1) {
      reason = "the reshaped result has several uses: fusing into one consumer would compute "
               "the contraction again for the others";
      return std::nullopt;
    }
    candidate.reshape = reshape;
    consumed = reshape.getResult();
    user = consumed.getUses().begin()->getOwner();
  }
  auto generic = dyn_cast<linalg::GenericOp>(user);
  if (!generic) {
    reason = ("consumer '" + user->getName().getStringRef() + "' is not an elementwise linalg op")
                 .str();
    return std::nullopt;
  }
  if (generic.getNumReductionLoops() != 0) {
    reason = "consumer is a reduction (it needs whole rows, not one output tile)";
    return std::nullopt;
  }
  if (!generic.hasPureTensorSemantics() || generic.hasDynamicShape() ||
      generic->getNumResults() != 1) {
    reason = "consumer has dynamic shapes or several results";
    return std::nullopt;
  }
  OpOperand *use = &*consumed.getUses().begin();
  if (generic.isDpsInit(use)) {
    reason = "consumer writes into the result instead of reading it";
    return std::nullopt;
  }
  if (!generic.getMatchingIndexingMap(use).isIdentity()) {
    reason = "consumer reads the result through a non-identity map (transpose or broadcast): "
             "its tiles do not line up with the contraction's output tiles";
    return std::nullopt;
  }
  if (candidate.reshape) {
    // Collapsing the consumer needs projected permutations. A broadcast operand read at 0 in a
    // size-1 dimension (a 1xCx1x1 gate of an NxCxHxW output: (0, c, 0, 0)) qualifies once
    // those results are dropped (the pass rank-reduces such operands first); other constant
    // or compound results do not.
    SmallVector<AffineMap> maps;
    for (OpOperand &operand : generic->getOpOperands()) {
      AffineMap map = generic.getMatchingIndexingMap(&operand);
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      for (auto [i, e] : llvm::enumerate(map.getResults())) {
        auto constant = dyn_cast<AffineConstantExpr>(e);
        if (constant && (constant.getValue() != 0 || !type || type.getDimSize(i) != 1)) {
          reason = "consumer reads an operand at a constant index of a dimension larger than 1";
          return std::nullopt;
        }
      }
      maps.push_back(dropConstantResults(map));
      if (!maps.back().isProjectedPermutation()) {
        reason = "consumer reads an operand through a map that is not a projected permutation";
        return std::nullopt;
      }
    }
    if (!linalg::areDimSequencesPreserved(maps, candidate.reshape.getReassociationIndices())) {
      reason = "consumer's other operands split the reshaped dimensions";
      return std::nullopt;
    }
  }
  candidate.epilogue = generic;
  return candidate;
}

int64_t tlc::fusion::chooseTileExtent(int64_t extent, int64_t target, int64_t align) {
  if (extent <= target)
    return extent;
  int64_t best = 0, bestAligned = 0;
  for (int64_t d = 1; d <= target; ++d)
    if (extent % d == 0) {
      best = d;
      if (d % align == 0)
        bestAligned = d;
    }
  // A tiny divisor (e.g. 1 for a prime extent) makes worse tiles than one whole-extent tile.
  if (bestAligned)
    return bestAligned;
  return best * 4 >= target ? best : extent;
}

bool tlc::fusion::isReturnedAlongside(OpOperand *operand) {
  auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
  if (!producer || !consumer || producer->hasOneUse())
    return false;
  for (OpOperand &use : producer->getUses())
    if (use.getOwner() != consumer && !isa<func::ReturnOp>(use.getOwner()))
      return false;
  // The preserved result is written by the fused loop nest as the producer wrote it: same
  // loops, each element once (identity maps, no reduction).
  auto allParallel = [](linalg::GenericOp op) {
    return op.getNumLoops() == op.getNumParallelLoops();
  };
  return allParallel(producer) && allParallel(consumer) &&
         producer.getNumLoops() == consumer.getNumLoops() &&
         consumer.getMatchingIndexingMap(operand).isIdentity() &&
         llvm::all_of(producer->getResults(), [&](OpResult result) {
           return producer.getIndexingMapMatchingResult(result).isIdentity();
         });
}

bool tlc::fusion::shouldFuseElementwise(OpOperand *operand, unsigned maxOps) {
  Operation *producer = operand->get().getDefiningOp();
  if (!producer || !linalg::areElementwiseOpsFusable(operand))
    return false;
  if (!producer->hasOneUse() && !isReturnedAlongside(operand))
    return false;
  // A bounded body keeps each fusion's cost (it clones both bodies) and the fused loop's
  // code size bounded: a chain of thousands of ops becomes a few loop nests, not one.
  auto bodySize = [](Operation *op) -> size_t {
    Block &body = op->getRegion(0).front();
    return std::distance(body.begin(), body.end());
  };
  if (bodySize(producer) + bodySize(operand->getOwner()) > maxOps)
    return false;
  // A bounded operand count: on the GPU targets each operand is a buffer binding, and drivers
  // cap those per kernel (Metal 31 buffers, lavapipe 32 storage buffers); on the CPU it bounds
  // the pointers a loop body keeps live. A sum of 16 gathered taps becomes two loops, not one
  // kernel of 34 buffers.
  if (producer->getNumOperands() + operand->getOwner()->getNumOperands() - 1 >
      kMaxFusedOperands)
    return false;
  // Each producer element computed once: the consumer reads the operand with every one of its
  // loops. A contraction reads A[i, k] across all j, a broadcast across a new dimension; fused
  // there, the producer would run once per reuse (and a contraction would lose the plain
  // multiply-add body its micro-kernel needs). Reductions over the operand qualify.
  auto consumer = cast<linalg::LinalgOp>(operand->getOwner());
  return consumer.getMatchingIndexingMap(operand).isPermutation();
}

SmallVector<Attribute> tlc::fusion::groupLocations(Operation *op) {
  if (auto group = op->getAttrOfType<DictionaryAttr>(kGroupAttr))
    if (auto ops = group.getAs<ArrayAttr>("ops"))
      return llvm::to_vector(ops.getValue());
  return {op->getLoc()};
}

std::string tlc::fusion::describeBody(Operation *op) {
  llvm::SetVector<StringRef> names;
  for (Region &region : op->getRegions())
    region.walk([&](Operation *inner) {
      if (inner->getNumRegions() == 0 && !isa<linalg::YieldOp>(inner) &&
          !inner->hasTrait<OpTrait::ConstantLike>())
        names.insert(inner->getName().stripDialect());
    });
  std::string text;
  for (StringRef name : names)
    text += (text.empty() ? "" : ", ") + name.str();
  return text.empty() ? "copy" : text;
}

std::string tlc::fusion::describeSingleOp(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return "kernel lowered as a whole (attention, or a softmax/log_softmax/LayerNorm row "
           "loop that keeps each row in cache between its passes)";
  if (isa<linalg::FillOp>(op))
    return "initial value of its consumer's output";
  if (linalgOp.getNumReductionLoops() != 0) {
    if (linalg::isaContractionOpInterface(linalgOp))
      return "contraction without an elementwise consumer to fuse";
    return "reduction: lowered as its own row kernel";
  }
  if (isa<linalg::TransposeOp, linalg::BroadcastOp, linalg::CopyOp>(op) ||
      (isa<linalg::GenericOp>(op) && linalgOp.getBlock()->without_terminator().empty()))
    return "data movement (copy, transpose, broadcast or window gather)";
  return "elementwise op whose neighbours are not fusable (several uses, a reduction, or a "
         "fused body at its size limit)";
}
