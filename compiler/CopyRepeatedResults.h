// Gives every function result its own tensor before bufferization (a value returned twice).
#ifndef TLC_COMPILER_COPYREPEATEDRESULTS_H
#define TLC_COMPILER_COPYREPEATEDRESULTS_H

#include "mlir/IR/BuiltinOps.h"

namespace tlc {

/// Replaces each repeated operand of a func.return (the same value returned as two outputs,
/// written so or merged by CSE) with a copy of it. Results-to-out-params turns each returned
/// allocation into one caller buffer, and one allocation cannot become two (it crashed there).
void copyRepeatedResults(mlir::ModuleOp module);

} // namespace tlc

#endif // TLC_COMPILER_COPYREPEATEDRESULTS_H
