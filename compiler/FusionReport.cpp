// The fusion report (tlc --report=fusion): groups read from the module after lowering to linalg.
#include "compiler/FusionReport.h"

#include "passes/FusionPolicy.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tlc;

namespace {

std::string stringField(DictionaryAttr dict, StringRef name) {
  auto attr = dict.getAs<StringAttr>(name);
  return attr ? attr.str() : "";
}

/// Ops of a function body that become loop nests of their own (fills are part of the
/// contraction they initialize).
bool formsLoopNest(Operation &op) {
  if (isa<linalg::FillOp>(op))
    return false;
  return isa<linalg::LinalgOp, scf::ForallOp, scf::ForOp>(op);
}

} // namespace

std::vector<FunctionFusionReport> tlc::readFusionGroups(ModuleOp module) {
  std::vector<FunctionFusionReport> reports;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isDeclaration())
      continue;
    FunctionFusionReport r;
    r.function = func.getName().str();
    for (Operation &op : func.getBody().getOps()) {
      if (!formsLoopNest(op))
        continue;
      FusionGroupReport g;
      if (auto group = op.getAttrOfType<DictionaryAttr>(fusion::kGroupAttr)) {
        g.kind = stringField(group, "kind");
        g.reason = stringField(group, "reason");
        if (auto ops = group.getAs<ArrayAttr>("ops"))
          for (auto loc : ops.getAsRange<LocationAttr>())
            g.ops.push_back(describeLocation(Location(loc)));
        r.groups.push_back(std::move(g));
        continue;
      }
      g.kind = "single";
      g.ops.push_back(describeLocation(op.getLoc()));
      auto note = op.getAttrOfType<StringAttr>(fusion::kUnfusedAttr);
      g.reason = note ? note.str() : fusion::describeSingleOp(&op);
      r.unfused.push_back(std::move(g));
    }
    reports.push_back(std::move(r));
  }
  return reports;
}

void tlc::printFusionReport(llvm::ArrayRef<FunctionFusionReport> reports, ReportFormat format,
                            llvm::raw_ostream &os) {
  auto joined = [](const std::vector<std::string> &ops) {
    std::string text;
    for (const std::string &op : ops)
      text += (text.empty() ? "" : ", ") + (op.empty() ? std::string("?") : op);
    return text;
  };
  if (format == ReportFormat::JSON) {
    auto groupObject = [](llvm::json::OStream &j, const FusionGroupReport &g) {
      j.object([&] {
        j.attribute("kind", g.kind);
        j.attributeArray("ops", [&] {
          for (const std::string &op : g.ops)
            j.value(op);
        });
        j.attribute("reason", g.reason);
      });
    };
    llvm::json::OStream j(os, 2);
    j.object([&] {
      j.attributeArray("functions", [&] {
        for (const FunctionFusionReport &r : reports)
          j.object([&] {
            j.attribute("function", r.function);
            j.attributeArray("groups", [&] {
              for (const FusionGroupReport &g : r.groups)
                groupObject(j, g);
            });
            j.attributeArray("unfused", [&] {
              for (const FusionGroupReport &g : r.unfused)
                groupObject(j, g);
            });
          });
      });
    });
    os << "\n";
    return;
  }
  for (const FunctionFusionReport &r : reports) {
    os << "fusion of " << r.function << ": " << r.groups.size() << " fused groups, "
       << r.unfused.size() << " ops on their own\n";
    for (auto [i, g] : llvm::enumerate(r.groups))
      os << llvm::formatv("  group {0} [{1}] {2}\n    why: {3}\n", i, g.kind, joined(g.ops),
                          g.reason);
    for (const FusionGroupReport &g : r.unfused)
      os << llvm::formatv("  alone {0}\n    why: {1}\n", joined(g.ops), g.reason);
  }
}
