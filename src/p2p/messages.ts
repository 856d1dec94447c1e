/**
 * The p2p protocol messages (docs/p2p.md "Messages"): one application message = `u8 type ‖ payload`, carried by the
 * secure session. Binary, little-endian, LEB128 counts, every count and length bounded, trailing bytes refused —
 * so each message has one encoding. A message over its type's byte cap is refused before it is parsed; unknown
 * types decode to `{ type: 'unknown' }` (forward compatibility: ignored, but rate-limited by the peer).
 */
import { decodeBlock, encodeBlock, type Block } from '../codec/block.ts';
import { createByteReader, type ByteReader } from '../codec/bytes-reader.ts';
import { createByteWriter, type ByteWriter } from '../codec/bytes-writer.ts';
import { hashBytes, readHeader, writeHeader, type BlockHeader } from '../codec/header.ts';
import { AssertionError, DecodeError } from '../errors.ts';
import { blockBytesMax, headerBytesMax, txBytesMax } from '../limits.ts';
import { bigIntToBytesBE, bytesToBigIntBE } from '../util/bytes.ts';
import {
  p2pAddrEntriesMax,
  p2pHeadersPerMessageMax,
  p2pHostBytesMax,
  p2pInvItemsMax,
  p2pLocatorHashesMax,
  p2pNetworkNameBytesMax,
  p2pRejectTextBytesMax,
  p2pUserAgentBytesMax,
  p2pVersionMessageBytesMax,
} from './limits.ts';
import { fastSyncPayloadBytesMax, readFastSyncPayload, writeFastSyncPayload, type FastSyncMessage } from './fast-sync-messages.ts';
import { stemHopsMax } from './dandelion.ts';
import { compactBlockPayloadBytesMax, readCompactBlockPayload, writeCompactBlockPayload, type CompactBlockMessage } from './compact-block-messages.ts';
import { readCappedCount } from './capped-count.ts';
import { MessageMalformedError, MessageOverCapError } from './protocol-errors.ts';

export const MessageType = {
  version: 0x01,
  verack: 0x02,
  ping: 0x03,
  pong: 0x04,
  getaddr: 0x05,
  addr: 0x06,
  inv: 0x07,
  getdata: 0x08,
  notfound: 0x09,
  getheaders: 0x0a,
  headers: 0x0b,
  block: 0x0d,
  tx: 0x0e,
  reject: 0x0f,
  stemtx: 0x10,
  getpruningproof: 0x11,
  pruningproof: 0x12,
  getsnapshotchunk: 0x13,
  snapshotchunk: 0x14,
  gettrusteddata: 0x15,
  trusteddata: 0x16,
  cmpctblock: 0x17,
  getblocktxn: 0x18,
  blocktxn: 0x19,
} as const;
export type MessageName = keyof typeof MessageType;

/**
 * Inventory kinds. `stateRoot`, `pruningProof` and `trustedData` appear only in `notfound`: the answer of a node that
 * does not hold the state root asked for in `getsnapshotchunk`, or has no proof (trusted data) of that pruning point
 * for `getpruningproof` (`gettrusteddata`).
 */
export const InvType = { tx: 1, block: 2, stateRoot: 3, pruningProof: 4, trustedData: 5 } as const;
export type InvType = (typeof InvType)[keyof typeof InvType];

/** Service bits in `version` and `addr`. `compactBlocks`: send me new blocks as `cmpctblock` (compact-block-messages.ts). */
export const Services = { full: 1n, ws: 2n, browser: 4n, compactBlocks: 8n } as const;

export interface InvItem {
  readonly kind: InvType;
  readonly hash: Uint8Array;
}

interface AddrEntry {
  readonly timestampMs: number;
  readonly services: bigint;
  /** The peer's Noise static key (its NodeID); 32 zero bytes when unknown. */
  readonly nodeId: Uint8Array;
  readonly host: string;
  readonly port: number;
}

export interface VersionMessage {
  readonly type: 'version';
  readonly protocolVersion: number;
  readonly network: string;
  readonly chainId: number;
  readonly genesis: Uint8Array;
  readonly services: bigint;
  readonly timestampMs: number;
  /** Random per connection: a node that receives its own nonce has dialled itself. */
  readonly nonce: bigint;
  readonly userAgent: string;
  /** The TCP port this node accepts on; 0 when it does not listen (browsers). */
  readonly listenPort: number;
  readonly bestBlueScore: number;
  readonly bestBlueWork: bigint;
  readonly selectedTip: Uint8Array;
  /** False: do not announce transactions to me. */
  readonly relay: boolean;
}

export type Message =
  | VersionMessage
  | { readonly type: 'verack' }
  | { readonly type: 'ping'; readonly nonce: bigint }
  | { readonly type: 'pong'; readonly nonce: bigint }
  | { readonly type: 'getaddr' }
  | { readonly type: 'addr'; readonly entries: readonly AddrEntry[] }
  | { readonly type: 'inv'; readonly items: readonly InvItem[] }
  | { readonly type: 'getdata'; readonly items: readonly InvItem[] }
  | { readonly type: 'notfound'; readonly items: readonly InvItem[] }
  /** Locator over the sender's selected chain, newest first; stop = 32 zero bytes for "as many as allowed". */
  | { readonly type: 'getheaders'; readonly locator: readonly Uint8Array[]; readonly stop: Uint8Array }
  | { readonly type: 'headers'; readonly headers: readonly BlockHeader[]; readonly more: boolean }
  | { readonly type: 'block'; readonly block: Block }
  | { readonly type: 'tx'; readonly tx: Uint8Array }
  /** Dandelion++ stem (src/p2p/dandelion.ts): admit, then forward with `hops` left or fluff at 0. */
  | { readonly type: 'stemtx'; readonly hops: number; readonly tx: Uint8Array }
  /** Sent before a disconnect: the error code and ban score that caused it. */
  | { readonly type: 'reject'; readonly code: number; readonly banScore: number; readonly text: string }
  | FastSyncMessage
  | CompactBlockMessage
  | { readonly type: 'unknown'; readonly code: number };

const headersBytesMax = 8 + p2pHeadersPerMessageMax * headerBytesMax;
const invBytesMax = 8 + p2pInvItemsMax * (1 + hashBytes);
const addrEntryBytesMax = 8 + 8 + hashBytes + 2 + p2pHostBytesMax + 2;

/** Byte cap of each type's payload (the type byte excluded), checked before parsing. */
export const messagePayloadBytesMax: Readonly<Record<MessageName, number>> = {
  version: p2pVersionMessageBytesMax,
  verack: 0,
  ping: 8,
  pong: 8,
  getaddr: 0,
  addr: 8 + p2pAddrEntriesMax * addrEntryBytesMax,
  inv: invBytesMax,
  getdata: invBytesMax,
  notfound: invBytesMax,
  getheaders: 8 + (p2pLocatorHashesMax + 1) * hashBytes,
  headers: headersBytesMax,
  block: blockBytesMax,
  tx: txBytesMax + 8,
  stemtx: 1 + txBytesMax + 8,
  reject: 16 + p2pRejectTextBytesMax,
  ...fastSyncPayloadBytesMax,
  ...compactBlockPayloadBytesMax,
};

const nameOfType = new Map<number, MessageName>(Object.entries(MessageType).map(([name, code]) => [code, name as MessageName]));
const text = { encoder: new TextEncoder(), decoder: new TextDecoder('utf-8', { fatal: true }) };
const blueWorkBytesMax = 32;

function writeString(w: ByteWriter, value: string, maxBytes: number, what: string): void {
  w.lengthPrefixed(text.encoder.encode(value), maxBytes, what);
}

function readString(r: ByteReader, maxBytes: number, what: string): string {
  const bytes = r.lengthPrefixed(maxBytes, what);
  try {
    return text.decoder.decode(bytes);
  } catch {
    throw new DecodeError(`${what}: not valid UTF-8`);
  }
}

function writeItems(w: ByteWriter, items: readonly InvItem[]): void {
  w.varint(items.length, p2pInvItemsMax, 'inv count');
  for (const item of items) {
    w.u8(item.kind, 'inv kind');
    w.bytes(item.hash, hashBytes, 'inv hash');
  }
}

function readItems(r: ByteReader, what: 'inv' | 'getdata' | 'notfound'): InvItem[] {
  const count = readCappedCount(r, p2pInvItemsMax, `${what} count`);
  const items: InvItem[] = [];
  const kindMax = what === 'notfound' ? InvType.trustedData : InvType.block;
  for (let i = 0; i < count; i++) {
    const kind = r.u8(`${what} kind`);
    if (kind < InvType.tx || kind > kindMax) throw new DecodeError(`${what}[${i}]: unknown inventory kind ${kind}`);
    items.push({ kind: kind as InvType, hash: r.bytes(hashBytes, `${what} hash`) });
  }
  return items;
}


function writeVersion(w: ByteWriter, m: VersionMessage): void {
  w.u32(m.protocolVersion, 'protocolVersion');
  writeString(w, m.network, p2pNetworkNameBytesMax, 'network');
  w.u32(m.chainId, 'chainId');
  w.bytes(m.genesis, hashBytes, 'genesis');
  w.u64(m.services, 'services');
  w.u64Number(m.timestampMs, 'timestampMs');
  w.u64(m.nonce, 'nonce');
  writeString(w, m.userAgent, p2pUserAgentBytesMax, 'userAgent');
  w.u16(m.listenPort, 'listenPort');
  w.u64Number(m.bestBlueScore, 'bestBlueScore');
  const work = m.bestBlueWork === 0n ? new Uint8Array(0) : bigIntToBytesBE(m.bestBlueWork, Math.ceil(m.bestBlueWork.toString(16).length / 2));
  w.lengthPrefixed(work, blueWorkBytesMax, 'bestBlueWork');
  w.bytes(m.selectedTip, hashBytes, 'selectedTip');
  w.u8(m.relay ? 1 : 0, 'relay');
}

function readVersion(r: ByteReader): VersionMessage {
  const protocolVersion = r.u32('protocolVersion');
  const network = readString(r, p2pNetworkNameBytesMax, 'network');
  const chainId = r.u32('chainId');
  const genesis = r.bytes(hashBytes, 'genesis');
  const services = r.u64('services');
  const timestampMs = r.u64Number('timestampMs');
  const nonce = r.u64('nonce');
  const userAgent = readString(r, p2pUserAgentBytesMax, 'userAgent');
  const listenPort = r.u16('listenPort');
  const bestBlueScore = r.u64Number('bestBlueScore');
  const work = r.lengthPrefixed(blueWorkBytesMax, 'bestBlueWork');
  if (work.length > 0 && work[0] === 0) throw new DecodeError('bestBlueWork: not minimal');
  const selectedTip = r.bytes(hashBytes, 'selectedTip');
  const relayByte = r.u8('relay');
  if (relayByte > 1) throw new DecodeError(`relay: expected 0 or 1, got ${relayByte}`);
  return {
    type: 'version', protocolVersion, network, chainId, genesis, services, timestampMs, nonce, userAgent, listenPort,
    bestBlueScore, bestBlueWork: work.length === 0 ? 0n : bytesToBigIntBE(work), selectedTip, relay: relayByte === 1,
  };
}

function writePayload(w: ByteWriter, m: Message): void {
  switch (m.type) {
    case 'version':
      return writeVersion(w, m);
    case 'verack':
    case 'getaddr':
      return;
    case 'ping':
    case 'pong':
      return w.u64(m.nonce, 'nonce');
    case 'addr':
      w.varint(m.entries.length, p2pAddrEntriesMax, 'addr count');
      for (const e of m.entries) {
        w.u64Number(e.timestampMs, 'addr time');
        w.u64(e.services, 'addr services');
        w.bytes(e.nodeId, hashBytes, 'addr nodeId');
        writeString(w, e.host, p2pHostBytesMax, 'addr host');
        w.u16(e.port, 'addr port');
      }
      return;
    case 'inv':
    case 'getdata':
    case 'notfound':
      return writeItems(w, m.items);
    case 'getheaders':
      w.varint(m.locator.length, p2pLocatorHashesMax, 'locator count');
      for (const hash of m.locator) w.bytes(hash, hashBytes, 'locator hash');
      return w.bytes(m.stop, hashBytes, 'stop');
    case 'headers':
      w.varint(m.headers.length, p2pHeadersPerMessageMax, 'headers count');
      for (const h of m.headers) writeHeader(w, h);
      return w.u8(m.more ? 1 : 0, 'more');
    case 'block':
      return w.bytes(encodeBlock(m.block));
    case 'tx':
      return w.lengthPrefixed(m.tx, txBytesMax, 'tx');
    case 'stemtx':
      if (!Number.isInteger(m.hops) || m.hops < 0 || m.hops > stemHopsMax) throw new AssertionError(`stemtx hops: expected 0–${stemHopsMax}, got ${m.hops}`);
      w.u8(m.hops, 'stemtx hops');
      return w.lengthPrefixed(m.tx, txBytesMax, 'stemtx');
    case 'getpruningproof':
    case 'pruningproof':
    case 'getsnapshotchunk':
    case 'snapshotchunk':
    case 'gettrusteddata':
    case 'trusteddata':
      return writeFastSyncPayload(w, m);
    case 'cmpctblock':
    case 'getblocktxn':
    case 'blocktxn':
      return writeCompactBlockPayload(w, m);
    case 'reject':
      w.u32(-m.code, 'reject code');
      w.u8(m.banScore, 'reject banScore');
      return writeString(w, m.text.slice(0, p2pRejectTextBytesMax / 4), p2pRejectTextBytesMax, 'reject text');
    case 'unknown':
      throw new DecodeError(`cannot encode a message of unknown type ${m.code}`);
  }
}

function readPayload(name: MessageName, r: ByteReader): Message {
  switch (name) {
    case 'version':
      return readVersion(r);
    case 'verack':
    case 'getaddr':
      return { type: name };
    case 'ping':
    case 'pong':
      return { type: name, nonce: r.u64('nonce') };
    case 'addr': {
      const count = readCappedCount(r, p2pAddrEntriesMax, 'addr count');
      const entries: AddrEntry[] = [];
      for (let i = 0; i < count; i++) {
        const timestampMs = r.u64Number('addr time');
        const services = r.u64('addr services');
        const nodeId = r.bytes(hashBytes, 'addr nodeId');
        const host = readString(r, p2pHostBytesMax, 'addr host');
        entries.push({ timestampMs, services, nodeId, host, port: r.u16('addr port') });
      }
      return { type: 'addr', entries };
    }
    case 'inv':
    case 'getdata':
    case 'notfound':
      return { type: name, items: readItems(r, name) };
    case 'getheaders': {
      const count = readCappedCount(r, p2pLocatorHashesMax, 'locator count');
      const locator: Uint8Array[] = [];
      for (let i = 0; i < count; i++) locator.push(r.bytes(hashBytes, 'locator hash'));
      return { type: 'getheaders', locator, stop: r.bytes(hashBytes, 'stop') };
    }
    case 'headers': {
      const count = readCappedCount(r, p2pHeadersPerMessageMax, 'headers count');
      const headers: BlockHeader[] = [];
      for (let i = 0; i < count; i++) headers.push(readHeader(r));
      const more = r.u8('more');
      if (more > 1) throw new DecodeError(`more: expected 0 or 1, got ${more}`);
      return { type: 'headers', headers, more: more === 1 };
    }
    case 'block':
      return { type: 'block', block: decodeBlock(r.bytes(r.remaining, 'block')) };
    case 'tx':
      return { type: 'tx', tx: r.lengthPrefixed(txBytesMax, 'tx') };
    case 'stemtx': {
      const hops = r.u8('stemtx hops');
      if (hops > stemHopsMax) throw new DecodeError(`stemtx hops: expected at most ${stemHopsMax}, got ${hops}`);
      return { type: 'stemtx', hops, tx: r.lengthPrefixed(txBytesMax, 'stemtx') };
    }
    case 'getpruningproof':
    case 'pruningproof':
    case 'getsnapshotchunk':
    case 'snapshotchunk':
    case 'gettrusteddata':
    case 'trusteddata':
      return readFastSyncPayload(name, r);
    case 'cmpctblock':
    case 'getblocktxn':
    case 'blocktxn':
      return readCompactBlockPayload(name, r);
    case 'reject': {
      const code = 0 - r.u32('reject code');
      const banScore = r.u8('reject banScore');
      return { type: 'reject', code, banScore, text: readString(r, p2pRejectTextBytesMax, 'reject text') };
    }
  }
}

/** Types whose encoding is usually large: the writer starts big instead of growing many times. */
const largeMessages: ReadonlySet<string> = new Set(['headers', 'pruningproof', 'trusteddata', 'snapshotchunk', 'cmpctblock', 'blocktxn']);

export function encodeMessage(message: Message): Uint8Array {
  if (message.type === 'unknown') throw new DecodeError(`cannot encode a message of unknown type ${message.code}`);
  const w = createByteWriter(largeMessages.has(message.type) ? 64 * 1024 : 256);
  w.u8(MessageType[message.type], 'type');
  writePayload(w, message);
  return w.finish();
}

/**
 * Decodes one application message. Throws MessageOverCapError (payload or a count over its cap) or
 * MessageMalformedError (anything else that does not parse): both ban score 100.
 */
export function decodeMessage(bytes: Uint8Array): Message {
  if (bytes.length === 0) throw new MessageMalformedError('empty message (no type byte)');
  const code = bytes[0]!;
  const name = nameOfType.get(code);
  if (name === undefined) return { type: 'unknown', code };
  const payloadBytes = bytes.length - 1;
  if (payloadBytes > messagePayloadBytesMax[name]) throw new MessageOverCapError(`${name} payload bytes`, payloadBytes, messagePayloadBytesMax[name]);
  const r = createByteReader(bytes.subarray(1));
  try {
    const message = readPayload(name, r);
    r.end(name);
    return message;
  } catch (error) {
    if (error instanceof MessageOverCapError) throw error;
    if (error instanceof DecodeError) throw new MessageMalformedError(`${name}: ${error.message}`, error);
    throw error;
  }
}
