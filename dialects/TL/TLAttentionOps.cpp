// Shape rule, verifier and cost model of tl.attention; verifier and effects of tl.fused_attention.
#include "TL/AttentionShapes.h"
#include "TL/TLDialect.h"

#include <cmath>

using namespace mlir;
using namespace tlc::tl;

FailureOr<RankedTensorType> tlc::tl::attentionResultType(RankedTensorType q, RankedTensorType k,
                                                         RankedTensorType v,
                                                         RankedTensorType mask,
                                                         EmitErrorFn emitError) {
  Type et = q.getElementType();
  using Named = std::pair<StringRef, RankedTensorType>;
  SmallVector<Named> others = {{"key", k}, {"value", v}};
  if (mask)
    others.push_back({"mask", mask});
  for (auto [name, t] : others)
    if (t.getElementType() != et) {
      emitError() << name << " element type " << t.getElementType() << " differs from query's "
                  << et;
      return failure();
    }
  int64_t rank = q.getRank();
  if (rank < 2) {
    emitError() << "query must have rank >= 2 ([batch..., seq, head_dim]), got shape "
                << formatShape(q.getShape());
    return failure();
  }
  ArrayRef<int64_t> batch = q.getShape().drop_back(2);
  for (auto [name, t] : ArrayRef<Named>(others).take_front(2))
    if (t.getRank() != rank || t.getShape().drop_back(2) != batch) {
      emitError() << name << " shape " << formatShape(t.getShape())
                  << " does not match query shape " << formatShape(q.getShape())
                  << " (same rank and batch dimensions)";
      return failure();
    }
  int64_t sq = q.getDimSize(rank - 2), d = q.getDimSize(rank - 1);
  int64_t sk = k.getDimSize(rank - 2), dv = v.getDimSize(rank - 1);
  if (k.getDimSize(rank - 1) != d) {
    emitError() << "key head dimension " << k.getDimSize(rank - 1)
                << " differs from query head dimension " << d;
    return failure();
  }
  if (v.getDimSize(rank - 2) != sk) {
    emitError() << "value sequence length " << v.getDimSize(rank - 2)
                << " differs from key sequence length " << sk;
    return failure();
  }
  SmallVector<int64_t> scores(batch);
  scores.append({sq, sk});
  if (mask && failed(checkBroadcastTo(mask.getShape(), scores, [&] {
        return emitError() << "mask does not broadcast to the scores [batch..., Sq, Sk]: ";
      })))
    return failure();
  SmallVector<int64_t> result(batch);
  result.append({sq, dv});
  return RankedTensorType::get(result, et);
}

LogicalResult AttentionOp::verify() {
  RankedTensorType mask =
      getMask() ? cast<RankedTensorType>(getMask().getType()) : RankedTensorType();
  FailureOr<RankedTensorType> expected =
      attentionResultType(getQuery().getType(), getKey().getType(), getValue().getType(), mask,
                          [&] { return emitOpError(); });
  if (failed(expected))
    return failure();
  if (*expected != getType())
    return emitOpError() << "result type " << getType() << " differs from the expected "
                         << *expected;
  double scale = getScale().convertToDouble();
  if (!std::isfinite(scale))
    return emitOpError() << "scale must be finite, got " << scale;
  return success();
}

// Two contractions (Q K^T and P V) of 2 flops per multiply-add, and about five flops per score
// for the scaling, mask, running maximum, exponential and sum; causal attention skips about half.
int64_t AttentionOp::getFlopCount() {
  RankedTensorType q = getQuery().getType(), v = getValue().getType();
  int64_t rank = q.getRank();
  int64_t batch = 1;
  for (int64_t b : q.getShape().drop_back(2))
    batch *= b;
  int64_t sq = q.getDimSize(rank - 2), d = q.getDimSize(rank - 1);
  int64_t sk = v.getDimSize(rank - 2), dv = v.getDimSize(rank - 1);
  int64_t flops = batch * sq * sk * (2 * d + 2 * dv + 5);
  return getCausal() ? flops / 2 : flops;
}

LogicalResult FusedAttentionOp::verify() {
  // The shape rule of tl.attention over the operands' shapes, tensors or buffers alike.
  auto asTensor = [](Value v) -> RankedTensorType {
    if (!v)
      return {};
    auto shaped = cast<ShapedType>(v.getType());
    return RankedTensorType::get(shaped.getShape(), shaped.getElementType());
  };
  FailureOr<RankedTensorType> expected =
      attentionResultType(asTensor(getQuery()), asTensor(getKey()), asTensor(getValue()),
                          asTensor(getMask()), [&] { return emitOpError(); });
  if (failed(expected))
    return failure();
  if (asTensor(getInit()) != *expected)
    return emitOpError() << "init shape " << formatShape(asTensor(getInit()).getShape())
                         << " differs from the result's " << formatShape(expected->getShape());
  bool tensors = isa<RankedTensorType>(getInit().getType());
  for (Value operand : getOperands())
    if (isa<RankedTensorType>(operand.getType()) != tensors)
      return emitOpError() << "operands must be all tensors or all buffers";
  if (tensors != (getNumResults() == 1) ||
      (tensors && getResult().front().getType() != getInit().getType()))
    return emitOpError() << "has one result, of init's type, on tensors and none on buffers";
  if (!std::isfinite(getScale().convertToDouble()))
    return emitOpError() << "scale must be finite";
  return success();
}

void FusedAttentionOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    if (&operand == &getInitMutable())
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}
