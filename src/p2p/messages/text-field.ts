/** A length-prefixed UTF-8 text field of a p2p message (network name, user agent, host, reject text). */
import type { ByteReader } from '../../codec/bytes-reader.ts';
import type { ByteWriter } from '../../codec/bytes-writer.ts';
import { DecodeError } from '../../errors.ts';

const text = { encoder: new TextEncoder(), decoder: new TextDecoder('utf-8', { fatal: true }) };

export function writeText(w: ByteWriter, value: string, maxBytes: number, what: string): void {
  w.lengthPrefixed(text.encoder.encode(value), maxBytes, what);
}

/** Refuses bytes that are not valid UTF-8, so the text has one encoding. */
export function readText(r: ByteReader, maxBytes: number, what: string): string {
  const bytes = r.lengthPrefixed(maxBytes, what);
  try {
    return text.decoder.decode(bytes);
  } catch {
    throw new DecodeError(`${what}: not valid UTF-8`);
  }
}
