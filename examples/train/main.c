/* Trains examples/train/spiral.tl, compiled by tlc, on three interleaved spirals generated
 * deterministically here (100 points per class, the classic toy problem a linear model cannot
 * separate). Full-batch AdamW with a cosine learning rate: prints the loss every 100 steps and
 * the accuracy, saves the state (params and optimizer state) to a file halfway, reloads it into
 * a fresh buffer and goes on from there; at the end, classifies the points with spiral_run, the
 * inference from the trained state. Links only spiral.o and libtlcrt. */
#include "spiral.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 300, CLASSES = 3, STEPS = 1000 };

static uint64_t rng_state = 12345;
static double uniform01(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static double accuracy(const float *logits, const int64_t *labels) {
  int right = 0;
  for (int i = 0; i < N; ++i) {
    int best = 0;
    for (int c = 1; c < CLASSES; ++c)
      if (logits[i * CLASSES + c] > logits[i * CLASSES + best])
        best = c;
    right += best == labels[i];
  }
  return (double)right / N;
}

int main(int argc, char **argv) {
  const char *checkpoint = argc > 1 ? argv[1] : "spiral.state";
  static float x[N][2], logits[N * CLASSES];
  static int64_t labels[N];
  for (int c = 0; c < CLASSES; ++c)
    for (int i = 0; i < N / CLASSES; ++i) {
      double r = (double)i / (N / CLASSES), t = 4.0 * (c + r) + 0.2 * (uniform01() - 0.5) * 4;
      x[c * (N / CLASSES) + i][0] = (float)(r * sin(t));
      x[c * (N / CLASSES) + i][1] = (float)(r * cos(t));
      labels[c * (N / CLASSES) + i] = c;
    }

  unsigned char *state = aligned_alloc(TLC_BUFFER_ALIGNMENT, SPIRAL_STATE_SIZE);
  void *workspace = aligned_alloc(TLC_BUFFER_ALIGNMENT, SPIRAL_TRAIN_WORKSPACE_SIZE);
  if (!state || !workspace)
    return 1;
  spiral_init_state(state);
  float loss = 0;
  for (int step = 1; step <= STEPS; ++step) {
    float lr = (float)(0.01 * 0.5 * (1 + cos(3.14159265358979 * (step - 1) / STEPS)));
    if (spiral_train_step(state, &x[0][0], labels, lr, step, &loss, logits, workspace) !=
        TLC_STATUS_OK)
      return 1;
    if (step == 1 || step % 100 == 0)
      printf("step %4d  loss %.4f  accuracy %.3f\n", step, loss, accuracy(logits, labels));
    if (step == STEPS / 2) {
      /* A checkpoint is the state buffer; reload it into a fresh one and train on from it. */
      FILE *f = fopen(checkpoint, "wb");
      if (!f || fwrite(state, 1, SPIRAL_STATE_SIZE, f) != SPIRAL_STATE_SIZE || fclose(f))
        return 1;
      unsigned char *reloaded = aligned_alloc(TLC_BUFFER_ALIGNMENT, SPIRAL_STATE_SIZE);
      f = fopen(checkpoint, "rb");
      if (!reloaded || !f || fread(reloaded, 1, SPIRAL_STATE_SIZE, f) != SPIRAL_STATE_SIZE)
        return 1;
      fclose(f);
      printf("saved and reloaded %d bytes of state: %s\n", SPIRAL_STATE_SIZE,
             memcmp(reloaded, state, SPIRAL_STATE_SIZE) ? "DIFFERENT" : "identical");
      free(state);
      state = reloaded;
    }
  }
  printf("final loss %.4f  accuracy %.3f (before the last update)\n", loss,
         accuracy(logits, labels));
  /* Inference with the trained params, read from the state: spiral_run computes the
   * outputs other than the loss (the logits) from x alone, and updates nothing. */
  void *infer_workspace = aligned_alloc(TLC_BUFFER_ALIGNMENT, SPIRAL_WORKSPACE_SIZE);
  if (!infer_workspace || spiral_run(state, &x[0][0], logits, infer_workspace) != TLC_STATUS_OK)
    return 1;
  printf("inference from the trained state: accuracy %.3f\n", accuracy(logits, labels));
  free(infer_workspace);
  free(state);
  free(workspace);
  return 0;
}
