// The CPU targets' lowering strategies for the shared tl-lower-to-linalg: softmax, log_softmax
// and layer_norm as loops over rows, attention as the flash-attention loop nest.
#include "passes/TargetLoweringPatterns.h"
#include "targets/cpu/CPUPasses.h"

#include "TL/TLDialect.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace tlc;

namespace {

struct CPULoweringPatterns final : TargetLoweringPatterns {
  using TargetLoweringPatterns::TargetLoweringPatterns;
  void populateRowOpPatterns(RewritePatternSet &patterns) const override {
    populateTLRowOpsToLinalgPatterns(patterns);
  }
  void populateTiledAttentionPatterns(RewritePatternSet &patterns) const override {
    populateTLAttentionToLinalgPatterns(patterns);
  }
};

} // namespace

void tlc::registerCPULoweringPatterns(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, tl::TLDialect *dialect) {
    dialect->addInterfaces<CPULoweringPatterns>();
  });
}
