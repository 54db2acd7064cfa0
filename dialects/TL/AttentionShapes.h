// Shape rule of tl.attention, shared by its verifier and the frontends.
#ifndef TLC_DIALECTS_TL_ATTENTIONSHAPES_H
#define TLC_DIALECTS_TL_ATTENTIONSHAPES_H

#include "TL/Shapes.h"

namespace tlc::tl {

/// The result type of attention over `query` [B..., Sq, D], `key` [B..., Sk, D] and `value`
/// [B..., Sk, Dv] with an optional additive `mask` (null type: none) broadcasting to
/// [B..., Sq, Sk]: [B..., Sq, Dv]. Fails with a message naming the mismatch.
llvm::FailureOr<mlir::RankedTensorType>
attentionResultType(mlir::RankedTensorType query, mlir::RankedTensorType key,
                    mlir::RankedTensorType value, mlir::RankedTensorType mask,
                    EmitErrorFn emitError);

} // namespace tlc::tl

#endif // TLC_DIALECTS_TL_ATTENTIONSHAPES_H
