// tlc-spirv-workgroup-memory: kernels' workgroup attributions become memref.alloc ops in the
// SPIR-V Workgroup storage class, the form convert-gpu-to-spirv lowers.
#include "targets/gpu/GPUPasses.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"

#include <map>

namespace tlc {
#define GEN_PASS_DEF_TLCSPIRVWORKGROUPMEMORY
#include "targets/gpu/GPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

struct TLCSPIRVWorkgroupMemoryPass
    : tlc::impl::TLCSPIRVWorkgroupMemoryBase<TLCSPIRVWorkgroupMemoryPass> {
  void runOnOperation() override {
    auto workgroup =
        spirv::StorageClassAttr::get(&getContext(), spirv::StorageClass::Workgroup);
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>()) {
      unsigned count = func.getNumWorkgroupAttributions();
      if (count == 0)
        continue;
      Block &entry = func.getBody().front();
      OpBuilder b(&entry, entry.begin());
      for (BlockArgument attribution : func.getWorkgroupAttributions()) {
        for (Operation *user : attribution.getUsers())
          if (!isa<memref::LoadOp, memref::StoreOp>(user)) {
            user->emitError() << "workgroup memory used by '" << user->getName()
                              << "'; the SPIR-V targets expect loads and stores only";
            return signalPassFailure();
          }
        auto type = cast<MemRefType>(attribution.getType());
        auto alloc = memref::AllocOp::create(
            b, attribution.getLoc(),
            MemRefType::get(type.getShape(), type.getElementType(), type.getLayout(), workgroup));
        // Loads and stores take the memref's type from their operand: only its memory space
        // changes.
        attribution.replaceAllUsesWith(alloc.getResult());
      }
      entry.eraseArguments(func.getFirstWorkgroupAttributionIndex(), count);
      func->setAttr(func.getNumWorkgroupAttributionsAttrName(), b.getI64IntegerAttr(0));
    }
  }
};

} // namespace

namespace tlc {
#define GEN_PASS_DEF_TLCSPIRVSHAREWORKGROUPMEMORY
#include "targets/gpu/GPUPasses.h.inc"
} // namespace tlc

namespace {

/// A Workgroup variable's element type and length, when it is `struct<(array<N x T>)>` (what
/// convert-gpu-to-spirv makes of a memref.alloc) and only addressed for access chains.
std::optional<std::pair<Type, int64_t>> shareableArray(spirv::GlobalVariableOp var,
                                                       SymbolTable::UseRange uses) {
  auto ptr = dyn_cast<spirv::PointerType>(var.getType());
  if (!ptr || ptr.getStorageClass() != spirv::StorageClass::Workgroup)
    return std::nullopt;
  auto wrapper = dyn_cast<spirv::StructType>(ptr.getPointeeType());
  if (!wrapper || wrapper.getNumElements() != 1)
    return std::nullopt;
  auto array = dyn_cast<spirv::ArrayType>(wrapper.getElementType(0));
  if (!array || array.getArrayStride() != 0)
    return std::nullopt;
  for (const SymbolTable::SymbolUse &use : uses) {
    auto address = dyn_cast<spirv::AddressOfOp>(use.getUser());
    if (!address || !llvm::all_of(address->getUsers(), [](Operation *user) {
          return isa<spirv::AccessChainOp>(user);
        }))
      return std::nullopt;
  }
  return std::make_pair(array.getElementType(), static_cast<int64_t>(array.getNumElements()));
}

struct TLCSPIRVShareWorkgroupMemoryPass
    : tlc::impl::TLCSPIRVShareWorkgroupMemoryBase<TLCSPIRVShareWorkgroupMemoryPass> {
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    // Each shareable variable's (element type, length), and each function's variables in the
    // order it first addresses them.
    llvm::DenseMap<Operation *, std::pair<Type, int64_t>> arrays;
    for (auto var : module.getOps<spirv::GlobalVariableOp>()) {
      std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(var, module);
      if (!uses)
        continue;
      if (auto array = shareableArray(var, *uses))
        arrays[var] = *array;
    }
    if (arrays.empty())
      return;
    SymbolTable symbols(module);
    // slot (element type, n) -> the longest length any function's n-th variable of that type
    // needs; and each variable's slot, per function.
    std::map<std::pair<std::string, unsigned>, int64_t> slotLength;
    SmallVector<std::tuple<spirv::AddressOfOp, Type, unsigned>> addressSlot;
    for (auto func : module.getOps<spirv::FuncOp>()) {
      llvm::DenseMap<Operation *, unsigned> seen;
      std::map<std::string, unsigned> perType;
      func.walk([&](spirv::AddressOfOp address) {
        Operation *var = symbols.lookup(address.getVariable());
        auto it = arrays.find(var);
        if (it == arrays.end())
          return;
        auto [type, length] = it->second;
        std::string key;
        llvm::raw_string_ostream(key) << type;
        auto [slot, fresh] = seen.try_emplace(var, perType[key]);
        if (fresh)
          ++perType[key];
        int64_t &longest = slotLength[{key, slot->second}];
        longest = std::max(longest, length);
        addressSlot.emplace_back(address, type, slot->second);
      });
    }
    // The shared variables, then each address redirected to its slot's.
    OpBuilder b(module.getBody(), module.getBody()->begin());
    std::map<std::pair<std::string, unsigned>, spirv::GlobalVariableOp> shared;
    for (auto [address, type, n] : addressSlot) {
      std::string key;
      llvm::raw_string_ostream(key) << type;
      spirv::GlobalVariableOp &var = shared[{key, n}];
      if (!var) {
        auto pointee = spirv::StructType::get(
            {spirv::ArrayType::get(type, static_cast<unsigned>(slotLength[{key, n}]))});
        var = spirv::GlobalVariableOp::create(
            b, module.getLoc(),
            spirv::PointerType::get(pointee, spirv::StorageClass::Workgroup),
            ("__tlc_workgroup_" + key + "_" + llvm::Twine(n)).str(), FlatSymbolRefAttr());
        symbols.insert(var);
      }
      address.setVariableAttr(FlatSymbolRefAttr::get(var.getSymNameAttr()));
      address.getPointer().setType(var.getType());
    }
    for (auto [var, array] : arrays)
      var->erase();
  }
};

} // namespace
