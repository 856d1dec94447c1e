/**
 * State proofs: what a full node hands a light client so that it can check one key against a state root taken from
 * a header it verified itself. A proof is the list of sibling hashes along the key's path (root side first) and
 * what the path ends in: the key's own leaf (inclusion, with the value), an empty subtree (absence), or another
 * key's leaf sitting where the key would be (absence, with that leaf's key and value hash).
 *
 * Binary form (canonical: one encoding per proof, trailing bytes refused), docs/state-trie.md "Proof format":
 *   kind u8 (0 absence-empty, 1 absence-leaf, 2 inclusion) || depth u16 LE (≤ 256)
 *   || presence bitmap ceil(depth/8) bytes (bit i & 7 of byte i >> 3 set when sibling i is not empty; spare bits 0)
 *   || the non-empty siblings, 32 bytes each, root side first
 *   || kind 1: leafKey(32) || leafValueHash(32);  kind 2: value length u32 LE || value
 * The JSON form spells every byte string as 0x-hex (empty siblings as 32 zero bytes).
 */
import { StateError } from './state-errors.ts';
import { isEmptyHash, stateDepthMax, stateHashBytes, stateKeyBytes, stateValueBytesMax } from './trie-hash.ts';
import { fromHex, toHex } from '../util/bytes.ts';

export type StateProof =
  | { readonly kind: 'inclusion'; readonly siblings: readonly Uint8Array[]; readonly value: Uint8Array }
  | { readonly kind: 'absence-empty'; readonly siblings: readonly Uint8Array[] }
  | {
      readonly kind: 'absence-leaf';
      readonly siblings: readonly Uint8Array[];
      readonly leafKey: Uint8Array;
      readonly leafValueHash: Uint8Array;
    };

export interface StateProofJson {
  readonly kind: StateProof['kind'];
  readonly siblings: readonly string[];
  readonly value?: string;
  readonly leafKey?: string;
  readonly leafValueHash?: string;
}

const kindByte = { 'absence-empty': 0, 'absence-leaf': 1, inclusion: 2 } as const;
const headerBytes = 3;
const valueLengthBytes = 4;
/** The largest encoded proof: a full-depth path ending in the largest value. */
export const stateProofBytesMax =
  headerBytes + stateDepthMax / 8 + stateDepthMax * stateHashBytes + valueLengthBytes + stateValueBytesMax;

function malformed(message: string): StateError {
  return new StateError('proof-malformed', message);
}

/** Checks the sizes of a proof object from anywhere (decoder, JSON, a caller); throws StateError 'proof-malformed'. */
export function checkProofShape(proof: StateProof): void {
  if (proof.siblings.length > stateDepthMax) {
    throw malformed(`proof has ${proof.siblings.length} siblings, expected at most ${stateDepthMax}`);
  }
  for (let i = 0; i < proof.siblings.length; i++) {
    const sibling = proof.siblings[i]!;
    if (sibling.length !== stateHashBytes) {
      throw malformed(`proof sibling ${i} has ${sibling.length} bytes, expected ${stateHashBytes}`);
    }
  }
  if (proof.kind === 'inclusion' && proof.value.length > stateValueBytesMax) {
    throw malformed(`proof value has ${proof.value.length} bytes, expected at most ${stateValueBytesMax}`);
  }
  if (proof.kind === 'absence-leaf') {
    if (proof.leafKey.length !== stateKeyBytes || proof.leafValueHash.length !== stateHashBytes) {
      throw malformed(
        `proof leaf has a ${proof.leafKey.length}-byte key and a ${proof.leafValueHash.length}-byte value hash, ` +
          `expected ${stateKeyBytes} and ${stateHashBytes}`,
      );
    }
  }
}

export function encodeProof(proof: StateProof): Uint8Array {
  checkProofShape(proof);
  const depth = proof.siblings.length;
  const bitmapBytes = Math.ceil(depth / 8);
  let present = 0;
  for (const sibling of proof.siblings) if (!isEmptyHash(sibling)) present++;
  const terminalBytes =
    proof.kind === 'inclusion'
      ? valueLengthBytes + proof.value.length
      : proof.kind === 'absence-leaf'
        ? stateKeyBytes + stateHashBytes
        : 0;
  const out = new Uint8Array(headerBytes + bitmapBytes + present * stateHashBytes + terminalBytes);
  const view = new DataView(out.buffer);
  out[0] = kindByte[proof.kind];
  view.setUint16(1, depth, true);
  let at = headerBytes + bitmapBytes;
  for (let i = 0; i < depth; i++) {
    const sibling = proof.siblings[i]!;
    if (isEmptyHash(sibling)) continue;
    out[headerBytes + (i >>> 3)]! |= 1 << (i & 7);
    out.set(sibling, at);
    at += stateHashBytes;
  }
  if (proof.kind === 'inclusion') {
    view.setUint32(at, proof.value.length, true);
    out.set(proof.value, at + valueLengthBytes);
  } else if (proof.kind === 'absence-leaf') {
    out.set(proof.leafKey, at);
    out.set(proof.leafValueHash, at + stateKeyBytes);
  }
  return out;
}

/** Decodes the binary form; throws StateError 'proof-malformed' on any deviation from the one canonical encoding. */
export function decodeProof(bytes: Uint8Array): StateProof {
  if (bytes.length > stateProofBytesMax) {
    throw malformed(`proof has ${bytes.length} bytes, expected at most ${stateProofBytesMax}`);
  }
  if (bytes.length < headerBytes) throw malformed(`proof has ${bytes.length} bytes, expected at least ${headerBytes}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kind = bytes[0]!;
  const depth = view.getUint16(1, true);
  if (kind > kindByte.inclusion) throw malformed(`proof kind byte is ${kind}, expected 0, 1 or 2`);
  if (depth > stateDepthMax) throw malformed(`proof depth is ${depth}, expected at most ${stateDepthMax}`);
  const bitmapBytes = Math.ceil(depth / 8);
  let at = headerBytes + bitmapBytes;
  const need = (n: number, what: string): void => {
    if (at + n > bytes.length) throw malformed(`proof ends inside ${what} at offset ${at}: needs ${n} more bytes`);
  };
  need(0, 'the presence bitmap');
  if ((depth & 7) !== 0 && bytes[at - 1]! >>> (depth & 7) !== 0) throw malformed('proof presence bitmap has spare bits set');
  const siblings: Uint8Array[] = [];
  for (let i = 0; i < depth; i++) {
    if (((bytes[headerBytes + (i >>> 3)]! >>> (i & 7)) & 1) === 0) {
      siblings.push(new Uint8Array(stateHashBytes));
      continue;
    }
    need(stateHashBytes, `sibling ${i}`);
    const sibling = bytes.slice(at, at + stateHashBytes);
    if (isEmptyHash(sibling)) throw malformed(`proof sibling ${i} is empty but marked present in the bitmap`);
    siblings.push(sibling);
    at += stateHashBytes;
  }
  let proof: StateProof;
  if (kind === kindByte.inclusion) {
    need(valueLengthBytes, 'the value length');
    const length = view.getUint32(at, true);
    if (length > stateValueBytesMax) {
      throw malformed(`proof value length is ${length}, expected at most ${stateValueBytesMax}`);
    }
    at += valueLengthBytes;
    need(length, 'the value');
    proof = { kind: 'inclusion', siblings, value: bytes.slice(at, at + length) };
    at += length;
  } else if (kind === kindByte['absence-leaf']) {
    need(stateKeyBytes + stateHashBytes, 'the leaf');
    const leafKey = bytes.slice(at, at + stateKeyBytes);
    const leafValueHash = bytes.slice(at + stateKeyBytes, at + stateKeyBytes + stateHashBytes);
    proof = { kind: 'absence-leaf', siblings, leafKey, leafValueHash };
    at += stateKeyBytes + stateHashBytes;
  } else {
    proof = { kind: 'absence-empty', siblings };
  }
  if (at !== bytes.length) throw malformed(`proof has ${bytes.length - at} trailing bytes after offset ${at}`);
  return proof;
}

const to0x = (bytes: Uint8Array): string => `0x${toHex(bytes)}`;

function from0x(text: unknown, what: string): Uint8Array {
  if (typeof text !== 'string' || !/^0x(?:[0-9a-f]{2})*$/.test(text)) {
    throw malformed(`proof ${what} must be 0x followed by lowercase hex byte pairs`);
  }
  return fromHex(text.slice(2));
}

export function proofToJson(proof: StateProof): StateProofJson {
  checkProofShape(proof);
  const siblings = proof.siblings.map(to0x);
  if (proof.kind === 'inclusion') return { kind: proof.kind, siblings, value: to0x(proof.value) };
  if (proof.kind === 'absence-leaf') {
    return { kind: proof.kind, siblings, leafKey: to0x(proof.leafKey), leafValueHash: to0x(proof.leafValueHash) };
  }
  return { kind: proof.kind, siblings };
}

/** Parses the JSON form (e.g. from a get_proof answer); throws StateError 'proof-malformed'. */
export function proofFromJson(json: unknown): StateProof {
  if (typeof json !== 'object' || json === null) throw malformed('proof JSON must be an object');
  const { kind, siblings: rawSiblings } = json as Record<string, unknown>;
  if (!Array.isArray(rawSiblings)) throw malformed('proof JSON siblings must be an array');
  if (rawSiblings.length > stateDepthMax) {
    throw malformed(`proof has ${rawSiblings.length} siblings, expected at most ${stateDepthMax}`);
  }
  const siblings = rawSiblings.map((s, i) => from0x(s, `sibling ${i}`));
  const fields = json as Partial<Record<string, unknown>>;
  let proof: StateProof;
  if (kind === 'inclusion') proof = { kind, siblings, value: from0x(fields['value'], 'value') };
  else if (kind === 'absence-leaf') {
    proof = {
      kind,
      siblings,
      leafKey: from0x(fields['leafKey'], 'leafKey'),
      leafValueHash: from0x(fields['leafValueHash'], 'leafValueHash'),
    };
  } else if (kind === 'absence-empty') proof = { kind, siblings };
  else throw malformed(`proof JSON kind is ${JSON.stringify(kind)}, expected inclusion, absence-empty or absence-leaf`);
  checkProofShape(proof);
  return proof;
}
