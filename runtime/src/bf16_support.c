/* float -> bfloat16 rounding for compiled models, where the compiler runtime lacks it. */
#include <stdint.h>
#include <string.h>

/* LLVM's x86 and AArch64 code generators call __truncsfbf2 where they legalize a bf16 operation
 * by promoting it to float (e.g. a select of a constant bf16 vector with undefined lanes, as a
 * masked tail of a float -> bf16 conversion becomes). libgcc has it only from GCC 13 (Debian 12
 * ships 12), so generated objects would not link. Weak: a compiler runtime's definition wins.
 * bfloat16 values are returned like _Float16 ones (the low 16 bits of xmm0 / h0). Rounds to
 * nearest even; a NaN stays a quiet NaN of the same sign. */
#if defined(__x86_64__) || defined(__aarch64__)
__attribute__((weak)) _Float16 __truncsfbf2(float x);

_Float16 __truncsfbf2(float x) {
  uint32_t bits;
  memcpy(&bits, &x, sizeof bits);
  uint16_t out;
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    out = (uint16_t)((bits >> 16) | 0x0040u);
  else
    out = (uint16_t)((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
  _Float16 result;
  memcpy(&result, &out, sizeof result);
  return result;
}
#endif
