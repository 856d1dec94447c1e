/**
 * The cost of on-chain settlement at the A2A endpoint, on a real in-process node (regtest, LMDB in a temp dir):
 *   1. SendMessage latency with `metadata.chainSettlement` (the escrow read from the node's committed state and
 *      checked, src/a2a/settlement.ts) against the same SendMessage without it, interleaved in the same run: p50 and
 *      p99 of each and the difference (target: the check adds < 2 ms at p50);
 *   2. from SendMessage to the node's confirmed claim: how many blocks and how long, blocks being submitted one after
 *      another as soon as the previous is in (target: within 3 blocks). The escrow's dispute window has passed
 *      already, so the claim goes out when the task completes.
 *
 * Run: npx tsx bench/a2a-settlement.ts [requests per mode = 100]  (each settled request claims its own escrow
 * afterwards, so part 2 first mines until those claims are in: a few hundred take minutes)
 */
import { encodeTransaction } from '../src/codec/transaction.ts';
import { TxKind } from '../src/codec/transaction-kinds.ts';
import { encodeAddress } from '../src/crypto/address.ts';
import { agentAddSessionKeyKind } from '../src/kinds/agent/agent-add-session-key.ts';
import { agentCreateKind } from '../src/kinds/agent/agent-create.ts';
import { sessionScopeBit } from '../src/kinds/agent/agent-record.ts';
import { escrowCreateKind } from '../src/kinds/escrow/escrow-create.ts';
import { escrowIdOf } from '../src/kinds/escrow/escrow-record.ts';
import { fromHex, toHex } from '../src/util/bytes.ts';
import { client, controller, owner, signed } from '../test/helpers/agent-fixtures.ts';
import { startRpcTestNode } from '../test/helpers/rpc-node.ts';

const perMode = Number(process.argv[2] ?? 100);
const hrp = 'rweft';
const t = await startRpcTestNode(['--agent-account', encodeAddress(hrp, owner.address), '--agent-session-key-id', '1', '--rate-limits=false'], false);
const nonceOf = (a: Uint8Array) => t.node.ledger.account(a).nonce;
const pendingBytes = () => t.node.api.dispatcher.services.mempool!.pending().map((r) => encodeTransaction(r.tx as Parameters<typeof encodeTransaction>[0]));
async function confirm(extra: Uint8Array[] = []) {
  await t.mine({ transactions: [...extra, ...pendingBytes()] });
  await t.mine();
}

for (const miner of [owner.address, client.address]) await t.mine({ miner });
await t.mine();
const sessionKey = fromHex(((await t.rpc('create_address', {})).body.result.public_key as string).replace(/^0x/, ''));
const n = nonceOf(owner.address);
await confirm([
  encodeTransaction(signed(agentCreateKind, { controller: controller.publicKey, identityProofHash: undefined }, owner, n)),
  encodeTransaction(signed(agentAddSessionKeyKind, { publicKey: sessionKey, allowedKinds: sessionScopeBit.get(TxKind.EscrowClaim)!, txCap: 10n ** 8n, totalCap: 10n ** 12n, expiryDaaScore: 10n ** 9n }, owner, n + 1n)),
]);
/** Locks `count` escrows (one escrow pays for one task), 100 to a block. */
async function lock(count: number): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < count) {
    const nonce = nonceOf(client.address);
    const tip = t.node.chain.selectedTip().header.daaScore;
    const batch = Array.from({ length: Math.min(100, count - ids.length) }, (_, i) => nonce + BigInt(i));
    await confirm(batch.map((k) => encodeTransaction(signed(escrowCreateKind, { agent: owner.address, taskHash: new Uint8Array(32).fill(1), amount: 20_000n, timeoutDaaScore: BigInt(tip + 100_000), disputeWindow: 1n, arbiter: undefined }, client, k))));
    ids.push(...batch.map((k) => `0x${toHex(escrowIdOf(client.address, k))}`));
  }
  return ids;
}
const escrows = await lock(perMode + 30);

let id = 0;
async function send(settled: boolean, escrow?: string): Promise<{ ms: number; body: any }> {
  const params = {
    message: { messageId: `b-${++id}`, role: 'ROLE_USER', parts: [{ text: 'block height' }] },
    configuration: { returnImmediately: true },
    ...(settled ? { metadata: { chainSettlement: { maxCost: 1_000_000, currency: 'WEFT', escrowHash: escrow ?? escrows.pop()!, agentAccount: encodeAddress(hrp, owner.address), skillId: 'chain-query' } } } : {}),
  };
  const started = performance.now();
  const res = await fetch(`${t.base}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' }, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'SendMessage', params }) });
  const body = await res.json();
  const ms = performance.now() - started;
  if ((body as { error?: unknown }).error) throw new Error(JSON.stringify(body));
  return { ms, body };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
// Warm up both paths, then interleave so load changes hit both alike. No block is mined during the run, so the
// settled tasks' claims wait in the mempool.
for (let i = 0; i < 30; i++) await send(i % 2 === 0);
const plain: number[] = [];
const settled: number[] = [];
for (let i = 0; i < perMode; i++) {
  plain.push((await send(false)).ms);
  settled.push((await send(true)).ms);
}
const fmt = (x: number) => x.toFixed(3);
console.log(`SendMessage over JSON-RPC, ${perMode} each, interleaved:`);
console.log(`  without settlement  p50 ${fmt(pct(plain, 50))} ms  p99 ${fmt(pct(plain, 99))} ms`);
console.log(`  with chainSettlement p50 ${fmt(pct(settled, 50))} ms  p99 ${fmt(pct(settled, 99))} ms`);
console.log(`  the check adds       p50 ${fmt(pct(settled, 50) - pct(plain, 50))} ms (target < 2 ms), ratio ${(pct(settled, 50) / pct(plain, 50)).toFixed(3)}`);

// 2. SendMessage → confirmed claim, on a fresh escrow, once the claims of part 1 are settled.
for (let i = 0; i < 60 && (i < 3 || t.node.api.dispatcher.services.mempool!.size() > 0); i++) await confirm();
const [fresh] = await lock(1);
const began = performance.now();
const task = (await send(true, fresh)).body.result.task.id as string;
let blocks = 0;
for (;;) {
  const got = await fetch(`${t.base}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'GetTask', params: { id: task } }) });
  const anchor = ((await got.json()) as any).result.metadata.taskAnchor;
  if (anchor.claim?.status === 'confirmed') break;
  if (anchor.claim?.status === 'pending' || blocks > 0) {
    await t.mine({ transactions: pendingBytes() });
    blocks++;
  } else await new Promise((r) => setTimeout(r, 5));
  if (blocks > 20) throw new Error(`no confirmed claim after 20 blocks: ${JSON.stringify(anchor)}`);
}
console.log(`SendMessage → confirmed claim: ${blocks} blocks (target ≤ 3), ${fmt(performance.now() - began)} ms with blocks submitted back to back (regtest, in-process)`);
await t.close();
process.exit(0);
