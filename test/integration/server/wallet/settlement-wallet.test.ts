// The node-wallet settlement methods (docs/api.md "Agent accounts and escrows") on a real node with its own wallet,
// mempool and ledger: each call signs with the wallet's key for the role asked, the transactions go through the
// mempool into blocks, and the chain's records follow (read back with get_agent_account / get_escrow). A call the
// chain would refuse answers -40003 with the consensus reason in data.rule (or -40001 for funds) and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTransaction } from '../../../../src/kinds/transaction-codec.ts';
import { coinsToUnits } from '../../../../src/crypto/amount.ts';
import { contractAddress, decodeAddress, encodeAddress, multisigAddress } from '../../../../src/crypto/address.ts';
import { publicKeyFromPrivate } from '../../../../src/crypto/keys.ts';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

describe('agent account and escrow methods of the node wallet', () => {
  let t: RpcTestNode;
  let agent: string;
  let client: string;
  let arbiter: string;
  let sessionKey: string;
  const ok = async (method: string, params: unknown) => {
    const res = await t.rpc(method, params);
    if (res.body.error) throw new Error(`${method}: ${JSON.stringify(res.body.error)}`);
    return res.body.result;
  };
  const refused = async (method: string, params: unknown) => {
    const pendingBefore = t.node.api.dispatcher.services.mempool!.size();
    const res = await t.rpc(method, params);
    expect(res.body.error, method).toBeDefined();
    expect(t.node.api.dispatcher.services.mempool!.size()).toBe(pendingBefore);
    return res.body.error;
  };
  /** Mines the pending transactions into a block and one more that accepts them. */
  async function confirm() {
    const pending = t.node.api.dispatcher.services.mempool!.pending();
    await t.mine({ transactions: pending.map((r) => encodeTransaction(r.tx as Parameters<typeof encodeTransaction>[0])) });
    await t.mine();
  }
  const balance = (address: string) => t.node.ledger.account(decodeAddress(address, t.node.chain.params.hrp)).balance;

  beforeAll(async () => {
    t = await startRpcTestNode([], false);
    agent = (await ok('create_address', {})).address;
    client = (await ok('create_address', {})).address;
    arbiter = (await ok('create_address', {})).address;
    sessionKey = (await ok('create_address', {})).public_key;
    const hrp = t.node.chain.params.hrp;
    // A regtest block pays ~0.083 coins: the client mines six.
    for (const miner of [agent, client, client, client, client, client, client, arbiter]) await t.mine({ miner: decodeAddress(miner, hrp) });
    await t.mine();
  }, 60_000);
  afterAll(() => t?.close());

  it('creates an agent account with a session key scoped for claims, and funds its pool', async () => {
    expect(await ok('create_agent_account', { agent_account: agent })).toMatchObject({ kind: 'agent_create', status: 'pending', from: agent, agent_account: agent });
    await confirm();
    const added = await ok('add_session_key', { agent_account: agent, public_key: sessionKey, allowed_kinds: ['escrow_claim'], tx_cap: 1, total_cap: 5, expiry_daa_score: 100_000 });
    expect(added).toMatchObject({ kind: 'agent_add_session_key', session_key_id: 1 });
    await ok('fund_energy_pool', { from: client, agent_account: agent, amount: 0.05 });
    await confirm();
    const read = (await ok('get_agent_account', { agent_account: agent })).account;
    expect(read).toMatchObject({ energy_pool: 0.05, frozen: false, session_keys: [expect.objectContaining({ id: 1, public_key: `0x${sessionKey.replace(/^0x/, '')}`, allowed_kinds: ['escrow_claim'] })] });
  });

  it('locks an escrow and lets the session key claim it once the dispute window passed, paying the fee from the pool', async () => {
    const created = await ok('create_escrow', { from: client, agent_account: agent, amount: 0.05, task_id: 'task-1', timeout_in: 500, dispute_window: 2 });
    expect(created.escrow_id).toMatch(/^0x[0-9a-f]{64}$/);
    await confirm();
    expect((await ok('get_escrow', { escrow_id: created.escrow_id })).escrow).toMatchObject({ status: 'EscrowLocked', amount: 0.05, client, agent_account: agent });
    // The window is still open: the chain's reason, nothing submitted.
    expect(await refused('claim_escrow', { escrow_id: created.escrow_id, signer_role: 'session_key', session_key_id: 1 })).toMatchObject({ code: -40003, data: { rule: 'escrow_window_open' } });
    await t.mine();
    const before = balance(agent);
    await ok('claim_escrow', { escrow_id: created.escrow_id, signer_role: 'session_key', session_key_id: 1, use_energy: true, fee: 0.001 });
    await confirm();
    expect((await ok('get_escrow', { escrow_id: created.escrow_id })).escrow).toMatchObject({ status: 'Claimed', agent_share: 0.05 });
    // Exactly the amount: the fee came from the pool.
    expect(balance(agent) - before).toBe(coinsToUnits(0.05));
    expect((await ok('get_agent_account', { agent_account: agent })).account).toMatchObject({ energy_pool: 0.049, claimed: 1, reputation_score_bps: 10_000 });
  });

  it('disputes an escrow and lets the arbiter split it', async () => {
    const created = await ok('create_escrow', { from: client, agent_account: agent, amount: 0.04, task_id: 'task-2', timeout_in: 500, arbiter });
    await confirm();
    await ok('dispute_escrow', { escrow_id: created.escrow_id, from: client });
    await confirm();
    const agentBefore = balance(agent);
    const clientBefore = balance(client);
    await ok('resolve_escrow', { escrow_id: created.escrow_id, agent_share: 0.01 });
    await confirm();
    expect((await ok('get_escrow', { escrow_id: created.escrow_id })).escrow).toMatchObject({ status: 'Claimed', agent_share: 0.01 });
    expect(balance(agent) - agentBefore).toBe(coinsToUnits(0.01));
    expect(balance(client) - clientBefore).toBe(coinsToUnits(0.03));
  });

  it('reclaims only after the timeout', async () => {
    const created = await ok('create_escrow', { from: client, agent_account: agent, amount: 0.02, task_id: 'task-3', timeout_in: 6 });
    await confirm();
    expect(await refused('reclaim_escrow', { escrow_id: created.escrow_id })).toMatchObject({ code: -40003, data: { rule: 'escrow_not_timed_out' } });
    for (let i = 0; i < 4; i++) await t.mine();
    const before = balance(client);
    const sent = await ok('reclaim_escrow', { escrow_id: created.escrow_id, fee: 0.001 });
    await confirm();
    expect((await ok('get_escrow', { escrow_id: created.escrow_id })).escrow.status).toBe('Refunded');
    expect(balance(client) - before).toBe(coinsToUnits(0.02) - coinsToUnits(sent.fee));
  });

  it('refuses what the chain would refuse, with its reason, and changes nothing', async () => {
    const nonce = t.node.ledger.account(decodeAddress(agent, t.node.chain.params.hrp)).nonce;
    expect(await refused('claim_escrow', { escrow_id: `0x${'ab'.repeat(32)}` })).toMatchObject({ code: -40003, data: { rule: 'escrow_unknown' } });
    expect(await refused('set_agent_controller', { agent_account: agent, controller: sessionKey, signer_role: 'controller' })).toMatchObject({ data: { rule: 'signer_role_not_allowed' } });
    expect(await refused('fund_energy_pool', { from: agent, agent_account: agent, amount: 1, signer_role: 'session_key', session_key_id: 1 })).toMatchObject({ data: { rule: 'session_key_out_of_scope' } });
    expect(await refused('create_agent_account', { agent_account: agent })).toMatchObject({ data: { rule: 'agent_exists' } });
    expect(await refused('create_escrow', { from: client, agent_account: agent, amount: 1_000_000, task_id: 'x', timeout_in: 50 })).toMatchObject({ code: -40001 });
    expect(await refused('revoke_session_key', { agent_account: agent, revoke_session_key_id: 7 })).toMatchObject({ data: { rule: 'session_key_unknown' } });
    // An arbiter that could never sign escrow_resolve (only standard addresses send it) is refused up front.
    const hrp = t.node.chain.params.hrp;
    const multisig = encodeAddress(hrp, multisigAddress(2, [publicKeyFromPrivate(new Uint8Array(32).fill(1)), publicKeyFromPrivate(new Uint8Array(32).fill(2))]));
    const contract = encodeAddress(hrp, contractAddress(decodeAddress(client, hrp), 0n));
    for (const bad of [multisig, contract]) {
      const error = await refused('create_escrow', { from: client, agent_account: agent, amount: 0.01, task_id: 'z', timeout_in: 50, arbiter: bad });
      expect(error).toMatchObject({ code: -40003, data: { rule: 'escrow_arbiter_cannot_sign' } });
      expect(error.message).toMatch(/standard address/);
    }
    expect(t.node.ledger.account(decodeAddress(agent, t.node.chain.params.hrp)).nonce).toBe(nonce);

    await ok('freeze_agent_account', { agent_account: agent });
    await confirm();
    expect((await ok('get_agent_account', { agent_account: agent })).account.frozen).toBe(true);
    expect(await refused('create_escrow', { from: client, agent_account: agent, amount: 0.1, task_id: 'y', timeout_in: 50 })).toMatchObject({ data: { rule: 'agent_frozen' } });
    await ok('freeze_agent_account', { agent_account: agent, frozen: false });
    // The controller is the owner's own key here (create_agent_account's default): the wallet holds it.
    await ok('revoke_session_key', { agent_account: agent, revoke_session_key_id: 1, signer_role: 'controller' });
    await confirm();
    const after = (await ok('get_agent_account', { agent_account: agent })).account;
    expect(after.frozen).toBe(false);
    expect(after.session_keys[0].revoked).toBe(true);
  });
});
