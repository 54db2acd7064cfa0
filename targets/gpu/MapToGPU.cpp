// tlc-map-to-gpu: each linalg op of the bufferized model function becomes one gpu.launch.
#include "targets/gpu/FlashAttention.h"
#include "targets/gpu/GPUPasses.h"
#include "targets/gpu/KernelLaunch.h"
#include "targets/gpu/TiledContraction.h"
#include "targets/gpu/WorkgroupReduction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "tlc/gpu.h"

#include <optional>

namespace tlc {
#define GEN_PASS_DEF_TLCMAPTOGPU
#include "targets/gpu/GPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// Ops that may stay in the host function: they only name memory or compute indices.
bool staysOnHost(Operation *op) {
  return isa<memref::ViewOp, memref::GetGlobalOp, arith::ConstantOp, func::ReturnOp,
             memref::DeallocOp>(op) ||
         isa<ViewLikeOpInterface>(op);
}

/// Emits `op` as a launch with one thread per point of its parallel iteration space.
LogicalResult mapOneThreadPerPoint(linalg::LinalgOp op, int64_t blockSize,
                                   FlatSymbolRefAttr module, FlatSymbolRefAttr kernel) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> parallelDims;
  int64_t points = 1;
  for (auto [dim, range] : llvm::enumerate(ranges)) {
    if (ShapedType::isDynamic(range))
      return op->emitError() << "the GPU targets need static shapes; loop " << dim
                             << " of this op has a dynamic size";
    if (iterators[dim] == utils::IteratorType::parallel) {
      parallelDims.push_back(dim);
      points *= range;
    }
  }
  if (points == 0) {
    op->erase();
    return success();
  }
  std::optional<tlc::PointGrid> grid = tlc::pointGrid(points, blockSize);
  if (!grid)
    return op->emitError() << "this op has " << points
                           << " output points, more than one GPU launch can cover";

  OpBuilder b(op);
  Location loc = op.getLoc();
  Value linear = tlc::createPointLaunch(b, loc, *grid, module, kernel);
  // The point's coordinates, innermost parallel dimension fastest (adjacent threads touch
  // adjacent elements of a row-major output); linear < points bounds the outermost already.
  SmallVector<OpFoldResult> offsets(ranges.size()), sizes(ranges.size());
  for (auto [dim, value] : tlc::delinearize(b, loc, linear, parallelDims, ranges)) {
    offsets[dim] = value;
    sizes[dim] = b.getIndexAttr(1);
  }
  for (auto [dim, range] : llvm::enumerate(ranges))
    if (iterators[dim] != utils::IteratorType::parallel) {
      offsets[dim] = b.getIndexAttr(0);
      sizes[dim] = b.getIndexAttr(range);
    }
  IRMapping map;
  for (Value operand : op->getOperands())
    map.map(operand, tlc::cloneViewChain(b, operand, map));
  auto clone = cast<TilingInterface>(b.clone(*op, map));
  FailureOr<TilingResult> tiled = clone.getTiledImplementation(b, offsets, sizes);
  if (failed(tiled))
    return op->emitError() << "cannot tile this op to one point per GPU thread";
  clone->erase();
  op->erase();
  return success();
}

/// Emits consecutive fills (each of a constant into a static buffer) as one launch: one
/// thread per point of all of them, the points of each fill after those of the ones before.
/// The border of a padded buffer is four fills (tlc-lower-memref-copy): one launch instead of
/// four. A single fill is mapped as any op.
LogicalResult mapFills(ArrayRef<linalg::FillOp> fills, int64_t blockSize,
                       FlatSymbolRefAttr module, FlatSymbolRefAttr kernel) {
  if (fills.size() == 1)
    return mapOneThreadPerPoint(fills.front(), blockSize, module, kernel);
  int64_t points = 0;
  for (linalg::FillOp fill : fills)
    points += cast<MemRefType>(fill.getOutputs()[0].getType()).getNumElements();
  std::optional<tlc::PointGrid> grid = tlc::pointGrid(points, blockSize);
  if (!grid)
    return fills.front()->emitError()
           << "these fills have " << points << " points, more than one GPU launch can cover";
  linalg::FillOp last = fills.back();
  OpBuilder b(last);
  Location loc = last.getLoc();
  Value linear = tlc::createPointLaunch(b, loc, *grid, module, kernel);
  IRMapping views;
  int64_t start = 0;
  for (linalg::FillOp fill : fills) {
    auto type = cast<MemRefType>(fill.getOutputs()[0].getType());
    int64_t count = type.getNumElements();
    Value out = tlc::cloneViewChain(b, fill.getOutputs()[0], views);
    Value offset = arith::SubIOp::create(b, loc, linear,
                                         arith::ConstantIndexOp::create(b, loc, start));
    // linear - start < count (unsigned): this fill's point.
    Value mine = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, offset,
                                       arith::ConstantIndexOp::create(b, loc, count));
    auto guard = scf::IfOp::create(b, loc, mine, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard inside(b);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    SmallVector<unsigned> dims = llvm::to_vector(llvm::seq<unsigned>(0, type.getRank()));
    SmallVector<Value> indices(type.getRank());
    if (type.getRank() > 0)
      for (auto [dim, value] : tlc::delinearize(b, loc, offset, dims, type.getShape()))
        indices[dim] = value;
    Value value = b.clone(*fill.getInputs()[0].getDefiningOp())->getResult(0);
    memref::StoreOp::create(b, loc, value, out, indices);
    start += count;
  }
  for (linalg::FillOp fill : fills)
    fill->erase();
  return success();
}

/// Whether `fill` can join a launch of several fills: a constant into a static buffer.
bool groupableFill(linalg::FillOp fill) {
  auto type = dyn_cast<MemRefType>(fill.getOutputs()[0].getType());
  return type && type.hasStaticShape() && type.getNumElements() > 0 &&
         matchPattern(fill.getInputs()[0], m_Constant());
}

/// The constant `fill` writes, when `op` accumulates into exactly the buffer it fills (its
/// only output, not also read as an input); else null.
Value absorbableFill(linalg::FillOp fill, linalg::LinalgOp op) {
  if (!fill || op.getNumDpsInits() != 1 || isa<linalg::FillOp>(op))
    return {};
  Value buffer = fill.getOutputs()[0];
  if (op.getDpsInitOperand(0)->get() != buffer || llvm::is_contained(op.getDpsInputs(), buffer))
    return {};
  Value value = fill.getInputs()[0];
  return matchPattern(value, m_Constant()) ? value : Value();
}

/// The tail of `func`'s workspace (its last argument, after tlc-plan-workspace): past the
/// planned arena, at a binding's alignment.
std::optional<tlc::WorkspaceTail> workspaceTail(func::FuncOp func) {
  if (func.getNumArguments() == 0)
    return std::nullopt;
  Value workspace = func.getArgument(func.getNumArguments() - 1);
  auto type = dyn_cast<MemRefType>(workspace.getType());
  auto name = func.getArgAttrOfType<StringAttr>(func.getNumArguments() - 1, "tl.name");
  if (!type || type.getRank() != 1 || !type.hasStaticShape() || !name ||
      name.getValue() != "workspace")
    return std::nullopt;
  tlc::WorkspaceTail tail;
  tail.workspace = workspace;
  tail.offset = llvm::alignTo(type.getNumElements(), TLC_GPU_BINDING_ALIGNMENT);
  return tail;
}

/// Widens `func`'s workspace argument by the tail's bytes and says so in the module's
/// `tlc.workspace_size` and the function's `tlc.memory_plan` entry (`scratch_size`).
void growWorkspace(func::FuncOp func, const tlc::WorkspaceTail &tail) {
  MLIRContext *ctx = func.getContext();
  int64_t size = tail.offset + tail.bytes;
  auto type = MemRefType::get({size}, IntegerType::get(ctx, 8));
  unsigned index = func.getNumArguments() - 1;
  func.getArgument(index).setType(type);
  SmallVector<Type> inputs(func.getArgumentTypes());
  inputs[index] = type;
  func.setFunctionType(FunctionType::get(ctx, inputs, func.getResultTypes()));
  auto module = func->getParentOfType<ModuleOp>();
  auto i64 = IntegerType::get(ctx, 64);
  int64_t total = size;
  if (auto old = module->getAttrOfType<IntegerAttr>("tlc.workspace_size"))
    total = std::max(total, old.getInt());
  module->setAttr("tlc.workspace_size", IntegerAttr::get(i64, total));
  auto plans = module->getAttrOfType<ArrayAttr>("tlc.memory_plan");
  if (!plans)
    return;
  SmallVector<Attribute> updated;
  for (Attribute plan : plans) {
    auto dict = dyn_cast<DictionaryAttr>(plan);
    auto function = dict ? dict.getAs<StringAttr>("function") : StringAttr();
    if (function && function.getValue() == func.getName()) {
      NamedAttrList entries(dict);
      entries.set("scratch_size", IntegerAttr::get(i64, size - tail.offset));
      plan = entries.getDictionary(ctx);
    }
    updated.push_back(plan);
  }
  module->setAttr("tlc.memory_plan", ArrayAttr::get(ctx, updated));
}

struct TLCMapToGPUPass : tlc::impl::TLCMapToGPUBase<TLCMapToGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    bool failedAny = false;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isPrivate() || func.isExternal())
        continue;
      if (!func.getBody().hasOneBlock()) {
        func.emitError() << "the GPU targets expect the bufferized model function as one block";
        return signalPassFailure();
      }
      auto module = FlatSymbolRefAttr::get(&getContext(), (func.getName() + "_kernels").str());
      unsigned kernels = 0;
      auto nextKernel = [&] {
        return FlatSymbolRefAttr::get(&getContext(),
                                      (func.getName() + "_k" + llvm::Twine(kernels++)).str());
      };
      // A fill waits for the next op: when that op accumulates into exactly the filled buffer
      // (a contraction, a reduction) and its kernel writes every element, the fill's value
      // becomes the kernel's initial value and the fill's own kernel disappears.
      // Fills before it (consecutive, with nothing but host ops between) wait with it and run
      // as one launch.
      linalg::FillOp pendingFill;
      FlatSymbolRefAttr pendingKernel;
      SmallVector<linalg::FillOp> earlierFills;
      FlatSymbolRefAttr earlierKernel;
      auto mapEarlierFills = [&] {
        if (!earlierFills.empty() &&
            failed(mapFills(earlierFills, blockSize, module, earlierKernel)))
          failedAny = true;
        earlierFills.clear();
      };
      auto mapPendingFill = [&] {
        if (pendingFill) {
          if (!earlierFills.empty() && groupableFill(pendingFill))
            earlierFills.push_back(pendingFill);
          else if (failed(mapOneThreadPerPoint(pendingFill, blockSize, module, pendingKernel)))
            failedAny = true;
        }
        pendingFill = nullptr;
        mapEarlierFills();
      };
      // The ops as they are now: mapping erases them (a tiled contraction also the epilogue
      // it absorbs) and inserts launches.
      SmallVector<Operation *> ops = llvm::map_to_vector(
          func.getBody().front(), [](Operation &op) { return &op; });
      // Kernels' temporaries (split-k partial sums) go past the planned arena.
      std::optional<tlc::WorkspaceTail> tail = workspaceTail(func);
      llvm::SmallPtrSet<Operation *, 4> absorbed;
      for (Operation *opPtr : ops) {
        if (absorbed.contains(opPtr)) {
          // A fill between a contraction and its epilogue stays a kernel of its own.
          mapPendingFill();
          continue;
        }
        Operation &op = *opPtr;
        if (auto attention = dyn_cast<tlc::tl::FusedAttentionOp>(op)) {
          mapPendingFill();
          if (!attention.hasPureBufferSemantics()) {
            op.emitError() << "the GPU targets expect attention on buffers here";
            failedAny = true;
          } else if (failed(tlc::mapFlashAttention(attention, module, nextKernel(),
                                                   workgroupMemory))) {
            failedAny = true;
          }
          continue;
        }
        auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
        if (!linalgOp) {
          if (!staysOnHost(&op) && !isa<gpu::LaunchOp>(op)) {
            // All unsupported ops at once, each at its location.
            op.emitError() << "'" << op.getName()
                           << "' has no GPU lowering yet (the GPU targets run linalg ops)";
            failedAny = true;
          }
          continue;
        }
        FlatSymbolRefAttr kernel = nextKernel();
        if (!linalgOp.hasPureBufferSemantics()) {
          op.emitError() << "the GPU targets expect linalg ops on buffers here";
          failedAny = true;
          continue;
        }
        if (auto fill = dyn_cast<linalg::FillOp>(op)) {
          if (pendingFill && groupableFill(pendingFill) && groupableFill(fill)) {
            if (earlierFills.empty())
              earlierKernel = pendingKernel;
            earlierFills.push_back(pendingFill);
          } else {
            mapPendingFill();
          }
          pendingFill = fill;
          pendingKernel = kernel;
          continue;
        }
        Value init = absorbableFill(pendingFill, linalgOp);
        if (init)
          mapEarlierFills(); // The fills before the absorbed one run first.
        else
          mapPendingFill();
        Operation *epilogue = nullptr;
        if ((tileContractions &&
             tlc::mapTiledContraction(linalgOp, module, kernel, init, &epilogue,
                                      splitK && tail ? &*tail : nullptr, nextKernel)) ||
            (workgroupReductions && tlc::mapWorkgroupReduction(linalgOp, module, kernel, init))) {
          if (init) {
            pendingFill->erase();
            pendingFill = nullptr;
          }
          if (epilogue)
            absorbed.insert(epilogue);
          continue;
        }
        mapPendingFill();
        if (failed(mapOneThreadPerPoint(linalgOp, blockSize, module, kernel)))
          failedAny = true;
      }
      mapPendingFill();
      if (tail && tail->bytes > 0)
        growWorkspace(func, *tail);
      // Views only the launches used are now dead on the host.
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(func.getBody().front())))
        if (isa<ViewLikeOpInterface, arith::ConstantOp>(op) && op.use_empty() &&
            !isa<memref::ViewOp>(op))
          op.erase();
    }
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
