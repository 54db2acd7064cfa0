// The pinned onnxruntime-node package, or exit status 3 with a message naming where
// scripts/setup.sh installs it (shared by ort_bench.js and ort_run.js).
'use strict';
const path = require('path');

module.exports = function loadOrt(script) {
  try {
    return require('onnxruntime-node');
  } catch (e) {
    process.stderr.write(script + ': onnxruntime-node is not installed here (' +
                         path.join(__dirname, 'node_modules') + '); run scripts/setup.sh\n');
    process.exit(3);
  }
};
