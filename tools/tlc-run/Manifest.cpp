// The model manifest NAME_manifest (docs/generated-abi.md) as tlc-run reads it.
#include "Manifest.h"

#include "compiler/manifest/tlc_manifest_generated.h"

#include "llvm/ADT/StringExtras.h"

#include <cstring>

using namespace tlcrun;
namespace mf = tlc::manifest;

// The schema numbers DType as tlc_dtype, and so does tlc-run.
static_assert(int(mf::DType::F32) == int(DType::F32) && int(mf::DType::I1) == int(DType::I1) &&
                  int(mf::DType::U16) == int(DType::U16) &&
                  int(mf::DType::MAX) == int(DType::U32),
              "tlc_manifest.fbs's DType and tlc-run's DType differ");

bool tlcrun::hasManifestIdentifier(const void *data, size_t size) {
  return size >= 12 && mf::SizePrefixedModelBufferHasIdentifier(data);
}

namespace {

bool readTensor(const mf::Tensor &in, const std::string &what, Tensor &out, std::string &error) {
  out.name = in.name()->str();
  if (in.dtype() > mf::DType::MAX) {
    error = what + " '" + out.name + "' has dtype " + std::to_string(int(in.dtype())) +
            ", which this tlc-run does not know";
    return false;
  }
  out.dtype = DType(in.dtype());
  out.shape.assign(in.shape()->begin(), in.shape()->end());
  int64_t numel;
  return checkedNumel(out.shape, what + " '" + out.name + "'", numel, error);
}

bool readTensors(const flatbuffers::Vector<flatbuffers::Offset<mf::Tensor>> &in,
                 const std::string &what, std::vector<Tensor> &out, std::string &error) {
  for (const mf::Tensor *t : in) {
    out.emplace_back();
    if (!readTensor(*t, what, out.back(), error))
      return false;
  }
  return true;
}

/// (An empty vector has no element to misalign, and FlatBufferBuilder does not align it.)
template <typename T> bool misaligned(const flatbuffers::Vector<T> *v) {
  return v && v->size() && reinterpret_cast<uintptr_t>(v->Data()) % alignof(T) != 0;
}

bool hasMisalignedShape(const flatbuffers::Vector<flatbuffers::Offset<mf::Tensor>> *tensors) {
  if (tensors)
    for (const mf::Tensor *t : *tensors)
      if (misaligned(t->shape()))
        return true;
  return false;
}

/// FlatBuffers 2.0.8's verifier checks where a vector's length lies, not its elements'
/// alignment (later versions do): the schema's vectors of 8-byte scalars and structs are
/// checked here, before anything reads them (found by fuzz-manifest).
bool hasMisalignedVector(const mf::Model &model) {
  if (hasMisalignedShape(model.inputs()) || hasMisalignedShape(model.outputs()) ||
      (model.train() && hasMisalignedShape(model.train()->tensors())))
    return true;
  if (const auto *kernels = model.kernels())
    for (const mf::Kernel *k : *kernels)
      if (misaligned(k->args()))
        return true;
  return false;
}

std::string str(const flatbuffers::String *s) { return s ? s->str() : std::string(); }

std::string dims(const mf::Dim3 &d) {
  return std::to_string(d.x()) + "x" + std::to_string(d.y()) + "x" + std::to_string(d.z());
}

} // namespace

bool tlcrun::readManifest(const void *data, size_t size, Manifest &m, std::string &error) {
  // The verifier checks alignment relative to the buffer's start: the start must be aligned.
  if (reinterpret_cast<uintptr_t>(data) % 8 != 0) {
    error = "is not 8-byte aligned";
    return false;
  }
  flatbuffers::Verifier verifier(static_cast<const uint8_t *>(data), size);
  if (!mf::VerifySizePrefixedModelBuffer(verifier)) {
    error = "fails FlatBuffers verification";
    return false;
  }
  const mf::Model *model = mf::GetSizePrefixedModel(data);
  if (hasMisalignedVector(*model)) {
    error = "fails FlatBuffers verification (a misaligned vector)";
    return false;
  }
  if (model->version() != 1) {
    error = "has version " + std::to_string(model->version()) + " (this tlc-run reads version 1)";
    return false;
  }
  m.model = model;
  m.name = model->name()->str();
  if (model->workspace_size() < 0) {
    error = "has a negative workspace size";
    return false;
  }
  m.workspace = model->workspace_size();
  if (!readTensors(*model->inputs(), "input", m.inputs, error) ||
      !readTensors(*model->outputs(), "output", m.outputs, error))
    return false;
  if (const auto *cpus = model->cpu_variants())
    for (const flatbuffers::String *cpu : *cpus)
      m.cpus.push_back(cpu->str());
  return true;
}

void tlcrun::printSignature(const Manifest &m, llvm::raw_ostream &os) {
  os << "model " << m.name << "\n";
  for (const Tensor &t : m.inputs)
    os << "  input  " << t.name << ": " << dtypeName(t.dtype) << "[" << t.shapeString() << "]\n";
  for (const Tensor &t : m.outputs)
    os << "  output " << t.name << ": " << dtypeName(t.dtype) << "[" << t.shapeString() << "]\n";
  os << "  workspace " << m.workspace << " bytes\n";
  if (!m.cpus.empty())
    os << "  cpu variants " << llvm::join(m.cpus, " ") << " (chosen at run time)\n";
}

void tlcrun::printManifest(const Manifest &m, llvm::raw_ostream &os) {
  const mf::Model &model = *m.model;
  printSignature(m, os);
  const mf::Target &target = *model.target();
  os << "  target " << target.name()->str();
  if (!str(target.cpu()).empty())
    os << " cpu " << target.cpu()->str();
  if (!str(target.gpu()).empty())
    os << " gpu " << target.gpu()->str();
  os << " (compiled by tlc " << str(model.tlc_version()) << " from " << str(model.source())
     << ")\n";
  if (const auto *options = model.options()) {
    os << "  options";
    for (const mf::Option *o : *options) {
      // As on tlc's command line: -O3, --target=x86_64, --train.
      std::string name = o->name()->str(), value = str(o->value());
      os << (name.size() == 1 ? " -" + name + value
                              : " --" + name + (value.empty() ? "" : "=" + value));
    }
    os << "\n";
  }
  if (model.profiled())
    os << "  profiled (NAME_profile_* tables)\n";
  if (const mf::TrainState *train = model.train()) {
    os << "  training state " << train->size() << " bytes (lr: input " << train->lr_input()
       << ", step: input " << train->step_input() << ")\n";
    for (const mf::Tensor *t : *train->tensors()) {
      Tensor state;
      std::string error;
      os << "    " << t->name()->str() << " at " << t->offset() << ": ";
      if (readTensor(*t, "state", state, error))
        os << dtypeName(state.dtype) << "[" << state.shapeString() << "]\n";
      else
        os << "(" << error << ")\n";
    }
  }
  if (const auto *plans = model.memory_plan())
    for (const mf::MemoryPlan *plan : *plans) {
      size_t buffers = plan->buffers() ? plan->buffers()->size() : 0;
      os << "  memory plan of " << plan->function()->str() << ": arena " << plan->arena_size()
         << " bytes (naive " << plan->naive_size() << ", lower bound " << plan->lower_bound()
         << "), " << buffers << " buffers";
      if (plan->scratch_size())
        os << ", scratch " << plan->scratch_size() << " bytes";
      os << "\n";
      for (size_t i = 0; i < buffers; ++i) {
        const mf::Buffer *b = plan->buffers()->Get(i);
        os << "    [" << b->offset() << ", " << uint64_t(b->offset()) + uint64_t(b->size()) << ") "
           << str(b->type()) << "\n";
      }
    }
  if (const auto *kernels = model.kernels()) {
    os << "  kernels " << kernels->size() << "\n";
    for (const mf::Kernel *k : *kernels) {
      os << "    " << k->name()->str() << ": grid " << dims(*k->grid()) << ", block "
         << dims(*k->block());
      if (k->dynamic_shared_bytes())
        os << ", dynamic shared memory " << k->dynamic_shared_bytes() << " bytes";
      os << "\n";
      for (const mf::KernelArg *a : *k->args()) {
        const char *kind = mf::EnumNameArgKind(a->kind());
        os << "      "
           << (*kind ? llvm::StringRef(kind).lower()
                     : "kind " + std::to_string(uint32_t(a->kind())));
        if (a->kind() != mf::ArgKind::Workspace)
          os << " " << a->index();
        os << " bytes [" << a->offset() << ", " << a->offset() + a->size() << ")\n";
      }
    }
  }
}
