/* Unit tests for libtlcrt's CPU feature detection and variant choice (tlc/cpu_features.h). */
#define _POSIX_C_SOURCE 200809L
#include "tlc/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define BIT(f) (UINT64_C(1) << TLC_CPU_FEATURE_##f)

static void test_names(void) {
  CHECK(TLC_CPU_FEATURE_COUNT <= 64);
  for (int f = 0; f < TLC_CPU_FEATURE_COUNT; ++f) {
    const char *name = tlc_cpu_feature_name((tlc_cpu_feature)f);
    CHECK(name != NULL && name[0] != '\0');
    CHECK(tlc_cpu_feature_from_name(name) == f); /* names are unique */
  }
  CHECK(strcmp(tlc_cpu_feature_name(TLC_CPU_FEATURE_AVX512F), "avx512f") == 0);
  CHECK(strcmp(tlc_cpu_feature_name(TLC_CPU_FEATURE_SSE4_1), "sse4.1") == 0);
  CHECK(tlc_cpu_feature_from_name("avx2") == TLC_CPU_FEATURE_AVX2);
  CHECK(tlc_cpu_feature_from_name("avx512bf16") == TLC_CPU_FEATURE_AVX512BF16);
  CHECK(tlc_cpu_feature_from_name("amx-tile") == -1);
  CHECK(tlc_cpu_feature_from_name("") == -1);
  CHECK(tlc_cpu_feature_from_name(NULL) == -1);
  CHECK(tlc_cpu_feature_name(TLC_CPU_FEATURE_COUNT) == NULL);
  CHECK(tlc_cpu_feature_name((tlc_cpu_feature)-1) == NULL);
  /* The bit positions are ABI: spot-check that the list was only appended to. */
  CHECK(TLC_CPU_FEATURE_CMOV == 0);
  CHECK(TLC_CPU_FEATURE_AVX2 == 25);
  CHECK(TLC_CPU_FEATURE_AVX512F == 27);
  CHECK(TLC_CPU_FEATURE_AVX512BF16 == 46);
  /* The AArch64 table: its own bit positions (masks index the running architecture's table). */
  CHECK(TLC_AARCH64_CPU_FEATURE_COUNT <= 64);
  CHECK(TLC_AARCH64_CPU_FEATURE_FP == 0);
  CHECK(TLC_AARCH64_CPU_FEATURE_NEON == 1);
  CHECK(TLC_AARCH64_CPU_FEATURE_DOTPROD == 13);
  CHECK(TLC_AARCH64_CPU_FEATURE_SVE == 14);
  CHECK(TLC_AARCH64_CPU_FEATURE_MOPS == 30);
}

static void test_pick(void) {
  const uint64_t v3 = BIT(AVX) | BIT(AVX2) | BIT(FMA) | BIT(BMI2);
  const uint64_t v4 = v3 | BIT(AVX512F) | BIT(AVX512BW) | BIT(AVX512VL);
  const tlc_cpu_variant variants[] = {{"x86-64-v4", v4}, {"x86-64-v3", v3}, {"x86-64", 0}};
  /* Automatic: the first (most capable) variant the host can run. */
  CHECK(tlc_cpu_pick_variant(variants, 3, v4 | BIT(SHA), NULL) == 0);
  CHECK(tlc_cpu_pick_variant(variants, 3, v4, "") == 0); /* empty means not forced */
  CHECK(tlc_cpu_pick_variant(variants, 3, v3, NULL) == 1);
  CHECK(tlc_cpu_pick_variant(variants, 3, v4 & ~BIT(AVX512VL), NULL) == 1); /* one bit short */
  CHECK(tlc_cpu_pick_variant(variants, 3, BIT(SSE2), NULL) == 2);
  CHECK(tlc_cpu_pick_variant(variants, 2, BIT(AVX) | BIT(AVX2), NULL) == -1); /* none runs */
  /* Forced. */
  CHECK(tlc_cpu_pick_variant(variants, 3, v4, "x86-64-v3") == 1);
  CHECK(tlc_cpu_pick_variant(variants, 3, v4, "x86-64") == 2);
  CHECK(tlc_cpu_pick_variant(variants, 3, v3, "x86-64-v4") == -1); /* never a SIGILL */
  CHECK(tlc_cpu_pick_variant(variants, 3, v4, "znver4") == -1);    /* no such variant */
  /* Degenerate tables. */
  CHECK(tlc_cpu_pick_variant(NULL, 3, v4, NULL) == -1);
  CHECK(tlc_cpu_pick_variant(variants, 0, v4, NULL) == -1);
}

static void test_select_env(void) {
  const uint64_t host = tlc_cpu_host_features();
  const tlc_cpu_variant variants[] = {{"impossible", ~UINT64_C(0)}, {"any", 0}};
  unsetenv("TLC_CPU_VARIANT");
  CHECK(tlc_cpu_select_variant("m", variants, 2) == 1);
  setenv("TLC_CPU_VARIANT", "any", 1);
  CHECK(tlc_cpu_select_variant("m", variants, 2) == 1);
  setenv("TLC_CPU_VARIANT", "impossible", 1);
  CHECK(tlc_cpu_select_variant("m", variants, 2) == -1);
  setenv("TLC_CPU_VARIANT", "missing", 1);
  CHECK(tlc_cpu_select_variant("m", variants, 2) == -1);
  setenv("TLC_CPU_VARIANT", "", 1);
  CHECK(tlc_cpu_select_variant("m", variants, 2) == 1);
  unsetenv("TLC_CPU_VARIANT");
  const tlc_cpu_variant exact[] = {{"host", host}};
  CHECK(tlc_cpu_select_variant("m", exact, 1) == 0);
}

/* The host mask against the compiler's own detection (libgcc/compiler-rt's __cpu_model, which
 * also applies the OS register-state rules), for the features both know. */
static void test_host_features(void) {
  uint64_t host = tlc_cpu_host_features();
  CHECK(host == tlc_cpu_host_features());
#if defined(__x86_64__)
  CHECK(host & BIT(SSE2)); /* baseline of x86-64 */
  CHECK(host & BIT(CMOV));
  __builtin_cpu_init();
#define SAME(f, name) CHECK(!!(host & BIT(f)) == !!__builtin_cpu_supports(name))
  SAME(CMOV, "cmov");
  SAME(MMX, "mmx");
  SAME(POPCNT, "popcnt");
  SAME(SSE, "sse");
  SAME(SSE2, "sse2");
  SAME(SSE3, "sse3");
  SAME(SSSE3, "ssse3");
  SAME(SSE4_1, "sse4.1");
  SAME(SSE4_2, "sse4.2");
  SAME(AVX, "avx");
  SAME(AVX2, "avx2");
  SAME(SSE4A, "sse4a");
  SAME(FMA, "fma");
  SAME(AVX512F, "avx512f");
  SAME(BMI, "bmi");
  SAME(BMI2, "bmi2");
  SAME(AES, "aes");
  SAME(PCLMUL, "pclmul");
  SAME(AVX512VL, "avx512vl");
  SAME(AVX512BW, "avx512bw");
  SAME(AVX512DQ, "avx512dq");
  SAME(AVX512CD, "avx512cd");
  SAME(AVX512VBMI, "avx512vbmi");
  SAME(AVX512IFMA, "avx512ifma");
  SAME(AVX512VPOPCNTDQ, "avx512vpopcntdq");
  SAME(AVX512VBMI2, "avx512vbmi2");
#undef SAME
  /* Implications the hardware guarantees. */
  if (host & BIT(AVX512F))
    CHECK(host & BIT(AVX2));
  if (host & BIT(AVX2))
    CHECK(host & BIT(AVX));
  printf("cpu-dispatch: host features:");
  for (int f = 0; f < TLC_HOST_CPU_FEATURE_COUNT; ++f)
    if (host >> f & 1u)
      printf(" %s", tlc_cpu_feature_name((tlc_cpu_feature)f));
  printf("\n");
#else
  CHECK(host == 0);
#endif
}

int main(void) {
  test_names();
  test_pick();
  test_select_env();
  test_host_features();
  if (failures) {
    fprintf(stderr, "cpu-dispatch: %d check(s) FAILED\n", failures);
    return 1;
  }
  printf("cpu-dispatch: all checks passed\n");
  return 0;
}
