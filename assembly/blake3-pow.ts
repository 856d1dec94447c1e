/**
 * Weft's BLAKE3 proof-of-work search kernel (docs/design.md "Consensus") and a general BLAKE3 hash with a 32-byte output (the
 * BLAKE3 spec's hash mode, any input length, chunk tree included). assembly/build.mjs compiles this file twice: with
 * Wasm SIMD, where `search` tests four nonces per step in the four 32-bit lanes of a v128, and without, as the scalar
 * fallback for engines that lack SIMD. `ASC_FEATURE_SIMD` picks the loop at compile time.
 *
 * Nothing here allocates: every buffer is a static `memory.data` region. The host (src/mining/wasm-kernel.ts) writes
 * its inputs at the exported pointers, calls, and reads the results back.
 *
 * pow_input = pre_pow_hash (message words m0..m7) ‖ 24 zero bytes (m8..m13) ‖ nonce u64 LE (m14 = lo, m15 = hi):
 * one 64-byte block, flags CHUNK_START | CHUNK_END | ROOT, counter 0. The hash is valid iff, read as a 256-bit
 * big-endian integer, it is ≤ the target.
 */
import { compress, STAGE_FULL, STAGE_MIDSTATE, STAGE_FROM_MIDSTATE } from './blake3-compress';

// BLAKE3 IV (the SHA-256 IV) and domain flags, BLAKE3 spec §2.1 and Table 3.
const IV0: u32 = 0x6a09e667;
const IV1: u32 = 0xbb67ae85;
const IV2: u32 = 0x3c6ef372;
const IV3: u32 = 0xa54ff53a;
const IV4: u32 = 0x510e527f;
const IV5: u32 = 0x9b05688c;
const IV6: u32 = 0x1f83d9ab;
const IV7: u32 = 0x5be0cd19;
const CHUNK_START: u32 = 1;
const CHUNK_END: u32 = 2;
const PARENT: u32 = 4;
const ROOT: u32 = 8;
const POW_FLAGS: u32 = CHUNK_START | CHUNK_END | ROOT;

const BLOCK_BYTES: u32 = 64;
const CHUNK_BYTES: u32 = 1024;
const CV_BYTES: u32 = 32;
/** 2^54 chunks of 1 KiB is BLAKE3's 2^64-byte input limit, so at most 54 subtree CVs wait on the stack. */
const CV_STACK_DEPTH: u32 = 54;
/** Size of the host's input window for `hashUpdate`; longer inputs go through in several calls. */
const INPUT_BYTES_MAX: u32 = 65536;

const IV_WORDS = memory.data<u32>([IV0, IV1, IV2, IV3, IV4, IV5, IV6, IV7]);
/** The job: pre_pow_hash as m0..m7 (written by the host). */
const HEADER = memory.data(32, 16);
/** The job's target as eight u32 words, most significant first (written by the host). */
const TARGET = memory.data(32, 16);
/** The 16 state words after G0..G6 of round one, shared by every nonce of the job. */
const MIDSTATE = memory.data(64, 16);
/** Output of `powDigest` and `hashFinal`. */
const DIGEST = memory.data(32, 16);
const CHUNK_CV = memory.data(32, 16);
const BLOCK = memory.data(64, 16);
/** Subtree CVs; one slot more than the depth, where the newest CV waits to be merged with its left sibling. */
const CV_STACK = memory.data(32 * (CV_STACK_DEPTH + 1), 16);
const INPUT = memory.data(INPUT_BYTES_MAX, 16);

export function headerPtr(): usize {
  return HEADER;
}
export function targetPtr(): usize {
  return TARGET;
}
export function digestPtr(): usize {
  return DIGEST;
}
export function inputPtr(): usize {
  return INPUT;
}
export function inputBytesMax(): u32 {
  return INPUT_BYTES_MAX;
}
/** Nonces per step of `search`: tells the host which build it loaded. */
export function lanes(): u32 {
  return ASC_FEATURE_SIMD ? 4 : 1;
}

// ---------------------------------------------------------------------------------------------------------------
// Proof of work

/** Computes the job's midstate from HEADER. Call after writing HEADER and before `search` / `powDigest`. */
export function prepareJob(): void {
  compress<u32>(
    IV0, IV1, IV2, IV3, IV4, IV5, IV6, IV7, IV0, IV1, IV2, IV3, 0, 0, BLOCK_BYTES, POW_FLAGS,
    load<u32>(HEADER, 0), load<u32>(HEADER, 4), load<u32>(HEADER, 8), load<u32>(HEADER, 12),
    load<u32>(HEADER, 16), load<u32>(HEADER, 20), load<u32>(HEADER, 24), load<u32>(HEADER, 28),
    0, 0, 0, 0, 0, 0, 0, 0,
    STAGE_MIDSTATE, true, MIDSTATE,
  );
}

/** One nonce from the midstate: returns the first output word, and stores all eight at `out` unless it is 0. */
@inline function powFromMidstate(lo: u32, hi: u32, out: usize): u32 {
  return compress<u32>(
    load<u32>(MIDSTATE, 0), load<u32>(MIDSTATE, 4), load<u32>(MIDSTATE, 8), load<u32>(MIDSTATE, 12),
    load<u32>(MIDSTATE, 16), load<u32>(MIDSTATE, 20), load<u32>(MIDSTATE, 24), load<u32>(MIDSTATE, 28),
    load<u32>(MIDSTATE, 32), load<u32>(MIDSTATE, 36), load<u32>(MIDSTATE, 40), load<u32>(MIDSTATE, 44),
    load<u32>(MIDSTATE, 48), load<u32>(MIDSTATE, 52), load<u32>(MIDSTATE, 56), load<u32>(MIDSTATE, 60),
    load<u32>(HEADER, 0), load<u32>(HEADER, 4), load<u32>(HEADER, 8), load<u32>(HEADER, 12),
    load<u32>(HEADER, 16), load<u32>(HEADER, 20), load<u32>(HEADER, 24), load<u32>(HEADER, 28),
    0, 0, 0, 0, 0, 0, lo, hi,
    STAGE_FROM_MIDSTATE, true, out,
  );
}

/**
 * Four nonces at once, one per lane; returns the four first output words. The midstate and header words are
 * splatted from memory (`v128.load32_splat`) in every step rather than held in locals across the loop: the
 * pow-kernels note measured both at 18.0 M/s, and this way fewer vectors stay live (x64 has 16 XMM registers).
 */
@inline function powFromMidstateX4(lo: v128, hi: v128): v128 {
  const zero = i32x4.splat(0);
  return compress<v128>(
    v128.load32_splat(MIDSTATE, 0), v128.load32_splat(MIDSTATE, 4),
    v128.load32_splat(MIDSTATE, 8), v128.load32_splat(MIDSTATE, 12),
    v128.load32_splat(MIDSTATE, 16), v128.load32_splat(MIDSTATE, 20),
    v128.load32_splat(MIDSTATE, 24), v128.load32_splat(MIDSTATE, 28),
    v128.load32_splat(MIDSTATE, 32), v128.load32_splat(MIDSTATE, 36),
    v128.load32_splat(MIDSTATE, 40), v128.load32_splat(MIDSTATE, 44),
    v128.load32_splat(MIDSTATE, 48), v128.load32_splat(MIDSTATE, 52),
    v128.load32_splat(MIDSTATE, 56), v128.load32_splat(MIDSTATE, 60),
    v128.load32_splat(HEADER, 0), v128.load32_splat(HEADER, 4),
    v128.load32_splat(HEADER, 8), v128.load32_splat(HEADER, 12),
    v128.load32_splat(HEADER, 16), v128.load32_splat(HEADER, 20),
    v128.load32_splat(HEADER, 24), v128.load32_splat(HEADER, 28),
    zero, zero, zero, zero, zero, zero, lo, hi,
    STAGE_FROM_MIDSTATE, true, 0,
  );
}

/** The full PoW digest of nonce hi:lo for the prepared job, stored at DIGEST (32 bytes). */
export function powDigest(lo: u32, hi: u32): void {
  powFromMidstate(lo, hi, DIGEST);
}

/** Full 256-bit check, run only for nonces whose first word passed the prefilter (so almost never). */
function meetsTarget(nonce: u64): bool {
  powDigest(nonce as u32, (nonce >>> 32) as u32);
  for (let k: usize = 0; k < 32; k += 4) {
    const hash = bswap<u32>(load<u32>(DIGEST + k));
    const target = load<u32>(TARGET + k);
    if (hash != target) return hash < target;
  }
  return true;
}

/**
 * Tries nonces start, start+1, … (u64, wrapping at 2^64) for `count` nonces, count < 2^31, and returns the offset
 * of the first whose hash is ≤ the target, or -1. The host keeps calls near 64k nonces: V8 has no on-stack
 * replacement for Wasm, so only a later call runs the optimised (TurboFan) code.
 */
export function search(startLo: u32, startHi: u32, count: u32): i32 {
  const start = ((startHi as u64) << 32) | (startLo as u64);
  const target0 = load<u32>(TARGET);
  if (ASC_FEATURE_SIMD) {
    const laneOffsets = i32x4(0, 1, 2, 3);
    const target0x4 = i32x4.splat(target0);
    for (let i: u32 = 0; i < count; i += 4) {
      const nonce = start + (i as u64);
      const base = i32x4.splat(nonce as u32);
      const lo = i32x4.add(base, laneOffsets);
      // A lane whose low word wrapped past 2^32 carries into its high word (lt_u is -1 there, so subtract).
      const hi = i32x4.sub(i32x4.splat((nonce >>> 32) as u32), i32x4.lt_u(lo, base));
      const word0 = powFromMidstateX4(lo, hi);
      const word0be = i8x16.shuffle(word0, word0, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
      const pass = i32x4.le_u(word0be, target0x4);
      if (v128.any_true(pass)) {
        const lanes = i32x4.bitmask(pass);
        for (let lane: u32 = 0; lane < 4 && i + lane < count; lane++) {
          if ((lanes >> lane) & 1 && meetsTarget(nonce + (lane as u64))) return (i + lane) as i32;
        }
      }
    }
  } else {
    for (let i: u32 = 0; i < count; i++) {
      const nonce = start + (i as u64);
      const word0 = bswap<u32>(powFromMidstate(nonce as u32, (nonce >>> 32) as u32, 0));
      if (word0 <= target0 && meetsTarget(nonce)) return i as i32;
    }
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------------------------
// General hash: the BLAKE3 incremental hasher (hashInit, hashUpdate*, hashFinal), 32-byte output, no key.

let chunkCounter: u64 = 0;
let blockLen: u32 = 0;
let blocksCompressed: u32 = 0;
let stackLen: u32 = 0;

function compressBlock(cv: usize, block: usize, counter: u64, len: u32, flags: u32, out: usize): void {
  compress<u32>(
    load<u32>(cv, 0), load<u32>(cv, 4), load<u32>(cv, 8), load<u32>(cv, 12),
    load<u32>(cv, 16), load<u32>(cv, 20), load<u32>(cv, 24), load<u32>(cv, 28),
    IV0, IV1, IV2, IV3, counter as u32, (counter >>> 32) as u32, len, flags,
    load<u32>(block, 0), load<u32>(block, 4), load<u32>(block, 8), load<u32>(block, 12),
    load<u32>(block, 16), load<u32>(block, 20), load<u32>(block, 24), load<u32>(block, 28),
    load<u32>(block, 32), load<u32>(block, 36), load<u32>(block, 40), load<u32>(block, 44),
    load<u32>(block, 48), load<u32>(block, 52), load<u32>(block, 56), load<u32>(block, 60),
    STAGE_FULL, false, out,
  );
}

function startChunk(counter: u64): void {
  memory.copy(CHUNK_CV, IV_WORDS, CV_BYTES);
  chunkCounter = counter;
  blockLen = 0;
  blocksCompressed = 0;
}

@inline function chunkStartFlag(): u32 {
  return blocksCompressed == 0 ? CHUNK_START : 0;
}

/**
 * The CV of chunk `totalChunks - 1` waits at CV_STACK[stackLen]. While the chunk count is even, it completes a
 * subtree with the CV below it; the two siblings are adjacent in memory, so the parent block is read in place and
 * the parent CV replaces the left sibling.
 */
function pushChunkCv(totalChunks: u64): void {
  while ((totalChunks & 1) == 0) {
    const left = CV_STACK + (stackLen - 1) * CV_BYTES;
    compressBlock(IV_WORDS, left, 0, BLOCK_BYTES, PARENT, left);
    stackLen--;
    totalChunks >>= 1;
  }
  stackLen++;
}

export function hashInit(): void {
  startChunk(0);
  stackLen = 0;
}

/** Absorbs `len` ≤ inputBytesMax() bytes from INPUT. */
export function hashUpdate(len: u32): void {
  let from = INPUT;
  let left = len;
  while (left > 0) {
    // A block (or chunk) is compressed only once more input shows it is not the last: the last one needs the ROOT
    // flag when it is the whole tree.
    if (blocksCompressed * BLOCK_BYTES + blockLen == CHUNK_BYTES) {
      compressBlock(CHUNK_CV, BLOCK, chunkCounter, BLOCK_BYTES, CHUNK_END, CV_STACK + stackLen * CV_BYTES);
      pushChunkCv(chunkCounter + 1);
      startChunk(chunkCounter + 1);
    }
    if (blockLen == BLOCK_BYTES) {
      compressBlock(CHUNK_CV, BLOCK, chunkCounter, BLOCK_BYTES, chunkStartFlag(), CHUNK_CV);
      blocksCompressed++;
      blockLen = 0;
    }
    const take = min(BLOCK_BYTES - blockLen, left);
    memory.copy(BLOCK + blockLen, from, take);
    blockLen += take;
    from += take;
    left -= take;
  }
}

/** Writes the 32-byte hash of everything absorbed since `hashInit` to DIGEST. */
export function hashFinal(): void {
  memory.fill(BLOCK + blockLen, 0, BLOCK_BYTES - blockLen); // the last block is zero-padded (spec §2.4)
  const flags = chunkStartFlag() | CHUNK_END;
  if (stackLen == 0) {
    compressBlock(CHUNK_CV, BLOCK, chunkCounter, blockLen, flags | ROOT, DIGEST);
    return;
  }
  compressBlock(CHUNK_CV, BLOCK, chunkCounter, blockLen, flags, CV_STACK + stackLen * CV_BYTES);
  // Fold the stack from the top: each parent CV becomes the right child of the next; the last parent is the root.
  for (let i = stackLen; i > 0; i--) {
    const left = CV_STACK + (i - 1) * CV_BYTES;
    const root = i == 1;
    compressBlock(IV_WORDS, left, 0, BLOCK_BYTES, root ? PARENT | ROOT : PARENT, root ? DIGEST : left);
  }
}
