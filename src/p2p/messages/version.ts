/**
 * `version` (0x01), the first message each side sends after the Noise handshake (docs/p2p.md "Messages";
 * the rules that judge it: src/p2p/version-handshake.ts), and `verack` (0x02), its acknowledgement.
 */
import { hashBytes } from '../../codec/header.ts';
import { DecodeError } from '../../errors.ts';
import { bigIntToBytesBE, bytesToBigIntBE } from '../../util/bytes.ts';
import { p2pNetworkNameBytesMax, p2pUserAgentBytesMax, p2pVersionMessageBytesMax } from '../limits.ts';
import type { MessageCodec } from './message-codec.ts';
import { readText, writeText } from './text-field.ts';

/**
 * Service bits in `version` and `addr`. `compactBlocks`: send me new blocks as `cmpctblock` (compact-block.ts);
 * `prefilledBlocks`: as `prefilledblock`, with the transactions I am not known to hold (prefilled-block.ts);
 * `shortTxInv`: announce transactions to me as `txinv` and take `gettx` (tx-inventory.ts); `pushSelection`: take my
 * `pushblocks` choice and `getdata` of kind `compactBlock` (push-blocks.ts).
 */
export const Services = { full: 1n, ws: 2n, browser: 4n, compactBlocks: 8n, prefilledBlocks: 16n, shortTxInv: 32n, pushSelection: 64n } as const;

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

const blueWorkBytesMax = 32;

export const versionCodec: MessageCodec<VersionMessage> = {
  type: 'version',
  code: 0x01,
  payloadBytesMax: p2pVersionMessageBytesMax,
  write(w, m) {
    w.u32(m.protocolVersion, 'protocolVersion');
    writeText(w, m.network, p2pNetworkNameBytesMax, 'network');
    w.u32(m.chainId, 'chainId');
    w.bytes(m.genesis, hashBytes, 'genesis');
    w.u64(m.services, 'services');
    w.u64Number(m.timestampMs, 'timestampMs');
    w.u64(m.nonce, 'nonce');
    writeText(w, m.userAgent, p2pUserAgentBytesMax, 'userAgent');
    w.u16(m.listenPort, 'listenPort');
    w.u64Number(m.bestBlueScore, 'bestBlueScore');
    // Blue work is minimal big-endian: no leading zero byte, and zero as no bytes at all.
    const work = m.bestBlueWork === 0n ? new Uint8Array(0) : bigIntToBytesBE(m.bestBlueWork, Math.ceil(m.bestBlueWork.toString(16).length / 2));
    w.lengthPrefixed(work, blueWorkBytesMax, 'bestBlueWork');
    w.bytes(m.selectedTip, hashBytes, 'selectedTip');
    w.u8(m.relay ? 1 : 0, 'relay');
  },
  read(r) {
    const protocolVersion = r.u32('protocolVersion');
    const network = readText(r, p2pNetworkNameBytesMax, 'network');
    const chainId = r.u32('chainId');
    const genesis = r.bytes(hashBytes, 'genesis');
    const services = r.u64('services');
    const timestampMs = r.u64Number('timestampMs');
    const nonce = r.u64('nonce');
    const userAgent = readText(r, p2pUserAgentBytesMax, 'userAgent');
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
  },
};

export const verackCodec: MessageCodec<{ readonly type: 'verack' }> = {
  type: 'verack',
  code: 0x02,
  payloadBytesMax: 0,
  write() {},
  read: () => ({ type: 'verack' }),
};
