/* GPU demo app: examples/mlp.tl compiled with --target=cuda or vulkan (model name `mlp`), run on
 * the first device of that backend. Prints what the CPU demo prints; exits 2 with the runtime's
 * reason when there is no driver or device. Links libtlcrt only: the driver is loaded at run
 * time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <tlc/gpu.h>

#include "mlp.h"

static int report(const char *what, tlc_status st, tlc_gpu_context *ctx) {
  fprintf(stderr, "mlp gpu demo: %s: %s (%s)\n", what, tlc_status_string(st),
          ctx ? tlc_gpu_last_error(ctx) : "");
  return 1;
}

int main(void) {
  char message[1024];
  tlc_gpu_context *ctx = NULL;
  tlc_status st = tlc_gpu_context_create(MLP_GPU_BACKEND, 0, &ctx, message, sizeof message);
  if (st != TLC_STATUS_OK) {
    fprintf(stderr, "mlp gpu demo: cannot run on %s: %s\n", MLP_TARGET, message);
    return 2;
  }
  tlc_gpu_model *model = NULL;
  if ((st = mlp_init(ctx, &model)) != TLC_STATUS_OK)
    return report("mlp_init", st, ctx);

  static float x[MLP_INPUT_X_NUMEL], probs[MLP_OUTPUT_PROBS_NUMEL];
  /* The CPU demo's input: x[i] = sin(0.01 * i) over the row-major index. */
  for (int i = 0; i < MLP_INPUT_X_NUMEL; ++i)
    x[i] = (float)sin(0.01 * i);
  tlc_gpu_buffer *dx = NULL, *dprobs = NULL, *workspace = NULL;
  if ((st = tlc_gpu_buffer_create(ctx, sizeof x, &dx)) != TLC_STATUS_OK ||
      (st = tlc_gpu_buffer_create(ctx, sizeof probs, &dprobs)) != TLC_STATUS_OK ||
      (st = tlc_gpu_buffer_create(ctx, MLP_WORKSPACE_SIZE, &workspace)) != TLC_STATUS_OK)
    return report("tlc_gpu_buffer_create", st, ctx);
  if ((st = tlc_gpu_buffer_upload(ctx, dx, 0, x, sizeof x)) != TLC_STATUS_OK)
    return report("upload", st, ctx);
  if ((st = mlp_run(model, dx, dprobs, workspace)) != TLC_STATUS_OK)
    return report("mlp_run", st, ctx);
  if ((st = tlc_gpu_buffer_download(ctx, dprobs, 0, probs, sizeof probs)) != TLC_STATUS_OK)
    return report("download", st, ctx);

  static const int shape[] = MLP_INPUT_X_SHAPE, out_shape[] = MLP_OUTPUT_PROBS_SHAPE;
  int rows = out_shape[0], classes = out_shape[1];
  printf("mlp demo on %s (%s): input x[%d][%d], output probs[%d][%d]\n", MLP_TARGET,
         tlc_gpu_device_name(ctx), shape[0], shape[1], rows, classes);
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
  tlc_gpu_buffer_destroy(ctx, dx);
  tlc_gpu_buffer_destroy(ctx, dprobs);
  tlc_gpu_buffer_destroy(ctx, workspace);
  mlp_release(model);
  tlc_gpu_context_destroy(ctx);
  return 0;
}
