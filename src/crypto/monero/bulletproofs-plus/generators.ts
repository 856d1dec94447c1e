/**
 * The public generators and initial transcript of Monero's Bulletproofs+ (bulletproofs_plus.cc `init_exponents`):
 * Hi[i] = hash_to_p3(keccak(H ‖ "bulletproof_plus" ‖ varint(2i))), Gi[i] the same with 2i + 1, where
 * hash_to_p3(k) = 8·map(keccak(k)) — keccak runs twice, as in Monero. The initial Fiat–Shamir transcript is the
 * encoding of hash_to_p3(keccak("bulletproof_plus_transcript")). Generators are derived on first use, up to the
 * largest proof seen (at most 64·16 of each), and kept: deriving all 2048 costs about a second here. The verifier
 * also keeps, per generator, the shifted multiples of vartime.ts `fixedBaseTable` (about as costly again, once).
 */
import { concatBytes } from '../../../util/bytes.ts';
import { assert } from '../../../errors.ts';
import { H } from '../commitment.ts';
import { hashToEc } from '../hash-to-ec.ts';
import { G, encodePoint, type Point } from '../point.ts';
import { fixedBaseTable, fromPoint, type Cached } from '../vartime.ts';
import { encodeVarint, fastHash } from '../scalar.ts';

/** Bits per range (amounts are u64). */
export const rangeBits = 64;
/** Outputs one proof may aggregate (Monero `BULLETPROOF_PLUS_MAX_OUTPUTS`). */
export const aggregatedOutputsMax = 16;
const generatorsMax = rangeBits * aggregatedOutputsMax;

const exponentSalt = new TextEncoder().encode('bulletproof_plus');
const transcriptSalt = new TextEncoder().encode('bulletproof_plus_transcript');
const encodedH = encodePoint(H);

function exponent(index: number): Point {
  return hashToEc(fastHash(concatBytes(encodedH, exponentSalt, encodeVarint(index))));
}

const Gi: Point[] = [];
const Hi: Point[] = [];

/** The first `count` of Monero's Gi and Hi. */
export function generators(count: number): { Gi: readonly Point[]; Hi: readonly Point[] } {
  assert(count <= generatorsMax, `at most ${generatorsMax} generators`);
  for (let i = Gi.length; i < count; i++) {
    Hi.push(exponent(2 * i));
    Gi.push(exponent(2 * i + 1));
  }
  return { Gi, Hi };
}

let transcript: Uint8Array | undefined;

/**
 * The initial transcript, and below the tables of G and H, are made on first use like the generators: made at import
 * they ran in every page that imports the transaction codec, the explorer's and wallet's start included (issue 32).
 */
export function initialTranscript(): Uint8Array {
  transcript ??= encodePoint(hashToEc(fastHash(transcriptSalt)));
  return transcript;
}

let fixedGH: readonly [Cached[], Cached[]] | undefined;
const fixedGi: Cached[][] = [];
const fixedHi: Cached[][] = [];

/** The fixed-base tables of G, H, Gi[0..count) and Hi[0..count), in that order (for vartime.ts `fixedMsm`). */
export function generatorTables(count: number): readonly (readonly Cached[])[] {
  const { Gi, Hi } = generators(count);
  fixedGH ??= [fixedBaseTable(fromPoint(G)), fixedBaseTable(fromPoint(H))];
  for (let i = fixedGi.length; i < count; i++) {
    fixedGi.push(fixedBaseTable(fromPoint(Gi[i]!)));
    fixedHi.push(fixedBaseTable(fromPoint(Hi[i]!)));
  }
  return [...fixedGH, ...fixedGi.slice(0, count), ...fixedHi.slice(0, count)];
}
