// The ONNX importer's entry point: load and validate, pre-flight check, import the graph.
#include "compiler/onnx/OnnxImporter.h"

#include "GraphImporter.h"
#include "ExternalData.h"
#include "ModelLoader.h"
#include "Preflight.h"

#include "TL/TLDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tlc;

std::string tlc::parseInputShapeSpec(llvm::StringRef spec, OnnxImportOptions &options) {
  auto [name, dims] = spec.rsplit('=');
  if (name.empty() || dims.empty() || !spec.contains('='))
    return "--input-shape expects NAME=DIMS (e.g. input=1x3x224x224), got '" + spec.str() + "'";
  llvm::SmallVector<int64_t> shape;
  if (dims != "scalar") {
    llvm::SmallVector<llvm::StringRef> parts;
    dims.split(parts, 'x');
    for (llvm::StringRef p : parts) {
      int64_t d;
      if (p.getAsInteger(10, d) || d <= 0)
        return "--input-shape " + name.str() + ": dimension '" + p.str() +
               "' is not a positive integer";
      shape.push_back(d);
    }
  }
  options.inputShapes[name.str()] = shape;
  return "";
}

std::string tlc::parseConstantInputSpec(llvm::StringRef spec, OnnxImportOptions &options) {
  auto [name, path] = spec.split('=');
  if (name.empty() || path.empty() || !spec.contains('='))
    return "--constant-input expects NAME=FILE.pb (an ONNX TensorProto), got '" + spec.str() + "'";
  options.constantInputs[name.str()] = path.str();
  return "";
}

OwningOpRef<ModuleOp> tlc::importOnnxModel(llvm::StringRef bytes, llvm::StringRef path,
                                           MLIRContext *context, llvm::StringRef funcName,
                                           const OnnxImportOptions &options) {
  // The recurrent ops' loops over time are scf.for over tensors (arith indices, tensor slices).
  context->loadDialect<tl::TLDialect, func::FuncDialect, arith::ArithDialect, scf::SCFDialect,
                       tensor::TensorDialect>();
  Location fileLoc = FileLineColLoc::get(context, path, 0, 0);
  onnx::ModelProto model;
  onnx_import::ExternalBytes external;
  FailureOr<int64_t> opset = onnx_import::loadModelProto(bytes, fileLoc, model);
  if (failed(opset) || failed(onnx_import::loadExternalData(
                           model, llvm::sys::path::parent_path(path), fileLoc, external)))
    return nullptr;
  onnx_import::ExternalBytes::Scope externalInScope(external);
  if (failed(onnx_import::preflightCheck(model.graph(), *opset, fileLoc)))
    return nullptr;
  return onnx_import::importGraph(model.graph(), *opset, fileLoc, funcName, options);
}
