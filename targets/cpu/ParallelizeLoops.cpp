// tlc-parallelize-loops: large linalg ops outside contractions (elementwise, reductions along
// inner axes, copies, fills, window copies) get an outer scf.parallel loop over chunks of their
// outermost parallel dimension, which tlc-outline-parallel-loops hands to the thread pool.
#include "targets/cpu/CPUPasses.h"
#include "targets/cpu/LoopUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"

namespace tlc {
#define GEN_PASS_DEF_TLCPARALLELIZELOOPS
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// Policy: the loop dimension to split (the outermost parallel one with more than one
/// iteration) and its chunk size, or nothing when the op is too small to be worth a launch.
/// Only parallel dimensions are split, so every output element is computed by one thread in
/// the same order as without threads: results do not depend on the thread count.
std::optional<std::pair<unsigned, int64_t>> chooseSplit(linalg::LinalgOp op, int64_t minWork,
                                                        int64_t maxChunks) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t work = 1;
  for (int64_t r : ranges) {
    if (ShapedType::isDynamic(r))
      return std::nullopt;
    work *= r;
  }
  if (work < minWork)
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned d = 0; d < ranges.size(); ++d) {
    if (iterators[d] != utils::IteratorType::parallel || ranges[d] < 2)
      continue;
    // At least minWork / 4 iterations per chunk, at most maxChunks chunks.
    int64_t inner = work / ranges[d];
    int64_t chunk = std::max(llvm::divideCeil(ranges[d], maxChunks),
                             llvm::divideCeil(minWork / 4, std::max<int64_t>(inner, 1)));
    // Prefer a chunk that divides the extent (static tile shapes), if one is near.
    for (int64_t c = chunk; c <= chunk + chunk / 4 && c < ranges[d]; ++c)
      if (ranges[d] % c == 0) {
        chunk = c;
        break;
      }
    if (chunk >= ranges[d])
      return std::nullopt;
    return std::make_pair(d, chunk);
  }
  return std::nullopt;
}

struct TLCParallelizeLoopsPass : tlc::impl::TLCParallelizeLoopsBase<TLCParallelizeLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<std::pair<linalg::LinalgOp, std::pair<unsigned, int64_t>>> work;
    // Only ops directly in the function body: anything nested already sits in a loop nest
    // (contraction tiles, attention blocks) that owns its parallelism.
    for (Block &block : func.getBody())
      for (Operation &op : block)
        if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op))
          if (linalgOp.hasPureBufferSemantics() && !op.hasAttr("tlc.register_tile"))
            if (auto split = chooseSplit(linalgOp, minWork, maxChunks))
              work.push_back({linalgOp, *split});
    IRRewriter rewriter(&getContext());
    Builder b(&getContext());
    for (auto &[op, split] : work) {
      SmallVector<OpFoldResult> sizes(op.getNumLoops(), b.getIndexAttr(0));
      sizes[split.first] = b.getIndexAttr(split.second);
      scf::SCFTilingOptions options;
      options.setTileSizes(sizes);
      options.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled =
          scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled) || tiled->loops.size() != 1)
        continue; // stays serial
      rewriter.eraseOp(op);
      if (auto loop = dyn_cast<scf::ForOp>(tiled->loops.front().getOperation()))
        tlc::forToParallel(rewriter, loop);
    }
  }
};

} // namespace
