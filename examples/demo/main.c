/* Demo app: links the compiled examples/mlp.tl (model name `mlp`) and prints its predictions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <tlc/runtime.h>

#include "mlp.h"

int main(void) {
  tlc_status st = tlc_check_abi(MLP_ABI_VERSION);
  if (st != TLC_STATUS_OK) {
    fprintf(stderr, "mlp demo: %s\n", tlc_status_string(st));
    return 1;
  }
  static const int shape[] = MLP_INPUT_X_SHAPE;
  float *x = aligned_alloc(TLC_BUFFER_ALIGNMENT, sizeof(float) * MLP_INPUT_X_NUMEL);
  float *probs = aligned_alloc(TLC_BUFFER_ALIGNMENT, sizeof(float) * MLP_OUTPUT_PROBS_NUMEL);
  void *workspace = NULL;
  if (!x || !probs) {
    fprintf(stderr, "mlp demo: out of memory\n");
    return 1;
  }
  /* A deterministic "image" batch: x[i] = sin(0.01 * i) over the row-major index. */
  for (int i = 0; i < MLP_INPUT_X_NUMEL; ++i)
    x[i] = (float)sin(0.01 * i);

  st = tlc_workspace_alloc(NULL, MLP_WORKSPACE_SIZE, &workspace);
  if (st == TLC_STATUS_OK)
    st = mlp_run(x, probs, workspace);
  if (st != TLC_STATUS_OK) {
    fprintf(stderr, "mlp demo: %s\n", tlc_status_string(st));
    return 1;
  }

  static const int out_shape[] = MLP_OUTPUT_PROBS_SHAPE;
  int rows = out_shape[0], classes = out_shape[1];
  printf("mlp demo: input x[%d][%d], output probs[%d][%d]\n", shape[0], shape[1], rows, classes);
  for (int r = 0; r < rows; ++r) {
    int best = 0;
    printf("row %d:", r);
    for (int c = 0; c < classes; ++c) {
      printf(" %.8e", probs[r * classes + c]);
      if (probs[r * classes + c] > probs[r * classes + best])
        best = c;
    }
    printf("  argmax %d\n", best);
  }
  tlc_workspace_free(NULL, workspace);
  free(probs);
  free(x);
  return 0;
}
