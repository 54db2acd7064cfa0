#!/usr/bin/env node
// ONNX Runtime (CPU, onnxruntime-node pinned in package.json) as a timing child of tlc's
// benchmark harness (benchmarks/bench.py, model_survey.py), on the harness's protocol: runs
// the model on seeded random f32 inputs for WARMUP seconds, then REPEATS timed runs, and prints
// one time in seconds per line, then "# onnxruntime-node VERSION". Each time includes the
// Node.js call (an async session.run); intra-op threads = THREADS, all graph optimizations.
//
//   node ort_bench.js MODEL.onnx THREADS REPEATS WARMUP_SECONDS '[[1,3,224,224], ...]'
//
// With ORT_PROFILE_PREFIX set, the session also records ONNX Runtime's per-node profile
// (enableProfiling; its overhead is in the times), written at the end as
// ORT_PROFILE_PREFIX_DATE_TIME.json (benchmarks/compare_profiles.py reads it).
'use strict';

function usage(message) {
  process.stderr.write('ort_bench.js: ' + message + '\n' +
                       'usage: ort_bench.js MODEL THREADS REPEATS WARMUP_SECONDS SHAPES_JSON\n');
  process.exit(2);
}

// Seeded uniform values in [-1, 1) (a 32-bit LCG: the peer needs the same work, not the same
// numbers as tlc's harness).
function randomTensor(shape, seed) {
  let n = 1;
  for (const d of shape) n *= d;
  const data = new Float32Array(n);
  let state = (seed * 2654435761) >>> 0;
  for (let i = 0; i < n; ++i) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    data[i] = state / 2147483648 - 1;
  }
  return data;
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.length !== 5) usage('expected 5 arguments');
  const [model, threadsText, repeatsText, warmupText, shapesText] = argv;
  const threads = Number(threadsText), repeats = Number(repeatsText);
  const warmup = Number(warmupText);
  if (!Number.isInteger(threads) || threads < 1) usage('THREADS must be a positive integer');
  if (!Number.isInteger(repeats) || repeats < 0) usage('REPEATS must be an integer >= 0');
  if (!(warmup >= 0)) usage('WARMUP_SECONDS must be >= 0');
  let shapes;
  try {
    shapes = JSON.parse(shapesText);
  } catch (e) {
    usage('SHAPES_JSON: ' + e.message);
  }
  const ort = require('./load_ort')('ort_bench.js');
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    ...(process.env.ORT_PROFILE_PREFIX
            ? {enableProfiling: true, profileFilePrefix: process.env.ORT_PROFILE_PREFIX}
            : {}),
  });
  if (session.inputNames.length !== shapes.length)
    usage('the model has ' + session.inputNames.length + ' inputs, SHAPES_JSON gives ' +
          shapes.length);
  const feeds = {};
  session.inputNames.forEach((name, i) => {
    feeds[name] = new ort.Tensor('float32', randomTensor(shapes[i], i + 1), shapes[i]);
  });
  const start = process.hrtime.bigint();
  do {
    await session.run(feeds);
  } while (Number(process.hrtime.bigint() - start) / 1e9 < warmup);
  const times = [];
  for (let r = 0; r < repeats; ++r) {
    const t0 = process.hrtime.bigint();
    await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  const version = require('onnxruntime-node/package.json').version;
  process.stdout.write(times.map((t) => t.toFixed(9)).join('\n') + '\n# onnxruntime-node ' +
                       version + '\n');
  if (process.env.ORT_PROFILE_PREFIX)
    session.endProfiling();
}

main().catch((e) => {
  process.stderr.write('ort_bench.js: ' + (e && e.message ? e.message : String(e)) + '\n');
  process.exit(1);
});
