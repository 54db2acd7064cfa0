// tlc-set-fast-math: FMA contraction everywhere, reassociation in reduction combiners.
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace tlc {
#define GEN_PASS_DEF_TLCSETFASTMATH
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

void addFlags(Operation *op, arith::FastMathFlags flags) {
  auto iface = dyn_cast<arith::ArithFastMathInterface>(op);
  if (!iface)
    return;
  arith::FastMathFlags current = iface.getFastMathFlagsAttr()
                                     ? iface.getFastMathFlagsAttr().getValue()
                                     : arith::FastMathFlags::none;
  op->setAttr(iface.getFastMathAttrName(),
              arith::FastMathFlagsAttr::get(op->getContext(), current | flags));
}

struct TLCSetFastMathPass : tlc::impl::TLCSetFastMathBase<TLCSetFastMathPass> {
  using Base::Base;
  void runOnOperation() override {
    // Only the ops an FMA is made of: `contract` on casts would also let arith fold
    // extf(truncf(x)) to x, dropping a rounding the program asked for.
    if (contract)
      getOperation().walk([](Operation *op) {
        if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::NegFOp>(op))
          addFlags(op, arith::FastMathFlags::contract);
      });
    if (!reassociateReductions)
      return;
    getOperation().walk([](linalg::GenericOp generic) {
      if (generic.getNumReductionLoops() == 0)
        return;
      // Only ops that consume the accumulator (an output block argument) are combiners.
      for (BlockArgument acc : generic.getRegionOutputArgs())
        for (Operation *user : acc.getUsers())
          addFlags(user, arith::FastMathFlags::reassoc);
    });
  }
};

} // namespace
