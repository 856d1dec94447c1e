/** `getaddr` (0x05), answered once per connection, and `addr` (0x06): addresses of peers (docs/p2p.md "Peers"). */
import { hashBytes } from '../../codec/header.ts';
import { readCappedCount } from '../capped-count.ts';
import { p2pAddrEntriesMax, p2pHostBytesMax } from '../limits.ts';
import type { MessageCodec } from './message-codec.ts';
import { readText, writeText } from './text-field.ts';

interface AddrEntry {
  readonly timestampMs: number;
  readonly services: bigint;
  /** The peer's Noise static key (its NodeID); 32 zero bytes when unknown. */
  readonly nodeId: Uint8Array;
  readonly host: string;
  readonly port: number;
}

const addrEntryBytesMax = 8 + 8 + hashBytes + 2 + p2pHostBytesMax + 2;

export const getaddrCodec: MessageCodec<{ readonly type: 'getaddr' }> = {
  type: 'getaddr',
  code: 0x05,
  payloadBytesMax: 0,
  write() {},
  read: () => ({ type: 'getaddr' }),
};

export const addrCodec: MessageCodec<{ readonly type: 'addr'; readonly entries: readonly AddrEntry[] }> = {
  type: 'addr',
  code: 0x06,
  payloadBytesMax: 8 + p2pAddrEntriesMax * addrEntryBytesMax,
  write(w, m) {
    w.varint(m.entries.length, p2pAddrEntriesMax, 'addr count');
    for (const e of m.entries) {
      w.u64Number(e.timestampMs, 'addr time');
      w.u64(e.services, 'addr services');
      w.bytes(e.nodeId, hashBytes, 'addr nodeId');
      writeText(w, e.host, p2pHostBytesMax, 'addr host');
      w.u16(e.port, 'addr port');
    }
  },
  read(r) {
    const count = readCappedCount(r, p2pAddrEntriesMax, 'addr count');
    const entries: AddrEntry[] = [];
    for (let i = 0; i < count; i++) {
      const timestampMs = r.u64Number('addr time');
      const services = r.u64('addr services');
      const nodeId = r.bytes(hashBytes, 'addr nodeId');
      const host = readText(r, p2pHostBytesMax, 'addr host');
      entries.push({ timestampMs, services, nodeId, host, port: r.u16('addr port') });
    }
    return { type: 'addr', entries };
  },
};
