// The tl dialect: graph-level tensor programs (einsums, elementwise math, reductions, shape ops).
#ifndef TL_BASE_TD
#define TL_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def TL_Dialect : Dialect {
  let name = "tl";
  let cppNamespace = "::tlc::tl";
  let summary = "Graph-level tensor programs: einsum graphs and model operators";
  let description = [{
    The `tl` dialect models what a tensor program means, not how it runs: einsum contractions,
    elementwise math with numpy broadcasting, reductions, softmax, casts, constants and shape
    operations, all on ranked tensors with static shapes. Passes query ops through interfaces
    (elementwise body, reduction combiner, cost) rather than by name, and everything below this
    dialect is upstream MLIR (linalg, tensor, arith, math).
  }];
  let hasConstantMaterializer = 1;
}

// Element types every op is written over.
def TL_Float : AnyTypeOf<[F16, BF16, F32, F64]>;
def TL_Int : AnyTypeOf<[I1, I32, I64]>;
def TL_Element : AnyTypeOf<[TL_Float, TL_Int]>;
def TL_Tensor : StaticShapeTensorOf<[TL_Element]>;
// 8- and 16-bit integers are storage types only (ONNX's uint8 ... at a model's boundary):
// constants and casts carry them, every other op computes in i32 or i64.
def TL_StorageTensor : StaticShapeTensorOf<[TL_Element, I8, I16]>;
def TL_FloatTensor : StaticShapeTensorOf<[TL_Float]>;
def TL_BoolTensor : StaticShapeTensorOf<[I1]>;

def TL_GeluApproxNone : I32EnumAttrCase<"none", 0>;
def TL_GeluApproxTanh : I32EnumAttrCase<"tanh", 1>;
def TL_GeluApproximation : I32EnumAttr<"GeluApproximation",
    "how GELU is computed: exactly with erf, or with the tanh formula",
    [TL_GeluApproxNone, TL_GeluApproxTanh]> {
  let cppNamespace = "::tlc::tl";
}

def TL_CmpEq : I32EnumAttrCase<"eq", 0>;
def TL_CmpNe : I32EnumAttrCase<"ne", 1>;
def TL_CmpLt : I32EnumAttrCase<"lt", 2>;
def TL_CmpLe : I32EnumAttrCase<"le", 3>;
def TL_CmpGt : I32EnumAttrCase<"gt", 4>;
def TL_CmpGe : I32EnumAttrCase<"ge", 5>;
def TL_ComparePredicate : I32EnumAttr<"ComparePredicate", "elementwise comparison",
    [TL_CmpEq, TL_CmpNe, TL_CmpLt, TL_CmpLe, TL_CmpGt, TL_CmpGe]> {
  let cppNamespace = "::tlc::tl";
}

#endif // TL_BASE_TD
