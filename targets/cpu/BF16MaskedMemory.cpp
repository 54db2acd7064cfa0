// A workaround for LLVM 22's AArch64 code generation of masked bf16 loads and stores.
#include "targets/cpu/BF16MaskedMemory.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace {

/// The i16 vector of a bf16 vector type's shape; null for other types.
FixedVectorType *asI16(Type *type) {
  auto *vector = dyn_cast<FixedVectorType>(type);
  if (!vector || !vector->getElementType()->isBFloatTy())
    return nullptr;
  return FixedVectorType::get(Type::getInt16Ty(type->getContext()), vector->getNumElements());
}

} // namespace

unsigned tlc::bf16MaskedMemoryAsI16(Module &module) {
  SmallVector<IntrinsicInst *> calls;
  for (Function &f : module)
    for (Instruction &inst : instructions(f))
      if (auto *call = dyn_cast<IntrinsicInst>(&inst))
        if ((call->getIntrinsicID() == Intrinsic::masked_load && asI16(call->getType())) ||
            (call->getIntrinsicID() == Intrinsic::masked_store &&
             asI16(call->getArgOperand(0)->getType())))
          calls.push_back(call);
  for (IntrinsicInst *call : calls) {
    IRBuilder<> builder(call);
    Instruction *replacement;
    if (call->getIntrinsicID() == Intrinsic::masked_load) {
      // llvm.masked.load(ptr, mask, passthru); the alignment is the pointer's attribute.
      FixedVectorType *i16s = asI16(call->getType());
      Value *passThrough = builder.CreateBitCast(call->getArgOperand(2), i16s);
      CallInst *load = builder.CreateMaskedLoad(i16s, call->getArgOperand(0),
                                                call->getParamAlign(0).valueOrOne(),
                                                call->getArgOperand(1), passThrough);
      load->setAAMetadata(call->getAAMetadata());
      replacement = cast<Instruction>(builder.CreateBitCast(load, call->getType()));
      call->replaceAllUsesWith(replacement);
    } else {
      // llvm.masked.store(value, ptr, mask).
      Value *value =
          builder.CreateBitCast(call->getArgOperand(0), asI16(call->getArgOperand(0)->getType()));
      CallInst *store =
          builder.CreateMaskedStore(value, call->getArgOperand(1),
                                    call->getParamAlign(1).valueOrOne(), call->getArgOperand(2));
      store->setAAMetadata(call->getAAMetadata());
    }
    call->eraseFromParent();
  }
  return calls.size();
}
