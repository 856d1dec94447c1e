/**
 * The p2p protocol messages (docs/p2p.md "Messages"): one application message = `u8 type ‖ payload`, carried by the
 * secure session. Binary, little-endian, LEB128 counts, every count and length bounded, trailing bytes refused —
 * so each message has one encoding. A message over its type's byte cap is refused before it is parsed; unknown
 * types decode to `{ type: 'unknown' }` (forward compatibility: ignored, but rate-limited by the peer).
 *
 * Each message, or small family of them, is one module under src/p2p/messages/ (its code, cap, reader and writer:
 * messages/message-codec.ts), and `messageCodecs` below is their one table. The `Message` union, the codes, the caps
 * and the encode/decode dispatch are all read from it, so adding a message is its module and one line of the table
 * (docs/architecture.md "Adding a P2P message").
 */
import { createByteReader } from '../codec/bytes-reader.ts';
import { createByteWriter } from '../codec/bytes-writer.ts';
import { assert, DecodeError } from '../errors.ts';
import { addrCodec, getaddrCodec } from './messages/addr.ts';
import { blockCodec } from './messages/block.ts';
import { blocktxnCodec, cmpctblockCodec, getblocktxnCodec } from './messages/compact-block.ts';
import { getheadersCodec, headersCodec } from './messages/headers.ts';
import { getdataCodec, invCodec, notfoundCodec } from './messages/inventory.ts';
import type { MessageCodec } from './messages/message-codec.ts';
import { pingCodec, pongCodec } from './messages/ping.ts';
import { prefilledblockCodec } from './messages/prefilled-block.ts';
import { pushblocksCodec } from './messages/push-blocks.ts';
import { getpruningproofCodec, gettrusteddataCodec, pruningproofCodec, trusteddataCodec } from './messages/pruning-point-pages.ts';
import { rejectCodec } from './messages/reject.ts';
import { getsnapshotchunkCodec, snapshotchunkCodec } from './messages/snapshot-chunk.ts';
import { stemtxCodec, txCodec } from './messages/tx.ts';
import { gettxCodec, txinvCodec } from './messages/tx-inventory.ts';
import { verackCodec, versionCodec } from './messages/version.ts';
import { MessageMalformedError, MessageOverCapError } from './protocol-errors.ts';

/** Every message this protocol version speaks, in code order: a pure table, one line a message. */
export const messageCodecs = [
  versionCodec,
  verackCodec,
  pingCodec,
  pongCodec,
  getaddrCodec,
  addrCodec,
  invCodec,
  getdataCodec,
  notfoundCodec,
  getheadersCodec,
  headersCodec,
  blockCodec,
  txCodec,
  rejectCodec,
  stemtxCodec,
  getpruningproofCodec,
  pruningproofCodec,
  getsnapshotchunkCodec,
  snapshotchunkCodec,
  gettrusteddataCodec,
  trusteddataCodec,
  cmpctblockCodec,
  getblocktxnCodec,
  blocktxnCodec,
  prefilledblockCodec,
  txinvCodec,
  gettxCodec,
  pushblocksCodec,
] as const;

type MessageOf<C> = C extends MessageCodec<infer M> ? M : never;
/** A type byte this version does not know: ignored (and counted against the peer's anomalies), never sent. */
type UnknownMessage = { readonly type: 'unknown'; readonly code: number };
/** Every message of the table, and the unknown one. */
export type Message = MessageOf<(typeof messageCodecs)[number]> | UnknownMessage;
export type MessageName = Exclude<Message['type'], 'unknown'>;

type AnyMessageCodec = MessageCodec<{ readonly type: string }>;

/** A table of codecs looked up by type byte (a 256-slot array: one index per decoded message) and by name. */
export interface MessageCodecIndex {
  readonly byCode: readonly (AnyMessageCodec | undefined)[];
  readonly byType: ReadonlyMap<string, AnyMessageCodec>;
}

/** Indexes a table, asserting each code is a byte and no code or name is taken twice. */
export function indexMessageCodecs(codecs: readonly AnyMessageCodec[]): MessageCodecIndex {
  const byCode = new Array<AnyMessageCodec | undefined>(256).fill(undefined);
  const byType = new Map<string, AnyMessageCodec>();
  for (const codec of codecs) {
    assert(Number.isInteger(codec.code) && codec.code > 0 && codec.code <= 0xff, `message ${codec.type}: code ${codec.code} is not a byte above 0`);
    assert(byCode[codec.code] === undefined, `message ${codec.type}: code ${codec.code} is taken by ${byCode[codec.code]?.type}`);
    assert(codec.type !== 'unknown' && !byType.has(codec.type), `message ${codec.type}: the name is taken`);
    byCode[codec.code] = codec;
    byType.set(codec.type, codec);
  }
  return { byCode, byType };
}

const builtIn = indexMessageCodecs(messageCodecs);

/** Each type's code byte. */
export const MessageType = Object.fromEntries(messageCodecs.map((c) => [c.type, c.code])) as Readonly<Record<MessageName, number>>;

/** Byte cap of each type's payload (the type byte excluded), checked before parsing. */
export const messagePayloadBytesMax = Object.fromEntries(messageCodecs.map((c) => [c.type, c.payloadBytesMax])) as Readonly<Record<MessageName, number>>;

/** Where the encoder's buffer starts unless the codec says otherwise: a small message is written without growing. */
const smallMessageWriterBytes = 256;

export function encodeMessage(message: Message): Uint8Array {
  return encodeMessageWith(builtIn, message);
}

/**
 * Decodes one application message. Throws MessageOverCapError (payload or a count over its cap) or
 * MessageMalformedError (anything else that does not parse): both ban score 100.
 */
export function decodeMessage(bytes: Uint8Array): Message {
  return decodeMessageWith(builtIn, bytes) as Message;
}

/** `encodeMessage` over another table (a test's throw-away message beside the built-in ones). */
export function encodeMessageWith<M extends { readonly type: string }>(index: MessageCodecIndex, message: M): Uint8Array {
  const codec = index.byType.get(message.type);
  if (codec === undefined) throw new DecodeError(`cannot encode a message of unknown type ${(message as Partial<UnknownMessage>).code ?? message.type}`);
  const w = createByteWriter(codec.writerBytes ?? smallMessageWriterBytes);
  w.u8(codec.code, 'type');
  codec.write(w, message);
  return w.finish();
}

/** `decodeMessage` over another table. */
export function decodeMessageWith(index: MessageCodecIndex, bytes: Uint8Array): UnknownMessage | { readonly type: string } {
  if (bytes.length === 0) throw new MessageMalformedError('empty message (no type byte)');
  const code = bytes[0]!;
  const codec = index.byCode[code];
  if (codec === undefined) return { type: 'unknown', code };
  const payloadBytes = bytes.length - 1;
  if (payloadBytes > codec.payloadBytesMax) throw new MessageOverCapError(`${codec.type} payload bytes`, payloadBytes, codec.payloadBytesMax);
  const r = createByteReader(bytes.subarray(1));
  try {
    const message = codec.read(r);
    r.end(codec.type);
    return message;
  } catch (error) {
    if (error instanceof MessageOverCapError) throw error;
    if (error instanceof DecodeError) throw new MessageMalformedError(`${codec.type}: ${error.message}`, error);
    throw error;
  }
}
