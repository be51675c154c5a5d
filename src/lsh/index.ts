export { drawHyperplanes, projectAll } from './hyperplanes.js';
export { packSigns, popcount32, hammingDistance, getBit, wordsFor, emptyCodes, codeCount, lastWordMask } from './codes.js';
export { hammingKnn, BUCKET_MAX_BITS, type HammingPath, type HammingKernel, type HammingOptions } from './hammingKnn.js';
export { tieSeed, queryKeyBase, tieKey } from './tieKey.js';
export { hammingKernelName, type HammingKernelName } from '../kernels/instance.js';
export { wasmBareScan, WASM_MAX_BITS } from '../kernels/knn.js';
