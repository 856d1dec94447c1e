// Agent accounts and escrows through a real node (docs/settlement.md): signed outside the node, admitted with
// JSON-RPC send_raw_transaction, carried in blocks submitted over JSON-RPC, accepted by the next chain block, shown
// by get_transaction, and proven to a light client with get_proof in the `agent` and `escrow` namespaces against
// the header's state root — first EscrowLocked, then Claimed with the client's receipt, with the agent paid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeTransaction, encodeTransaction, txHash } from '../../../../src/kinds/transaction-codec.ts';
import { encodeAddress } from '../../../../src/crypto/address.ts';
import { agentCreateKind } from '../../../../src/kinds/agent/agent-create.ts';
import type { AgentTransaction } from '../../../../src/kinds/agent/envelope.ts';
import { signCompletionReceipt } from '../../../../src/kinds/escrow/completion-receipt.ts';
import { escrowClaimKind } from '../../../../src/kinds/escrow/escrow-claim.ts';
import { escrowCreateKind } from '../../../../src/kinds/escrow/escrow-create.ts';
import { escrowIdOf, EscrowStatus } from '../../../../src/kinds/escrow/escrow-record.ts';
import { proofFromJson } from '../../../../src/state/proof.ts';
import { verifyStateRecord } from '../../../../src/state/proof-verify.ts';
import { fromHex, toHash0x, toHex } from '../../../../src/util/bytes.ts';
import { client, controller, owner, signed, type SendOptions } from '../../../helpers/agent-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

describe('agent accounts and escrows through a node', () => {
  let t: RpcTestNode;
  beforeAll(async () => {
    t = await startRpcTestNode([], false);
    for (const miner of [owner.address, client.address, owner.address]) await t.mine({ miner });
  });
  afterAll(() => t?.close());

  /** Sends `tx` over JSON-RPC, mines it into a block and one more block that accepts it; its get_transaction answer. */
  async function settle(tx: AgentTransaction) {
    const bytes = encodeTransaction(tx);
    const sent = await t.rpc('send_raw_transaction', { transaction: `0x${toHex(bytes)}` });
    if (sent.body.error) throw new Error(JSON.stringify(sent.body.error));
    expect(sent.body.result).toEqual({ hash: toHash0x(txHash(decodeTransaction(bytes))), status: 'pending' });
    await t.mine({ transactions: [bytes] });
    await t.mine();
    return (await t.rpc('get_transaction', { hash: sent.body.result.hash })).body.result;
  }
  const nonceOf = (address: Uint8Array) => t.node.ledger.account(address).nonce;
  const send = <K extends number, P>(kind: Parameters<typeof signed<K, P>>[0], payload: P, by: typeof owner, options: SendOptions = {}) =>
    signed(kind, payload, by, nonceOf(options.payer ?? by.address), options);

  async function proven(namespace: 'agent' | 'escrow', id: Uint8Array) {
    const params = namespace === 'agent' ? { namespace, address: encodeAddress(t.node.chain.params.hrp, id) } : { namespace, id: `0x${toHex(id)}` };
    const answer = (await t.rpc('get_proof', params)).body.result;
    expect(answer.exists).toBe(true);
    const tip = t.node.chain.get(answer.block_hash.slice(2))!;
    expect(toHash0x(tip.header.stateRoot)).toBe(answer.state_root);
    const verified = verifyStateRecord({ stateRoot: fromHex(answer.state_root.slice(2)), namespace, id, proof: proofFromJson(answer.proof) });
    if (!verified.exists) throw new Error('proven absent');
    return verified.record;
  }

  it('creates an agent account, locks an escrow for it and claims it with the client’s receipt, all provable', async () => {
    const hrp = t.node.chain.params.hrp;
    const created = await settle(send(agentCreateKind, { controller: controller.publicKey, identityProofHash: undefined }, owner));
    expect(created).toMatchObject({ kind: 'agent_create', from: encodeAddress(hrp, owner.address), status: 'confirmed' });
    expect(await proven('agent', owner.address)).toMatchObject({ controller: controller.publicKey, frozen: false, claimed: 0n });

    const amount = 5_000_000n;
    const lock = send(escrowCreateKind, { agent: owner.address, taskHash: new Uint8Array(32).fill(3), amount, timeoutDaaScore: 10_000n, disputeWindow: 0n, arbiter: undefined }, client);
    const escrowId = escrowIdOf(client.address, lock.nonce);
    const clientBefore = t.node.ledger.account(client.address).balance;
    expect(await settle(lock)).toMatchObject({ kind: 'escrow_create', to: encodeAddress(hrp, owner.address), amount: 0.05, status: 'confirmed' });
    expect(t.node.ledger.account(client.address).balance).toBe(clientBefore - amount - lock.fee);
    expect(await proven('escrow', escrowId)).toMatchObject({ status: EscrowStatus.EscrowLocked, amount });

    const receipt = { clientKey: client.publicKey, signature: signCompletionReceipt(t.node.chain.params.chainId, escrowId, client.privateKey, new Uint8Array(32)) };
    const claim = send(escrowClaimKind, { escrowId, receipt }, owner);
    const agentBefore = t.node.ledger.account(owner.address).balance;
    expect(await settle(claim)).toMatchObject({ kind: 'escrow_claim', status: 'confirmed' });
    expect(await proven('escrow', escrowId)).toMatchObject({ status: EscrowStatus.Claimed, agentShare: amount });
    expect(await proven('agent', owner.address)).toMatchObject({ claimed: 1n });
    // The owner mined nothing since: its balance moved by exactly the amount less the claim's fee.
    expect(t.node.ledger.account(owner.address).balance).toBe(agentBefore + amount - claim.fee);
  }, 60_000);
});
