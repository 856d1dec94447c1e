// get_agent_account and get_escrow (docs/api.md, docs/settlement.md) through a real node: the records decoded with the
// seed's field names, and a proof a light client checks against its own copy of the header — the state root of the
// header the answer names, not a root the node hands over. The REST routes answer the same; an unknown account or
// escrow answers exists: false with a proof of absence; malformed ids are -32602 / -40002.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTransaction } from '../../../src/kinds/transaction-codec.ts';
import { encodeAddress } from '../../../src/crypto/address.ts';
import { agentAddSessionKeyKind } from '../../../src/kinds/agent/agent-add-session-key.ts';
import { agentCreateKind } from '../../../src/kinds/agent/agent-create.ts';
import { agentFundEnergyPoolKind } from '../../../src/kinds/agent/agent-fund-energy-pool.ts';
import type { AgentTransaction } from '../../../src/kinds/agent/envelope.ts';
import { escrowCreateKind } from '../../../src/kinds/escrow/escrow-create.ts';
import { escrowIdOf } from '../../../src/kinds/escrow/escrow-record.ts';
import { proofFromJson } from '../../../src/state/proof.ts';
import { verifyStateRecord } from '../../../src/state/proof-verify.ts';
import { toHash0x, toHex } from '../../../src/util/bytes.ts';
import { arbiter, client, controller, owner, session, signed, stranger } from '../../helpers/agent-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../helpers/rpc-node.ts';

describe('get_agent_account and get_escrow', () => {
  let t: RpcTestNode;
  let hrp: string;
  let escrowId: Uint8Array;
  beforeAll(async () => {
    t = await startRpcTestNode([], false);
    hrp = t.node.chain.params.hrp;
    for (const miner of [owner.address, client.address]) await t.mine({ miner });
    const nonce = (a: Uint8Array) => t.node.ledger.account(a).nonce;
    const txs: AgentTransaction[] = [
      signed(agentCreateKind, { controller: controller.publicKey, identityProofHash: undefined }, owner, nonce(owner.address)),
      signed(agentAddSessionKeyKind, { publicKey: session.publicKey, allowedKinds: 0b100, txCap: 1_000_000n, totalCap: 5_000_000n, expiryDaaScore: 5_000n }, owner, nonce(owner.address) + 1n),
      signed(agentFundEnergyPoolKind, { agent: owner.address, amount: 250_000n }, owner, nonce(owner.address) + 2n),
    ];
    const lockNonce = nonce(client.address);
    txs.push(signed(escrowCreateKind, { agent: owner.address, taskHash: new Uint8Array(32).fill(7), amount: 3_000_000n, timeoutDaaScore: 9_000n, disputeWindow: 20n, arbiter: arbiter.address }, client, lockNonce));
    escrowId = escrowIdOf(client.address, lockNonce);
    await t.mine({ transactions: txs.map((tx) => encodeTransaction(tx)) });
    await t.mine();
  }, 60_000);
  afterAll(() => t?.close());

  /** The light client: the header comes from its own chain (here the node's chain object, never the answer). */
  function check(namespace: 'agent' | 'escrow', id: Uint8Array, answer: any) {
    const header = t.node.chain.get(answer.block_hash.slice(2))!.header;
    expect(answer.proof.state_root).toBe(toHash0x(header.stateRoot));
    return verifyStateRecord({ stateRoot: header.stateRoot, namespace, id, proof: proofFromJson(answer.proof.proof) });
  }

  it('answers the agent account with seed field names and a proof that verifies against the header', async () => {
    const agent = encodeAddress(hrp, owner.address);
    const res = await t.rpc('get_agent_account', { agent_account: agent, proof: true });
    expect(res.body.error).toBeUndefined();
    const answer = res.body.result;
    expect(answer).toMatchObject({ agent_account: agent, exists: true, block_height: t.node.chain.selectedTip().height });
    expect(answer.account).toMatchObject({
      agent_account: agent,
      owner: `0x${toHex(owner.publicKey)}`,
      controller: `0x${toHex(controller.publicKey)}`,
      frozen: false,
      energy_pool: 0.0025,
      energy_pool_exact: '0.0025',
      reputation_score_bps: null,
      next_session_key_id: 2,
    });
    expect(answer.account.session_keys).toEqual([
      expect.objectContaining({ id: 1, public_key: `0x${toHex(session.publicKey)}`, allowed_kinds: ['escrow_claim'], tx_cap: 0.01, total_cap: 0.05, spent: 0, expiry_daa_score: 5000, revoked: false, expired: false }),
    ]);
    const verified = check('agent', owner.address, answer);
    expect(verified.exists && verified.record).toMatchObject({ energyPool: 250_000n, controller: controller.publicKey });
    // Without `proof` the same record, no proof.
    const plain = (await t.rpc('get_agent_account', { agent_account: agent })).body.result;
    expect(plain.proof).toBeUndefined();
    expect(plain.account).toEqual(answer.account);
  });

  it('answers the escrow with its status name, parties and amount, and a verifiable proof', async () => {
    const answer = (await t.rpc('get_escrow', { escrow_id: toHash0x(escrowId), proof: true })).body.result;
    expect(answer.escrow).toMatchObject({
      escrow_id: toHash0x(escrowId),
      status: 'EscrowLocked',
      client: encodeAddress(hrp, client.address),
      agent_account: encodeAddress(hrp, owner.address),
      arbiter: encodeAddress(hrp, arbiter.address),
      amount: 0.03,
      amount_exact: '0.03',
      timeout_daa_score: 9000,
      dispute_window: 20,
      timed_out: false,
    });
    const verified = check('escrow', escrowId, answer);
    expect(verified.exists && verified.record).toMatchObject({ amount: 3_000_000n, status: 1 });
  });

  it('serves the same over REST', async () => {
    const agent = await t.get(`/api/v1/agents/${encodeAddress(hrp, owner.address)}?proof=true`);
    expect(agent.status).toBe(200);
    expect(agent.body.account.controller).toBe(`0x${toHex(controller.publicKey)}`);
    expect(agent.body.proof.exists).toBe(true);
    const escrow = await t.get(`/api/v1/escrows/${toHash0x(escrowId)}`);
    expect(escrow.status).toBe(200);
    expect(escrow.body.escrow.status).toBe('EscrowLocked');
    expect(escrow.body.proof).toBeUndefined();
    const bad = await t.get('/api/v1/escrows/0x1234');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe(-32602);
  });

  it('proves absence for an address without an agent account and an unknown escrow', async () => {
    const answer = (await t.rpc('get_agent_account', { agent_account: encodeAddress(hrp, stranger.address), proof: true })).body.result;
    expect(answer).toMatchObject({ exists: false, account: null });
    expect(check('agent', stranger.address, answer).exists).toBe(false);
    const unknown = new Uint8Array(32).fill(9);
    const escrow = (await t.rpc('get_escrow', { escrow_id: toHash0x(unknown), proof: true })).body.result;
    expect(escrow).toMatchObject({ exists: false, escrow: null });
    expect(check('escrow', unknown, escrow).exists).toBe(false);
  });

  it('refuses malformed ids', async () => {
    expect((await t.rpc('get_agent_account', { agent_account: 'nope' })).body.error.code).toBe(-40002);
    expect((await t.rpc('get_escrow', { escrow_id: '0xzz' })).body.error.code).toBe(-32602);
  });
});
