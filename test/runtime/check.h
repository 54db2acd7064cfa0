/* The runtime unit tests' non-fatal CHECK: one run reports every broken expectation and counts
 * them in `failures`; main returns non-zero if any failed. Included once per test program. */
#ifndef TLC_TEST_RUNTIME_CHECK_H
#define TLC_TEST_RUNTIME_CHECK_H

#include <stdio.h>

#include "tlc/runtime.h"

static int failures = 0;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond);                          \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

/* `expr` returns the tlc_status `expected`. */
#define CHECK_STATUS(expr, expected)                                                               \
  do {                                                                                             \
    tlc_status got_ = (expr);                                                                      \
    if (got_ != (expected)) {                                                                      \
      fprintf(stderr, "%s:%d: FAILED: %s returned %d (%s), expected %s\n", __FILE__, __LINE__,     \
              #expr, (int)got_, tlc_status_string(got_), #expected);                               \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

#endif /* TLC_TEST_RUNTIME_CHECK_H */
