#!/usr/bin/env node
// ONNX Runtime (CPU, the pinned onnxruntime-node) as a numerical reference: runs MODEL once on
// the given .npy inputs (float32, int64 or uint8, C order, in the model's input order) and
// writes each output as OUT_DIR/NAME.npy (float32, int64 or uint8; characters of NAME outside
// [A-Za-z0-9_.-] become '_'). OPT is ONNX Runtime's graph
// optimization level: 'all' (its QDQ fusions: int8 kernels) or 'disabled' (every node as
// written: QuantizeLinear/DequantizeLinear around float operators).
//
//   node ort_run.js MODEL.onnx OPT OUT_DIR INPUT.npy...
'use strict';
const fs = require('fs');
const path = require('path');

const DTYPES = {'<f4': ['float32', Float32Array], '<i8': ['int64', BigInt64Array],
                '|u1': ['uint8', Uint8Array], '|i1': ['int8', Int8Array]};

function readNpy(file) {
  const bytes = fs.readFileSync(file);
  if (bytes.toString('latin1', 0, 6) !== '\x93NUMPY') throw new Error(file + ': not a .npy file');
  const major = bytes[6];
  const headerLen = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = bytes.toString('latin1', start, start + headerLen);
  const descr = /'descr': *'([^']+)'/.exec(header)[1];
  if (/'fortran_order': *True/.test(header)) throw new Error(file + ': Fortran order');
  const shape = /'shape': *\(([^)]*)\)/.exec(header)[1].split(',').map((s) => s.trim())
                    .filter((s) => s.length).map(Number);
  if (!(descr in DTYPES)) throw new Error(file + ': unsupported dtype ' + descr);
  const [type, Array_] = DTYPES[descr];
  const offset = start + headerLen;
  const data = new Array_(bytes.buffer.slice(bytes.byteOffset + offset,
                                             bytes.byteOffset + bytes.length));
  return {type, data, shape};
}

function writeNpy(file, tensor) {
  const descr = Object.keys(DTYPES).find((d) => DTYPES[d][0] === tensor.type);
  if (!descr) throw new Error('output of unsupported type ' + tensor.type);
  const shape = tensor.dims.length === 1 ? '(' + tensor.dims[0] + ',)'
                                         : '(' + tensor.dims.join(', ') + ')';
  let header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ', }';
  while ((10 + header.length + 1) % 64) header += ' ';
  header += '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const data = tensor.data;
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, 'latin1'),
                                        Buffer.from(data.buffer, data.byteOffset,
                                                    data.byteLength)]));
}

// An output's file name: its name with every character outside [A-Za-z0-9_.-] as '_'.
function fileName(name) {
  return name.replace(/[^A-Za-z0-9_.-]/g, '_');
}

async function main() {
  const [model, opt, outDir, ...inputs] = process.argv.slice(2);
  if (!model || !['all', 'disabled'].includes(opt) || !outDir) {
    process.stderr.write('usage: ort_run.js MODEL.onnx all|disabled OUT_DIR INPUT.npy...\n');
    process.exit(2);
  }
  const ort = require('./load_ort')('ort_run.js');
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: opt});
  if (inputs.length !== session.inputNames.length) {
    process.stderr.write('ort_run.js: the model has ' + session.inputNames.length +
                         ' inputs, ' + inputs.length + ' given\n');
    process.exit(2);
  }
  const feeds = {};
  session.inputNames.forEach((name, i) => {
    const t = readNpy(inputs[i]);
    feeds[name] = new ort.Tensor(t.type, t.data, t.shape);
  });
  const results = await session.run(feeds);
  fs.mkdirSync(outDir, {recursive: true});
  for (const name of session.outputNames)
    writeNpy(path.join(outDir, fileName(name) + '.npy'), results[name]);
  process.stdout.write('# onnxruntime-node ' + require('onnxruntime-node/package.json').version +
                       '\n');
}

main().catch((e) => {
  process.stderr.write('ort_run.js: ' + (e && e.message ? e.message : e) + '\n');
  process.exit(1);
});
