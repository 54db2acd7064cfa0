// The memory-plan report (tlc --report=memory): read from the planned module, printed.
#include "compiler/MemoryReport.h"
#include "compiler/FusionReport.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace tlc;

namespace {
int64_t intField(DictionaryAttr dict, llvm::StringRef name, int64_t otherwise = 0) {
  auto attr = dict.getAs<IntegerAttr>(name);
  return attr ? attr.getInt() : otherwise;
}

std::string percent(int64_t part, int64_t whole) {
  return whole ? llvm::formatv("{0:F1}%", 100.0 * part / whole).str() : "-";
}

/// Bytes, with MiB from 1 MiB on.
std::string bytes(int64_t n) {
  if (n >= (int64_t(1) << 20))
    return llvm::formatv("{0} B ({1:F1} MiB)", n, n / 1048576.0).str();
  return llvm::formatv("{0} B", n).str();
}
} // namespace

std::string tlc::describeSource(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string s = describeSource(inner); !s.empty())
        return s;
  return describeLocation(loc);
}

std::vector<FunctionMemoryReport> tlc::readMemoryPlan(ModuleOp module) {
  std::vector<FunctionMemoryReport> reports;
  auto plans = module->getAttrOfType<ArrayAttr>("tlc.memory_plan");
  if (!plans)
    return reports;
  for (auto plan : plans.getAsRange<DictionaryAttr>()) {
    FunctionMemoryReport r;
    if (auto name = plan.getAs<StringAttr>("function"))
      r.function = name.str();
    r.arenaSize = intField(plan, "arena_size");
    r.naiveSize = intField(plan, "naive_size");
    r.lowerBound = intField(plan, "lower_bound");
    r.programPoints = intField(plan, "program_points");
    r.scratchSize = intField(plan, "scratch_size");
    if (auto buffers = plan.getAs<ArrayAttr>("buffers"))
      for (auto b : buffers.getAsRange<DictionaryAttr>()) {
        BufferReport br;
        br.offset = intField(b, "offset");
        br.size = intField(b, "size");
        br.start = intField(b, "start");
        br.end = intField(b, "end");
        br.inPlaceOf = intField(b, "in_place_of", -1);
        if (auto type = b.getAs<TypeAttr>("type")) {
          llvm::raw_string_ostream os(br.type);
          type.getValue().print(os);
        }
        if (auto loc = b.getAs<LocationAttr>("loc"))
          br.location = describeSource(Location(loc));
        r.buffers.push_back(std::move(br));
      }
    reports.push_back(std::move(r));
  }
  return reports;
}

void tlc::printMemoryReport(llvm::ArrayRef<FunctionMemoryReport> reports, ReportFormat format,
                            llvm::raw_ostream &os, const RematPlan *remat,
                            const RematSearch *search) {
  if (format == ReportFormat::JSON) {
    llvm::json::OStream j(os, 2);
    j.object([&] {
      j.attributeArray("functions", [&] {
        for (const FunctionMemoryReport &r : reports)
          j.object([&] {
            j.attribute("function", r.function);
            j.attribute("arena_bytes", r.arenaSize);
            j.attribute("naive_bytes", r.naiveSize);
            j.attribute("lower_bound_bytes", r.lowerBound);
            j.attribute("program_points", r.programPoints);
            if (r.scratchSize > 0)
              j.attribute("gpu_scratch_bytes", r.scratchSize);
            j.attributeArray("buffers", [&] {
              for (const BufferReport &b : r.buffers)
                j.object([&] {
                  j.attribute("offset", b.offset);
                  j.attribute("size", b.size);
                  j.attribute("live_start", b.start);
                  j.attribute("live_end", b.end);
                  j.attribute("type", b.type);
                  j.attribute("location", b.location);
                  if (b.inPlaceOf >= 0)
                    j.attribute("in_place_of", b.inPlaceOf);
                });
            });
          });
      });
      if (remat)
        writeRematJSON(*remat, search, j);
    });
    os << "\n";
    return;
  }
  for (const FunctionMemoryReport &r : reports) {
    os << "memory plan of " << r.function << ": arena " << r.arenaSize << " B, naive sum "
       << r.naiveSize << " B (arena is " << percent(r.arenaSize, r.naiveSize)
       << "), lower bound " << r.lowerBound << " B (arena is "
       << percent(r.arenaSize, r.lowerBound) << "), " << r.buffers.size() << " buffers over "
       << r.programPoints << " ops\n";
    if (r.scratchSize > 0)
      os << "  plus " << r.scratchSize
         << " B past the arena for GPU kernels' partial sums (contractions with k split over "
            "workgroups)\n";
    if (r.buffers.empty())
      continue;
    os << llvm::formatv("  {0,3}  {1,10}  {2,10}  {3,-11}  {4,-28}  {5}\n", "#", "offset",
                        "size", "live", "type", "source");
    for (auto [i, b] : llvm::enumerate(r.buffers)) {
      std::string live = llvm::formatv("[{0}, {1}]", b.start, b.end).str();
      std::string source = b.location;
      if (b.inPlaceOf >= 0)
        source += llvm::formatv(" (in place of #{0})", b.inPlaceOf).str();
      os << llvm::formatv("  {0,3}  {1,10}  {2,10}  {3,-11}  {4,-28}  {5}\n", i, b.offset, b.size,
                          live, b.type, source);
    }
  }
  if (remat)
    printRematReport(*remat, search, os);
}

void tlc::printRematReport(const RematPlan &plan, const RematSearch *search,
                           llvm::raw_ostream &os) {
  int64_t keptBytes = 0, recomputedBytes = 0;
  for (const RematValue &v : plan.kept)
    keptBytes += v.bytes;
  for (const RematValue &v : plan.recomputed)
    recomputedBytes += v.bytes;
  os << "rematerialization: --remat=" << plan.policy << ", " << plan.extraFlops
     << " extra FLOPs (" << percent(plan.extraFlops, plan.flops) << " of the step's "
     << plan.flops << ")\n";
  if (search) {
    os << llvm::formatv("  {0,-14}  {1,14}  {2,16}\n", "policy", "workspace (B)", "extra FLOPs");
    for (auto [i, p] : llvm::enumerate(search->tried))
      os << llvm::formatv("{0} {1,-14}  {2,14}  {3,16}\n",
                          search->chosen && *search->chosen == i ? "*" : " ", p.policy,
                          p.workspace, p.extraFlops);
  }
  os << "  kept for the backward pass: " << plan.kept.size() << " values, " << bytes(keptBytes)
     << "\n";
  for (const RematValue &v : plan.kept)
    os << llvm::formatv("    {0,-28}  {1,12}  {2}\n", v.type, v.bytes, v.location);
  os << "  recomputed for the backward pass: " << plan.recomputed.size() << " values, "
     << bytes(recomputedBytes) << "\n";
  for (const RematValue &v : plan.recomputed)
    os << llvm::formatv("    {0,-28}  {1,12}  {2}\n", v.type, v.bytes, v.location);
}

void tlc::writeRematJSON(const RematPlan &plan, const RematSearch *search,
                         llvm::json::OStream &j) {
  auto values = [&](StringRef name, const std::vector<RematValue> &list) {
    j.attributeArray(name, [&] {
      for (const RematValue &v : list)
        j.object([&] {
          j.attribute("type", v.type);
          j.attribute("bytes", v.bytes);
          j.attribute("location", v.location);
        });
    });
  };
  j.attributeObject("rematerialization", [&] {
    j.attribute("policy", plan.policy);
    j.attribute("flops", plan.flops);
    j.attribute("extra_flops", plan.extraFlops);
    values("kept", plan.kept);
    values("recomputed", plan.recomputed);
    if (search)
      j.attributeArray("tried", [&] {
        for (auto [i, p] : llvm::enumerate(search->tried))
          j.object([&] {
            j.attribute("policy", p.policy);
            j.attribute("workspace_bytes", p.workspace);
            j.attribute("extra_flops", p.extraFlops);
            j.attribute("chosen", search->chosen && *search->chosen == i);
          });
      });
  });
}
