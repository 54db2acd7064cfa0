// The model manifest (see Manifest.h and compiler/manifest/tlc_manifest.fbs).
#include "compiler/Manifest.h"
#include "compiler/manifest/tlc_manifest_generated.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace tlc;
namespace fb = flatbuffers;
namespace mf = tlc::manifest;

namespace {

mf::DType dtypeOf(mlir::Type elementType, bool isUnsigned = false) {
  // cTypeOf's macro is TLC_DTYPE_<NAME>; the schema numbers DType as tlc_dtype.
  llvm::StringRef name =
      cTypeOf(elementType, isUnsigned).second.drop_front(strlen("TLC_DTYPE_"));
  for (mf::DType d : mf::EnumValuesDType())
    if (name == mf::EnumNameDType(d))
      return d;
  llvm_unreachable("the signature carries only C ABI element types");
}

class Builder {
public:
  explicit Builder(const ManifestContents &c) : c(c) {}

  std::string build() {
    const ModelSignature &sig = c.signature;
    auto name = fbb.CreateString(sig.name);
    auto version = fbb.CreateString(kTLCVersion.str());
    auto source = fbb.CreateString(llvm::sys::path::filename(c.options.inputPath).str());
    auto target = buildTarget();
    auto inputs = tensors(sig.inputs);
    auto outputs = tensors(sig.outputs);
    auto cpus = fbb.CreateVectorOfStrings(c.cpuVariants.begin(), c.cpuVariants.end());
    auto plans = memoryPlans();
    auto options = buildOptions();
    fb::Offset<fb::Vector<fb::Offset<mf::Kernel>>> kernels;
    if (c.target.getGPUBackend())
      kernels = buildKernels();
    fb::Offset<mf::TrainState> train;
    if (sig.train)
      train = trainState(*sig.train);
    mf::ModelBuilder model(fbb);
    model.add_name(name);
    model.add_tlc_version(version);
    model.add_source(source);
    model.add_target(target);
    model.add_inputs(inputs);
    model.add_outputs(outputs);
    model.add_workspace_size(sig.workspaceSize);
    model.add_cpu_variants(cpus);
    model.add_memory_plan(plans);
    model.add_options(options);
    model.add_kernels(kernels);
    model.add_train(train);
    model.add_profiled(sig.profiled);
    mf::FinishSizePrefixedModelBuffer(fbb, model.Finish());
    return std::string(reinterpret_cast<const char *>(fbb.GetBufferPointer()), fbb.GetSize());
  }

private:
  fb::Offset<mf::Tensor> tensor(llvm::StringRef name, mlir::RankedTensorType type,
                                int64_t offset = 0, bool isUnsigned = false) {
    auto n = fbb.CreateString(name.str());
    auto shape = fbb.CreateVector(type.getShape().data(), type.getShape().size());
    return mf::CreateTensor(fbb, n, dtypeOf(type.getElementType(), isUnsigned), shape, offset);
  }

  fb::Offset<fb::Vector<fb::Offset<mf::Tensor>>> tensors(llvm::ArrayRef<TensorSpec> specs) {
    std::vector<fb::Offset<mf::Tensor>> result;
    for (const TensorSpec &t : specs)
      result.push_back(tensor(t.name, t.type, 0, t.isUnsigned));
    return fbb.CreateVector(result);
  }

  fb::Offset<mf::Target> buildTarget() {
    auto name = fbb.CreateString(c.target.getName().str());
    auto cpu = fbb.CreateString(c.options.cpu);
    auto gpu = fbb.CreateString(c.options.gpu);
    // tlc_gpu_backend numbers CUDA, Vulkan and Metal from 1, as the schema's Backend does.
    return mf::CreateTarget(fbb, name, mf::Backend(c.target.getGPUBackend()), cpu, gpu);
  }

  fb::Offset<fb::Vector<fb::Offset<mf::MemoryPlan>>> memoryPlans() {
    std::vector<fb::Offset<mf::MemoryPlan>> plans;
    for (const FunctionMemoryReport &plan : c.memoryPlan) {
      std::vector<fb::Offset<mf::Buffer>> buffers;
      for (const BufferReport &b : plan.buffers)
        buffers.push_back(mf::CreateBuffer(fbb, b.offset, b.size, fbb.CreateString(b.type)));
      plans.push_back(mf::CreateMemoryPlanDirect(fbb, plan.function.c_str(), plan.arenaSize,
                                                 plan.naiveSize, plan.lowerBound, plan.scratchSize,
                                                 &buffers));
    }
    return fbb.CreateVector(plans);
  }

  /// The options that shape the code, as flags; inputs named by file name only (no paths).
  fb::Offset<fb::Vector<fb::Offset<mf::Option>>> buildOptions() {
    const CompileOptions &o = c.options;
    std::vector<std::pair<std::string, std::string>> flags;
    auto add = [&](llvm::StringRef name, const llvm::Twine &value) {
      flags.emplace_back(name.str(), value.str());
    };
    add("target", o.target);
    if (!o.cpu.empty())
      add("cpu", o.cpu);
    if (!o.gpu.empty())
      add("gpu", o.gpu);
    add("O", llvm::Twine(o.optLevel));
    static const char *precisions[] = {"fp32", "bf16", "fp16", "auto"};
    add("precision", precisions[static_cast<int>(o.precision)]);
    if (!o.keepFP32.empty())
      add("keep-fp32", llvm::join(o.keepFP32, ","));
    static const char *einsumPaths[] = {"optimal", "greedy", "none"};
    add("einsum-path", einsumPaths[static_cast<int>(o.einsumPath)]);
    for (const auto &[input, dims] : o.onnx.inputShapes) {
      std::string shape;
      llvm::raw_string_ostream os(shape);
      llvm::interleave(dims, os, "x");
      add("input-shape", input + "=" + shape);
    }
    for (const auto &[input, file] : o.onnx.constantInputs)
      add("constant-input", input + "=" + llvm::sys::path::filename(file));
    if (o.train) {
      add("train", "");
      add("loss", o.trainOptions.loss);
      add("optimizer", o.trainOptions.optimizer);
      if (!o.trainOptions.freeze.empty())
        add("freeze", llvm::join(o.trainOptions.freeze, ","));
    }
    if (!o.remat.empty())
      add("remat", o.remat);
    if (o.maxWorkspace > 0)
      add("max-workspace", llvm::Twine(o.maxWorkspace));
    if (o.profile)
      add("profile", "");
    std::vector<fb::Offset<mf::Option>> result;
    for (const auto &[name, value] : flags)
      result.push_back(mf::CreateOptionDirect(fbb, name.c_str(), value.c_str()));
    return fbb.CreateVector(result);
  }

  fb::Offset<fb::Vector<fb::Offset<mf::Kernel>>> buildKernels() {
    std::vector<fb::Offset<mf::Kernel>> kernels;
    for (const GPUKernelLaunch &k : c.kernels) {
      std::vector<mf::KernelArg> args;
      for (const GPUBinding &b : k.args)
        args.emplace_back(mf::ArgKind(b.kind), b.index, b.offset, b.size);
      mf::Dim3 grid(k.grid[0], k.grid[1], k.grid[2]), block(k.block[0], k.block[1], k.block[2]);
      // The host object launches every kernel without dynamic shared memory (HostObject.cpp).
      kernels.push_back(mf::CreateKernelDirect(fbb, k.name.c_str(), &grid, &block,
                                               /*dynamic_shared_bytes=*/0, &args));
    }
    return fbb.CreateVector(kernels);
  }

  fb::Offset<mf::TrainState> trainState(const TrainSpec &train) {
    std::vector<fb::Offset<mf::Tensor>> state;
    for (const StateSpec &s : train.state)
      state.push_back(tensor(s.name, s.type, s.offset));
    return mf::CreateTrainStateDirect(fbb, train.stateSize, train.lrInput, train.stepInput, &state);
  }

  const ManifestContents &c;
  fb::FlatBufferBuilder fbb;
};

} // namespace

std::string tlc::buildManifest(const ManifestContents &contents) {
  return Builder(contents).build();
}
