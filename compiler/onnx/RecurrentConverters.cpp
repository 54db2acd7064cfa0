// Converters for ONNX's recurrent ops (RNN, GRU, LSTM): the input projection of every time
// step and direction is one contraction; the recurrence is an scf.for over time whose body is
// the cell's recurrent contraction and gate math in tl ops.
//
// Each state (h, and c for LSTM) is carried as its history, a [T+1, batch, hidden] tensor: step
// t reads its slot and writes the next one (forward: t -> t+1; reverse: t+1 -> t), so the loop
// updates one tensor in place and Y is a slice of it, with no copy of the state per step.
// sequence_lens: past a sequence's end the state is kept (so Y_h is the last valid step's, and
// a reverse direction starts from the initial state at the sequence's last element) and Y is
// zero there.
#include "NodeContext.h"
#include "TensorData.h"

#include "TL/Shapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <sstream>

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

enum class ActKind {
  Relu,
  Tanh,
  Sigmoid,
  Affine,
  LeakyRelu,
  ThresholdedRelu,
  ScaledTanh,
  HardSigmoid,
  Elu,
  Softsign,
  Softplus
};

/// An activation the recurrent ops accept: its name, how many of activation_alpha /
/// activation_beta it takes (0, 1: alpha, 2: alpha and beta) and their defaults (those of the
/// ONNX operator of the same name).
struct ActivationInfo {
  const char *name;
  ActKind kind;
  int numParams;
  double alpha, beta;
};

constexpr ActivationInfo kActivations[] = {
    {"Relu", ActKind::Relu, 0, 0, 0},
    {"Tanh", ActKind::Tanh, 0, 0, 0},
    {"Sigmoid", ActKind::Sigmoid, 0, 0, 0},
    {"Affine", ActKind::Affine, 2, 1.0, 0.0},
    {"LeakyRelu", ActKind::LeakyRelu, 1, 0.01, 0},
    {"ThresholdedRelu", ActKind::ThresholdedRelu, 1, 1.0, 0},
    {"ScaledTanh", ActKind::ScaledTanh, 2, 1.0, 1.0},
    {"HardSigmoid", ActKind::HardSigmoid, 2, 0.2, 0.5},
    {"Elu", ActKind::Elu, 1, 1.0, 0},
    {"Softsign", ActKind::Softsign, 0, 0, 0},
    {"Softplus", ActKind::Softplus, 0, 0, 0},
};

/// Names are matched case-insensitively, as ONNX Runtime does (exporters write "Tanh").
const ActivationInfo *findActivation(StringRef name) {
  for (const ActivationInfo &a : kActivations)
    if (name.equals_insensitive(a.name))
      return &a;
  return nullptr;
}

struct Activation {
  ActKind kind;
  double alpha, beta;
};

/// What differs between RNN, GRU and LSTM outside their step.
struct CellSpec {
  int gates;                         // rows of W and R per hidden unit
  int numActivations;                // per direction
  const char *defaultActivations[3]; // f, g, h
  int numStates;                     // h, or h and c
};

constexpr CellSpec kRNN = {1, 1, {"Tanh"}, 1};
constexpr CellSpec kGRU = {3, 2, {"Sigmoid", "Tanh"}, 1};
constexpr CellSpec kLSTM = {4, 3, {"Sigmoid", "Tanh", "Tanh"}, 2};

const CellSpec &specOf(StringRef opType) {
  return opType == "LSTM" ? kLSTM : opType == "GRU" ? kGRU : kRNN;
}

int64_t numDirections(const onnx::NodeProto &node) {
  const onnx::AttributeProto *a = findAttr(node, "direction");
  return a && a->s() == "bidirectional" ? 2 : 1;
}

// Input and output positions shared by the three ops (LSTM adds initial_c and P).
enum { kX, kW, kR, kB, kSeqLens, kInitialH, kInitialC, kPeepholes };
enum { kY, kYh, kYc };

void checkRecurrent(const onnx::NodeProto &node, SmallVectorImpl<std::string> &problems) {
  const CellSpec &spec = specOf(node.op_type());
  if (const onnx::AttributeProto *a = findAttr(node, "direction"))
    if (a->s() != "forward" && a->s() != "reverse" && a->s() != "bidirectional")
      problems.push_back("direction '" + a->s() +
                         "' is not supported (forward, reverse or bidirectional)");
  if (const onnx::AttributeProto *a = findAttr(node, "layout"))
    if (a->i() != 0 && a->i() != 1)
      problems.push_back("layout " + std::to_string(a->i()) + " is not supported (0 or 1)");
  if (const onnx::AttributeProto *a = findAttr(node, "activations")) {
    for (const std::string &name : a->strings())
      if (!findActivation(name))
        problems.push_back("activation '" + name + "' is not supported");
    int64_t n = a->strings_size(), perDir = spec.numActivations;
    if (n != perDir && n != perDir * numDirections(node))
      problems.push_back("activations lists " + std::to_string(n) + " functions, expected " +
                         std::to_string(perDir * numDirections(node)) + " (" +
                         std::to_string(perDir) + " per direction)");
  }
  if (const onnx::AttributeProto *a = findAttr(node, "clip"); a && !(a->f() > 0)) {
    std::ostringstream os;
    os << "clip " << a->f() << " is not positive";
    problems.push_back(os.str());
  }
}

/// The emission helpers of one recurrent node. Shapes are validated before any op is built,
/// so the checked helpers of NodeContext cannot fail here.
struct Builder {
  NodeContext &cx;
  Type et;

  static Value ok(FailureOr<Value> v) {
    assert(succeeded(v) && "recurrent converter shapes are validated up front");
    return *v;
  }
  /// a + b; the sum of two constants of one type (the biases Wb + Rb) is taken on the host.
  Value add(Value a, Value b) {
    auto dense = [](Value v) -> DenseElementsAttr {
      auto c = v.getDefiningOp<tl::ConstantOp>();
      return c ? dyn_cast<DenseElementsAttr>(c.getValue()) : nullptr;
    };
    if (dense(a) && dense(b) && a.getType() == b.getType() && isa<FloatType>(et)) {
      SmallVector<double> x = toDoubles(dense(a)), y = toDoubles(dense(b));
      for (size_t i = 0; i < x.size(); ++i)
        x[i] += y[i];
      return cx.constantValue(fromDoubles(cast<RankedTensorType>(a.getType()), x));
    }
    return ok(cx.binary<tl::AddOp>(a, b));
  }
  Value sub(Value a, Value b) { return ok(cx.binary<tl::SubOp>(a, b)); }
  Value mul(Value a, Value b) { return ok(cx.binary<tl::MulOp>(a, b)); }
  Value scalar(double v) { return cx.scalar(et, v); }
  Value reshape(Value v, ArrayRef<int64_t> shape) { return ok(cx.reshape(v, shape)); }
  Value transpose(Value v, ArrayRef<int64_t> perm) { return ok(cx.transpose(v, perm)); }
  Value select(Value c, Value t, Value f) { return ok(cx.select(c, t, f)); }
  Value einsum(StringRef eq, Value a, Value b) { return ok(cx.einsum(eq, ValueRange{a, b})); }
  /// Zeros of `shape`, broadcast from a scalar: a buffer filled at run time (a splat constant
  /// of the state history, which the loop writes, became a global the size of the sequence).
  Value zeros(ArrayRef<int64_t> shape) { return ok(cx.broadcastTo(scalar(0), shape)); }

  /// A box of `v` (unit strides); a constant is sliced on the host, so weights stay constants
  /// that tl-layout-constant-operands can lay out for the contraction reading them.
  Value slice(Value v, ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getShape() == sizes)
      return v;
    auto to = RankedTensorType::get(sizes, t.getElementType());
    if (auto c = v.getDefiningOp<tl::ConstantOp>())
      if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
          dense && isa<FloatType>(t.getElementType())) {
        SmallVector<double> all = toDoubles(dense), out;
        out.reserve(to.getNumElements());
        SmallVector<int64_t> strides(t.getRank(), 1);
        for (int64_t d = t.getRank() - 2; d >= 0; --d)
          strides[d] = strides[d + 1] * t.getDimSize(d + 1);
        SmallVector<int64_t> idx(sizes.size(), 0);
        for (int64_t n = 0; n < to.getNumElements(); ++n) {
          int64_t flat = 0;
          for (size_t d = 0; d < idx.size(); ++d)
            flat += (offsets[d] + idx[d]) * strides[d];
          out.push_back(all[flat]);
          for (int64_t d = idx.size() - 1; d >= 0 && ++idx[d] == sizes[d]; --d)
            idx[d] = 0;
        }
        return cx.constantValue(fromDoubles(to, out));
      }
    SmallVector<int64_t> unit(sizes.size(), 1);
    return tl::SliceOp::create(cx.b, cx.loc, to, v, offsets, sizes, unit).getResult();
  }

  /// Concatenation along `axis`; one operand is returned as is.
  Value concat(ArrayRef<Value> parts, int64_t axis) {
    if (parts.size() == 1)
      return parts[0];
    auto t0 = cast<RankedTensorType>(parts[0].getType());
    SmallVector<int64_t> shape(t0.getShape());
    shape[axis] = 0;
    for (Value p : parts)
      shape[axis] += cast<RankedTensorType>(p.getType()).getDimSize(axis);
    return tl::ConcatOp::create(cx.b, cx.loc, RankedTensorType::get(shape, et), parts, axis)
        .getResult();
  }

  Value activate(const Activation &a, Value x) {
    switch (a.kind) {
    case ActKind::Relu:
      return cx.unary<tl::ReluOp>(x);
    case ActKind::Tanh:
      return cx.unary<tl::TanhOp>(x);
    case ActKind::Sigmoid:
      return cx.unary<tl::SigmoidOp>(x);
    case ActKind::Affine:
      return add(mul(x, scalar(a.alpha)), scalar(a.beta));
    case ActKind::LeakyRelu: {
      Value neg = ok(cx.compare(tl::ComparePredicate::lt, x, scalar(0)));
      return select(neg, mul(x, scalar(a.alpha)), x);
    }
    case ActKind::ThresholdedRelu: {
      Value keep = ok(cx.compare(tl::ComparePredicate::gt, x, scalar(a.alpha)));
      return select(keep, x, scalar(0));
    }
    case ActKind::ScaledTanh:
      return mul(cx.unary<tl::TanhOp>(mul(x, scalar(a.beta))), scalar(a.alpha));
    case ActKind::HardSigmoid: {
      Value lin = add(mul(x, scalar(a.alpha)), scalar(a.beta));
      return ok(cx.binary<tl::MaxOp>(ok(cx.binary<tl::MinOp>(lin, scalar(1))), scalar(0)));
    }
    case ActKind::Elu: {
      Value neg = ok(cx.compare(tl::ComparePredicate::lt, x, scalar(0)));
      Value em1 = sub(cx.unary<tl::ExpOp>(x), scalar(1));
      return select(neg, mul(em1, scalar(a.alpha)), x);
    }
    case ActKind::Softsign:
      return ok(cx.binary<tl::DivOp>(x, add(cx.unary<tl::AbsOp>(x), scalar(1))));
    case ActKind::Softplus: {
      // max(x, 0) + log(1 + exp(-|x|)), which does not overflow.
      Value e = cx.unary<tl::ExpOp>(cx.unary<tl::NegOp>(cx.unary<tl::AbsOp>(x)));
      return add(cx.unary<tl::ReluOp>(x), cx.unary<tl::LogOp>(add(e, scalar(1))));
    }
    }
    llvm_unreachable("every activation kind is handled");
  }
};

/// The sizes of one recurrent node.
struct Dims {
  int64_t seq, batch, input, hidden, dirs, gates;
  bool batchFirst;
};

/// A cell's step: (the input projection at t [batch, gates*hidden], the previous states) to
/// the new states, each [batch, hidden].
using StepFn = function_ref<SmallVector<Value>(Value xt, ArrayRef<Value> prev)>;

/// The loop over time of one direction. `histories` hold the initial states in their first
/// (forward) or last (reverse) slot; returns the final histories.
SmallVector<Value> timeLoop(NodeContext &cx, const Dims &dims, bool reverse, int64_t dir, Value xp,
                            Value mask, ArrayRef<Value> histories, StepFn step) {
  OpBuilder &b = cx.b;
  Location loc = cx.loc;
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Value lb = index(0), ub = index(dims.seq), one = index(1);
  auto loop = scf::ForOp::create(b, loc, lb, ub, one, ValueRange(histories));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value t = loop.getInductionVar();
  if (reverse)
    t = arith::SubIOp::create(b, loc, index(dims.seq - 1), t).getResult();
  Value next = arith::AddIOp::create(b, loc, t, index(1)).getResult();
  Value readSlot = reverse ? next : t, writeSlot = reverse ? t : next;
  Type et = cast<RankedTensorType>(xp.getType()).getElementType();
  auto stateType = RankedTensorType::get({dims.batch, dims.hidden}, et);
  OpFoldResult zero = b.getIndexAttr(0), unit = b.getIndexAttr(1);
  auto at = [&](Value slot) { return SmallVector<OpFoldResult>{slot, zero, zero}; };
  SmallVector<OpFoldResult> stateSizes = {unit, b.getIndexAttr(dims.batch),
                                          b.getIndexAttr(dims.hidden)};
  SmallVector<OpFoldResult> units3(3, unit), units4(4, unit);

  SmallVector<Value> prev;
  for (Value h : loop.getRegionIterArgs())
    prev.push_back(
        tensor::ExtractSliceOp::create(b, loc, stateType, h, at(readSlot), stateSizes, units3));
  auto xtType = RankedTensorType::get({dims.batch, dims.gates}, et);
  Value xt = tensor::ExtractSliceOp::create(
      b, loc, xtType, xp, SmallVector<OpFoldResult>{b.getIndexAttr(dir), t, zero, zero},
      SmallVector<OpFoldResult>{unit, unit, b.getIndexAttr(dims.batch), b.getIndexAttr(dims.gates)},
      units4);
  SmallVector<Value> states = step(xt, prev);
  Value valid;
  if (mask) {
    auto maskType = RankedTensorType::get({dims.batch, 1}, b.getI1Type());
    valid = tensor::ExtractSliceOp::create(
        b, loc, maskType, mask, at(t),
        SmallVector<OpFoldResult>{unit, b.getIndexAttr(dims.batch), unit}, units3);
  }
  SmallVector<Value> updated;
  for (auto [k, s] : llvm::enumerate(states)) {
    if (valid)
      s = Builder::ok(cx.select(valid, s, prev[k]));
    updated.push_back(tensor::InsertSliceOp::create(b, loc, s, loop.getRegionIterArgs()[k],
                                                    at(writeSlot), stateSizes, units3));
  }
  scf::YieldOp::create(b, loc, updated);
  return SmallVector<Value>(loop.getResults());
}

LogicalResult checkShape(NodeContext &cx, size_t input, StringRef name, ArrayRef<int64_t> expected,
                         StringRef meaning) {
  if (!cx.hasInput(input) || cx.shape(input) == expected)
    return success();
  return cx.emitError() << cx.node.op_type() << ": " << name << " has shape "
                        << tl::formatShape(cx.shape(input)) << ", expected "
                        << tl::formatShape(expected) << " (" << meaning << ")";
}

/// Sizes from X and R, checked against every other input.
FailureOr<Dims> resolveDims(NodeContext &cx, const CellSpec &spec) {
  StringRef op = cx.node.op_type();
  if (cx.rank(kX) != 3)
    return cx.emitError() << op << ": X must have rank 3, got rank " << cx.rank(kX);
  if (cx.rank(kR) != 3)
    return cx.emitError() << op << ": R must have rank 3, got rank " << cx.rank(kR);
  Dims d;
  d.batchFirst = cx.attrInt("layout", 0) == 1;
  d.seq = cx.shape(kX)[d.batchFirst ? 1 : 0];
  d.batch = cx.shape(kX)[d.batchFirst ? 0 : 1];
  d.input = cx.shape(kX)[2];
  d.hidden = cx.shape(kR)[2];
  d.dirs = numDirections(cx.node);
  d.gates = spec.gates * d.hidden;
  if (cx.hasAttr("hidden_size") && cx.attrInt("hidden_size", 0) != d.hidden)
    return cx.emitError() << op << ": hidden_size " << cx.attrInt("hidden_size", 0)
                          << " contradicts R of shape " << tl::formatShape(cx.shape(kR))
                          << " (hidden size " << d.hidden << ")";
  if (d.seq == 0 || d.batch == 0 || d.hidden == 0)
    return cx.emitError() << op << ": X of shape " << tl::formatShape(cx.shape(kX))
                          << " and R of shape " << tl::formatShape(cx.shape(kR))
                          << " give an empty sequence, batch or hidden state, which is not "
                             "supported";
  Type et = cx.elementType(kX);
  if (!isa<FloatType>(et))
    return cx.emitError() << op << ": X must be a float tensor, got " << et;
  std::string g = spec.gates == 1 ? "" : std::to_string(spec.gates) + "*";
  SmallVector<int64_t> stateShape = d.batchFirst ? SmallVector<int64_t>{d.batch, d.dirs, d.hidden}
                                                 : SmallVector<int64_t>{d.dirs, d.batch, d.hidden};
  StringRef stateMeaning = d.batchFirst ? "batch_size x num_directions x hidden_size"
                                        : "num_directions x batch_size x hidden_size";
  if (failed(checkShape(cx, kW, "W", {d.dirs, d.gates, d.input},
                        "num_directions x " + g + "hidden_size x input_size")) ||
      failed(checkShape(cx, kR, "R", {d.dirs, d.gates, d.hidden},
                        "num_directions x " + g + "hidden_size x hidden_size")) ||
      failed(checkShape(cx, kB, "B", {d.dirs, 2 * d.gates},
                        "num_directions x " + std::to_string(2 * spec.gates) + "*hidden_size")) ||
      failed(checkShape(cx, kSeqLens, "sequence_lens", {d.batch}, "batch_size")) ||
      failed(checkShape(cx, kInitialH, "initial_h", stateShape, stateMeaning)))
    return failure();
  if (spec.numStates == 2 &&
      (failed(checkShape(cx, kInitialC, "initial_c", stateShape, stateMeaning)) ||
       failed(checkShape(cx, kPeepholes, "P", {d.dirs, 3 * d.hidden},
                         "num_directions x 3*hidden_size"))))
    return failure();
  // X, W, R, B, initial_h/c and P share one element type: the importer checks the schema's
  // type variables (checkTypeBindings) before any converter runs.
  if (cx.hasInput(kSeqLens) && !cx.elementType(kSeqLens).isInteger())
    return cx.emitError() << op << ": sequence_lens must be an integer tensor, got "
                          << cx.elementType(kSeqLens);
  return d;
}

/// Each direction's activations: the attribute's (alphas and betas consumed in order by the
/// functions that take them; one direction's list serves both), or the op's defaults.
SmallVector<SmallVector<Activation>> activationsOf(NodeContext &cx, const CellSpec &spec,
                                                   int64_t dirs) {
  SmallVector<std::string> names;
  if (const onnx::AttributeProto *a = cx.attr("activations"))
    names.append(a->strings().begin(), a->strings().end());
  if (names.empty())
    names.append(spec.defaultActivations, spec.defaultActivations + spec.numActivations);
  if ((int64_t)names.size() == spec.numActivations && dirs == 2)
    names.append(SmallVector<std::string>(names));
  SmallVector<float> alphas, betas;
  if (const onnx::AttributeProto *a = cx.attr("activation_alpha"))
    alphas.append(a->floats().begin(), a->floats().end());
  if (const onnx::AttributeProto *a = cx.attr("activation_beta"))
    betas.append(a->floats().begin(), a->floats().end());
  size_t nextAlpha = 0, nextBeta = 0;
  SmallVector<SmallVector<Activation>> out(dirs);
  for (auto [i, name] : llvm::enumerate(names)) {
    const ActivationInfo *info = findActivation(name);
    assert(info && "the pre-flight check rejects unknown activations");
    Activation act{info->kind, info->alpha, info->beta};
    if (info->numParams >= 1 && nextAlpha < alphas.size())
      act.alpha = alphas[nextAlpha++];
    if (info->numParams >= 2 && nextBeta < betas.size())
      act.beta = betas[nextBeta++];
    out[i / spec.numActivations].push_back(act);
  }
  return out;
}

/// `t < sequence_lens[b]` as a [T, batch, 1] mask, or null when every sequence is full.
FailureOr<Value> validSteps(NodeContext &cx, const Dims &d) {
  if (!cx.hasInput(kSeqLens))
    return Value();
  Type it = cx.elementType(kSeqLens);
  if (DenseElementsAttr lens = cx.constant(kSeqLens)) {
    SmallVector<int64_t> v = toInts(lens);
    for (int64_t n : v)
      if (n < 0 || n > d.seq)
        return cx.emitError() << cx.node.op_type() << ": sequence_lens value " << n
                              << " is outside 0.." << d.seq << " (the sequence length)";
    if (llvm::all_of(v, [&](int64_t n) { return n == d.seq; }))
      return Value();
  }
  TLC_TRY(lens, cx.reshape(cx.value(kSeqLens), {1, d.batch}));
  TLC_TRY(steps, cx.iota(2, 0, d.seq, it));
  TLC_TRY(mask, cx.compare(tl::ComparePredicate::lt, steps, lens));
  return cx.reshape(mask, {d.seq, d.batch, 1});
}

/// Clips a gate's pre-activation to [-clip, clip] when the node sets `clip`.
Value clipped(Builder &bd, Value x) {
  if (!bd.cx.hasAttr("clip"))
    return x;
  double c = bd.cx.attrFloat("clip", 0);
  Value lo = Builder::ok(bd.cx.binary<tl::MaxOp>(x, bd.scalar(-c)));
  return Builder::ok(bd.cx.binary<tl::MinOp>(lo, bd.scalar(c)));
}

LogicalResult convertRecurrent(NodeContext &cx) {
  StringRef op = cx.node.op_type();
  const CellSpec &spec = specOf(op);
  if (cx.training)
    return cx.emitError() << op
                          << " cannot be trained (--train): gradients through recurrent "
                             "ops are not supported";
  TLC_TRY(d, resolveDims(cx, spec));
  TLC_TRY(mask, validSteps(cx, d));
  Builder bd{cx, cx.elementType(kX)};
  int64_t H = d.hidden, G = d.gates;
  bool gruLinearBeforeReset = &spec == &kGRU && cx.attrInt("linear_before_reset", 0) != 0;
  bool inputForget = &spec == &kLSTM && cx.attrInt("input_forget", 0) != 0;
  auto acts = activationsOf(cx, spec, d.dirs);

  // The input projection of every step and direction: one contraction, with the biases that
  // do not depend on the state added to it.
  Value xp =
      bd.einsum(d.batchFirst ? "bti,dgi->dtbg" : "tbi,dgi->dtbg", cx.value(kX), cx.value(kW));
  Value recurrentBias; // GRU with linear_before_reset: Rb of the h gate, [D, H]
  if (cx.hasInput(kB)) {
    Value bias = cx.value(kB);
    Value wb = bd.slice(bias, {0, 0}, {d.dirs, G}), rb = bd.slice(bias, {0, G}, {d.dirs, G});
    Value sum;
    if (gruLinearBeforeReset) {
      recurrentBias = bd.slice(rb, {0, 2 * H}, {d.dirs, H});
      Value zr =
          bd.add(bd.slice(wb, {0, 0}, {d.dirs, 2 * H}), bd.slice(rb, {0, 0}, {d.dirs, 2 * H}));
      sum = bd.concat({zr, bd.slice(wb, {0, 2 * H}, {d.dirs, H})}, 1);
    } else {
      sum = bd.add(wb, rb);
    }
    xp = bd.add(xp, bd.reshape(sum, {d.dirs, 1, 1, G}));
  }

  Value zeroStates = bd.zeros({d.seq + 1, d.batch, H});
  SmallVector<SmallVector<Value>> histories; // per direction, per state
  for (int64_t dir = 0; dir < d.dirs; ++dir) {
    bool reverse = cx.attrString("direction", "forward") == "reverse" || dir == 1;
    // Initial states into their slot of each history.
    SmallVector<Value> init;
    for (size_t input : {(size_t)kInitialH, (size_t)kInitialC}) {
      if (init.size() == (size_t)spec.numStates)
        break;
      if (!cx.hasInput(input)) {
        init.push_back(zeroStates);
        continue;
      }
      Value s = d.batchFirst ? bd.slice(cx.value(input), {0, dir, 0}, {d.batch, 1, H})
                             : bd.slice(cx.value(input), {dir, 0, 0}, {1, d.batch, H});
      s = bd.reshape(s, {1, d.batch, H});
      Value rest = bd.zeros({d.seq, d.batch, H});
      init.push_back(reverse ? bd.concat({rest, s}, 0) : bd.concat({s, rest}, 0));
    }
    const SmallVector<Activation> &act = acts[dir];
    // Rows [row, row + rows) of this direction's R, sliced before the reshape so that a
    // constant R is sliced on the host.
    auto recurrentWeights = [&](int64_t row, int64_t rows) {
      return bd.reshape(bd.slice(cx.value(kR), {dir, row, 0}, {1, rows, H}), {rows, H});
    };
    Value r = recurrentWeights(0, G);
    auto gate = [&](Value v, int64_t k) { return bd.slice(v, {0, k * H}, {d.batch, H}); };
    auto recur = [&](Value h, Value weights) { return bd.einsum("bh,gh->bg", h, weights); };

    // Weights the step reads, sliced outside the loop.
    Value peepI, peepO, peepF, rbH, rZR, rH;
    if (&spec == &kLSTM && cx.hasInput(kPeepholes)) {
      Value p = bd.slice(cx.value(kPeepholes), {dir, 0}, {1, 3 * H});
      peepI = bd.slice(p, {0, 0}, {1, H});
      peepO = bd.slice(p, {0, H}, {1, H});
      peepF = bd.slice(p, {0, 2 * H}, {1, H});
    }
    if (recurrentBias)
      rbH = bd.slice(recurrentBias, {dir, 0}, {1, H});
    if (&spec == &kGRU && !gruLinearBeforeReset) {
      rZR = recurrentWeights(0, 2 * H);
      rH = recurrentWeights(2 * H, H);
    }

    auto lstmStep = [&](Value xt, ArrayRef<Value> prev) -> SmallVector<Value> {
      Value h = prev[0], c = prev[1];
      Value pre = bd.add(xt, recur(h, r));
      Value iPre = gate(pre, 0), oPre = gate(pre, 1), fPre = gate(pre, 2), cPre = gate(pre, 3);
      if (peepI) {
        iPre = bd.add(iPre, bd.mul(peepI, c));
        fPre = bd.add(fPre, bd.mul(peepF, c));
      }
      Value i = bd.activate(act[0], clipped(bd, iPre));
      Value f = inputForget ? bd.sub(bd.scalar(1), i) : bd.activate(act[0], clipped(bd, fPre));
      Value cNew = bd.add(bd.mul(f, c), bd.mul(i, bd.activate(act[1], clipped(bd, cPre))));
      if (peepO)
        oPre = bd.add(oPre, bd.mul(peepO, cNew));
      Value o = bd.activate(act[0], clipped(bd, oPre));
      return {bd.mul(o, bd.activate(act[2], cNew)), cNew};
    };
    auto gruStep = [&](Value xt, ArrayRef<Value> prev) -> SmallVector<Value> {
      Value h = prev[0];
      Value z, rGate, hPre;
      if (gruLinearBeforeReset) {
        Value hr = recur(h, r);
        z = bd.activate(act[0], clipped(bd, bd.add(gate(xt, 0), gate(hr, 0))));
        rGate = bd.activate(act[0], clipped(bd, bd.add(gate(xt, 1), gate(hr, 1))));
        Value hh = gate(hr, 2);
        if (rbH)
          hh = bd.add(hh, rbH);
        hPre = bd.add(gate(xt, 2), bd.mul(rGate, hh));
      } else {
        Value hr = recur(h, rZR);
        z = bd.activate(act[0], clipped(bd, bd.add(gate(xt, 0), gate(hr, 0))));
        rGate = bd.activate(act[0], clipped(bd, bd.add(gate(xt, 1), gate(hr, 1))));
        hPre = bd.add(gate(xt, 2), recur(bd.mul(rGate, h), rH));
      }
      Value candidate = bd.activate(act[1], clipped(bd, hPre));
      // (1 - z) * candidate + z * h
      return {bd.add(candidate, bd.mul(z, bd.sub(h, candidate)))};
    };
    auto rnnStep = [&](Value xt, ArrayRef<Value> prev) -> SmallVector<Value> {
      return {bd.activate(act[0], clipped(bd, bd.add(xt, recur(prev[0], r))))};
    };
    StepFn step = &spec == &kLSTM  ? StepFn(lstmStep)
                  : &spec == &kGRU ? StepFn(gruStep)
                                   : StepFn(rnnStep);
    histories.push_back(timeLoop(cx, d, reverse, dir, xp, mask, init, step));
  }

  // Y: [T, D, batch, H] (layout 1: [batch, T, D, H]), zero past each sequence's end.
  if (cx.hasOutput(kY)) {
    SmallVector<Value> perDir;
    for (auto [dir, hist] : llvm::enumerate(histories)) {
      bool reverse = cx.attrString("direction", "forward") == "reverse" || dir == 1;
      Value y = bd.slice(hist[0], {reverse ? 0 : 1, 0, 0}, {d.seq, d.batch, H});
      perDir.push_back(bd.reshape(y, {d.seq, 1, d.batch, H}));
    }
    Value y = bd.concat(perDir, 1);
    if (mask)
      y = bd.select(bd.reshape(mask, {d.seq, 1, d.batch, 1}), y, bd.scalar(0));
    if (d.batchFirst)
      y = bd.transpose(y, {2, 0, 1, 3});
    cx.setOutput(kY, y);
  }
  // Y_h, Y_c: [D, batch, H] (layout 1: [batch, D, H]), the state after the last valid step.
  for (int k = 0; k < spec.numStates; ++k) {
    if (!cx.hasOutput(kYh + k))
      continue;
    SmallVector<Value> perDir;
    for (auto [dir, hist] : llvm::enumerate(histories)) {
      bool reverse = cx.attrString("direction", "forward") == "reverse" || dir == 1;
      perDir.push_back(bd.slice(hist[k], {reverse ? 0 : d.seq, 0, 0}, {1, d.batch, H}));
    }
    Value last = bd.concat(perDir, 0);
    if (d.batchFirst)
      last = bd.transpose(last, {1, 0, 2});
    cx.setOutput(kYh + k, last);
  }
  return success();
}

} // namespace

void tlc::onnx_import::registerRecurrentConverters(ConverterTable &t) {
  t["RNN"] = {convertRecurrent, checkRecurrent};
  t["GRU"] = {convertRecurrent, checkRecurrent};
  t["LSTM"] = {convertRecurrent, checkRecurrent};
}
