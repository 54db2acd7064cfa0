// tlc-merge-parallel-bodies: outlined parallel bodies that are the same function become one.
#include "targets/cpu/CPUPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

namespace tlc {
#define GEN_PASS_DEF_TLCMERGEPARALLELBODIES
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// A hash of `body`'s type and of each op in it (name, attributes, properties, result types;
/// not locations, not which values it uses): equivalent bodies hash alike.
llvm::hash_code hashBody(func::FuncOp body) {
  llvm::hash_code hash = hash_value(body.getFunctionType());
  body.getBody().walk([&](Operation *op) {
    hash = llvm::hash_combine(
        hash, OperationEquivalence::computeHash(op, OperationEquivalence::ignoreHashValue,
                                                OperationEquivalence::ignoreHashValue,
                                                OperationEquivalence::IgnoreLocations));
  });
  return hash;
}

bool equivalentBodies(func::FuncOp a, func::FuncOp b) {
  return a.getFunctionType() == b.getFunctionType() &&
         OperationEquivalence::isRegionEquivalentTo(&a.getBody(), &b.getBody(),
                                                    OperationEquivalence::IgnoreLocations);
}

struct TLCMergeParallelBodiesPass
    : tlc::impl::TLCMergeParallelBodiesBase<TLCMergeParallelBodiesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Each body's launch declaration, in module order.
    llvm::MapVector<func::FuncOp, func::FuncOp> launchOf;
    for (auto launch : module.getOps<func::FuncOp>()) {
      auto bodyRef = launch->getAttrOfType<FlatSymbolRefAttr>("tlc.parallel_launch");
      if (!bodyRef)
        continue;
      auto body = symbols.lookup<func::FuncOp>(bodyRef.getValue());
      if (body && body->hasAttr("tlc.parallel_body"))
        launchOf.insert({body, launch});
    }
    // The first body of each class of equivalent ones is kept; the launches of the others
    // become its launch.
    llvm::DenseMap<llvm::hash_code, SmallVector<func::FuncOp, 1>> kept;
    llvm::DenseMap<StringAttr, FlatSymbolRefAttr> replacement; // launch name -> kept launch
    for (auto [body, launch] : launchOf) {
      SmallVector<func::FuncOp, 1> &candidates = kept[hashBody(body)];
      func::FuncOp fn = body;
      auto same =
          llvm::find_if(candidates, [&](func::FuncOp k) { return equivalentBodies(k, fn); });
      if (same == candidates.end()) {
        candidates.push_back(body);
        continue;
      }
      replacement[launch.getSymNameAttr()] = FlatSymbolRefAttr::get(launchOf.lookup(*same));
    }
    if (replacement.empty())
      return;
    module.walk([&](func::CallOp call) {
      if (FlatSymbolRefAttr to = replacement.lookup(call.getCalleeAttr().getAttr()))
        call.setCalleeAttr(to);
    });
    for (auto [body, launch] : launchOf)
      if (replacement.contains(launch.getSymNameAttr())) {
        symbols.erase(launch);
        symbols.erase(body);
      }
  }
};

} // namespace
