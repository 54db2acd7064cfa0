/* Names and element sizes of the tensor element types models exchange with callers. */
#include "tlc/runtime.h"

const char *tlc_dtype_name(tlc_dtype dtype) {
  switch (dtype) {
  case TLC_DTYPE_F32:
    return "f32";
  case TLC_DTYPE_F64:
    return "f64";
  case TLC_DTYPE_F16:
    return "f16";
  case TLC_DTYPE_BF16:
    return "bf16";
  case TLC_DTYPE_I32:
    return "i32";
  case TLC_DTYPE_I64:
    return "i64";
  case TLC_DTYPE_I1:
    return "i1";
  case TLC_DTYPE_I8:
    return "i8";
  case TLC_DTYPE_U8:
    return "u8";
  case TLC_DTYPE_I16:
    return "i16";
  case TLC_DTYPE_U16:
    return "u16";
  case TLC_DTYPE_U32:
    return "u32";
  }
  return "?";
}

size_t tlc_dtype_size(tlc_dtype dtype) {
  switch (dtype) {
  case TLC_DTYPE_F32:
  case TLC_DTYPE_I32:
  case TLC_DTYPE_U32:
    return 4;
  case TLC_DTYPE_F64:
  case TLC_DTYPE_I64:
    return 8;
  case TLC_DTYPE_F16:
  case TLC_DTYPE_BF16:
  case TLC_DTYPE_I16:
  case TLC_DTYPE_U16:
    return 2;
  case TLC_DTYPE_I8:
  case TLC_DTYPE_U8:
  case TLC_DTYPE_I1:
    return 1; /* one byte per bool, not bit-packed: see the generated ABI */
  }
  return 0;
}
