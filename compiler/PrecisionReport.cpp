// The precision report (tlc --report=precision): the probe's rows, run through tlc-run, printed.
#include "compiler/PrecisionReport.h"

#include "passes/PrecisionProbe.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace tlc;

std::vector<PrecisionRow> tlc::readPrecisionProbeRows(ModuleOp module) {
  std::vector<PrecisionRow> rows;
  for (auto func : module.getOps<func::FuncOp>()) {
    auto attr = func->getAttrOfType<ArrayAttr>(kPrecisionProbeAttr);
    if (!attr)
      continue;
    for (auto row : attr.getAsRange<DictionaryAttr>()) {
      PrecisionRow r;
      r.name = row.getAs<StringAttr>("name").str();
      r.op = row.getAs<StringAttr>("op").getValue().str();
      if (llvm::StringRef(r.op).starts_with("tl."))
        r.op = r.op.substr(3);
      r.output = row.getAs<StringAttr>("kind").getValue() == "output";
      rows.push_back(std::move(r));
    }
  }
  return rows;
}

namespace {

/// tlc-run beside this executable (a build tree's bin/ or an install's), else on PATH.
std::optional<std::string> findTLCRun() {
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::SmallString<256> candidate(llvm::sys::path::parent_path(exe));
  llvm::sys::path::append(candidate, "tlc-run");
  if (llvm::sys::fs::can_execute(candidate))
    return std::string(candidate);
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("tlc-run"))
    return *found;
  return std::nullopt;
}

/// The f32 data of a little-endian .npy file of `count` elements (the probe's table).
LogicalResult readTable(llvm::StringRef path, size_t count, std::vector<float> &values,
                        Location loc) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return emitError(loc) << "--report=precision: cannot read the probe's output '" << path
                          << "': " << file.getError().message();
  llvm::StringRef bytes = (*file)->getBuffer();
  if (bytes.size() < 10 || !bytes.starts_with("\x93NUMPY"))
    return emitError(loc) << "--report=precision: '" << path << "' is not a .npy file";
  size_t headerLength = static_cast<uint8_t>(bytes[8]) | static_cast<uint8_t>(bytes[9]) << 8;
  size_t offset = 10 + headerLength;
  if (bytes[6] != 1 || bytes.size() < offset ||
      !bytes.substr(10, headerLength).contains("'<f4'") ||
      bytes.size() - offset != count * sizeof(float))
    return emitError(loc) << "--report=precision: '" << path << "' is not the probe's " << count
                          << " f32 values";
  values.resize(count);
  std::memcpy(values.data(), bytes.data() + offset, count * sizeof(float));
  return success();
}

double relative(double error, double reference) {
  return reference > 0 ? error / reference : error;
}

const char *precisionName(Precision p) {
  return p == Precision::F16 ? "fp16" : p == Precision::BF16 ? "bf16" : "fp32";
}

/// Layers by local relative error, worst first.
std::vector<const PrecisionRow *> worstLayers(const PrecisionReport &report, size_t limit) {
  std::vector<const PrecisionRow *> layers;
  for (const PrecisionRow &r : report.rows)
    if (!r.output)
      layers.push_back(&r);
  // Ties keep graph order (the rows are in it).
  std::sort(layers.begin(), layers.end(), [](const PrecisionRow *a, const PrecisionRow *b) {
    double ra = relative(a->local, a->reference), rb = relative(b->local, b->reference);
    return ra != rb ? ra > rb : a < b;
  });
  if (layers.size() > limit)
    layers.resize(limit);
  return layers;
}

} // namespace

LogicalResult tlc::runPrecisionProbe(llvm::StringRef libraryPath, llvm::StringRef workDir,
                                     PrecisionReport &report, Location loc) {
  std::optional<std::string> tlcRun = findTLCRun();
  if (!tlcRun)
    return emitError(loc) << "--report=precision runs the model with tlc-run, which is neither "
                             "next to tlc nor on PATH";
  std::string seed = std::to_string(report.seed);
  std::vector<std::string> storage = {*tlcRun,       libraryPath.str(), "--seed", seed,
                                      "--quiet",      "--save-outputs",  workDir.str()};
  for (const std::string &input : report.inputs)
    storage.push_back("--input=" + input);
  llvm::SmallVector<llvm::StringRef> args(storage.begin(), storage.end());
  llvm::SmallString<256> log(workDir);
  llvm::sys::path::append(log, "tlc-run.log");
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log),
                                                llvm::StringRef(log)};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*tlcRun, args, std::nullopt, redirects, 0, 0, &message);
  if (rc != 0) {
    std::string output;
    if (auto text = llvm::MemoryBuffer::getFile(log))
      output = (*text)->getBuffer().trim().str();
    InFlightDiagnostic diag = emitError(loc) << "--report=precision: running the probe failed (";
    if (rc < 0)
      diag << "tlc-run: " << message;
    else
      diag << "tlc-run exited with " << rc;
    diag << (output.empty() ? "" : ": ") << output << ")";
    if (rc < 0 || output.find("status 4") != std::string::npos)
      diag << "; the probe runs on this machine, so compile the report for a --cpu it has";
    return diag;
  }
  llvm::SmallString<256> table(workDir);
  llvm::sys::path::append(table, std::string(kPrecisionProbeResult) + ".npy");
  std::vector<float> values;
  if (failed(readTable(table, report.rows.size() * 3, values, loc)))
    return failure();
  for (auto [i, row] : llvm::enumerate(report.rows)) {
    row.local = values[3 * i];
    row.accumulated = values[3 * i + 1];
    row.reference = values[3 * i + 2];
  }
  return success();
}

void tlc::printPrecisionReport(const PrecisionReport &report, ReportFormat format,
                               llvm::raw_ostream &os) {
  const char *low = precisionName(report.precision);
  std::vector<const PrecisionRow *> worst = worstLayers(report, 3);
  if (format == ReportFormat::JSON) {
    llvm::json::OStream j(os, 2);
    auto error = [&](llvm::StringRef key, double abs, double reference) {
      j.attributeObject(key, [&] {
        j.attribute("max_abs", abs);
        j.attribute("relative", relative(abs, reference));
      });
    };
    j.object([&] {
      j.attribute("precision", low);
      j.attribute("reference", "fp32");
      j.attribute("seed", static_cast<int64_t>(report.seed));
      j.attributeArray("inputs", [&] {
        for (const std::string &input : report.inputs)
          j.value(input);
      });
      j.attributeArray("outputs", [&] {
        for (const PrecisionRow &r : report.rows)
          if (r.output)
            j.object([&] {
              j.attribute("name", r.name);
              j.attribute("max_abs_reference", r.reference);
              error("error", r.accumulated, r.reference);
            });
      });
      j.attributeArray("layers", [&] {
        for (const PrecisionRow &r : report.rows)
          if (!r.output)
            j.object([&] {
              j.attribute("name", r.name);
              j.attribute("op", r.op);
              j.attribute("max_abs_reference", r.reference);
              error("local", r.local, r.reference);
              error("accumulated", r.accumulated, r.reference);
            });
      });
      j.attributeArray("worst", [&] {
        for (const PrecisionRow *r : worst)
          j.value(r->name);
      });
    });
    os << "\n";
    return;
  }
  os << "precision report: " << low << " against fp32, on ";
  if (report.inputs.empty())
    os << "seeded random inputs (--report-seed=" << report.seed << ")\n";
  else
    os << "given inputs (" << report.inputs.size()
       << (report.inputs.size() == 1 ? " file" : " files")
       << "; any further input seeded, --report-seed=" << report.seed << ")\n";
  os << "relative = max |" << low << " - fp32| / max |fp32| over the tensor; local: the op "
        "alone in "
     << low << " on the fp32 run's operands; accumulated: the whole " << low
     << " run up to that value\n\n";
  int width = 24;
  for (const PrecisionRow &r : report.rows)
    width = std::max<int>(width, r.name.size());
  os << llvm::format("%-*s %12s %12s\n", width, "output", "relative", "max |fp32|");
  for (const PrecisionRow &r : report.rows)
    if (r.output)
      os << llvm::format("%-*s %12.3e %12.3e\n", width, r.name.c_str(),
                         relative(r.accumulated, r.reference), r.reference);
  size_t layers = llvm::count_if(report.rows, [](const PrecisionRow &r) { return !r.output; });
  os << "\n" << layers << " ops in " << low << " (graph order)\n";
  if (layers) {
    os << llvm::format("%-*s %-8s %12s %12s %12s\n", width, "name", "op", "local",
                       "accumulated", "max |fp32|");
    for (const PrecisionRow &r : report.rows)
      if (!r.output)
        os << llvm::format("%-*s %-8s %12.3e %12.3e %12.3e\n", width, r.name.c_str(),
                           r.op.c_str(),
                           relative(r.local, r.reference), relative(r.accumulated, r.reference),
                           r.reference);
    os << "\nworst by local error:";
    for (const PrecisionRow *r : worst)
      os << llvm::format(" %s (%.2e)", r->name.c_str(), relative(r->local, r->reference));
    os << "\nto keep one in fp32: --keep-fp32=" << worst.front()->name << "\n";
  }
}
