// The p2p message codec: every type round-trips, one encoding per message, caps refused before parsing, malformed
// bytes refused with a ban-scored error, unknown types passed up for the peer's anomaly allowance.
import { stemHopsMax } from '../../../src/p2p/dandelion.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { regtestParams } from '../../../src/consensus/params.ts';
import { P2pErrorCode, P2pProtocolError } from '../../../src/p2p/errors.ts';
import { p2pHeadersPerMessageMax, p2pInvItemsMax } from '../../../src/p2p/limits.ts';
import { decodeMessage, encodeMessage, MessageType, messagePayloadBytesMax, type Message } from '../../../src/p2p/messages.ts';
import { InvType } from '../../../src/p2p/messages/inventory.ts';
import { versionFor } from '../../helpers/p2p-harness.ts';

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 });
const item = fc.record({ kind: fc.constantFrom(InvType.tx, InvType.block), hash });
const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });

const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ nonce: u64, userAgent: fc.string({ maxLength: 60 }), listenPort: fc.integer({ min: 0, max: 65535 }), bestBlueScore: fc.nat(), bestBlueWork: fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }), selectedTip: hash, relay: fc.boolean() })
    .map((o) => versionFor(regtestParams, o)),
  fc.constant({ type: 'verack' as const }),
  u64.map((nonce) => ({ type: 'ping' as const, nonce })),
  u64.map((nonce) => ({ type: 'pong' as const, nonce })),
  fc.constant({ type: 'getaddr' as const }),
  fc.array(fc.record({ timestampMs: fc.nat(), services: u64, nodeId: hash, host: fc.domain(), port: fc.integer({ min: 0, max: 65535 }) }), { maxLength: 5 })
    .map((entries) => ({ type: 'addr' as const, entries })),
  fc.array(item, { maxLength: 10 }).map((items) => ({ type: 'inv' as const, items })),
  fc.array(item, { maxLength: 10 }).map((items) => ({ type: 'getdata' as const, items })),
  fc.array(item, { maxLength: 10 }).map((items) => ({ type: 'notfound' as const, items })),
  fc.integer({ min: 1, max: 10 }).chain((n) => fc.uint8Array({ minLength: 8 * n, maxLength: 8 * n })).map((shortIds) => ({ type: 'txinv' as const, shortIds })),
  fc.integer({ min: 1, max: 10 }).chain((n) => fc.uint8Array({ minLength: 8 * n, maxLength: 8 * n })).map((shortIds) => ({ type: 'gettx' as const, shortIds })),
  fc.boolean().map((push) => ({ type: 'pushblocks' as const, push })),
  fc.record({ locator: fc.array(hash, { maxLength: 64 }), stop: hash }).map((m) => ({ type: 'getheaders' as const, ...m })),
  fc.uint8Array({ minLength: 1, maxLength: 300 }).map((tx) => ({ type: 'tx' as const, tx })),
  fc.record({ hops: fc.integer({ min: 0, max: stemHopsMax }), tx: fc.uint8Array({ minLength: 1, maxLength: 300 }) }).map((m) => ({ type: 'stemtx' as const, ...m })),
  fc.record({ code: fc.integer({ min: -99_999, max: 0 }), banScore: fc.integer({ min: 0, max: 255 }), text: fc.string({ maxLength: 60 }) }).map((m) => ({ type: 'reject' as const, ...m })),
);

function codeOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(P2pProtocolError);
    expect((error as P2pProtocolError).banScore).toBe(100);
    return (error as P2pProtocolError).code;
  }
  return undefined;
}

describe('p2p messages', () => {
  it('round-trip every type with exactly one encoding', () => {
    fc.assert(
      fc.property(message, (m) => {
        const bytes = encodeMessage(m);
        const back = decodeMessage(bytes);
        expect(back).toEqual(m);
        expect(encodeMessage(back)).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });

  it('refuse a stemtx whose stem is longer than any transaction may ask (malformed, ban score 100)', () => {
    const ok = encodeMessage({ type: 'stemtx', hops: stemHopsMax, tx: Uint8Array.of(1, 2) });
    const over = Uint8Array.from(ok);
    over[1] = stemHopsMax + 1;
    expect(codeOf(() => decodeMessage(over))).toBe(P2pErrorCode.MessageMalformed);
    expect(() => encodeMessage({ type: 'stemtx', hops: stemHopsMax + 1, tx: Uint8Array.of(1) })).toThrow(/hops/);
  });

  it('round-trip headers and blocks', () => {
    const genesis = regtestParams.genesis;
    const headers = { type: 'headers' as const, headers: [genesis, { ...genesis, parents: [new Uint8Array(32).fill(1)] }], more: true };
    expect(decodeMessage(encodeMessage(headers))).toEqual(headers);
    const block = { type: 'block' as const, block: { header: genesis, transactions: [Uint8Array.of(1, 2, 3)] } };
    expect(decodeMessage(encodeMessage(block))).toEqual(block);
  });

  it('refuse counts and payloads over their caps with MessageOverCap', () => {
    const over = (count: number) => {
      const bytes = [];
      let v = count;
      while (v >= 0x80) {
        bytes.push((v & 0x7f) | 0x80);
        v >>>= 7;
      }
      bytes.push(v);
      return bytes;
    };
    expect(codeOf(() => decodeMessage(Uint8Array.from([MessageType.inv, ...over(p2pInvItemsMax + 1)])))).toBe(P2pErrorCode.MessageOverCap);
    expect(codeOf(() => decodeMessage(Uint8Array.from([MessageType.txinv, ...over(p2pInvItemsMax + 1)])))).toBe(P2pErrorCode.MessageOverCap);
    expect(codeOf(() => decodeMessage(Uint8Array.from([MessageType.gettx, ...over(p2pInvItemsMax + 1)])))).toBe(P2pErrorCode.MessageOverCap);
    expect(codeOf(() => decodeMessage(Uint8Array.from([MessageType.headers, ...over(p2pHeadersPerMessageMax + 1)])))).toBe(P2pErrorCode.MessageOverCap);
    const bigVersion = new Uint8Array(2 + messagePayloadBytesMax.version);
    bigVersion[0] = MessageType.version;
    expect(codeOf(() => decodeMessage(bigVersion))).toBe(P2pErrorCode.MessageOverCap);
    expect(codeOf(() => decodeMessage(Uint8Array.of(MessageType.verack, 0)))).toBe(P2pErrorCode.MessageOverCap);
  });

  it('refuse truncated, trailing and out-of-range bytes with MessageMalformed', () => {
    const ping = encodeMessage({ type: 'ping', nonce: 5n });
    expect(codeOf(() => decodeMessage(ping.subarray(0, 5)))).toBe(P2pErrorCode.MessageMalformed);
    expect(codeOf(() => decodeMessage(Uint8Array.of(MessageType.getdata, 1, 9, ...new Uint8Array(32))))).toBe(P2pErrorCode.MessageMalformed);
    // A short-id list that is empty, or shorter than its count says.
    expect(codeOf(() => decodeMessage(Uint8Array.of(MessageType.txinv, 0)))).toBe(P2pErrorCode.MessageMalformed);
    expect(codeOf(() => decodeMessage(Uint8Array.of(MessageType.gettx, 2, ...new Uint8Array(15))))).toBe(P2pErrorCode.MessageMalformed);
    expect(() => encodeMessage({ type: 'txinv', shortIds: new Uint8Array(12) })).toThrow(/multiple of 8/);
    // pushblocks is a flag; a compact-block item only in getdata.
    expect(codeOf(() => decodeMessage(Uint8Array.of(MessageType.pushblocks, 2)))).toBe(P2pErrorCode.MessageMalformed);
    expect(codeOf(() => decodeMessage(Uint8Array.of(MessageType.pushblocks, 1, 0)))).toBe(P2pErrorCode.MessageOverCap);
    expect(decodeMessage(Uint8Array.of(MessageType.getdata, 1, InvType.compactBlock, ...new Uint8Array(32)))).toMatchObject({ type: 'getdata', items: [{ kind: InvType.compactBlock }] });
    expect(codeOf(() => decodeMessage(Uint8Array.of(MessageType.inv, 1, InvType.compactBlock, ...new Uint8Array(32))))).toBe(P2pErrorCode.MessageMalformed);
    expect(codeOf(() => decodeMessage(Uint8Array.of(MessageType.notfound, 1, InvType.compactBlock, ...new Uint8Array(32))))).toBe(P2pErrorCode.MessageMalformed);
    const version = encodeMessage(versionFor(regtestParams));
    const badRelay = version.slice();
    badRelay[badRelay.length - 1] = 2;
    expect(codeOf(() => decodeMessage(badRelay))).toBe(P2pErrorCode.MessageMalformed);
    expect(codeOf(() => decodeMessage(new Uint8Array(0)))).toBe(P2pErrorCode.MessageMalformed);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (junk) => {
        const bytes = Uint8Array.from([MessageType.version, ...junk]);
        expect(codeOf(() => decodeMessage(bytes))).toBeDefined();
      }),
    );
  });

  it('pass unknown types up instead of failing', () => {
    expect(decodeMessage(Uint8Array.of(0xee, 1, 2, 3))).toEqual({ type: 'unknown', code: 0xee });
  });
});
