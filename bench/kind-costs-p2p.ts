/**
 * The P2P half of bench/kind-costs.ts: each message type at the largest payload its cap allows (src/p2p/messages.ts
 * `messagePayloadBytesMax`), the CPU to decode it (what any peer can make a node spend before any rule runs) and the
 * memory the decoded message holds, against its bytes. What a message then asks of the node (verifying a block's or
 * a transaction's proofs) is the kinds' table; replies are bounded by the request caps in docs/p2p.md.
 */
import { regtestParams } from '../src/consensus/params.ts';
import { decodeMessage, encodeMessage, messagePayloadBytesMax, type Message } from '../src/p2p/messages.ts';
import { InvType } from '../src/p2p/messages/inventory.ts';
import { txShortIdBytes } from '../src/p2p/messages/tx-inventory.ts';
import { p2pAddrEntriesMax, p2pHeadersPerMessageMax, p2pHostBytesMax, p2pInvItemsMax, p2pLocatorHashesMax, p2pPruningProofPageBytesMax, p2pRejectTextBytesMax } from '../src/p2p/limits.ts';
import { txBytesMax } from '../src/limits.ts';

export interface MessageCost {
  readonly name: string;
  readonly bytes: number;
  readonly decodeUs: number;
  readonly memory: string;
}

const hash = (i: number) => new Uint8Array(32).fill(i & 0xff);
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: InvType.tx, hash: hash(i) }));

function largest(): Message[] {
  const host = 'h'.repeat(p2pHostBytesMax);
  return [
    { type: 'ping', nonce: 1n },
    { type: 'addr', entries: Array.from({ length: p2pAddrEntriesMax }, (_, i) => ({ timestampMs: i, services: 1n, nodeId: hash(i), host, port: 2080 })) },
    { type: 'inv', items: items(p2pInvItemsMax) },
    { type: 'getdata', items: items(p2pInvItemsMax) },
    { type: 'notfound', items: items(p2pInvItemsMax) },
    { type: 'txinv', shortIds: new Uint8Array(p2pInvItemsMax * txShortIdBytes).fill(1) },
    { type: 'gettx', shortIds: new Uint8Array(p2pInvItemsMax * txShortIdBytes).fill(1) },
    { type: 'pushblocks', push: true },
    { type: 'getheaders', locator: Array.from({ length: p2pLocatorHashesMax }, (_, i) => hash(i)), stop: hash(0) },
    { type: 'headers', headers: Array.from({ length: p2pHeadersPerMessageMax }, () => regtestParams.genesis), more: true },
    { type: 'tx', tx: new Uint8Array(txBytesMax).fill(1) },
    { type: 'stemtx', hops: 1, tx: new Uint8Array(txBytesMax).fill(1) },
    { type: 'reject', code: -1, banScore: 100, text: 'r'.repeat(p2pRejectTextBytesMax) },
    { type: 'pruningproof', pruningPoint: hash(1), total: p2pPruningProofPageBytesMax, offset: 0, page: new Uint8Array(p2pPruningProofPageBytesMax) },
    { type: 'trusteddata', pruningPoint: hash(1), total: p2pPruningProofPageBytesMax, offset: 0, page: new Uint8Array(p2pPruningProofPageBytesMax) },
  ] as Message[];
}

/** Bytes a decoded message keeps beyond its encoding: the arrays it allocates (subarrays of the input cost none). */
function retained(message: Message): number {
  let total = 0;
  const walk = (value: unknown): void => {
    if (value instanceof Uint8Array) total += value.byteOffset === 0 && value.buffer.byteLength === value.length ? value.length : 0;
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
    else if (typeof value === 'string') total += value.length;
  };
  walk(message);
  return total;
}

export function p2pMessageCosts(runs: number): MessageCost[] {
  return largest().map((message) => {
    const bytes = encodeMessage(message);
    if (bytes.length - 1 > messagePayloadBytesMax[message.type as keyof typeof messagePayloadBytesMax]) throw new Error(`${message.type}: over its cap`);
    const times: number[] = [];
    let decoded: Message = message;
    for (let i = 0; i <= runs; i++) {
      const start = process.cpuUsage();
      decoded = decodeMessage(bytes);
      const used = process.cpuUsage(start);
      if (i > 0) times.push(used.user + used.system);
    }
    const median = times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
    return { name: message.type, bytes: bytes.length, decodeUs: median, memory: `${retained(decoded)} copied (≤ the message's ${bytes.length})` };
  });
}
