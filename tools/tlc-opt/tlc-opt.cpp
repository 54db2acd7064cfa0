// tlc-opt: mlir-opt with the tl dialect and every tlc pass, for running and testing passes alone.
#include "compiler/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tlc::registerAllDialects(registry);
  tlc::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tlc optimizer driver (tl dialect and tlc passes)\n", registry));
}
