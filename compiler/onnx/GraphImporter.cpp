// The graph walk: initializers and inputs into the value table, nodes in order through the
// converter table (folding shape subgraphs on the host), outputs into the function's results.
#include "GraphImporter.h"

#include "InferredTypes.h"
#include "ModelLoader.h"
#include "NarrowIntegers.h"
#include "NodeContext.h"
#include "Preflight.h"
#include "TensorData.h"

#include "compiler/InputFile.h"

#include "TL/Shapes.h"
#include "TL/SizeLimit.h"
#include "TL/TrainState.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

/// A C identifier for an ONNX value name, unique among `taken` (case-insensitively, as the
/// header's macros upper-case names).
std::string cName(llvm::StringRef name, llvm::StringSet<> &taken) {
  std::string s;
  for (char c : name)
    s.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
  if (s.empty() || llvm::isDigit(s[0]))
    s = "t_" + s;
  static const char *const reserved[] = {
      "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
      "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
      "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
      "union", "unsigned", "void", "volatile", "while", "workspace"};
  if (llvm::is_contained(reserved, s))
    s += "_";
  std::string unique = s;
  for (int k = 2; taken.contains(llvm::StringRef(unique).upper()); ++k)
    unique = s + "_" + std::to_string(k);
  taken.insert(llvm::StringRef(unique).upper());
  return unique;
}

/// The float initializers `graph` reads as weights become tl.constant ops now (named, marked
/// `tl.param`), so no converter folds them: they are the parameters a training step updates.
/// Batch norm's running statistics likewise, marked as state the step updates untrained.
void markTrainableWeights(const onnx::GraphProto &graph, ValueTable &values, OpBuilder &b,
                          Location fileLoc, llvm::StringSet<> &cNames) {
  // Per op, the inputs that are weights (BatchNormalization's running statistics are not).
  static const llvm::StringMap<SmallVector<int>> weights = {
      {"Conv", {1, 2}},          {"ConvTranspose", {1, 2}},     {"Gemm", {0, 1, 2}},
      {"MatMul", {0, 1}},        {"Add", {0, 1}},               {"Sub", {0, 1}},
      {"Mul", {0, 1}},           {"Div", {0, 1}},               {"PRelu", {1}},
      {"BatchNormalization", {1, 2}}, {"LayerNormalization", {1, 2}},
      {"InstanceNormalization", {1, 2}}, {"Gather", {0}},        {"Einsum", {0, 1, 2, 3}}};
  // Per op, the inputs that are state the step updates without training it (kStateBufferAttr).
  static const llvm::StringMap<SmallVector<int>> buffers = {{"BatchNormalization", {3, 4}}};
  llvm::StringSet<> done;
  for (const onnx::NodeProto &node : graph.node()) {
    auto it = weights.find(node.op_type());
    if (it == weights.end())
      continue;
    SmallVector<int> inputs(it->second);
    auto bufferIt = buffers.find(node.op_type());
    if (bufferIt != buffers.end())
      inputs.append(bufferIt->second);
    for (int i : inputs) {
      if (i >= node.input_size() || node.input(i).empty() || done.contains(node.input(i)))
        continue;
      auto v = values.find(node.input(i));
      if (v == values.end() || !v->second.constant ||
          !isa<FloatType>(v->second.type.getElementType()) || v->second.type.getNumElements() < 2)
        continue;
      const std::string &name = node.input(i);
      done.insert(name);
      std::string c = cName(name, cNames);
      auto constant = tl::ConstantOp::create(
          b, NameLoc::get(b.getStringAttr(name), fileLoc), v->second.constant);
      bool buffer = bufferIt != buffers.end() && llvm::is_contained(bufferIt->second, i);
      constant->setAttr(buffer ? llvm::StringRef(tl::kStateBufferAttr) : "tl.param",
                        b.getStringAttr(c));
      constant->setAttr("tl.onnx_name", b.getStringAttr(name));
      v->second = OnnxValue{constant.getResult(), nullptr, v->second.type};
    }
  }
}

/// Fails (located at the node) if a value the node made has more than 2^40 elements: the
/// arithmetic on shapes and sizes after import assumes the limit.
LogicalResult checkSizes(ArrayRef<Type> types, Location loc) {
  for (Type t : types) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (rt && rt.hasStaticShape() && !tl::checkedNumElements(rt.getShape()))
      return emitError(loc) << "a tensor of shape " << tl::formatShape(rt.getShape())
                            << " has too many elements (more than 2^40)";
  }
  return success();
}

/// Fails if graph output `info` declares a shape or element type other than those of `v`.
LogicalResult checkDeclaredOutput(const onnx::ValueInfoProto &info, const OnnxValue &v,
                                  Location fileLoc) {
  if (!info.type().has_tensor_type())
    return success();
  RankedTensorType type = v.type;
  const onnx::TypeProto::Tensor &tt = info.type().tensor_type();
  Type declared = elementTypeOf(type.getContext(), tt.elem_type());
  bool mismatch = declared && tt.elem_type() != onnxTypeOf(v);
  std::string shape;
  if (tt.has_shape()) {
    mismatch |= tt.shape().dim_size() != type.getRank();
    for (auto [i, d] : llvm::enumerate(tt.shape().dim())) {
      shape += (i ? "x" : "") + (d.has_dim_value() ? std::to_string(d.dim_value()) : "?");
      if (d.has_dim_value() && (int64_t)i < type.getRank() && d.dim_value() != type.getDimSize(i))
        mismatch = true;
    }
    if (tt.shape().dim_size() == 0)
      shape = "scalar";
  }
  if (!mismatch)
    return success();
  // Types printed bare (a diagnostic would quote them), like the rest of the signature.
  // Narrow integer types by their ONNX names (the tl type is the wider one computed in).
  auto str = [](Type t, int onnxType) {
    if (isNarrowType(onnxType))
      return onnxTypeName(onnxType).str();
    std::string s;
    llvm::raw_string_ostream os(s);
    if (t)
      t.print(os);
    return s;
  };
  return emitError(fileLoc) << "graph output '" << info.name() << "' is declared as "
                            << str(declared, tt.elem_type()) << "["
                            << (tt.has_shape() ? shape : "?") << "] but the graph computes "
                            << str(type.getElementType(), v.onnxType) << "["
                            << tl::formatShape(type.getShape()) << "]";
}

/// The type of graph input `info`, with `--input-shape` applied.
FailureOr<RankedTensorType> inputType(const onnx::ValueInfoProto &info, MLIRContext *ctx,
                                      const OnnxImportOptions &options, Location fileLoc) {
  const onnx::TypeProto::Tensor &tt = info.type().tensor_type();
  Type et = storageTypeOf(ctx, tt.elem_type());
  if (!et)
    return emitError(fileLoc) << "input '" << info.name() << "' has unsupported element type "
                              << onnxTypeName(tt.elem_type());
  auto pinned = options.inputShapes.find(info.name());
  if (!tt.has_shape()) {
    if (pinned == options.inputShapes.end())
      return emitError(fileLoc) << "input '" << info.name()
                                << "' has no shape; give one with --input-shape "
                                << info.name() << "=DIMS";
    if (!tl::checkedNumElements(pinned->second))
      return emitError(fileLoc) << "--input-shape " << info.name() << " has too many elements "
                                << "(more than 2^40)";
    return RankedTensorType::get(pinned->second, et);
  }
  SmallVector<int64_t> shape;
  std::string symbolic;
  for (const onnx::TensorShapeProto::Dimension &d : tt.shape().dim()) {
    if (d.has_dim_value() && d.dim_value() > 0) {
      shape.push_back(d.dim_value());
      continue;
    }
    if (d.has_dim_value() && d.dim_value() == 0) {
      shape.push_back(0);
      continue;
    }
    if (symbolic.empty())
      symbolic = d.has_dim_param() && !d.dim_param().empty() ? "'" + d.dim_param() + "'"
                                                             : "an unnamed dimension";
    shape.push_back(ShapedType::kDynamic);
  }
  if (pinned != options.inputShapes.end()) {
    const SmallVector<int64_t> &want = pinned->second;
    if (want.size() != shape.size())
      return emitError(fileLoc) << "--input-shape " << info.name() << " has rank " << want.size()
                                << " but the model's input has rank " << shape.size();
    for (size_t i = 0; i < shape.size(); ++i)
      if (shape[i] != ShapedType::kDynamic && shape[i] != want[i])
        return emitError(fileLoc) << "--input-shape " << info.name() << " sets dimension " << i
                                  << " to " << want[i] << " but the model fixes it to "
                                  << shape[i];
    if (!tl::checkedNumElements(want))
      return emitError(fileLoc) << "--input-shape " << info.name() << " has too many elements "
                                << "(more than 2^40)";
    return RankedTensorType::get(want, et);
  }
  if (!symbolic.empty())
    return emitError(fileLoc) << "input '" << info.name() << "' has symbolic dimension "
                              << symbolic << "; pin it with --input-shape " << info.name()
                              << "=DIMS (e.g. 1x3x224x224)";
  if (!tl::checkedNumElements(shape))
    return emitError(fileLoc) << "input '" << info.name() << "' of shape "
                              << tl::formatShape(shape)
                              << " has too many elements (more than 2^40)";
  return RankedTensorType::get(shape, et);
}

} // namespace

OwningOpRef<ModuleOp> tlc::onnx_import::importGraph(const onnx::GraphProto &graph,
                                                    int64_t opset, Location fileLoc,
                                                    llvm::StringRef funcName,
                                                    const OnnxImportOptions &options) {
  MLIRContext *ctx = fileLoc->getContext();
  ValueTable values;
  for (const onnx::TensorProto &t : graph.initializer()) {
    std::string error;
    FailureOr<DenseElementsAttr> c = decodeTensor(ctx, t, error);
    if (failed(c)) {
      emitError(fileLoc) << "initializer '" << t.name() << "': " << error;
      return nullptr;
    }
    values[t.name()] = constantOfType(*c, t.data_type());
  }

  // --constant-input: graph inputs specialized to a value, like initializers.
  for (const auto &entry : options.constantInputs) {
    const std::string &name = entry.first, &path = entry.second;
    auto info = llvm::find_if(graph.input(),
                              [&](const onnx::ValueInfoProto &i) { return i.name() == name; });
    if (info == graph.input().end()) {
      emitError(fileLoc) << "--constant-input names '" << name
                         << "', which is not an input of the model";
      return nullptr;
    }
    std::string readError;
    std::unique_ptr<llvm::MemoryBuffer> file = readInputFile(path, path, readError);
    if (!file) {
      emitError(fileLoc) << "--constant-input " << name << ": " << readError;
      return nullptr;
    }
    onnx::TensorProto t;
    if (!t.ParseFromArray(file->getBufferStart(), static_cast<int>(file->getBufferSize()))) {
      emitError(fileLoc) << "--constant-input " << name << ": cannot read '" << path
                         << "' as an ONNX TensorProto";
      return nullptr;
    }
    std::string error;
    FailureOr<DenseElementsAttr> c = decodeTensor(ctx, t, error);
    if (failed(c)) {
      emitError(fileLoc) << "--constant-input " << name << ": " << error;
      return nullptr;
    }
    const onnx::TypeProto::Tensor &tt = info->type().tensor_type();
    auto type = cast<RankedTensorType>(c->getType());
    if (tt.elem_type() != t.data_type() ||
        (tt.has_shape() && tt.shape().dim_size() != type.getRank())) {
      emitError(fileLoc) << "--constant-input " << name << ": the value's type "
                         << onnxTypeName(t.data_type()) << "[" << tl::formatShape(type.getShape())
                         << "] does not match the input's element type and rank";
      return nullptr;
    }
    values[name] = constantOfType(*c, t.data_type());
  }

  // Graph inputs that are not initializers are the function's arguments.
  SmallVector<const onnx::ValueInfoProto *> inputs;
  SmallVector<Type> argTypes;
  llvm::StringSet<> inputNames;
  for (const onnx::ValueInfoProto &info : graph.input()) {
    inputNames.insert(info.name());
    if (values.count(info.name()))
      continue;
    FailureOr<RankedTensorType> t = inputType(info, ctx, options, fileLoc);
    if (failed(t))
      return nullptr;
    inputs.push_back(&info);
    argTypes.push_back(*t);
  }
  for (const auto &[name, shape] : options.inputShapes)
    if (!inputNames.contains(name)) {
      InFlightDiagnostic diag = emitError(fileLoc)
                                << "--input-shape names '" << name
                                << "', which is not an input of the model (inputs:";
      for (const onnx::ValueInfoProto *info : inputs)
        diag << " " << info->name();
      diag << ")";
      return nullptr;
    }

  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  b.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(b, fileLoc, funcName, b.getFunctionType(argTypes, {}));
  Block *body = func.addEntryBlock();
  llvm::StringSet<> cNames;
  b.setInsertionPointToEnd(body);
  for (auto [i, info] : llvm::enumerate(inputs)) {
    func.setArgAttr(i, "tl.name", b.getStringAttr(cName(info->name(), cNames)));
    int onnxType = info->type().tensor_type().elem_type();
    if (!isNarrowType(onnxType)) {
      values[info->name()] =
          OnnxValue{body->getArgument(i), nullptr, cast<RankedTensorType>(argTypes[i])};
      continue;
    }
    if (isUnsignedType(onnxType))
      func.setArgAttr(i, "tl.unsigned", b.getUnitAttr());
    Value wide = widenInput(b, fileLoc, body->getArgument(i), onnxType);
    values[info->name()] =
        OnnxValue{wide, nullptr, cast<RankedTensorType>(wide.getType()), onnxType};
  }

  if (options.trainableWeights)
    markTrainableWeights(graph, values, b, fileLoc, cNames);
  const ConverterTable &table = getConverterTable();
  // After a node fails to convert, the import goes on so that every failing node is reported
  // at once: its outputs become placeholders of the types ONNX's shape inference gives them
  // (from the node and its inputs' types), or, where none is known, unavailable, and the
  // nodes reading them are skipped without a message of their own. The module is not returned.
  bool anyNodeFailed = false;
  llvm::StringSet<> unavailable;
  int64_t expansionBudget = options.maxExpandedNodes;
  auto placeholders = [&](const onnx::NodeProto &node) {
    anyNodeFailed = true;
    llvm::StringMap<RankedTensorType> inferred = inferOutputTypes(node, opset, values, ctx);
    for (const std::string &out : node.output()) {
      if (out.empty())
        continue;
      auto t = inferred.find(out);
      if (t == inferred.end() || t->second.getNumElements() > kFoldLimit * 1024)
        unavailable.insert(out);
      else
        values[out] = OnnxValue{nullptr,
                                DenseElementsAttr::get(t->second, b.getZeroAttr(t->second.getElementType())),
                                t->second};
    }
  };
  for (int n = 0; n < graph.node_size(); ++n) {
    const onnx::NodeProto &node = graph.node(n);
    Location loc = nodeLocation(node, n, fileLoc);
    if (llvm::any_of(node.input(), [&](const std::string &in) { return unavailable.contains(in); })) {
      for (const std::string &out : node.output())
        unavailable.insert(out);
      continue;
    }
    for (const std::string &in : node.input())
      if (!in.empty() && !values.count(in)) {
        emitError(loc) << "input '" << in
                       << "' is not defined by an earlier node, an initializer or a graph input";
        return nullptr;
      }
    auto it = table.find(converterKey(node));
    assert(it != table.end() && "pre-flight check rejects unknown ops");
    SmallVector<std::string> typeProblems;
    checkValueTypeBindings(node, opset, values, typeProblems);
    for (const std::string &p : typeProblems)
      emitError(loc) << node.op_type() << ": " << p;
    if (!typeProblems.empty()) {
      placeholders(node);
      continue;
    }
    Operation *last = body->empty() ? nullptr : &body->back();
    NodeContext cx(node, loc, b, values, opset);
    cx.training = options.trainableWeights;
    cx.int8Contractions = options.int8Contractions;
    cx.expansionBudget = &expansionBudget;
    cx.expansionLimit = options.maxExpandedNodes;
    if (failed(it->second.convert(cx))) {
      placeholders(node);
      continue;
    }
    settleNarrowOutputs(node, opset, values, b, loc);
    for (const std::string &out : node.output()) {
      if (out.empty())
        continue;
      auto produced = values.find(out);
      if (produced == values.end()) {
        emitError(loc) << node.op_type() << " does not produce output '" << out << "'";
        return nullptr;
      }
      if (failed(checkSizes(Type(produced->second.type), loc)))
        return nullptr;
    }
    // Check the node's ops now, so a shape error names this node and stops the import.
    for (Operation &op : llvm::make_range(
             last ? std::next(Block::iterator(last)) : body->begin(), body->end()))
      if (failed(checkSizes(llvm::to_vector(op.getResultTypes()), loc)) || failed(verify(&op)))
        return nullptr;
  }

  if (anyNodeFailed)
    return nullptr;
  SmallVector<Value> results;
  SmallVector<Type> resultTypes;
  SmallVector<std::string> resultNames;
  SmallVector<bool> resultUnsigned;
  for (const onnx::ValueInfoProto &info : graph.output()) {
    auto it = values.find(info.name());
    if (it == values.end()) {
      emitError(fileLoc) << "graph output '" << info.name() << "' is never computed";
      return nullptr;
    }
    OnnxValue &v = it->second;
    if (v.type && v.type.getNumElements() == 0) {
      // Zero-element results have no buffer in the generated ABI.
      emitError(fileLoc) << "graph output '" << info.name() << "' is empty (shape "
                         << tl::formatShape(v.type.getShape()) << "), which is not supported";
      return nullptr;
    }
    if (failed(checkDeclaredOutput(info, v, fileLoc)))
      return nullptr;
    if (!v.value)
      v.value = tl::ConstantOp::create(b, fileLoc, v.constant).getResult();
    Value result = v.onnxType ? narrowOutput(b, fileLoc, v.value, v.onnxType) : v.value;
    resultUnsigned.push_back(isUnsignedType(v.onnxType));
    results.push_back(result);
    resultTypes.push_back(result.getType());
    resultNames.push_back(cName(info.name(), cNames));
  }
  if (results.empty()) {
    emitError(fileLoc) << "the model has no outputs";
    return nullptr;
  }
  func::ReturnOp::create(b, fileLoc, results);
  func.setFunctionType(b.getFunctionType(argTypes, resultTypes));
  for (auto [i, name] : llvm::enumerate(resultNames)) {
    func.setResultAttr(i, "tl.name", b.getStringAttr(name));
    if (resultUnsigned[i])
      func.setResultAttr(i, "tl.unsigned", b.getUnitAttr());
  }
  return module;
}
