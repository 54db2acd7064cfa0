// libFuzzer harness: the ONNX loader, validation layer and importer (tlc::importOnnxModel) on
// arbitrary bytes, with a structure-aware mutator that edits parsed models.
#include "FuzzModule.h"
#include "OnnxMutator.h"
#include "compiler/onnx/OnnxImporter.h"

#include <cstring>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tlcfuzz::FuzzContext fuzz;
  // A 16th of tlc's budget of expanded control-flow nodes: the same paths, and nested loops
  // that exhaust it take ~1 s in the release tlc but past the 20 s timeout under ASan.
  tlc::OnnxImportOptions options;
  options.maxExpandedNodes = int64_t(1) << 14;
  // Both paths of QDQ convolutions (float, and --int8-contractions), by the input's length.
  options.int8Contractions = size % 2 == 1;
  mlir::OwningOpRef<mlir::ModuleOp> module = tlc::importOnnxModel(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz.onnx", &fuzz.context,
      "main", options);
  tlcfuzz::checkAccepted(module);
  return 0;
}

/// Mostly structured edits of a model that parses; byte-level mutation otherwise and one time
/// in four (the protobuf parser and the loader deserve bad bytes too).
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize,
                                          unsigned int seed) {
  std::mt19937_64 rng(seed);
  onnx::ModelProto model;
  if (rng() % 4 == 0 || !model.ParseFromArray(data, static_cast<int>(size)) ||
      !model.has_graph())
    return LLVMFuzzerMutate(data, size, maxSize);
  tlcfuzz::mutateModel(model, rng);
  std::string bytes;
  if (!model.SerializeToString(&bytes) || bytes.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, bytes.data(), bytes.size());
  return bytes.size();
}
