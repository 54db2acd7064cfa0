// Registration of every dialect, interface model, pass and translation tlc uses.
#ifndef TLC_COMPILER_REGISTRATION_H
#define TLC_COMPILER_REGISTRATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tlc {
/// Dialects, external interface models (bufferization, LLVM conversion) and translations.
void registerAllDialects(mlir::DialectRegistry &registry);
/// tlc's passes plus the upstream passes its pipelines use.
void registerAllPasses();
} // namespace tlc

#endif // TLC_COMPILER_REGISTRATION_H
