// Gives every function result its own tensor before bufferization (a value returned twice).
#include "compiler/CopyRepeatedResults.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

void tlc::copyRepeatedResults(ModuleOp module) {
  module.walk([](func::ReturnOp ret) {
    llvm::SmallDenseSet<Value> seen;
    OpBuilder b(ret);
    for (OpOperand &operand : ret->getOpOperands()) {
      Value v = operand.get();
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type || seen.insert(v).second)
        continue;
      SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, ret.getLoc(), v);
      Value empty = tensor::EmptyOp::create(b, ret.getLoc(), sizes, type.getElementType());
      operand.set(linalg::CopyOp::create(b, ret.getLoc(), v, empty)->getResult(0));
    }
  });
}
