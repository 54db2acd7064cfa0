/* The runtime unit tests' non-fatal CHECK: one run reports every broken expectation and counts
 * them in `failures`; main returns non-zero if any failed. Included once per test program. */
#ifndef TLC_TEST_RUNTIME_CHECK_H
#define TLC_TEST_RUNTIME_CHECK_H

#include <stdio.h>

static int failures = 0;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond);                          \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

#endif /* TLC_TEST_RUNTIME_CHECK_H */
