// ONNX external data: tensors whose bytes live in files beside the model.
#include "ExternalData.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <memory>
#include <vector>

using namespace mlir;

namespace {

/// Every TensorProto of `graph`: initializers, sparse initializers' values and indices, and the
/// tensor attributes of its nodes, subgraphs included.
void collectTensors(onnx::GraphProto &graph, std::vector<onnx::TensorProto *> &out) {
  for (onnx::TensorProto &t : *graph.mutable_initializer())
    out.push_back(&t);
  for (onnx::SparseTensorProto &s : *graph.mutable_sparse_initializer()) {
    out.push_back(s.mutable_values());
    out.push_back(s.mutable_indices());
  }
  for (onnx::NodeProto &node : *graph.mutable_node())
    for (onnx::AttributeProto &attr : *node.mutable_attribute()) {
      if (attr.has_t())
        out.push_back(attr.mutable_t());
      for (onnx::TensorProto &t : *attr.mutable_tensors())
        out.push_back(&t);
      if (attr.has_g())
        collectTensors(*attr.mutable_g(), out);
      for (onnx::GraphProto &g : *attr.mutable_graphs())
        collectTensors(g, out);
    }
}

/// A relative path that stays inside its base folder (no root, no "..").
bool staysInside(llvm::StringRef location) {
  if (location.empty() || llvm::sys::path::is_absolute(location) ||
      llvm::sys::path::has_root_name(location))
    return false;
  for (llvm::StringRef part :
       llvm::make_range(llvm::sys::path::begin(location), llvm::sys::path::end(location)))
    if (part == "..")
      return false;
  return true;
}

} // namespace

namespace {
/// The set decodeTensor reads (ExternalBytes::Scope), per thread.
thread_local const tlc::onnx_import::ExternalBytes *inScope = nullptr;
} // namespace

tlc::onnx_import::ExternalBytes::Scope::Scope(const ExternalBytes &bytes) : previous(inScope) {
  inScope = &bytes;
}

tlc::onnx_import::ExternalBytes::Scope::~Scope() { inScope = previous; }

std::optional<llvm::StringRef>
tlc::onnx_import::ExternalBytes::lookup(const onnx::TensorProto &tensor) {
  if (!inScope || tensor.data_location() != onnx::TensorProto::EXTERNAL)
    return std::nullopt;
  auto it = inScope->tensors.find(&tensor);
  if (it == inScope->tensors.end())
    return std::nullopt;
  return it->second;
}

LogicalResult tlc::onnx_import::loadExternalData(onnx::ModelProto &model, llvm::StringRef modelDir,
                                                  Location fileLoc, ExternalBytes &bytes) {
  std::vector<onnx::TensorProto *> tensors;
  collectTensors(*model.mutable_graph(), tensors);
  llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> &files = bytes.files;
  for (onnx::TensorProto *t : tensors) {
    if (t->data_location() != onnx::TensorProto::EXTERNAL)
      continue;
    auto fail = [&](const llvm::Twine &what) {
      return emitError(fileLoc) << "external data of tensor '" << t->name() << "': " << what;
    };
    std::string location;
    uint64_t offset = 0, length = 0;
    bool hasLength = false;
    for (const onnx::StringStringEntryProto &entry : t->external_data()) {
      const std::string &key = entry.key(), &value = entry.value();
      if (key == "location") {
        location = value;
      } else if (key == "offset" || key == "length") {
        uint64_t v = 0;
        if (!llvm::to_integer(value, v, 10))
          return fail("'" + key + "' is not a byte count ('" + value + "')");
        (key == "offset" ? offset : length) = v;
        hasLength |= key == "length";
      }
    }
    if (location.empty())
      return fail("no 'location'");
    if (!staysInside(location))
      return fail("'" + location + "' is not a relative path inside the model's folder");
    llvm::SmallString<256> path(modelDir.empty() ? "." : modelDir);
    llvm::sys::path::append(path, location);
    std::unique_ptr<llvm::MemoryBuffer> &file = files[path];
    if (!file) {
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> read = llvm::MemoryBuffer::getFile(
          path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
      if (!read)
        return fail("cannot read '" + path + "': " + read.getError().message());
      file = std::move(*read);
    }
    uint64_t size = file->getBufferSize();
    if (!hasLength)
      length = offset <= size ? size - offset : 0;
    if (offset > size || length > size - offset)
      return fail("bytes " + llvm::Twine(offset) + " to " + llvm::Twine(offset + length) +
                  " are past the end of '" + path + "' (" + llvm::Twine(size) + " bytes)");
    bytes.tensors[t] = llvm::StringRef(file->getBufferStart() + offset, length);
  }
  return success();
}
