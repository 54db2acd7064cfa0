// The model's C-visible signature and its validation.
#include "compiler/Signature.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <cstring>

using namespace mlir;
using namespace tlc;

bool tlc::isValidCIdentifier(llvm::StringRef name) {
  static const char *const keywords[] = {
      "auto",     "break",  "case",     "char",   "const",    "continue", "default",
      "do",       "double", "else",     "enum",   "extern",   "float",    "for",
      "goto",     "if",     "inline",   "int",    "long",     "register", "restrict",
      "return",   "short",  "signed",   "sizeof", "static",   "struct",   "switch",
      "typedef",  "union",  "unsigned", "void",   "volatile", "while",    "_Bool",
      "workspace" /* the run function's last parameter */};
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  if (!llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
    return false;
  return !llvm::is_contained(keywords, name);
}

std::pair<llvm::StringRef, llvm::StringRef> tlc::cTypeOf(Type t, bool isUnsigned) {
  if (t.isInteger(8))
    return isUnsigned ? std::pair{"uint8_t", "TLC_DTYPE_U8"} : std::pair{"int8_t", "TLC_DTYPE_I8"};
  if (t.isInteger(16))
    return isUnsigned ? std::pair{"uint16_t", "TLC_DTYPE_U16"}
                      : std::pair{"int16_t", "TLC_DTYPE_I16"};
  if (t.isInteger(32) && isUnsigned)
    return {"uint32_t", "TLC_DTYPE_U32"};
  if (t.isF32())
    return {"float", "TLC_DTYPE_F32"};
  if (t.isF64())
    return {"double", "TLC_DTYPE_F64"};
  if (t.isF16())
    return {"uint16_t", "TLC_DTYPE_F16"};
  if (t.isBF16())
    return {"uint16_t", "TLC_DTYPE_BF16"};
  if (t.isInteger(32))
    return {"int32_t", "TLC_DTYPE_I32"};
  if (t.isInteger(64))
    return {"int64_t", "TLC_DTYPE_I64"};
  if (t.isInteger(1))
    return {"uint8_t", "TLC_DTYPE_I1"};
  return {"", ""};
}

FailureOr<ModelSignature> tlc::extractSignature(func::FuncOp func, llvm::StringRef name) {
  ModelSignature sig;
  sig.name = name.str();
  if (!isValidCIdentifier(name))
    return func.emitError() << "model name '" << name
                            << "' is not a valid C identifier (use --name)";
  llvm::StringSet<> macroNames;
  auto add = [&](Type type, DictionaryAttr attrs, std::string fallback, bool isInput,
                 std::vector<TensorSpec> &into) -> LogicalResult {
    std::string tensorName = fallback;
    if (attrs)
      if (auto n = attrs.getAs<StringAttr>("tl.name"))
        tensorName = n.str();
    const char *what = isInput ? "input" : "output";
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return func.emitError() << what << " '" << tensorName
                              << "' must be a tensor with a static shape, got " << type;
    if (cTypeOf(tensor.getElementType()).first.empty())
      return func.emitError() << what << " '" << tensorName << "' has element type "
                              << tensor.getElementType() << ", which the C ABI does not carry";
    if (!isValidCIdentifier(tensorName))
      return func.emitError() << what << " name '" << tensorName
                              << "' is not a valid C identifier";
    // Macros upper-case names, so x and X would collide. An output that is also an input (or
    // is output twice) gets a suffix so every C parameter has its own name.
    if (!isInput && macroNames.contains(llvm::StringRef(tensorName).upper())) {
      std::string base = tensorName + "_out";
      tensorName = base;
      for (int k = 2; macroNames.contains(llvm::StringRef(tensorName).upper()); ++k)
        tensorName = base + std::to_string(k);
    }
    if (!macroNames.insert(llvm::StringRef(tensorName).upper()).second)
      return func.emitError() << what << " name '" << tensorName
                              << "' clashes with another input or output in the header macros";
    into.push_back({tensorName, tensor, attrs && attrs.get("tl.unsigned")});
    return success();
  };
  FunctionType type = func.getFunctionType();
  for (unsigned i = 0; i < type.getNumInputs(); ++i)
    if (failed(add(type.getInput(i), func.getArgAttrDict(i), "in" + std::to_string(i), true,
                   sig.inputs)))
      return failure();
  for (unsigned i = 0; i < type.getNumResults(); ++i)
    if (failed(add(type.getResult(i), func.getResultAttrDict(i), "out" + std::to_string(i),
                   false, sig.outputs)))
      return failure();
  if (sig.outputs.empty())
    return func.emitError() << "the model has no outputs";
  return sig;
}

LogicalResult tlc::extractTrainSpec(ModuleOp module, ModelSignature &sig) {
  auto attr = module->getAttrOfType<DictionaryAttr>("tl.train");
  if (!attr)
    return success();
  module->removeAttr("tl.train");
  auto lr = attr.getAs<IntegerAttr>("lr");
  auto state = attr.getAs<ArrayAttr>("state");
  if (!lr || !state || lr.getInt() + 1 >= static_cast<int64_t>(sig.inputs.size()))
    return module.emitError("malformed tl.train attribute");
  TrainSpec train;
  if (auto model = attr.getAs<StringAttr>("model"))
    train.model = model.str();
  train.lrInput = lr.getInt();
  train.stepInput = train.lrInput + 1;
  for (Attribute a : state) {
    auto entry = dyn_cast<DictionaryAttr>(a);
    auto input = entry ? entry.getAs<IntegerAttr>("input") : IntegerAttr();
    auto output = entry ? entry.getAs<IntegerAttr>("output") : IntegerAttr();
    if (!input || !output || input.getInt() >= static_cast<int64_t>(sig.inputs.size()) ||
        output.getInt() >= static_cast<int64_t>(sig.outputs.size()))
      return module.emitError("malformed tl.train attribute");
    StateSpec spec;
    spec.input = input.getInt();
    spec.output = output.getInt();
    spec.name = sig.inputs[spec.input].name;
    spec.type = sig.inputs[spec.input].type;
    spec.init = entry.getAs<ElementsAttr>("init");
    spec.offset = train.stateSize;
    int64_t bytes = spec.type.getNumElements() * spec.type.getElementTypeBitWidth() / 8;
    train.stateSize += llvm::alignTo(bytes, 64);
    train.state.push_back(spec);
  }
  sig.train = std::move(train);
  return success();
}

std::optional<TrainFunctions> tlc::trainFunctions(ModuleOp module) {
  auto attr = module->getAttrOfType<DictionaryAttr>("tl.train");
  auto step = attr ? attr.getAs<StringAttr>("step") : StringAttr();
  auto model = attr ? attr.getAs<StringAttr>("model") : StringAttr();
  if (!step || !model)
    return std::nullopt;
  return TrainFunctions{step.str(), model.str()};
}

FailureOr<ModelSignature> tlc::extractStateInference(func::FuncOp func, llvm::StringRef name,
                                                     const TrainSpec &train) {
  FailureOr<ModelSignature> sig = extractSignature(func, name);
  if (failed(sig))
    return failure();
  Builder b(func.getContext());
  std::vector<TensorSpec> inputs;
  inputs.push_back({"state", RankedTensorType::get({train.stateSize}, b.getI8Type()), true});
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    if (!func.getArgAttr(i, "tl.from_state")) {
      inputs.push_back(sig->inputs[i]);
      continue;
    }
    func.removeArgAttr(i, "tl.from_state");
    auto st = llvm::find_if(
        train.state, [&](const StateSpec &s) { return s.name == sig->inputs[i].name; });
    if (st == train.state.end() || st->type != sig->inputs[i].type)
      return func.emitError() << "input '" << sig->inputs[i].name
                              << "' is read from the training state, which has no such tensor";
    func.setArgAttr(i, "tl.state_offset", b.getI64IntegerAttr(st->offset));
  }
  func->setAttr("tl.state_size", b.getI64IntegerAttr(train.stateSize));
  sig->inputs = std::move(inputs);
  sig->readsState = true;
  return sig;
}

std::string tlc::initialStateBytes(const TrainSpec &train) {
  std::string bytes(train.stateSize, '\0');
  for (const StateSpec &s : train.state) {
    auto dense = dyn_cast_or_null<DenseElementsAttr>(s.init);
    if (!dense)
      continue; // zeros (an elided resource never reaches here: params are dense)
    ArrayRef<char> raw = dense.getRawData();
    int64_t n = s.type.getNumElements(), width = s.type.getElementTypeBitWidth() / 8;
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(&bytes[s.offset + i * width], raw.data() + (dense.isSplat() ? 0 : i * width),
                  width);
  }
  return bytes;
}
