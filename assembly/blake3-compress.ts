/**
 * The BLAKE3 compression function (BLAKE3 spec §2.2), written once for two lane types: `u32` (one message block)
 * and `v128` (four independent blocks, one per 32-bit lane, Wasm SIMD). Everything here is `@inline`, so each caller
 * gets its own copy specialised by the compile-time arguments `stage` and `pow`, and Binaryen removes what that
 * caller does not use (the tail of round seven when only the first output word is needed).
 *
 * The seven rounds are unrolled by hand and the sixteen state words live in locals: AssemblyScript functions cannot
 * return several values, and a state array in linear memory would turn every step into loads and stores. That is why
 * the body below is one long function. Each line is half of a G call; the message words follow BLAKE3's fixed schedule
 * (the permutation 2,6,3,10,7,0,4,13,1,11,12,5,9,14,15,8 applied once per round).
 */

/** Run all seven rounds from the state given (ordinary compression). */
export const STAGE_FULL: i32 = 0;
/** Stop after G0..G6 of round one and store the 16 state words: the PoW midstate (docs/design.md "Consensus"). */
export const STAGE_MIDSTATE: i32 = 1;
/** Start from a stored midstate: skip G0..G6 of round one. */
export const STAGE_FROM_MIDSTATE: i32 = 2;

@inline function add<T>(a: T, b: T): T {
  if (isVector<T>()) return i32x4.add(a as v128, b as v128) as T;
  else return (a + b) as T;
}

/** a + b + m: the first line of each half of G. */
@inline function addMsg<T>(a: T, b: T, m: T): T {
  return add<T>(add<T>(a, b), m);
}

/**
 * The same for message words 8..13, which are the 24 zero bytes of pow_input when `pow` is set. Binaryen folds
 * `x + 0` for i32 but not `i32x4.add(x, 0)`, so the SIMD kernel needs the compile-time hint.
 */
@inline function addMsgZ<T>(a: T, b: T, m: T, pow: bool): T {
  if (pow) return add<T>(a, b);
  return addMsg<T>(a, b, m);
}

/** rotr(x ^ y, 16); in SIMD a byte shuffle, one instruction instead of three. */
@inline function xorRotr16<T>(x: T, y: T): T {
  if (isVector<T>()) {
    const v = v128.xor(x as v128, y as v128);
    return i8x16.shuffle(v, v, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13) as T;
  } else return rotr<u32>((x ^ y) as u32, 16) as T;
}

@inline function xorRotr12<T>(x: T, y: T): T {
  if (isVector<T>()) {
    const v = v128.xor(x as v128, y as v128);
    return v128.or(i32x4.shr_u(v, 12), i32x4.shl(v, 20)) as T;
  } else return rotr<u32>((x ^ y) as u32, 12) as T;
}

/** rotr(x ^ y, 8); a byte shuffle in SIMD as well. */
@inline function xorRotr8<T>(x: T, y: T): T {
  if (isVector<T>()) {
    const v = v128.xor(x as v128, y as v128);
    return i8x16.shuffle(v, v, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12) as T;
  } else return rotr<u32>((x ^ y) as u32, 8) as T;
}

@inline function xorRotr7<T>(x: T, y: T): T {
  if (isVector<T>()) {
    const v = v128.xor(x as v128, y as v128);
    return v128.or(i32x4.shr_u(v, 7), i32x4.shl(v, 25)) as T;
  } else return rotr<u32>((x ^ y) as u32, 7) as T;
}

@inline function xor<T>(a: T, b: T): T {
  if (isVector<T>()) return v128.xor(a as v128, b as v128) as T;
  else return (a ^ b) as T;
}

/**
 * One compression. `s0..s15` is the starting state: cv[0..8] ‖ IV[0..4] ‖ counter lo, hi ‖ block_len ‖ flags for
 * STAGE_FULL and STAGE_MIDSTATE, the stored midstate for STAGE_FROM_MIDSTATE. For `u32` and `out != 0` the eight
 * output words s[i] ^ s[i+8] (the chaining value, or the first 32 bytes of a root output) are stored at `out`; with
 * STAGE_MIDSTATE the 16 state words are stored there instead. Returns s0 ^ s8, the first output word, which is all
 * the PoW prefilter needs.
 */
@inline export function compress<T>(
  s0: T, s1: T, s2: T, s3: T, s4: T, s5: T, s6: T, s7: T,
  s8: T, s9: T, s10: T, s11: T, s12: T, s13: T, s14: T, s15: T,
  m0: T, m1: T, m2: T, m3: T, m4: T, m5: T, m6: T, m7: T,
  m8: T, m9: T, m10: T, m11: T, m12: T, m13: T, m14: T, m15: T,
  stage: i32, pow: bool, out: usize,
): T {
  // Round 1. G0..G6 do not read m14/m15 (the nonce), so a PoW job computes them once (STAGE_MIDSTATE).
  if (stage != STAGE_FROM_MIDSTATE) {
    s0 = addMsg<T>(s0, s4, m0); s12 = xorRotr16<T>(s12, s0); s8 = add<T>(s8, s12); s4 = xorRotr12<T>(s4, s8);
    s0 = addMsg<T>(s0, s4, m1); s12 = xorRotr8<T>(s12, s0); s8 = add<T>(s8, s12); s4 = xorRotr7<T>(s4, s8);
    s1 = addMsg<T>(s1, s5, m2); s13 = xorRotr16<T>(s13, s1); s9 = add<T>(s9, s13); s5 = xorRotr12<T>(s5, s9);
    s1 = addMsg<T>(s1, s5, m3); s13 = xorRotr8<T>(s13, s1); s9 = add<T>(s9, s13); s5 = xorRotr7<T>(s5, s9);
    s2 = addMsg<T>(s2, s6, m4); s14 = xorRotr16<T>(s14, s2); s10 = add<T>(s10, s14); s6 = xorRotr12<T>(s6, s10);
    s2 = addMsg<T>(s2, s6, m5); s14 = xorRotr8<T>(s14, s2); s10 = add<T>(s10, s14); s6 = xorRotr7<T>(s6, s10);
    s3 = addMsg<T>(s3, s7, m6); s15 = xorRotr16<T>(s15, s3); s11 = add<T>(s11, s15); s7 = xorRotr12<T>(s7, s11);
    s3 = addMsg<T>(s3, s7, m7); s15 = xorRotr8<T>(s15, s3); s11 = add<T>(s11, s15); s7 = xorRotr7<T>(s7, s11);
    s0 = addMsgZ<T>(s0, s5, m8, pow); s15 = xorRotr16<T>(s15, s0); s10 = add<T>(s10, s15); s5 = xorRotr12<T>(s5, s10);
    s0 = addMsgZ<T>(s0, s5, m9, pow); s15 = xorRotr8<T>(s15, s0); s10 = add<T>(s10, s15); s5 = xorRotr7<T>(s5, s10);
    s1 = addMsgZ<T>(s1, s6, m10, pow); s12 = xorRotr16<T>(s12, s1); s11 = add<T>(s11, s12); s6 = xorRotr12<T>(s6, s11);
    s1 = addMsgZ<T>(s1, s6, m11, pow); s12 = xorRotr8<T>(s12, s1); s11 = add<T>(s11, s12); s6 = xorRotr7<T>(s6, s11);
    s2 = addMsgZ<T>(s2, s7, m12, pow); s13 = xorRotr16<T>(s13, s2); s8 = add<T>(s8, s13); s7 = xorRotr12<T>(s7, s8);
    s2 = addMsgZ<T>(s2, s7, m13, pow); s13 = xorRotr8<T>(s13, s2); s8 = add<T>(s8, s13); s7 = xorRotr7<T>(s7, s8);
  }
  if (stage == STAGE_MIDSTATE) {
    if (!isVector<T>()) {
      store<u32>(out, s0 as u32, 0);
      store<u32>(out, s1 as u32, 4);
      store<u32>(out, s2 as u32, 8);
      store<u32>(out, s3 as u32, 12);
      store<u32>(out, s4 as u32, 16);
      store<u32>(out, s5 as u32, 20);
      store<u32>(out, s6 as u32, 24);
      store<u32>(out, s7 as u32, 28);
      store<u32>(out, s8 as u32, 32);
      store<u32>(out, s9 as u32, 36);
      store<u32>(out, s10 as u32, 40);
      store<u32>(out, s11 as u32, 44);
      store<u32>(out, s12 as u32, 48);
      store<u32>(out, s13 as u32, 52);
      store<u32>(out, s14 as u32, 56);
      store<u32>(out, s15 as u32, 60);
    }
    return s0;
  }
  s3 = addMsg<T>(s3, s4, m14); s14 = xorRotr16<T>(s14, s3); s9 = add<T>(s9, s14); s4 = xorRotr12<T>(s4, s9);
  s3 = addMsg<T>(s3, s4, m15); s14 = xorRotr8<T>(s14, s3); s9 = add<T>(s9, s14); s4 = xorRotr7<T>(s4, s9);
  // Round 2.
  s0 = addMsg<T>(s0, s4, m2); s12 = xorRotr16<T>(s12, s0); s8 = add<T>(s8, s12); s4 = xorRotr12<T>(s4, s8);
  s0 = addMsg<T>(s0, s4, m6); s12 = xorRotr8<T>(s12, s0); s8 = add<T>(s8, s12); s4 = xorRotr7<T>(s4, s8);
  s1 = addMsg<T>(s1, s5, m3); s13 = xorRotr16<T>(s13, s1); s9 = add<T>(s9, s13); s5 = xorRotr12<T>(s5, s9);
  s1 = addMsgZ<T>(s1, s5, m10, pow); s13 = xorRotr8<T>(s13, s1); s9 = add<T>(s9, s13); s5 = xorRotr7<T>(s5, s9);
  s2 = addMsg<T>(s2, s6, m7); s14 = xorRotr16<T>(s14, s2); s10 = add<T>(s10, s14); s6 = xorRotr12<T>(s6, s10);
  s2 = addMsg<T>(s2, s6, m0); s14 = xorRotr8<T>(s14, s2); s10 = add<T>(s10, s14); s6 = xorRotr7<T>(s6, s10);
  s3 = addMsg<T>(s3, s7, m4); s15 = xorRotr16<T>(s15, s3); s11 = add<T>(s11, s15); s7 = xorRotr12<T>(s7, s11);
  s3 = addMsgZ<T>(s3, s7, m13, pow); s15 = xorRotr8<T>(s15, s3); s11 = add<T>(s11, s15); s7 = xorRotr7<T>(s7, s11);
  s0 = addMsg<T>(s0, s5, m1); s15 = xorRotr16<T>(s15, s0); s10 = add<T>(s10, s15); s5 = xorRotr12<T>(s5, s10);
  s0 = addMsgZ<T>(s0, s5, m11, pow); s15 = xorRotr8<T>(s15, s0); s10 = add<T>(s10, s15); s5 = xorRotr7<T>(s5, s10);
  s1 = addMsgZ<T>(s1, s6, m12, pow); s12 = xorRotr16<T>(s12, s1); s11 = add<T>(s11, s12); s6 = xorRotr12<T>(s6, s11);
  s1 = addMsg<T>(s1, s6, m5); s12 = xorRotr8<T>(s12, s1); s11 = add<T>(s11, s12); s6 = xorRotr7<T>(s6, s11);
  s2 = addMsgZ<T>(s2, s7, m9, pow); s13 = xorRotr16<T>(s13, s2); s8 = add<T>(s8, s13); s7 = xorRotr12<T>(s7, s8);
  s2 = addMsg<T>(s2, s7, m14); s13 = xorRotr8<T>(s13, s2); s8 = add<T>(s8, s13); s7 = xorRotr7<T>(s7, s8);
  s3 = addMsg<T>(s3, s4, m15); s14 = xorRotr16<T>(s14, s3); s9 = add<T>(s9, s14); s4 = xorRotr12<T>(s4, s9);
  s3 = addMsgZ<T>(s3, s4, m8, pow); s14 = xorRotr8<T>(s14, s3); s9 = add<T>(s9, s14); s4 = xorRotr7<T>(s4, s9);
  // Round 3.
  s0 = addMsg<T>(s0, s4, m3); s12 = xorRotr16<T>(s12, s0); s8 = add<T>(s8, s12); s4 = xorRotr12<T>(s4, s8);
  s0 = addMsg<T>(s0, s4, m4); s12 = xorRotr8<T>(s12, s0); s8 = add<T>(s8, s12); s4 = xorRotr7<T>(s4, s8);
  s1 = addMsgZ<T>(s1, s5, m10, pow); s13 = xorRotr16<T>(s13, s1); s9 = add<T>(s9, s13); s5 = xorRotr12<T>(s5, s9);
  s1 = addMsgZ<T>(s1, s5, m12, pow); s13 = xorRotr8<T>(s13, s1); s9 = add<T>(s9, s13); s5 = xorRotr7<T>(s5, s9);
  s2 = addMsgZ<T>(s2, s6, m13, pow); s14 = xorRotr16<T>(s14, s2); s10 = add<T>(s10, s14); s6 = xorRotr12<T>(s6, s10);
  s2 = addMsg<T>(s2, s6, m2); s14 = xorRotr8<T>(s14, s2); s10 = add<T>(s10, s14); s6 = xorRotr7<T>(s6, s10);
  s3 = addMsg<T>(s3, s7, m7); s15 = xorRotr16<T>(s15, s3); s11 = add<T>(s11, s15); s7 = xorRotr12<T>(s7, s11);
  s3 = addMsg<T>(s3, s7, m14); s15 = xorRotr8<T>(s15, s3); s11 = add<T>(s11, s15); s7 = xorRotr7<T>(s7, s11);
  s0 = addMsg<T>(s0, s5, m6); s15 = xorRotr16<T>(s15, s0); s10 = add<T>(s10, s15); s5 = xorRotr12<T>(s5, s10);
  s0 = addMsg<T>(s0, s5, m5); s15 = xorRotr8<T>(s15, s0); s10 = add<T>(s10, s15); s5 = xorRotr7<T>(s5, s10);
  s1 = addMsgZ<T>(s1, s6, m9, pow); s12 = xorRotr16<T>(s12, s1); s11 = add<T>(s11, s12); s6 = xorRotr12<T>(s6, s11);
  s1 = addMsg<T>(s1, s6, m0); s12 = xorRotr8<T>(s12, s1); s11 = add<T>(s11, s12); s6 = xorRotr7<T>(s6, s11);
  s2 = addMsgZ<T>(s2, s7, m11, pow); s13 = xorRotr16<T>(s13, s2); s8 = add<T>(s8, s13); s7 = xorRotr12<T>(s7, s8);
  s2 = addMsg<T>(s2, s7, m15); s13 = xorRotr8<T>(s13, s2); s8 = add<T>(s8, s13); s7 = xorRotr7<T>(s7, s8);
  s3 = addMsgZ<T>(s3, s4, m8, pow); s14 = xorRotr16<T>(s14, s3); s9 = add<T>(s9, s14); s4 = xorRotr12<T>(s4, s9);
  s3 = addMsg<T>(s3, s4, m1); s14 = xorRotr8<T>(s14, s3); s9 = add<T>(s9, s14); s4 = xorRotr7<T>(s4, s9);
  // Round 4.
  s0 = addMsgZ<T>(s0, s4, m10, pow); s12 = xorRotr16<T>(s12, s0); s8 = add<T>(s8, s12); s4 = xorRotr12<T>(s4, s8);
  s0 = addMsg<T>(s0, s4, m7); s12 = xorRotr8<T>(s12, s0); s8 = add<T>(s8, s12); s4 = xorRotr7<T>(s4, s8);
  s1 = addMsgZ<T>(s1, s5, m12, pow); s13 = xorRotr16<T>(s13, s1); s9 = add<T>(s9, s13); s5 = xorRotr12<T>(s5, s9);
  s1 = addMsgZ<T>(s1, s5, m9, pow); s13 = xorRotr8<T>(s13, s1); s9 = add<T>(s9, s13); s5 = xorRotr7<T>(s5, s9);
  s2 = addMsg<T>(s2, s6, m14); s14 = xorRotr16<T>(s14, s2); s10 = add<T>(s10, s14); s6 = xorRotr12<T>(s6, s10);
  s2 = addMsg<T>(s2, s6, m3); s14 = xorRotr8<T>(s14, s2); s10 = add<T>(s10, s14); s6 = xorRotr7<T>(s6, s10);
  s3 = addMsgZ<T>(s3, s7, m13, pow); s15 = xorRotr16<T>(s15, s3); s11 = add<T>(s11, s15); s7 = xorRotr12<T>(s7, s11);
  s3 = addMsg<T>(s3, s7, m15); s15 = xorRotr8<T>(s15, s3); s11 = add<T>(s11, s15); s7 = xorRotr7<T>(s7, s11);
  s0 = addMsg<T>(s0, s5, m4); s15 = xorRotr16<T>(s15, s0); s10 = add<T>(s10, s15); s5 = xorRotr12<T>(s5, s10);
  s0 = addMsg<T>(s0, s5, m0); s15 = xorRotr8<T>(s15, s0); s10 = add<T>(s10, s15); s5 = xorRotr7<T>(s5, s10);
  s1 = addMsgZ<T>(s1, s6, m11, pow); s12 = xorRotr16<T>(s12, s1); s11 = add<T>(s11, s12); s6 = xorRotr12<T>(s6, s11);
  s1 = addMsg<T>(s1, s6, m2); s12 = xorRotr8<T>(s12, s1); s11 = add<T>(s11, s12); s6 = xorRotr7<T>(s6, s11);
  s2 = addMsg<T>(s2, s7, m5); s13 = xorRotr16<T>(s13, s2); s8 = add<T>(s8, s13); s7 = xorRotr12<T>(s7, s8);
  s2 = addMsgZ<T>(s2, s7, m8, pow); s13 = xorRotr8<T>(s13, s2); s8 = add<T>(s8, s13); s7 = xorRotr7<T>(s7, s8);
  s3 = addMsg<T>(s3, s4, m1); s14 = xorRotr16<T>(s14, s3); s9 = add<T>(s9, s14); s4 = xorRotr12<T>(s4, s9);
  s3 = addMsg<T>(s3, s4, m6); s14 = xorRotr8<T>(s14, s3); s9 = add<T>(s9, s14); s4 = xorRotr7<T>(s4, s9);
  // Round 5.
  s0 = addMsgZ<T>(s0, s4, m12, pow); s12 = xorRotr16<T>(s12, s0); s8 = add<T>(s8, s12); s4 = xorRotr12<T>(s4, s8);
  s0 = addMsgZ<T>(s0, s4, m13, pow); s12 = xorRotr8<T>(s12, s0); s8 = add<T>(s8, s12); s4 = xorRotr7<T>(s4, s8);
  s1 = addMsgZ<T>(s1, s5, m9, pow); s13 = xorRotr16<T>(s13, s1); s9 = add<T>(s9, s13); s5 = xorRotr12<T>(s5, s9);
  s1 = addMsgZ<T>(s1, s5, m11, pow); s13 = xorRotr8<T>(s13, s1); s9 = add<T>(s9, s13); s5 = xorRotr7<T>(s5, s9);
  s2 = addMsg<T>(s2, s6, m15); s14 = xorRotr16<T>(s14, s2); s10 = add<T>(s10, s14); s6 = xorRotr12<T>(s6, s10);
  s2 = addMsgZ<T>(s2, s6, m10, pow); s14 = xorRotr8<T>(s14, s2); s10 = add<T>(s10, s14); s6 = xorRotr7<T>(s6, s10);
  s3 = addMsg<T>(s3, s7, m14); s15 = xorRotr16<T>(s15, s3); s11 = add<T>(s11, s15); s7 = xorRotr12<T>(s7, s11);
  s3 = addMsgZ<T>(s3, s7, m8, pow); s15 = xorRotr8<T>(s15, s3); s11 = add<T>(s11, s15); s7 = xorRotr7<T>(s7, s11);
  s0 = addMsg<T>(s0, s5, m7); s15 = xorRotr16<T>(s15, s0); s10 = add<T>(s10, s15); s5 = xorRotr12<T>(s5, s10);
  s0 = addMsg<T>(s0, s5, m2); s15 = xorRotr8<T>(s15, s0); s10 = add<T>(s10, s15); s5 = xorRotr7<T>(s5, s10);
  s1 = addMsg<T>(s1, s6, m5); s12 = xorRotr16<T>(s12, s1); s11 = add<T>(s11, s12); s6 = xorRotr12<T>(s6, s11);
  s1 = addMsg<T>(s1, s6, m3); s12 = xorRotr8<T>(s12, s1); s11 = add<T>(s11, s12); s6 = xorRotr7<T>(s6, s11);
  s2 = addMsg<T>(s2, s7, m0); s13 = xorRotr16<T>(s13, s2); s8 = add<T>(s8, s13); s7 = xorRotr12<T>(s7, s8);
  s2 = addMsg<T>(s2, s7, m1); s13 = xorRotr8<T>(s13, s2); s8 = add<T>(s8, s13); s7 = xorRotr7<T>(s7, s8);
  s3 = addMsg<T>(s3, s4, m6); s14 = xorRotr16<T>(s14, s3); s9 = add<T>(s9, s14); s4 = xorRotr12<T>(s4, s9);
  s3 = addMsg<T>(s3, s4, m4); s14 = xorRotr8<T>(s14, s3); s9 = add<T>(s9, s14); s4 = xorRotr7<T>(s4, s9);
  // Round 6.
  s0 = addMsgZ<T>(s0, s4, m9, pow); s12 = xorRotr16<T>(s12, s0); s8 = add<T>(s8, s12); s4 = xorRotr12<T>(s4, s8);
  s0 = addMsg<T>(s0, s4, m14); s12 = xorRotr8<T>(s12, s0); s8 = add<T>(s8, s12); s4 = xorRotr7<T>(s4, s8);
  s1 = addMsgZ<T>(s1, s5, m11, pow); s13 = xorRotr16<T>(s13, s1); s9 = add<T>(s9, s13); s5 = xorRotr12<T>(s5, s9);
  s1 = addMsg<T>(s1, s5, m5); s13 = xorRotr8<T>(s13, s1); s9 = add<T>(s9, s13); s5 = xorRotr7<T>(s5, s9);
  s2 = addMsgZ<T>(s2, s6, m8, pow); s14 = xorRotr16<T>(s14, s2); s10 = add<T>(s10, s14); s6 = xorRotr12<T>(s6, s10);
  s2 = addMsgZ<T>(s2, s6, m12, pow); s14 = xorRotr8<T>(s14, s2); s10 = add<T>(s10, s14); s6 = xorRotr7<T>(s6, s10);
  s3 = addMsg<T>(s3, s7, m15); s15 = xorRotr16<T>(s15, s3); s11 = add<T>(s11, s15); s7 = xorRotr12<T>(s7, s11);
  s3 = addMsg<T>(s3, s7, m1); s15 = xorRotr8<T>(s15, s3); s11 = add<T>(s11, s15); s7 = xorRotr7<T>(s7, s11);
  s0 = addMsgZ<T>(s0, s5, m13, pow); s15 = xorRotr16<T>(s15, s0); s10 = add<T>(s10, s15); s5 = xorRotr12<T>(s5, s10);
  s0 = addMsg<T>(s0, s5, m3); s15 = xorRotr8<T>(s15, s0); s10 = add<T>(s10, s15); s5 = xorRotr7<T>(s5, s10);
  s1 = addMsg<T>(s1, s6, m0); s12 = xorRotr16<T>(s12, s1); s11 = add<T>(s11, s12); s6 = xorRotr12<T>(s6, s11);
  s1 = addMsgZ<T>(s1, s6, m10, pow); s12 = xorRotr8<T>(s12, s1); s11 = add<T>(s11, s12); s6 = xorRotr7<T>(s6, s11);
  s2 = addMsg<T>(s2, s7, m2); s13 = xorRotr16<T>(s13, s2); s8 = add<T>(s8, s13); s7 = xorRotr12<T>(s7, s8);
  s2 = addMsg<T>(s2, s7, m6); s13 = xorRotr8<T>(s13, s2); s8 = add<T>(s8, s13); s7 = xorRotr7<T>(s7, s8);
  s3 = addMsg<T>(s3, s4, m4); s14 = xorRotr16<T>(s14, s3); s9 = add<T>(s9, s14); s4 = xorRotr12<T>(s4, s9);
  s3 = addMsg<T>(s3, s4, m7); s14 = xorRotr8<T>(s14, s3); s9 = add<T>(s9, s14); s4 = xorRotr7<T>(s4, s9);
  // Round 7.
  s0 = addMsgZ<T>(s0, s4, m11, pow); s12 = xorRotr16<T>(s12, s0); s8 = add<T>(s8, s12); s4 = xorRotr12<T>(s4, s8);
  s0 = addMsg<T>(s0, s4, m15); s12 = xorRotr8<T>(s12, s0); s8 = add<T>(s8, s12); s4 = xorRotr7<T>(s4, s8);
  s1 = addMsg<T>(s1, s5, m5); s13 = xorRotr16<T>(s13, s1); s9 = add<T>(s9, s13); s5 = xorRotr12<T>(s5, s9);
  s1 = addMsg<T>(s1, s5, m0); s13 = xorRotr8<T>(s13, s1); s9 = add<T>(s9, s13); s5 = xorRotr7<T>(s5, s9);
  s2 = addMsg<T>(s2, s6, m1); s14 = xorRotr16<T>(s14, s2); s10 = add<T>(s10, s14); s6 = xorRotr12<T>(s6, s10);
  s2 = addMsgZ<T>(s2, s6, m9, pow); s14 = xorRotr8<T>(s14, s2); s10 = add<T>(s10, s14); s6 = xorRotr7<T>(s6, s10);
  s3 = addMsgZ<T>(s3, s7, m8, pow); s15 = xorRotr16<T>(s15, s3); s11 = add<T>(s11, s15); s7 = xorRotr12<T>(s7, s11);
  s3 = addMsg<T>(s3, s7, m6); s15 = xorRotr8<T>(s15, s3); s11 = add<T>(s11, s15); s7 = xorRotr7<T>(s7, s11);
  s0 = addMsg<T>(s0, s5, m14); s15 = xorRotr16<T>(s15, s0); s10 = add<T>(s10, s15); s5 = xorRotr12<T>(s5, s10);
  s0 = addMsgZ<T>(s0, s5, m10, pow); s15 = xorRotr8<T>(s15, s0); s10 = add<T>(s10, s15); s5 = xorRotr7<T>(s5, s10);
  s1 = addMsg<T>(s1, s6, m2); s12 = xorRotr16<T>(s12, s1); s11 = add<T>(s11, s12); s6 = xorRotr12<T>(s6, s11);
  s1 = addMsgZ<T>(s1, s6, m12, pow); s12 = xorRotr8<T>(s12, s1); s11 = add<T>(s11, s12); s6 = xorRotr7<T>(s6, s11);
  s2 = addMsg<T>(s2, s7, m3); s13 = xorRotr16<T>(s13, s2); s8 = add<T>(s8, s13); s7 = xorRotr12<T>(s7, s8);
  s2 = addMsg<T>(s2, s7, m4); s13 = xorRotr8<T>(s13, s2); s8 = add<T>(s8, s13); s7 = xorRotr7<T>(s7, s8);
  s3 = addMsg<T>(s3, s4, m7); s14 = xorRotr16<T>(s14, s3); s9 = add<T>(s9, s14); s4 = xorRotr12<T>(s4, s9);
  s3 = addMsgZ<T>(s3, s4, m13, pow); s14 = xorRotr8<T>(s14, s3); s9 = add<T>(s9, s14); s4 = xorRotr7<T>(s4, s9);
  if (!isVector<T>() && out != 0) {
    store<u32>(out, (s0 ^ s8) as u32, 0);
    store<u32>(out, (s1 ^ s9) as u32, 4);
    store<u32>(out, (s2 ^ s10) as u32, 8);
    store<u32>(out, (s3 ^ s11) as u32, 12);
    store<u32>(out, (s4 ^ s12) as u32, 16);
    store<u32>(out, (s5 ^ s13) as u32, 20);
    store<u32>(out, (s6 ^ s14) as u32, 24);
    store<u32>(out, (s7 ^ s15) as u32, 28);
  }
  return xor<T>(s0, s8);
}
