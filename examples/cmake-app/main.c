/* Runs the tlc-compiled model.tl on fixed inputs and checks it against a plain-C evaluation. */
#include "model.h"

#include <math.h>
#include <stdio.h>

#define BATCH 2
#define IN 4
#define OUT 3

/* The weights model.tl declares: w = arange(start=-0.5, step=0.1) over w's row-major index,
 * computed in double and rounded to f32 as the language specifies; b = full(0.25). */
static float weight(int i, int j) { return (float)(-0.5 + 0.1 * (double)(i * OUT + j)); }
static const float kBias = 0.25f;

int main(void) {
  _Static_assert(MODEL_INPUT_X_NUMEL == BATCH * IN, "x is f32[2, 4]");
  _Static_assert(MODEL_OUTPUT_Y_NUMEL == BATCH * OUT, "y is f32[2, 3]");

  tlc_status status = tlc_check_abi(MODEL_ABI_VERSION);
  if (status != TLC_STATUS_OK) {
    fprintf(stderr, "FAIL: %s\n", tlc_status_string(status));
    return 1;
  }

  _Alignas(TLC_BUFFER_ALIGNMENT) float x[MODEL_INPUT_X_NUMEL];
  _Alignas(TLC_BUFFER_ALIGNMENT) float y[MODEL_OUTPUT_Y_NUMEL];
  /* Fixed inputs chosen so that each output column differs and row 1 hits relu's zero. */
  static const float kX[BATCH * IN] = {1.0f, -2.0f, 0.5f, 3.0f, -1.5f, 0.25f, -2.0f, -0.75f};
  for (int k = 0; k < MODEL_INPUT_X_NUMEL; ++k)
    x[k] = kX[k];
  for (int k = 0; k < MODEL_OUTPUT_Y_NUMEL; ++k)
    y[k] = NAN; /* the model must overwrite every element */

  void *workspace = NULL;
  status = tlc_workspace_alloc(NULL, MODEL_WORKSPACE_SIZE, &workspace);
  if (status != TLC_STATUS_OK) {
    fprintf(stderr, "FAIL: workspace of %zu bytes: %s\n", (size_t)MODEL_WORKSPACE_SIZE,
            tlc_status_string(status));
    return 1;
  }
  status = model_run(x, y, workspace);
  tlc_workspace_free(NULL, workspace);
  if (status != TLC_STATUS_OK) {
    fprintf(stderr, "FAIL: model_run: %s\n", tlc_status_string(status));
    return 1;
  }

  /* y = relu(x @ w + b), accumulated in double as the reference. */
  double max_err = 0.0;
  for (int r = 0; r < BATCH; ++r) {
    printf("y[%d] =", r);
    for (int j = 0; j < OUT; ++j) {
      double acc = kBias;
      for (int i = 0; i < IN; ++i)
        acc += (double)x[r * IN + i] * (double)weight(i, j);
      double expected = acc > 0.0 ? acc : 0.0;
      double got = y[r * OUT + j];
      double err = got > expected ? got - expected : expected - got;
      if (isnan(got))
        err = INFINITY;
      if (err > max_err)
        max_err = err;
      printf(" %9.5f (expected %9.5f)", got, expected);
    }
    printf("\n");
  }
  const double tolerance = 1e-5;
  if (max_err > tolerance) {
    printf("FAIL: max abs error %g > %g\n", max_err, tolerance);
    return 1;
  }
  printf("PASS: max abs error %g\n", max_err);
  return 0;
}
