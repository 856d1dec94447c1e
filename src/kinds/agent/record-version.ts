/**
 * The version byte rule of state records (docs/state.md "Namespaces", src/state/state-record.ts) for the record
 * codecs that live with their kinds in layer 1: the same coded DecodeErrors ('record-empty',
 * 'record-version-unknown') as the state layer's helpers, which this layer may not import.
 */
import { DecodeError } from '../../errors.ts';

/** The body after the version byte, or a coded DecodeError when the value is empty or of another version. */
export function recordBody(value: Uint8Array, namespace: string, version: number): Uint8Array {
  if (value.length === 0) {
    throw new DecodeError(`${namespace} record: got 0 bytes, expected a version byte and a body`, { reason: 'record-empty', namespace });
  }
  if (value[0] !== version) {
    throw new DecodeError(`${namespace} record: unknown version byte ${value[0]}, this code reads v${version}`, {
      reason: 'record-version-unknown',
      namespace,
      version: value[0],
      known: [version],
    });
  }
  return value.subarray(1);
}
