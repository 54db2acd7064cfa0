// libFuzzer harness: every reader of tensor files on arbitrary bytes -- tlc-run's .npy and
// TensorProto readers, the .tl frontend's .npy loader (initializers) and the ONNX importer's
// TensorProto decoder (initializers, --constant-input).
#include "FuzzModule.h"
#include "Npy.h"
#include "TensorIO.h"
#include "compiler/onnx/TensorData.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

namespace {
/// loadNpy reads a file: the input goes to one per process, declared as its header says (the
/// way a .tl program that matches the file declares it).
void loadNpyAsDeclared(llvm::StringRef bytes, mlir::MLIRContext &context) {
  std::string error;
  llvm::FailureOr<tlc::frontend::NpyHeader> header =
      tlc::frontend::parseNpyHeader(bytes, error);
  if (failed(header))
    return;
  // The .tl frontend never declares more than 2^40 elements.
  int64_t numel = 1;
  for (int64_t d : header->shape)
    if (d < 0 || (d > 0 && numel > (int64_t(1) << 40) / d) || (numel *= d, false))
      return;
  mlir::Builder b(&context);
  mlir::Type elementType = header->descr == "<f2"   ? b.getF16Type()
                           : header->descr == "<f8" ? b.getF64Type()
                           : header->descr == "<i4" ? b.getI32Type()
                           : header->descr == "<i8" ? b.getI64Type()
                           : header->descr == "|b1" ? b.getI1Type()
                                                    : mlir::Type(b.getF32Type());
  static const std::string path = "/tmp/tlc-fuzz-" + std::to_string(getpid()) + ".npy";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return;
    os << bytes;
  }
  (void)tlc::frontend::loadNpy(path, "fuzz.npy",
                               mlir::RankedTensorType::get(header->shape, elementType), "'w'",
                               [&] { return mlir::emitError(b.getUnknownLoc()); });
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string bytes(reinterpret_cast<const char *>(data), size);
  tlcrun::Tensor tensor;
  std::string error;
  (void)tlcrun::parseTensor("fuzz", bytes, tensor, error);

  tlcfuzz::FuzzContext fuzz;
  loadNpyAsDeclared(bytes, fuzz.context);
  onnx::TensorProto proto;
  if (proto.ParseFromString(bytes))
    (void)tlc::onnx_import::decodeTensor(&fuzz.context, proto, error);
  return 0;
}
