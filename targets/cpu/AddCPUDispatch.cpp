// tlc-add-cpu-dispatch: the public NAME_run of a multi-CPU object, which runs the variant of the
// model that libtlcrt picks for the host (tlc/cpu_features.h describes the ABI).
#include "targets/cpu/CPUFeatureNames.h"
#include "targets/cpu/CPUPasses.h"

#include "tlc/runtime.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace tlc {
#define GEN_PASS_DEF_TLCADDCPUDISPATCH
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kFeaturesAttr = "tlc.cpu_features";

/// One entry of the dispatch table.
struct Variant {
  std::string cpu;
  LLVM::LLVMFuncOp run;
  uint64_t requiredFeatures = 0;
};

/// The mask of `names` (feature names of `arch`'s table in tlc/cpu_features.h); the first
/// unknown name in `unknown` on failure.
std::optional<uint64_t> featureMask(ArrayAttr names, llvm::StringRef arch, std::string &unknown) {
  uint64_t mask = 0;
  for (Attribute attr : names) {
    auto name = dyn_cast<StringAttr>(attr);
    if (!name) {
      llvm::raw_string_ostream(unknown) << attr;
      return std::nullopt;
    }
    llvm::ArrayRef<const char *> table = tlc::runtimeCPUFeatureNames(arch);
    const auto *found = llvm::find(table, name.getValue());
    int bit = found == table.end() ? -1 : int(found - table.begin());
    if (bit < 0) {
      unknown = name.str();
      return std::nullopt;
    }
    mask |= uint64_t(1) << bit;
  }
  return mask;
}

/// Finds `model`_run.CPU for every cpu and reads its features; emits an error on failure.
FailureOr<SmallVector<Variant>> collectVariants(ModuleOp module, llvm::StringRef model,
                                                ArrayRef<std::string> cpus,
                                                llvm::StringRef arch) {
  SmallVector<Variant> variants;
  for (const std::string &cpu : cpus) {
    std::string name = (model + "_run." + cpu).str();
    auto run = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (!run || run.isExternal())
      return module.emitError() << "no function '" << name << "' for cpu variant '" << cpu << "'";
    auto names = run->getAttrOfType<ArrayAttr>(kFeaturesAttr);
    if (!names)
      return run.emitError() << "cpu variant entry point has no '" << kFeaturesAttr << "' array";
    std::string unknown;
    std::optional<uint64_t> mask = featureMask(names, arch, unknown);
    if (!mask)
      return run.emitError() << "unknown cpu feature '" << unknown << "' in '" << kFeaturesAttr
                             << "'";
    if (!variants.empty() && run.getFunctionType() != variants.front().run.getFunctionType())
      return run.emitError() << "cpu variant entry points differ in signature: "
                             << run.getFunctionType() << " vs "
                             << variants.front().run.getFunctionType();
    variants.push_back({cpu, run, *mask});
  }
  return variants;
}

/// A private constant NUL-terminated string named `symbol`.
void createString(OpBuilder &b, Location loc, llvm::StringRef symbol, llvm::StringRef text) {
  std::string bytes = text.str();
  bytes.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
  LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true, LLVM::Linkage::Private, symbol,
                         b.getStringAttr(bytes));
}

/// The table of tlc_cpu_variant {const char *name; uint64_t required_features;} records.
LLVM::GlobalOp createVariantTable(OpBuilder &b, Location loc, llvm::StringRef model,
                                  ArrayRef<Variant> variants) {
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  SmallVector<std::string> names;
  for (const Variant &v : variants) {
    names.push_back((model + "_cpu_name." + v.cpu).str());
    createString(b, loc, names.back(), v.cpu);
  }
  auto entry = LLVM::LLVMStructType::getLiteral(ctx, {ptr, b.getI64Type()});
  auto type = LLVM::LLVMArrayType::get(entry, variants.size());
  auto table = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true, LLVM::Linkage::Private,
                                      (model + "_cpu_variants").str(), Attribute());
  OpBuilder::InsertionGuard guard(b);
  b.createBlock(&table.getInitializerRegion());
  Value value = LLVM::UndefOp::create(b, loc, type);
  for (auto [i, v] : llvm::enumerate(variants)) {
    Value name = LLVM::AddressOfOp::create(b, loc, ptr, names[i]);
    Value mask =
        LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(v.requiredFeatures));
    int64_t index = i;
    value = LLVM::InsertValueOp::create(b, loc, value, name, ArrayRef<int64_t>{index, 0});
    value = LLVM::InsertValueOp::create(b, loc, value, mask, ArrayRef<int64_t>{index, 1});
  }
  LLVM::ReturnOp::create(b, loc, value);
  return table;
}

/// int tlc_cpu_select_variant(const char *model, const tlc_cpu_variant *, int count).
LLVM::LLVMFuncOp getOrDeclareSelect(OpBuilder &b, ModuleOp module) {
  constexpr llvm::StringLiteral name = "tlc_cpu_select_variant";
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto type = LLVM::LLVMFunctionType::get(b.getI32Type(), {ptr, ptr, b.getI32Type()});
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

/// Builds `model`_run: read the cached choice (index + 1; 0 = not chosen yet), choose on a
/// miss, then forward the call to the chosen variant or return TLC_STATUS_UNSUPPORTED.
void buildDispatcher(ModuleOp module, llvm::StringRef model, ArrayRef<Variant> variants) {
  MLIRContext *ctx = module.getContext();
  LLVM::LLVMFuncOp first = variants.front().run;
  Location loc = first.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = b.getI32Type();

  LLVM::LLVMFuncOp select = getOrDeclareSelect(b, module);
  std::string modelString = (model + "_cpu_model").str();
  createString(b, loc, modelString, model);
  LLVM::GlobalOp table = createVariantTable(b, loc, model, variants);
  std::string cacheName = (model + "_cpu_choice").str();
  LLVM::GlobalOp::create(b, loc, i32, /*isConstant=*/false, LLVM::Linkage::Internal, cacheName,
                         b.getI32IntegerAttr(0));

  auto run = LLVM::LLVMFuncOp::create(b, loc, (model + "_run").str(), first.getFunctionType());
  Block *entry = run.addEntryBlock(b);
  Region &body = run.getBody();
  Block *choose = b.createBlock(&body, body.end());
  Block *dispatch = b.createBlock(&body, body.end(), {i32}, {loc});
  Block *unsupported = b.createBlock(&body, body.end());
  SmallVector<Block *> calls;
  for (const Variant &v : variants) {
    calls.push_back(b.createBlock(&body, body.end()));
    b.setInsertionPointToStart(calls.back());
    LLVM::LLVMFuncOp callee = v.run;
    auto call = LLVM::CallOp::create(b, loc, callee, entry->getArguments());
    LLVM::ReturnOp::create(b, loc, call.getResults());
  }
  b.setInsertionPointToStart(unsupported);
  LLVM::ReturnOp::create(
      b, loc,
      LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(TLC_STATUS_UNSUPPORTED))
          .getResult());

  // Relaxed atomics: threads racing on the first call compute and store the same answer.
  b.setInsertionPointToStart(entry);
  Value cache = LLVM::AddressOfOp::create(b, loc, ptr, cacheName);
  Value cached = LLVM::LoadOp::create(b, loc, i32, cache, /*alignment=*/4, false, false, false,
                                      false, LLVM::AtomicOrdering::monotonic);
  Value zero = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0));
  Value miss = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, cached, zero);
  LLVM::CondBrOp::create(b, loc, miss, choose, ValueRange{}, dispatch, ValueRange{cached});

  b.setInsertionPointToStart(choose);
  Value modelPtr = LLVM::AddressOfOp::create(b, loc, ptr, modelString);
  Value tablePtr = LLVM::AddressOfOp::create(b, loc, ptr, table.getSymName());
  Value count = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(variants.size()));
  Value index =
      LLVM::CallOp::create(b, loc, select, ValueRange{modelPtr, tablePtr, count}).getResult();
  Value one = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(1));
  Value choice = LLVM::AddOp::create(b, loc, index, one);
  LLVM::StoreOp::create(b, loc, choice, cache, /*alignment=*/4, false, false, false,
                        LLVM::AtomicOrdering::monotonic);
  LLVM::BrOp::create(b, loc, ValueRange{choice}, dispatch);

  b.setInsertionPointToStart(dispatch);
  SmallVector<int32_t> cases;
  for (size_t i = 0; i < variants.size(); ++i)
    cases.push_back(i + 1);
  SmallVector<ValueRange> noOperands(variants.size(), ValueRange{});
  LLVM::SwitchOp::create(b, loc, dispatch->getArgument(0), unsupported, ValueRange{}, cases, calls,
                         noOperands);
}

struct TLCAddCPUDispatchPass : tlc::impl::TLCAddCPUDispatchBase<TLCAddCPUDispatchPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (modelName.empty() || variants.empty()) {
      module.emitError() << "tlc-add-cpu-dispatch needs model-name and at least one variant";
      return signalPassFailure();
    }
    std::string runName = modelName + "_run";
    if (module.lookupSymbol(runName)) {
      module.emitError() << "symbol '" << runName << "' already exists";
      return signalPassFailure();
    }
    if (arch != "x86_64" && arch != "aarch64") {
      module.emitError() << "tlc-add-cpu-dispatch: arch must be x86_64 or aarch64, not '" << arch
                         << "'";
      return signalPassFailure();
    }
    SmallVector<std::string> cpus(variants.begin(), variants.end());
    FailureOr<SmallVector<Variant>> found = collectVariants(module, modelName, cpus, arch);
    if (failed(found))
      return signalPassFailure();
    buildDispatcher(module, modelName, *found);
    for (Variant &v : *found)
      v.run->removeAttr(kFeaturesAttr);
  }
};

} // namespace
