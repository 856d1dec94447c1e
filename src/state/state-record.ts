/**
 * The two rules every record in the state trie follows, whatever its namespace (src/state/namespaces.ts,
 * docs/state.md "Namespaces"):
 *
 * - Key = BLAKE3(tag ‖ id): the namespace's ASCII key tag ("weft/state/<name>/v<n>") followed by the record's
 *   natural id (an address, an escrow id, …). Tags are prefix-free (no tag is the start of another) and each
 *   namespace's ids have one fixed length, so two different (namespace, id) pairs never share a preimage: a key of
 *   one namespace equals a key of another only through a BLAKE3 collision.
 * - Value = version u8 ‖ body: the first byte says which layout of that namespace's record follows. A new layout is
 *   a new version decoded beside the old ones, never a migration of stored values; a version the decoder does not
 *   know is a DecodeError (-32602) with `details.reason` 'record-version-unknown', never a guess.
 *
 * Pure (BLAKE3 and byte helpers only): the ledger, the prover and light clients share it.
 */
import { blake3 } from '../crypto/blake3.ts';
import { DecodeError } from '../errors.ts';

/** What `details.reason` of a record DecodeError says. */
type StateRecordDecodeReason = 'record-empty' | 'record-version-unknown' | 'namespace-reserved';

const tagBytes = new Map<string, Uint8Array>();
const textEncoder = new TextEncoder();

function encodedTag(tag: string): Uint8Array {
  let bytes = tagBytes.get(tag);
  if (bytes === undefined) {
    bytes = textEncoder.encode(tag);
    tagBytes.set(tag, bytes);
  }
  return bytes;
}

/** BLAKE3(tag ‖ id): the trie key of the record `id` in the namespace tagged `tag`. */
export function stateRecordKey(tag: string, id: Uint8Array): Uint8Array {
  const prefix = encodedTag(tag);
  const preimage = new Uint8Array(prefix.length + id.length);
  preimage.set(prefix, 0);
  preimage.set(id, prefix.length);
  return blake3(preimage);
}

/** The version byte of a stored value; an empty value is a DecodeError ('record-empty': the trie never stores one). */
export function recordVersionOf(value: Uint8Array, namespace: string): number {
  if (value.length === 0) {
    throw new DecodeError(`${namespace} record: got 0 bytes, expected a version byte and a body`, {
      reason: 'record-empty' satisfies StateRecordDecodeReason,
      namespace,
    });
  }
  return value[0]!;
}

/** The coded DecodeError for a version byte this code does not read. */
export function unknownRecordVersion(namespace: string, version: number, known: readonly number[]): DecodeError {
  const expected = known.length === 0 ? 'none yet' : known.map((v) => `v${v}`).join(', ');
  return new DecodeError(`${namespace} record: unknown version byte ${version}, this code reads ${expected}`, {
    reason: 'record-version-unknown' satisfies StateRecordDecodeReason,
    namespace,
    version,
    known: [...known],
  });
}

/** version ‖ body. */
export function withRecordVersion(version: number, body: Uint8Array): Uint8Array {
  if (!Number.isInteger(version) || version < 0 || version > 0xff) {
    throw new DecodeError(`record version must be a byte (0..255), got ${version}`);
  }
  const out = new Uint8Array(1 + body.length);
  out[0] = version;
  out.set(body, 1);
  return out;
}

/** The version byte and the body after it (a copy); an empty value is a DecodeError ('record-empty'). */
export function splitRecordVersion(value: Uint8Array, namespace: string): { readonly version: number; readonly body: Uint8Array } {
  const version = recordVersionOf(value, namespace);
  return { version, body: value.slice(1) };
}
