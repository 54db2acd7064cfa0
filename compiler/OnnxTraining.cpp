// `tlc model.onnx --train`: a training step built around an imported forward graph.
#include "compiler/OnnxTraining.h"

#include "TrainStep.h"

#include "TL/Losses.h"
#include "TL/TLDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tlc;

LogicalResult tlc::addOnnxTraining(ModuleOp module, llvm::StringRef name,
                                   const OnnxTrainOptions &options) {
  auto func = module.lookupSymbol<func::FuncOp>(name);
  Location loc = func.getLoc();
  std::string error;
  FailureOr<tl::OptimizerConfig> config = parseOptimizerSpec(options.optimizer, error);
  if (failed(config))
    return emitError(loc) << "--optimizer: " << error;
  if (options.loss != "cross_entropy" && options.loss != "mse" && options.loss != "bce")
    return emitError(loc) << "--loss must be cross_entropy, mse or bce, got '" << options.loss
                          << "'";
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  Value pred = ret.getOperand(0);
  auto predType = cast<RankedTensorType>(pred.getType());
  if (!isa<FloatType>(predType.getElementType()))
    return emitError(loc) << "the model's first output, the prediction the loss compares, must "
                             "be a float tensor, got "
                          << predType;
  OpBuilder b(ret);
  auto named = [&](StringRef n) {
    return b.getDictionaryAttr(b.getNamedAttr("tl.name", b.getStringAttr(n)));
  };
  unsigned index = func.getNumArguments();
  Value loss;
  if (options.loss == "cross_entropy") {
    if (predType.getRank() != 2)
      return emitError(loc) << "--loss=cross_entropy needs a first output of shape [N, C] "
                               "(logits), got "
                            << predType;
    auto labelsType = RankedTensorType::get({predType.getDimSize(0)}, b.getI64Type());
    (void)func.insertArgument(index, labelsType, named("labels"), loc);
    loss = tl::buildCrossEntropy(b, loc, pred, func.getArgument(index), 0.0,
                                 tl::LossReduction::Mean);
  } else {
    (void)func.insertArgument(index, predType, named("target"), loc);
    loss = options.loss == "mse"
               ? tl::buildMSELoss(b, loc, pred, func.getArgument(index), tl::LossReduction::Mean)
               : tl::buildBCEWithLogits(b, loc, pred, func.getArgument(index),
                                        tl::LossReduction::Mean);
  }
  (void)func.insertResult(0, loss.getType(), named("loss"));
  ret->insertOperands(0, loss);

  llvm::StringSet<> frozen;
  for (const std::string &n : options.freeze)
    frozen.insert(n);
  SmallVector<TrainParam> params;
  llvm::StringSet<> known;
  func.walk([&](tl::ConstantOp c) {
    auto cname = c->getAttrOfType<StringAttr>("tl.param");
    auto onnxName = c->getAttrOfType<StringAttr>("tl.onnx_name");
    c->removeAttr("tl.onnx_name"); // also on running statistics (tl.state_buffer)
    if (!cname || !onnxName)
      return;
    known.insert(onnxName.getValue());
    c->removeAttr("tl.param");
    if (!frozen.contains(onnxName.getValue()))
      params.push_back({cname.str(), c});
  });
  for (const std::string &n : options.freeze)
    if (!known.contains(n))
      return emitError(loc) << "--freeze names '" << n << "', which is not a weight of the model";
  return buildTrainingStep(func, loss, params, *config, loc);
}
