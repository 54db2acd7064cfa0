// A workaround for LLVM 22's x86 code generation of masked stores with one active lane.
#include "targets/cpu/OneLaneMaskedStores.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;

namespace {

/// The lane of a constant mask with exactly one true lane; -1 for an all-false mask;
/// std::nullopt otherwise (more lanes, or not a constant).
std::optional<int64_t> soleTrueLane(Value *mask) {
  auto *constant = dyn_cast<Constant>(mask);
  auto *type = dyn_cast<FixedVectorType>(mask->getType());
  if (!constant || !type)
    return std::nullopt;
  int64_t lane = -1;
  for (unsigned i = 0; i < type->getNumElements(); ++i) {
    Constant *bit = constant->getAggregateElement(i);
    if (!bit || isa<UndefValue>(bit))
      return std::nullopt;
    if (bit->isNullValue())
      continue;
    if (lane >= 0)
      return std::nullopt;
    lane = i;
  }
  return lane;
}

} // namespace

unsigned tlc::scalarizeOneLaneMaskedStores(Module &module) {
  SmallVector<IntrinsicInst *> stores;
  for (Function &f : module)
    for (Instruction &inst : instructions(f))
      if (auto *call = dyn_cast<IntrinsicInst>(&inst))
        if (call->getIntrinsicID() == Intrinsic::masked_store)
          stores.push_back(call);
  unsigned rewritten = 0;
  for (IntrinsicInst *store : stores) {
    // llvm.masked.store(value, ptr, mask); the alignment is the pointer's parameter attribute.
    Value *value = store->getArgOperand(0);
    Value *pointer = store->getArgOperand(1);
    Type *elementType = cast<VectorType>(value->getType())->getElementType();
    // Lanes narrower than a byte (i1) are packed in memory: lane i is not at byte offset i.
    std::optional<int64_t> lane = soleTrueLane(store->getArgOperand(2));
    if (!lane || elementType->getScalarSizeInBits() % 8 != 0)
      continue;
    if (*lane >= 0) {
      IRBuilder<> builder(store);
      Value *element = builder.CreateExtractElement(value, builder.getInt64(*lane));
      Value *address = builder.CreateConstInBoundsGEP1_64(elementType, pointer, *lane);
      const DataLayout &layout = module.getDataLayout();
      Align vectorAlign = store->getParamAlign(1).valueOrOne();
      Align align = commonAlignment(vectorAlign, *lane * layout.getTypeStoreSize(elementType));
      StoreInst *scalar = builder.CreateAlignedStore(element, address, align);
      scalar->setAAMetadata(store->getAAMetadata());
    }
    store->eraseFromParent();
    ++rewritten;
  }
  return rewritten;
}
