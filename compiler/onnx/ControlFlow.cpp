// ONNX control flow, expanded at import: If inlines the branch a constant condition picks
// (or both, and selects between their results), Loop and Scan unroll their body once per
// iteration, which must be known at compile time (a constant trip count and conditions that
// fold). The bodies' nodes go through the same converters as the main graph, in a scope that
// sees the enclosing graph's values.
#include "ModelLoader.h"
#include "NarrowIntegers.h"
#include "NodeContext.h"
#include "Preflight.h"
#include "TensorData.h"

#include "TL/Shapes.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

/// Most body expansions one Loop or Scan may make (each expansion converts the body's nodes
/// again): beyond this the model should keep a real loop, which tl does not have yet.
constexpr int64_t kMaxIterations = 4096;

const onnx::GraphProto *graphAttr(NodeContext &cx, StringRef name) {
  const onnx::AttributeProto *a = cx.attr(name);
  return a && a->has_g() ? &a->g() : nullptr;
}

/// Converts the nodes of `body` with its formal inputs bound to `inputs`, in a scope holding
/// the enclosing values; `outputs` receives the body's outputs in order.
LogicalResult expandBody(NodeContext &cx, const onnx::GraphProto &body,
                         ArrayRef<OnnxValue> inputs, SmallVectorImpl<OnnxValue> &outputs) {
  if (body.input_size() != static_cast<int>(inputs.size()))
    return cx.emitError() << cx.node.op_type() << ": the body has " << body.input_size()
                          << " inputs, " << inputs.size() << " expected";
  if (cx.expansionBudget) {
    if (*cx.expansionBudget < body.node_size())
      return cx.emitError() << cx.node.op_type() << ": the expanded control-flow bodies of this "
                            << "model exceed " << cx.expansionLimit
                            << " nodes (nested loops multiply their trip counts)";
    *cx.expansionBudget -= body.node_size();
  }
  ValueTable scope = cx.values;
  for (const onnx::TensorProto &t : body.initializer()) {
    std::string error;
    FailureOr<DenseElementsAttr> c = decodeTensor(cx.ctx(), t, error);
    if (failed(c))
      return cx.emitError() << cx.node.op_type() << ": body initializer '" << t.name()
                            << "': " << error;
    scope[t.name()] = constantOfType(*c, t.data_type());
  }
  for (auto [info, v] : llvm::zip(body.input(), inputs))
    scope[info.name()] = v;
  const ConverterTable &table = getConverterTable();
  for (int n = 0; n < body.node_size(); ++n) {
    const onnx::NodeProto &node = body.node(n);
    Location loc = nodeLocation(node, n, cx.loc);
    for (const std::string &in : node.input())
      if (!in.empty() && !scope.count(in))
        return emitError(loc) << "input '" << in << "' is not defined in the "
                              << cx.node.op_type() << " body or an enclosing graph";
    auto it = table.find(converterKey(node));
    if (it == table.end())
      return emitError(loc) << "unsupported operator '" << node.op_type() << "'";
    SmallVector<std::string> problems;
    checkValueTypeBindings(node, cx.opset, scope, problems);
    for (const std::string &p : problems)
      emitError(loc) << node.op_type() << ": " << p;
    if (!problems.empty())
      return failure();
    NodeContext inner(node, loc, cx.b, scope, cx.opset);
    inner.training = cx.training;
    inner.int8Contractions = cx.int8Contractions;
    inner.expansionBudget = cx.expansionBudget;
    inner.expansionLimit = cx.expansionLimit;
    if (failed(it->second.convert(inner)))
      return failure();
    settleNarrowOutputs(node, cx.opset, scope, cx.b, loc);
    for (const std::string &out : node.output())
      if (!out.empty() && !scope.count(out))
        return emitError(loc) << node.op_type() << " does not produce output '" << out << "'";
  }
  for (const onnx::ValueInfoProto &out : body.output()) {
    auto v = scope.find(out.name());
    if (v == scope.end())
      return cx.emitError() << cx.node.op_type() << ": body output '" << out.name()
                            << "' is never computed";
    outputs.push_back(v->second);
  }
  return success();
}

/// `x` at `index` along `axis`, that axis dropped (a Scan step, a batch element).
FailureOr<OnnxValue> sliceAt(NodeContext &cx, OnnxValue &x, int64_t axis, int64_t index) {
  SmallVector<int64_t> offsets(x.type.getRank(), 0), sizes(x.type.getShape());
  SmallVector<int64_t> strides(x.type.getRank(), 1);
  offsets[axis] = index;
  sizes[axis] = 1;
  Value slice = tl::SliceOp::create(cx.b, cx.loc, x.type.clone(sizes), cx.materialize(x),
                                    offsets, sizes, strides)
                    .getResult();
  SmallVector<int64_t> dropped(sizes);
  dropped.erase(dropped.begin() + axis);
  TLC_TRY(r, cx.reshape(slice, dropped));
  return OnnxValue{r, nullptr, cast<RankedTensorType>(r.getType()), x.onnxType};
}

/// Whether a boolean OnnxValue is a constant, and its value.
std::optional<bool> constantCondition(const OnnxValue &v) {
  if (!v.constant || v.constant.getNumElements() != 1 || !v.type.getElementType().isInteger(1))
    return std::nullopt;
  return toInts(v.constant)[0] != 0;
}

/// Sets output `i` of the node to `v`, with its narrow ONNX type.
void setOutputValue(NodeContext &cx, size_t i, OnnxValue v) {
  if (cx.hasOutput(i))
    cx.values[cx.node.output(i)] = v;
}

/// `parts` (each of one shape) stacked along a new axis `axis`, in order.
FailureOr<OnnxValue> stack(NodeContext &cx, MutableArrayRef<OnnxValue> parts, int64_t axis) {
  if (parts.empty())
    return cx.emitError() << cx.node.op_type()
                          << ": a scan output of no iterations is empty, which is not supported";
  RankedTensorType t = parts[0].type;
  if (axis < 0)
    axis += t.getRank() + 1;
  if (axis < 0 || axis > t.getRank())
    return cx.emitError() << "scan output axis " << axis << " is out of range";
  SmallVector<int64_t> one(t.getShape());
  one.insert(one.begin() + axis, 1);
  SmallVector<Value> pieces;
  for (OnnxValue &p : parts) {
    if (p.type != t)
      return cx.emitError() << cx.node.op_type() << ": a scan output changes shape between "
                            << "iterations (" << tl::formatShape(t.getShape()) << " and "
                            << tl::formatShape(p.type.getShape()) << ")";
    TLC_TRY(r, cx.reshape(cx.materialize(p), one));
    pieces.push_back(r);
  }
  SmallVector<int64_t> shape(one);
  shape[axis] = static_cast<int64_t>(parts.size());
  auto type = t.clone(shape);
  Value v = pieces.size() == 1
                ? pieces[0]
                : tl::ConcatOp::create(cx.b, cx.loc, type, pieces, axis).getResult();
  return OnnxValue{v, nullptr, type, parts[0].onnxType};
}

LogicalResult convertIf(NodeContext &cx) {
  const onnx::GraphProto *thenBody = graphAttr(cx, "then_branch");
  const onnx::GraphProto *elseBody = graphAttr(cx, "else_branch");
  if (!thenBody || !elseBody)
    return cx.emitError() << "If needs graph attributes then_branch and else_branch";
  OnnxValue cond = *cx.input(0);
  if (cond.type.getNumElements() != 1 || !cond.type.getElementType().isInteger(1))
    return cx.emitError() << "If: the condition must be one boolean, got "
                          << tl::formatShape(cond.type.getShape());
  if (std::optional<bool> c = constantCondition(cond)) {
    SmallVector<OnnxValue> outs;
    if (failed(expandBody(cx, *c ? *thenBody : *elseBody, {}, outs)))
      return failure();
    for (auto [i, v] : llvm::enumerate(outs))
      setOutputValue(cx, i, v);
    return success();
  }
  // A run-time condition: both branches computed, each result selected (the branches have no
  // side effects; shapes and element types must agree, as a static-shape result needs).
  SmallVector<OnnxValue> thenOuts, elseOuts;
  if (failed(expandBody(cx, *thenBody, {}, thenOuts)) ||
      failed(expandBody(cx, *elseBody, {}, elseOuts)))
    return failure();
  if (thenOuts.size() != elseOuts.size())
    return cx.emitError() << "If: the branches have " << thenOuts.size() << " and "
                          << elseOuts.size() << " outputs";
  TLC_TRY(flag, cx.reshape(cx.materialize(cond), {}));
  for (size_t i = 0; i < thenOuts.size(); ++i) {
    if (thenOuts[i].type != elseOuts[i].type || thenOuts[i].onnxType != elseOuts[i].onnxType)
      return cx.emitError() << "If: output " << i << " is "
                            << tl::formatShape(thenOuts[i].type.getShape()) << " in one branch "
                            << "and " << tl::formatShape(elseOuts[i].type.getShape())
                            << " in the other (with a run-time condition both must agree)";
    TLC_TRY(v, cx.select(flag, cx.materialize(thenOuts[i]), cx.materialize(elseOuts[i])));
    setOutputValue(cx, i, OnnxValue{v, nullptr, thenOuts[i].type, thenOuts[i].onnxType});
  }
  return success();
}

LogicalResult convertLoop(NodeContext &cx) {
  const onnx::GraphProto *body = graphAttr(cx, "body");
  if (!body)
    return cx.emitError() << "Loop needs a graph attribute body";
  std::optional<int64_t> tripCount;
  if (cx.hasInput(0)) {
    TLC_TRY(m, cx.constInts(0, "the trip count M"));
    if (m.size() != 1)
      return cx.emitError() << "Loop: the trip count M must be one value";
    tripCount = m[0];
  }
  bool running = true;
  if (cx.hasInput(1)) {
    std::optional<bool> c = constantCondition(*cx.input(1));
    if (!c)
      return cx.emitError() << "Loop: the condition (input 1, '" << cx.node.input(1)
                            << "') must be a constant computable at compile time";
    running = *c;
  }
  if (tripCount && *tripCount > kMaxIterations)
    return cx.emitError() << "Loop: a trip count of " << *tripCount
                          << " is not supported (the body is expanded once per iteration, at "
                             "most "
                          << kMaxIterations << ")";
  int64_t limit = tripCount.value_or(kMaxIterations);
  if (cx.numInputs() < 2)
    return cx.emitError() << "Loop needs the inputs M and cond (either may be empty)";
  size_t carried = cx.numInputs() - 2;
  if (body->output_size() < static_cast<int>(carried) + 1)
    return cx.emitError() << "Loop: the body has " << body->output_size()
                          << " outputs, fewer than the condition and " << carried
                          << " loop-carried values";
  size_t scans = body->output_size() - 1 - carried;
  SmallVector<OnnxValue> state;
  for (size_t i = 0; i < carried; ++i)
    state.push_back(*cx.input(i + 2));
  std::vector<SmallVector<OnnxValue>> scanParts(scans);
  auto i64 = RankedTensorType::get({}, cx.b.getI64Type());
  auto i1 = RankedTensorType::get({}, cx.b.getI1Type());
  for (int64_t iter = 0; iter < limit && running; ++iter) {
    SmallVector<OnnxValue> inputs = {
        OnnxValue{nullptr, fromInts(i64, {iter}), i64},
        OnnxValue{nullptr, fromInts(i1, {1}), i1}};
    inputs.append(state.begin(), state.end());
    SmallVector<OnnxValue> outs;
    if (failed(expandBody(cx, *body, inputs, outs)))
      return failure();
    std::optional<bool> c = constantCondition(outs[0]);
    if (!c)
      return cx.emitError() << "Loop: the body's condition output must fold to a constant "
                               "(the loop is expanded at compile time)";
    running = *c;
    for (size_t i = 0; i < carried; ++i)
      state[i] = outs[1 + i];
    for (size_t k = 0; k < scans; ++k)
      scanParts[k].push_back(outs[1 + carried + k]);
  }
  if (!tripCount && running)
    return cx.emitError() << "Loop: the condition still holds after " << kMaxIterations
                          << " iterations (the body is expanded once per iteration)";
  for (size_t i = 0; i < carried; ++i)
    setOutputValue(cx, i, state[i]);
  for (size_t k = 0; k < scans; ++k) {
    if (!cx.hasOutput(carried + k))
      continue;
    TLC_TRY(v, stack(cx, scanParts[k], 0));
    setOutputValue(cx, carried + k, v);
  }
  return success();
}

/// Scan (opset 9+ semantics) over `inputs` (N states, then the scan inputs): `results` gets
/// the final states, then each scan output stacked (opset 8 calls it per batch element).
LogicalResult scan(NodeContext &cx, const onnx::GraphProto &body, ArrayRef<OnnxValue> inputs,
                   int64_t numScanInputs, SmallVectorImpl<OnnxValue> &results) {
  size_t states = inputs.size() - numScanInputs;
  SmallVector<int64_t> axes = cx.attrInts("scan_input_axes");
  SmallVector<int64_t> directions = cx.attrInts(cx.opset >= 9 ? "scan_input_directions"
                                                              : "directions");
  SmallVector<int64_t> outAxes = cx.attrInts("scan_output_axes");
  SmallVector<int64_t> outDirections = cx.attrInts("scan_output_directions");
  int64_t steps = -1;
  SmallVector<int64_t> axisOf;
  for (int64_t j = 0; j < numScanInputs; ++j) {
    RankedTensorType t = inputs[states + j].type;
    int64_t a = j < static_cast<int64_t>(axes.size()) ? axes[j] : 0;
    if (a < -t.getRank() || a >= t.getRank())
      return cx.emitError() << "Scan: scan input axis " << a << " is out of range for rank "
                            << t.getRank();
    a = a < 0 ? a + t.getRank() : a;
    if (steps >= 0 && t.getDimSize(a) != steps)
      return cx.emitError() << "Scan: scan inputs of " << steps << " and " << t.getDimSize(a)
                            << " steps";
    steps = t.getDimSize(a);
    axisOf.push_back(a);
  }
  if (steps > kMaxIterations)
    return cx.emitError() << "Scan: " << steps << " steps are not supported (the body is "
                          << "expanded once per step, at most " << kMaxIterations << ")";
  if (body.output_size() < static_cast<int>(states))
    return cx.emitError() << "Scan: the body has " << body.output_size()
                          << " outputs, fewer than its " << states << " states";
  SmallVector<OnnxValue> state(inputs.begin(), inputs.begin() + states);
  // Copies that keep a constant input's materialized value for every step's slice.
  SmallVector<OnnxValue> scanned(inputs.begin() + states, inputs.end());
  size_t scanOuts = body.output_size() - states;
  std::vector<SmallVector<OnnxValue>> parts(scanOuts);
  for (int64_t t = 0; t < steps; ++t) {
    SmallVector<OnnxValue> in(state);
    for (int64_t j = 0; j < numScanInputs; ++j) {
      bool reverse = j < static_cast<int64_t>(directions.size()) && directions[j] != 0;
      TLC_TRY(step, sliceAt(cx, scanned[j], axisOf[j], reverse ? steps - 1 - t : t));
      in.push_back(step);
    }
    SmallVector<OnnxValue> outs;
    if (failed(expandBody(cx, body, in, outs)))
      return failure();
    for (size_t i = 0; i < states; ++i)
      state[i] = outs[i];
    for (size_t k = 0; k < scanOuts; ++k)
      parts[k].push_back(outs[states + k]);
  }
  results.assign(state.begin(), state.end());
  for (size_t k = 0; k < scanOuts; ++k) {
    if (k < outDirections.size() && outDirections[k] != 0)
      std::reverse(parts[k].begin(), parts[k].end());
    TLC_TRY(v, stack(cx, parts[k], k < outAxes.size() ? outAxes[k] : 0));
    results.push_back(v);
  }
  return success();
}

LogicalResult convertScan(NodeContext &cx) {
  const onnx::GraphProto *body = graphAttr(cx, "body");
  if (!body)
    return cx.emitError() << "Scan needs a graph attribute body";
  int64_t numScanInputs = cx.attrInt("num_scan_inputs", 0);
  // Opset 8: an optional sequence_lens input first, and every input with a batch axis 0.
  size_t first = cx.opset < 9 ? 1 : 0;
  if (first && cx.hasInput(0))
    return cx.emitError() << "Scan: sequence_lens is not supported";
  size_t n = cx.numInputs() - first;
  if (numScanInputs < 1 || numScanInputs > static_cast<int64_t>(n))
    return cx.emitError() << "Scan: num_scan_inputs " << numScanInputs << " does not fit "
                          << n << " inputs";
  SmallVector<OnnxValue> inputs;
  for (size_t i = first; i < cx.numInputs(); ++i)
    inputs.push_back(*cx.input(i));
  if (!first) {
    SmallVector<OnnxValue> results;
    if (failed(scan(cx, *body, inputs, numScanInputs, results)))
      return failure();
    for (auto [i, v] : llvm::enumerate(results))
      setOutputValue(cx, i, v);
    return success();
  }
  // Opset 8: one scan per batch element (each input sliced at batch b), results stacked.
  int64_t batch = inputs[0].type.getRank() ? inputs[0].type.getDimSize(0) : 0;
  std::vector<SmallVector<OnnxValue>> perOutput;
  for (int64_t b = 0; b < batch; ++b) {
    SmallVector<OnnxValue> sliced;
    for (OnnxValue &x : inputs) {
      if (x.type.getRank() == 0 || x.type.getDimSize(0) != batch)
        return cx.emitError() << "Scan: every input needs the batch axis 0 of size " << batch;
      TLC_TRY(row, sliceAt(cx, x, 0, b));
      sliced.push_back(row);
    }
    SmallVector<OnnxValue> results;
    if (failed(scan(cx, *body, sliced, numScanInputs, results)))
      return failure();
    perOutput.resize(results.size());
    for (auto [i, v] : llvm::enumerate(results))
      perOutput[i].push_back(v);
  }
  for (size_t i = 0; i < perOutput.size(); ++i) {
    TLC_TRY(v, stack(cx, perOutput[i], 0));
    setOutputValue(cx, i, v);
  }
  return success();
}

} // namespace

void tlc::onnx_import::registerControlFlowConverters(ConverterTable &t) {
  t["If"] = {convertIf};
  t["Loop"] = {convertLoop};
  t["Scan"] = {convertScan};
}
