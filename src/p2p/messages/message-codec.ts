/**
 * A p2p message as one module (docs/architecture.md "Adding a P2P message"): its type code, the byte cap of its
 * payload, and the reader and writer of that payload, declared once. src/p2p/messages.ts lists every codec in one
 * table and frames, caps and dispatches through it, so a new message is one file and one table line.
 *
 * A codec sees the payload only (the type byte is the table's). Its reader bounds every count and length and
 * refuses anything that is not exactly one encoding with DecodeError (MessageOverCapError for a count over its cap);
 * the dispatch maps both to ban-scored errors. Its writer refuses a value it could not read back.
 */
import type { ByteReader } from '../../codec/bytes-reader.ts';
import type { ByteWriter } from '../../codec/bytes-writer.ts';

export interface MessageCodec<M extends { readonly type: string }> {
  /** The message's name: its `type` field, and its row in docs/p2p.md "Messages". */
  readonly type: M['type'];
  /** The type byte on the wire. */
  readonly code: number;
  /** Byte cap of the payload (the type byte excluded), checked before the payload is parsed. */
  readonly payloadBytesMax: number;
  /** Where the encoder's buffer starts, for a type whose encoding is usually large (it then grows fewer times); absent: 256. */
  readonly writerBytes?: number;
  read(r: ByteReader): M;
  write(w: ByteWriter, message: M): void;
}

/** The starting buffer of a usually large message (pages, header runs, compact blocks). */
export const largeMessageWriterBytes = 64 * 1024;
