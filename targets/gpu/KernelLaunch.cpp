// What a GPU kernel may bind, the view chains cloned into a launch to reach it, creating a
// launch and the coordinates inside it.
#include "targets/gpu/KernelLaunch.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

bool tlc::isBindingRoot(Value value) {
  if (isa<BlockArgument>(value))
    return true;
  return isa<memref::ViewOp, memref::GetGlobalOp>(value.getDefiningOp());
}

Value tlc::cloneViewChain(OpBuilder &b, Value value, IRMapping &map) {
  if (Value mapped = map.lookupOrNull(value))
    return mapped;
  Operation *def = value.getDefiningOp();
  if (!def || isBindingRoot(value))
    return value;
  if (!isa<ViewLikeOpInterface>(def) && !isa<arith::ConstantOp>(def))
    return value;
  for (Value operand : def->getOperands())
    cloneViewChain(b, operand, map);
  Operation *clone = b.clone(*def, map);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}

gpu::LaunchOp tlc::createKernelLaunch(OpBuilder &b, Location loc, std::array<int64_t, 3> grid,
                                      int64_t threads, TypeRange workgroup,
                                      FlatSymbolRefAttr module, FlatSymbolRefAttr kernel) {
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Value one = index(1);
  auto launch = gpu::LaunchOp::create(
      b, loc, index(grid[0]), index(grid[1]), index(grid[2]), index(threads), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{},
      workgroup, /*privateAttributions=*/{}, /*clusterSizeX=*/nullptr, /*clusterSizeY=*/nullptr,
      /*clusterSizeZ=*/nullptr, module, kernel);
  Block &body = launch.getBody().front();
  b.setInsertionPointToStart(&body);
  auto terminator = gpu::TerminatorOp::create(b, loc);
  b.setInsertionPoint(terminator);
  return launch;
}

std::optional<tlc::PointGrid> tlc::pointGrid(int64_t points, int64_t blockSize) {
  int64_t block = std::min<int64_t>(blockSize, llvm::alignTo(points, 32));
  int64_t groups = llvm::divideCeil(points, block);
  int64_t x = std::min(groups, kMaxGridDim);
  int64_t y = llvm::divideCeil(groups, x);
  if (y > kMaxGridDim)
    return std::nullopt;
  return PointGrid{points, block, x, y};
}

Value tlc::createPointLaunch(OpBuilder &b, Location loc, const PointGrid &grid,
                             FlatSymbolRefAttr module, FlatSymbolRefAttr kernel) {
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  auto launch = createKernelLaunch(b, loc, {grid.x, grid.y, 1}, grid.block, /*workgroup=*/{},
                                   module, kernel);
  Value group = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, launch.getBlockIds().y, index(grid.x)),
      launch.getBlockIds().x);
  Value linear = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, group, index(grid.block)), launch.getThreadIds().x);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, linear, index(grid.points));
  auto guard = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&guard.getThenRegion().front());
  return linear;
}

SmallVector<std::pair<unsigned, Value>> tlc::delinearize(OpBuilder &b, Location loc, Value linear,
                                                          ArrayRef<unsigned> dims,
                                                          ArrayRef<int64_t> ranges) {
  SmallVector<std::pair<unsigned, Value>> coords;
  for (auto [i, dim] : llvm::enumerate(llvm::reverse(dims))) {
    if (i + 1 == dims.size()) {
      coords.push_back({dim, linear});
      break;
    }
    Value extent = arith::ConstantIndexOp::create(b, loc, ranges[dim]);
    coords.push_back({dim, arith::RemUIOp::create(b, loc, linear, extent)});
    linear = arith::DivUIOp::create(b, loc, linear, extent);
  }
  return coords;
}

SmallVector<Value> tlc::indicesAt(OpBuilder &b, Location loc, AffineMap map,
                                  ArrayRef<Value> coords) {
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      indices.push_back(coords[dim.getPosition()]);
    else if (auto constant = dyn_cast<AffineConstantExpr>(e))
      indices.push_back(arith::ConstantIndexOp::create(b, loc, constant.getValue()));
    else
      indices.push_back(affine::expandAffineExpr(b, loc, e, coords, /*symbolValues=*/{}));
  }
  return indices;
}

Value tlc::KernelEmitterBase::index(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value tlc::KernelEmitterBase::add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }

Value tlc::KernelEmitterBase::mul(Value x, int64_t c) {
  return arith::MulIOp::create(b, loc, x, index(c));
}

Value tlc::KernelEmitterBase::below(Value x, int64_t bound) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, index(bound));
}

Value tlc::KernelEmitterBase::clampBelow(Value x, int64_t bound) {
  return arith::MinUIOp::create(b, loc, x, index(bound - 1));
}
