/**
 * `getheaders` (0x0A), a locator over the asker's selected chain, and `headers` (0x0B), a page of headers after the
 * fork point (docs/p2p.md "Initial sync (headers first)"; locator.ts builds and answers them).
 */
import { hashBytes, readHeader, writeHeader, type BlockHeader } from '../../codec/header.ts';
import { DecodeError } from '../../errors.ts';
import { headerBytesMax } from '../../limits.ts';
import { readCappedCount } from '../capped-count.ts';
import { p2pHeadersPerMessageMax, p2pLocatorHashesMax } from '../limits.ts';
import { largeMessageWriterBytes, type MessageCodec } from './message-codec.ts';

/** Locator over the sender's selected chain, newest first; stop = 32 zero bytes for "as many as allowed". */
type GetHeadersMessage = { readonly type: 'getheaders'; readonly locator: readonly Uint8Array[]; readonly stop: Uint8Array };
type HeadersMessage = { readonly type: 'headers'; readonly headers: readonly BlockHeader[]; readonly more: boolean };

export const getheadersCodec: MessageCodec<GetHeadersMessage> = {
  type: 'getheaders',
  code: 0x0a,
  payloadBytesMax: 8 + (p2pLocatorHashesMax + 1) * hashBytes,
  write(w, m) {
    w.varint(m.locator.length, p2pLocatorHashesMax, 'locator count');
    for (const hash of m.locator) w.bytes(hash, hashBytes, 'locator hash');
    w.bytes(m.stop, hashBytes, 'stop');
  },
  read(r) {
    const count = readCappedCount(r, p2pLocatorHashesMax, 'locator count');
    const locator: Uint8Array[] = [];
    for (let i = 0; i < count; i++) locator.push(r.bytes(hashBytes, 'locator hash'));
    return { type: 'getheaders', locator, stop: r.bytes(hashBytes, 'stop') };
  },
};

export const headersCodec: MessageCodec<HeadersMessage> = {
  type: 'headers',
  code: 0x0b,
  payloadBytesMax: 8 + p2pHeadersPerMessageMax * headerBytesMax,
  writerBytes: largeMessageWriterBytes,
  write(w, m) {
    w.varint(m.headers.length, p2pHeadersPerMessageMax, 'headers count');
    for (const h of m.headers) writeHeader(w, h);
    w.u8(m.more ? 1 : 0, 'more');
  },
  read(r) {
    const count = readCappedCount(r, p2pHeadersPerMessageMax, 'headers count');
    const headers: BlockHeader[] = [];
    for (let i = 0; i < count; i++) headers.push(readHeader(r));
    const more = r.u8('more');
    if (more > 1) throw new DecodeError(`more: expected 0 or 1, got ${more}`);
    return { type: 'headers', headers, more: more === 1 };
  },
};
