// Rematerialization planning against the real memory plan (see RematSearch.h).
#include "compiler/RematSearch.h"

#include "compiler/CopyRepeatedResults.h"
#include "compiler/MemoryReport.h"
#include "passes/Rematerialize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace tlc;

namespace {

std::vector<RematValue> readValues(DictionaryAttr record, StringRef name) {
  std::vector<RematValue> values;
  auto list = record.getAs<ArrayAttr>(name);
  if (!list)
    return values;
  for (auto entry : list.getAsRange<DictionaryAttr>()) {
    RematValue v;
    if (auto loc = entry.getAs<LocationAttr>("loc"))
      v.location = describeSource(Location(loc));
    if (auto type = entry.getAs<TypeAttr>("type")) {
      llvm::raw_string_ostream os(v.type);
      type.getValue().print(os);
    }
    if (auto bytes = entry.getAs<IntegerAttr>("bytes"))
      v.bytes = bytes.getInt();
    values.push_back(std::move(v));
  }
  return values;
}

int64_t field(DictionaryAttr record, StringRef name) {
  auto a = record.getAs<IntegerAttr>(name);
  return a ? a.getInt() : 0;
}

LogicalResult runPipeline(ModuleOp module, llvm::function_ref<void(OpPassManager &)> build) {
  PassManager pm(module->getContext());
  build(pm);
  pm.enableVerifier(false);
  return pm.run(module);
}

/// Compiles `module` (a copy) through memory planning with `policy`; fills `plan`.
LogicalResult tryPolicy(ModuleOp module, GraphOptions graph, const LoweringStrategy &strategy,
                        StringRef name, const std::string &policy, RematPlan &plan) {
  graph.remat = policy;
  if (failed(runPipeline(module, [&](OpPassManager &pm) { buildGraphPipeline(pm, graph); })))
    return failure();
  std::optional<RematPlan> record = takeRematRecord(module);
  plan = record ? *record : RematPlan{};
  plan.policy = policy;
  if (failed(runPipeline(module,
                         [&](OpPassManager &pm) { buildLowerToLinalgPipeline(pm, strategy); })))
    return failure();
  copyRepeatedResults(module);
  LoweringStrategy planning = strategy;
  planning.hostEntryPoint = false;
  if (failed(runPipeline(module, [&](OpPassManager &pm) {
        buildBufferizationPipeline(pm, {name.str()}, planning);
      })))
    return failure();
  auto size = module->getAttrOfType<IntegerAttr>("tlc.workspace_size");
  plan.workspace = size ? size.getInt() : 0;
  return success();
}

} // namespace

std::optional<RematPlan> tlc::takeRematRecord(ModuleOp module) {
  std::optional<RematPlan> plan;
  for (auto func : module.getOps<func::FuncOp>()) {
    auto record = func->getAttrOfType<DictionaryAttr>(kRematAttr);
    if (!record)
      continue;
    func->removeAttr(kRematAttr);
    if (!plan)
      plan.emplace();
    if (auto policy = record.getAs<StringAttr>("policy"))
      plan->policy = policy.str();
    plan->flops += field(record, "flops");
    plan->extraFlops += field(record, "extra_flops");
    plan->cutPoints += field(record, "cut_points");
    for (RematValue &v : readValues(record, "kept"))
      plan->kept.push_back(std::move(v));
    for (RematValue &v : readValues(record, "recomputed"))
      plan->recomputed.push_back(std::move(v));
  }
  return plan;
}

FailureOr<RematSearch> tlc::searchRematPolicies(ModuleOp module, GraphOptions graph,
                                                const LoweringStrategy &strategy, StringRef name,
                                                int64_t maxWorkspace, Location loc) {
  RematSearch search;
  auto trial = [&](const std::string &policy) -> LogicalResult {
    OwningOpRef<ModuleOp> copy = module.clone();
    RematPlan plan;
    if (failed(tryPolicy(*copy, graph, strategy, name, policy, plan)))
      return failure();
    search.tried.push_back(std::move(plan));
    return success();
  };
  if (failed(trial("none")))
    return failure();
  int64_t cutPoints = search.tried.front().cutPoints;
  if (failed(trial("cheap")))
    return failure();
  for (int64_t n : {2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256}) {
    if (n > cutPoints + 1)
      break;
    if (failed(trial("segments=" + std::to_string(n))))
      return failure();
  }
  auto better = [&](const RematPlan &a, const RematPlan &b) {
    if (maxWorkspace > 0)
      return a.extraFlops != b.extraFlops ? a.extraFlops < b.extraFlops
                                          : a.workspace < b.workspace;
    return a.workspace != b.workspace ? a.workspace < b.workspace : a.extraFlops < b.extraFlops;
  };
  size_t smallest = 0;
  for (size_t i = 0; i < search.tried.size(); ++i) {
    const RematPlan &p = search.tried[i];
    if (p.workspace < search.tried[smallest].workspace)
      smallest = i;
    if (maxWorkspace > 0 && p.workspace > maxWorkspace)
      continue;
    if (!search.chosen || better(p, search.tried[*search.chosen]))
      search.chosen = i;
  }
  if (!search.chosen) {
    const RematPlan &best = search.tried[smallest];
    return emitError(loc) << "no rematerialization plan fits the workspace in --max-workspace="
                          << maxWorkspace << " bytes: the smallest found needs "
                          << best.workspace << " bytes (--remat=" << best.policy
                          << "); without rematerialization it needs "
                          << search.tried.front().workspace << " bytes";
  }
  return search;
}
