// tlc-instrument-profile: each kernel of the model function timed into a public table.
#include "passes/Passes.h"
#include "passes/SourceNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

namespace tlc {
#define GEN_PASS_DEF_TLCINSTRUMENTPROFILE
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// One timed kernel: the op forming a loop nest and the fills before it (which code
/// generation may merge into it).
struct Kernel {
  Operation *first = nullptr, *last = nullptr;
  std::string name, kind;
  int64_t flops = 0, bytes = 0;
};

/// Arithmetic ops per iteration of a linalg op's body (arith ops with a float result but
/// constants and selects, integer arithmetic on integers that are not indices, such as an
/// int8 contraction's multiply and add, but no casts; and math ops) times its iterations;
/// nullopt when its loop ranges are not static.
std::optional<int64_t> linalgFlops(linalg::LinalgOp op) {
  int64_t iterations = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return std::nullopt;
    iterations *= range;
  }
  if (isa<linalg::FillOp, linalg::CopyOp>(op) || op->getNumRegions() != 1)
    return 0;
  int64_t perIteration = 0;
  op->getRegion(0).walk([&](Operation *inner) {
    bool arith = isa_and_present<arith::ArithDialect>(inner->getDialect()) &&
                 inner->getNumResults() == 1 && !isa<arith::ConstantOp, arith::SelectOp>(inner);
    Type result = arith ? inner->getResult(0).getType() : Type();
    if (isa_and_present<math::MathDialect>(inner->getDialect()) ||
        (arith && isa<FloatType>(result)) ||
        (arith && isa<IntegerType>(result) && !isa<CastOpInterface>(inner) &&
         !isa<arith::CmpIOp>(inner)))
      ++perIteration;
  });
  return perIteration * iterations;
}

/// The iterations of a loop (all its dimensions) with static bounds, 1 for other ops, nullopt
/// when a bound is not static.
std::optional<int64_t> tripCount(Operation *op) {
  auto loop = dyn_cast<LoopLikeOpInterface>(op);
  if (!loop)
    return 1;
  std::optional<SmallVector<OpFoldResult>> lbs = loop.getLoopLowerBounds(),
                                           ubs = loop.getLoopUpperBounds(),
                                           steps = loop.getLoopSteps();
  if (!lbs || !ubs || !steps)
    return std::nullopt;
  int64_t total = 1;
  for (auto [lb, ub, step] : llvm::zip_equal(*lbs, *ubs, *steps)) {
    std::optional<int64_t> l = getConstantIntValue(lb), u = getConstantIntValue(ub),
                           st = getConstantIntValue(step);
    if (!l || !u || !st || *st <= 0)
      return std::nullopt;
    total *= *u > *l ? llvm::divideCeil(*u - *l, *st) : 0;
  }
  return total;
}

/// The flops of a kernel's op: a linalg op's own, or for loops (a contraction tiled with its
/// epilogue, a row loop) the linalg ops inside times the trip counts; nullopt when a count is
/// not static (the table then shows none).
std::optional<int64_t> nestedFlops(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgFlops(linalgOp);
  std::optional<int64_t> trips = tripCount(op);
  if (!trips)
    return std::nullopt;
  int64_t inner = 0;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &nested : block) {
        if (nested.getNumRegions() == 0 && !isa<linalg::LinalgOp>(nested))
          continue;
        std::optional<int64_t> f = nestedFlops(&nested);
        if (!f)
          return std::nullopt;
        inner += *f;
      }
  return *trips * inner;
}

int64_t bufferBytes(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return 0;
  return type.getNumElements() * llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

/// What a kernel does, for the table: the fusion group's kind, else the op's name.
std::string kindOf(Operation *op) {
  if (auto group = op->getAttrOfType<DictionaryAttr>("tlc.fusion_group"))
    if (auto kind = group.getAs<StringAttr>("kind"))
      return kind.str();
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (linalgOp.getNumReductionLoops() > 0)
      return linalgOp.getNumDpsInputs() >= 2 ? "contraction" : "reduction";
    if (!isa<linalg::GenericOp>(op))
      return op->getName().stripDialect().str();
    return "elementwise";
  }
  if (isa<scf::ForallOp>(op))
    return "row loop"; // softmax, LayerNorm, attention: rows in parallel
  return op->getName().getStringRef().str();
}

/// The elementwise op right after `op` that code generation may run on `op`'s output while
/// it is in registers or cache (tlc-tile-depthwise's row epilogues, the epilogue operands a
/// contraction's tiles prefetch): a parallel linalg.generic on buffers using `op`'s output. The
/// two are one kernel, so that the timer between them does not keep code generation from
/// fusing them (a profiled depthwise convolution with its SiLU ran 3.5x slower than the
/// unprofiled one). Nothing with memory effects may come between; the matchers are stricter.
linalg::GenericOp rowEpilogue(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumDpsInits() != 1)
    return {};
  Operation *next = op->getNextNode();
  while (next && isMemoryEffectFree(next) && !next->hasTrait<OpTrait::IsTerminator>())
    next = next->getNextNode();
  auto epilogue = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!epilogue || !epilogue.hasPureBufferSemantics() ||
      epilogue.getNumParallelLoops() != epilogue.getNumLoops())
    return {};
  Value out = linalgOp.getDpsInitOperand(0)->get();
  return llvm::is_contained(epilogue->getOperands(), out) ? epilogue : linalg::GenericOp();
}

/// The kernels of `body`, in order.
SmallVector<Kernel> findKernels(Block &body) {
  SmallVector<Kernel> kernels;
  SmallVector<Operation *> fills;
  auto add = [&](Operation *first, Operation *op) {
    Kernel k;
    k.first = first;
    k.last = op;
    Location loc = op->getLoc();
    k.kind = kindOf(op);
    k.flops = nestedFlops(op).value_or(0);
    if (linalg::GenericOp epilogue = rowEpilogue(op)) {
      k.last = epilogue;
      loc = FusedLoc::get(op->getContext(), {epilogue.getLoc(), loc});
      if (!StringRef(k.kind).ends_with("+epilogue"))
        k.kind += "+epilogue";
      k.flops += nestedFlops(epilogue).value_or(0);
    }
    k.name = tlc::describeLocation(loc);
    if (k.name.empty())
      k.name = "(no source location)";
    // The buffers its ops read or write, also those a loop's body uses from outside it.
    llvm::SmallPtrSet<Value, 8> seen;
    for (Operation *it = first;; it = it->getNextNode()) {
      // Views between a kernel's ops (a row epilogue's operands) are counted where used.
      if (it != first && it != k.last && isMemoryEffectFree(it))
        continue;
      it->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands()) {
          Operation *def = operand.getDefiningOp();
          Region *home = def ? def->getParentRegion() : operand.getParentRegion();
          if (!it->isProperAncestor(home ? home->getParentOp() : nullptr) &&
              seen.insert(operand).second)
            k.bytes += bufferBytes(operand);
        }
      });
      if (it == k.last)
        break;
    }
    kernels.push_back(std::move(k));
    return kernels.back().last;
  };
  for (Operation *op = body.empty() ? nullptr : &body.front(); op; op = op->getNextNode()) {
    if (isMemoryEffectFree(op) || op->hasTrait<OpTrait::IsTerminator>() ||
        isa<memref::DeallocOp>(op))
      continue;
    if (isa<linalg::FillOp>(op)) {
      fills.push_back(op);
      continue;
    }
    op = add(fills.empty() ? op : fills.front(), op);
    fills.clear();
  }
  for (Operation *fill : fills)
    add(fill, fill);
  return kernels;
}

struct TLCInstrumentProfilePass
    : tlc::impl::TLCInstrumentProfileBase<TLCInstrumentProfilePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(modelName + "_impl");
    if (!func || !func.getBody().hasOneBlock()) {
      module.emitError() << "tlc-instrument-profile: no one-block model function '" << modelName
                         << "_impl' (run it after tlc-add-entry-point)";
      return signalPassFailure();
    }
    SmallVector<Kernel> kernels = findKernels(func.getBody().front());
    auto i64 = IntegerType::get(&getContext(), 64);
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    Location loc = func.getLoc();
    int64_t n = std::max<int64_t>(kernels.size(), 1);
    auto table = MemRefType::get({n}, i64);
    auto global = [&](StringRef suffix, MemRefType type, Attribute value, bool constant) {
      memref::GlobalOp::create(b, loc, modelName + "_profile_" + suffix.str(),
                               b.getStringAttr("public"), type, value, constant,
                               /*alignment=*/IntegerAttr());
    };
    auto column = [&](auto field) {
      SmallVector<int64_t> values(n, 0);
      for (auto [i, k] : llvm::enumerate(kernels))
        values[i] = field(k);
      return DenseElementsAttr::get(RankedTensorType::get({n}, i64), ArrayRef<int64_t>(values));
    };
    global("ns", table, DenseElementsAttr::get(RankedTensorType::get({n}, i64), int64_t(0)),
           false);
    global("flops", table, column([](const Kernel &k) { return k.flops; }), true);
    global("bytes", table, column([](const Kernel &k) { return k.bytes; }), true);
    auto scalar = MemRefType::get({}, i64);
    global("count", scalar,
           DenseElementsAttr::get(RankedTensorType::get({}, i64), int64_t(kernels.size())), true);
    std::vector<char> names;
    for (const Kernel &k : kernels)
      for (const std::string &s : {k.name, k.kind}) {
        names.insert(names.end(), s.begin(), s.end());
        names.push_back('\0');
      }
    if (names.empty())
      names.push_back('\0');
    auto i8 = IntegerType::get(&getContext(), 8);
    auto namesType = MemRefType::get({int64_t(names.size())}, i8);
    global("names", namesType,
           DenseElementsAttr::get(RankedTensorType::get({int64_t(names.size())}, i8),
                                  ArrayRef<char>(names)),
           true);
    auto clock = func::FuncOp::create(b, loc, "tlc_profile_clock", b.getFunctionType({}, {i64}));
    clock.setPrivate();

    for (auto [i, k] : llvm::enumerate(kernels)) {
      b.setInsertionPoint(k.first);
      Value start = func::CallOp::create(b, loc, clock, ValueRange{}).getResult(0);
      b.setInsertionPointAfter(k.last);
      Value end = func::CallOp::create(b, loc, clock, ValueRange{}).getResult(0);
      Value elapsed = arith::SubIOp::create(b, loc, end, start);
      Value ns = memref::GetGlobalOp::create(b, loc, table, modelName + "_profile_ns");
      Value at = arith::ConstantIndexOp::create(b, loc, i);
      Value sum = arith::AddIOp::create(b, loc, memref::LoadOp::create(b, loc, ns, at), elapsed);
      memref::StoreOp::create(b, loc, sum, ns, at);
    }
  }
};

} // namespace
