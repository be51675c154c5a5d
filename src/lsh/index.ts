export { drawHyperplanes, projectAll } from './hyperplanes.js';
export { packSigns, popcount32, hammingDistance, getBit, wordsFor, emptyCodes, codeCount, lastWordMask } from './codes.js';
export { hammingKnn, chooseRanks, BUCKET_MAX_BITS, type HammingPath } from './hammingKnn.js';
