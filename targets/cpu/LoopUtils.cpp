// Loop rewrites shared by the tiling passes (see LoopUtils.h).
#include "targets/cpu/LoopUtils.h"

using namespace mlir;

bool tlc::forToParallel(RewriterBase &rewriter, scf::ForOp loop) {
  if (loop.getNumRegionIterArgs() != 0)
    return false;
  rewriter.setInsertionPoint(loop);
  auto parallel =
      scf::ParallelOp::create(rewriter, loop.getLoc(), ValueRange{loop.getLowerBound()},
                              ValueRange{loop.getUpperBound()}, ValueRange{loop.getStep()});
  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, parallel.getBody()->getTerminator(),
                             parallel.getInductionVars());
  rewriter.eraseOp(loop);
  return true;
}

bool tlc::isBarePointerPassable(mlir::Type type) {
  if (auto memref = mlir::dyn_cast<mlir::MemRefType>(type))
    return memref.hasStaticShape() && memref.getLayout().isIdentity() &&
           !memref.getMemorySpace();
  return type.isIntOrIndexOrFloat();
}

void tlc::setNeverInline(mlir::func::FuncOp func) {
  func.setNoInline(true);
  mlir::Builder builder(func.getContext());
  func->setAttr("passthrough", builder.getArrayAttr({builder.getStringAttr("noinline")}));
}
