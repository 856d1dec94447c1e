// Weft's BLAKE3 proof-of-work search kernel (docs/design.md "Consensus"), a port of src/consensus/pow.ts tested bit for bit
// against it (test/mining-webgpu.test.ts). docs/webgpu.md explains the design.
//
// pow_input = pre_pow_hash (32 bytes) || 24 zero bytes || nonce (u64 little-endian): exactly one 64-byte BLAKE3
// block, compressed once with chaining value = IV, counter 0, block_len 64, flags CHUNK_START|CHUNK_END|ROOT = 11.
// Message words: m0..m7 = pre_pow_hash, m8..m13 = 0, m14 = nonce low word, m15 = nonce high word.
// Only round 1's last G step (G7, which reads m14 and m15) and the six rounds after it depend on the nonce, so the
// host hands over the state after round 1's G0..G6 (the per-job midstate) and each nonce costs 6 rounds + one G.
//
// The state is kept as four rows of vec4u, (v0..v3) (v4..v7) (v8..v11) (v12..v15): one vec4 G runs the four
// column steps (or, after rotating rows 1..3, the four diagonal steps) at once. On a GPU or a SIMT CPU driver the
// vectors scalarize for free; it keeps the source short without a 34 KB unrolled listing.
//
// Entry points (all @workgroup_size(64)):
//   search    nonces base + off for off < count; the lowest winning off lands in result.min_off (atomicMin).
//   hash_one  full digests for listed nonces through the same midstate path (tests).
//   hash_raw  full digests of raw single-block messages (16 words + block_len) from the IV (official vectors).
// Note: `target` is a reserved word in WGSL, hence `tgt`.

struct Params {
  mid: array<vec4u, 4>,   // state after round 1's G0..G6, rows v0..v3, v4..v7, v8..v11, v12..v15
  hdr: array<vec4u, 2>,   // m0..m7 = pre_pow_hash as little-endian u32 words
  tgt: array<vec4u, 2>,   // target as 8 big-endian u32 words, most significant first
  base: vec4u,            // x = nonce low word, y = nonce high word, z = count, w = nonces per invocation
}

struct SearchResult {
  min_off: atomic<u32>,   // host writes 0xffffffff before a dispatch; lowest winning offset after it
}

struct St { a: vec4u, b: vec4u, c: vec4u, d: vec4u }

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> result: SearchResult;
@group(0) @binding(2) var<storage, read> items: array<u32>;
@group(0) @binding(3) var<storage, read_write> digests: array<u32>;

const IV0 = vec4u(0x6A09E667u, 0xBB67AE85u, 0x3C6EF372u, 0xA54FF53Au);
const IV1 = vec4u(0x510E527Fu, 0x9B05688Cu, 0x1F83D9ABu, 0x5BE0CD19u);
const FLAGS_ROOT_CHUNK = 11u; // CHUNK_START | CHUNK_END | ROOT
const NO_WINNER = 0xffffffffu;
const WORKGROUP = 64u;

fn rotr(x: vec4u, n: u32) -> vec4u {
  return (x >> vec4u(n)) | (x << vec4u(32u - n));
}

fn rotr1(x: u32, n: u32) -> u32 {
  return (x >> n) | (x << (32u - n));
}

// Four G functions at once, one per lane.
fn g(s: St, mx: vec4u, my: vec4u) -> St {
  var a = s.a + s.b + mx;
  var d = rotr(s.d ^ a, 16u);
  var c = s.c + d;
  var b = rotr(s.b ^ c, 12u);
  a = a + b + my;
  d = rotr(d ^ a, 8u);
  c = c + d;
  b = rotr(b ^ c, 7u);
  return St(a, b, c, d);
}

// Lane i of the rotated rows is the diagonal step (v_i, v_{4+(i+1)%4}, v_{8+(i+2)%4}, v_{12+(i+3)%4}).
fn diag(s: St) -> St { return St(s.a, s.b.yzwx, s.c.zwxy, s.d.wxyz); }
fn undiag(s: St) -> St { return St(s.a, s.b.wxyz, s.c.zwxy, s.d.yzwx); }

fn rnd(s: St, c0: vec4u, c1: vec4u, d0: vec4u, d1: vec4u) -> St {
  return undiag(g(diag(g(s, c0, c1)), d0, d1));
}

// Rounds 2..7. Round r reads the message through BLAKE3's permutation applied r-1 times; the schedules are
// written out so that every index is a constant.
fn rounds_2_to_7(s0: St, m: array<u32, 16>) -> St {
  var s = s0;
  s = rnd(s, vec4u(m[2], m[3], m[7], m[4]), vec4u(m[6], m[10], m[0], m[13]),
             vec4u(m[1], m[12], m[9], m[15]), vec4u(m[11], m[5], m[14], m[8]));
  s = rnd(s, vec4u(m[3], m[10], m[13], m[7]), vec4u(m[4], m[12], m[2], m[14]),
             vec4u(m[6], m[9], m[11], m[8]), vec4u(m[5], m[0], m[15], m[1]));
  s = rnd(s, vec4u(m[10], m[12], m[14], m[13]), vec4u(m[7], m[9], m[3], m[15]),
             vec4u(m[4], m[11], m[5], m[1]), vec4u(m[0], m[2], m[8], m[6]));
  s = rnd(s, vec4u(m[12], m[9], m[15], m[14]), vec4u(m[13], m[11], m[10], m[8]),
             vec4u(m[7], m[5], m[0], m[6]), vec4u(m[2], m[3], m[1], m[4]));
  s = rnd(s, vec4u(m[9], m[11], m[8], m[15]), vec4u(m[14], m[5], m[12], m[1]),
             vec4u(m[13], m[0], m[2], m[4]), vec4u(m[3], m[10], m[6], m[7]));
  s = rnd(s, vec4u(m[11], m[5], m[1], m[8]), vec4u(m[15], m[0], m[9], m[6]),
             vec4u(m[14], m[2], m[3], m[7]), vec4u(m[10], m[12], m[4], m[13]));
  return s;
}

// The PoW compression from the midstate: round 1's G7 on (v3, v4, v9, v14) with m14 = lo, m15 = hi, then rounds
// 2..7. Returns the state; the digest words are a ^ c (words 0..3) and b ^ d (words 4..7).
fn pow_state(lo: u32, hi: u32) -> St {
  let mid = St(params.mid[0], params.mid[1], params.mid[2], params.mid[3]);
  var a = mid.a.w + mid.b.x + lo;
  var d = rotr1(mid.d.z ^ a, 16u);
  var c = mid.c.y + d;
  var b = rotr1(mid.b.x ^ c, 12u);
  a = a + b + hi;
  d = rotr1(d ^ a, 8u);
  c = c + d;
  b = rotr1(b ^ c, 7u);
  let s = St(vec4u(mid.a.xyz, a), vec4u(b, mid.b.yzw), vec4u(mid.c.x, c, mid.c.zw), vec4u(mid.d.xy, d, mid.d.w));
  let h0 = params.hdr[0];
  let h1 = params.hdr[1];
  let m = array<u32, 16>(h0.x, h0.y, h0.z, h0.w, h1.x, h1.y, h1.z, h1.w, 0u, 0u, 0u, 0u, 0u, 0u, lo, hi);
  return rounds_2_to_7(s, m);
}

fn bswap(x: u32) -> u32 {
  return (x << 24u) | ((x << 8u) & 0x00ff0000u) | ((x >> 8u) & 0x0000ff00u) | (x >> 24u);
}

// Digest (little-endian words) read as a 256-bit big-endian integer, compared with the target: ≤ wins.
fn meets_target(w0: vec4u, w1: vec4u) -> bool {
  var h = array<u32, 8>(bswap(w0.x), bswap(w0.y), bswap(w0.z), bswap(w0.w),
                        bswap(w1.x), bswap(w1.y), bswap(w1.z), bswap(w1.w));
  var t = array<u32, 8>(params.tgt[0].x, params.tgt[0].y, params.tgt[0].z, params.tgt[0].w,
                        params.tgt[1].x, params.tgt[1].y, params.tgt[1].z, params.tgt[1].w);
  for (var i = 0u; i < 8u; i++) {
    if (h[i] != t[i]) { return h[i] < t[i]; }
  }
  return true;
}

@compute @workgroup_size(64)
fn search(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let threads = groups.x * WORKGROUP;
  let count = params.base.z;
  let iters = params.base.w;
  let tgt0 = params.tgt[0].x;
  // Offsets step by `threads` so that a dispatch sweeps the range front to back, and an invocation stops as soon
  // as a lower offset has already won: everything it would try next is higher still.
  for (var k = 0u; k < iters; k++) {
    let off = k * threads + gid.x;
    if (off >= count || off > atomicLoad(&result.min_off)) { break; }
    let lo = params.base.x + off;
    let hi = params.base.y + select(0u, 1u, lo < off); // carry into the high word; the u64 wraps at 2^64
    let s = pow_state(lo, hi);
    let w0 = s.a ^ s.c;
    // Pre-filter on the most significant word; the full compare runs about once in 2^32 / target_word_0 tries.
    if (bswap(w0.x) <= tgt0 && meets_target(w0, s.b ^ s.d)) {
      atomicMin(&result.min_off, off);
    }
  }
}

@compute @workgroup_size(64)
fn hash_one(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= params.base.z) { return; }
  let s = pow_state(items[2u * i], items[2u * i + 1u]);
  let w0 = s.a ^ s.c;
  let w1 = s.b ^ s.d;
  for (var j = 0u; j < 4u; j++) {
    digests[8u * i + j] = w0[j];
    digests[8u * i + 4u + j] = w1[j];
  }
}

@compute @workgroup_size(64)
fn hash_raw(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= params.base.z) { return; }
  let p = 17u * i;
  var m: array<u32, 16>;
  for (var j = 0u; j < 16u; j++) { m[j] = items[p + j]; }
  let mm = m;
  var s = St(IV0, IV1, IV0, vec4u(0u, 0u, items[p + 16u], FLAGS_ROOT_CHUNK));
  s = rnd(s, vec4u(mm[0], mm[2], mm[4], mm[6]), vec4u(mm[1], mm[3], mm[5], mm[7]),
             vec4u(mm[8], mm[10], mm[12], mm[14]), vec4u(mm[9], mm[11], mm[13], mm[15]));
  s = rounds_2_to_7(s, mm);
  let w0 = s.a ^ s.c;
  let w1 = s.b ^ s.d;
  for (var j = 0u; j < 4u; j++) {
    digests[8u * i + j] = w0[j];
    digests[8u * i + 4u + j] = w1[j];
  }
}
