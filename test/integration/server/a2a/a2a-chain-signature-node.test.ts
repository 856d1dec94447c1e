// Chain-signature authentication against the on-chain agent account, through a real node's A2A endpoint: Owner,
// Controller and SessionKey signers are checked against the account's record in the node's committed state —
// an address without an agent account -32100, a key that does not verify -32101, an expired or revoked session key
// -32102, a frozen account -32103 — and the card lists the signers the node accepts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainExtensionUri } from '../../../../src/a2a/card.ts';
import { encodeTransaction } from '../../../../src/kinds/transaction-codec.ts';
import { agentAddSessionKeyKind } from '../../../../src/kinds/agent/agent-add-session-key.ts';
import { agentCreateKind } from '../../../../src/kinds/agent/agent-create.ts';
import { agentFreezeKind } from '../../../../src/kinds/agent/agent-freeze.ts';
import { agentRevokeSessionKeyKind } from '../../../../src/kinds/agent/agent-revoke-session-key.ts';
import type { ChainSigner } from '../../../../src/a2a/chain-signature.ts';
import { chainSignedHeaders } from '../../../helpers/chain-signed.ts';
import { controller, owner, session, signed, stranger, actor } from '../../../helpers/agent-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

const shortLived = actor(7);
const revoked = actor(8);

describe('chain signatures checked against the on-chain agent account', () => {
  let t: RpcTestNode;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} });
  const call = async (signer: ChainSigner, account: Uint8Array, key: Uint8Array, sessionKeyId?: bigint) => {
    const headers = chainSignedHeaders({ chainId: t.node.chain.params.chainId, hrp: t.node.chain.params.hrp, signer, account, key, body, ...(sessionKeyId === undefined ? {} : { sessionKeyId }) });
    const res = await fetch(`${t.base}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers }, body });
    const answer = (await res.json()) as { error?: { code: number }; result?: unknown };
    return answer.error?.code ?? 'ok';
  };

  beforeAll(async () => {
    t = await startRpcTestNode([], false);
    await t.mine({ miner: owner.address });
    await t.mine();
    const n = t.node.ledger.account(owner.address).nonce;
    const tip = t.node.chain.selectedTip().header.daaScore;
    const key = (who: typeof session, expiry: bigint) => ({ publicKey: who.publicKey, allowedKinds: 0b100, txCap: 1n, totalCap: 1n, expiryDaaScore: expiry });
    await t.mine({
      transactions: [
        signed(agentCreateKind, { controller: controller.publicKey, identityProofHash: undefined }, owner, n),
        signed(agentAddSessionKeyKind, key(session, 100_000n), owner, n + 1n),
        signed(agentAddSessionKeyKind, key(shortLived, BigInt(tip + 4)), owner, n + 2n),
        signed(agentAddSessionKeyKind, key(revoked, 100_000n), owner, n + 3n),
        signed(agentRevokeSessionKeyKind, { revokedKeyId: 3n }, owner, n + 4n),
      ].map((tx) => encodeTransaction(tx)),
    });
    for (let i = 0; i < 4; i++) await t.mine();
  }, 60_000);
  afterAll(() => t?.close());

  it('lists owner, controller and session-key in the card', async () => {
    const card = (await (await fetch(`${t.base}/.well-known/agent-card.json`)).json()) as any;
    const params = card.capabilities.extensions.find((e: { uri: string }) => e.uri === chainExtensionUri).params;
    expect(params.chainSignatureSecurityScheme.allowedSigners).toEqual(['owner', 'controller', 'session-key']);
  });

  it('accepts the owner, the controller and a live session key', async () => {
    expect(await call('Owner', owner.address, owner.privateKey)).toBe('ok');
    expect(await call('Controller', owner.address, controller.privateKey)).toBe('ok');
    expect(await call('SessionKey', owner.address, session.privateKey, 1n)).toBe('ok');
  });

  it('refuses each failure with its code', async () => {
    expect(await call('Controller', stranger.address, stranger.privateKey)).toBe(-32100); // no agent account
    expect(await call('SessionKey', owner.address, session.privateKey, 9n)).toBe(-32100); // no such session key
    expect(await call('Controller', owner.address, session.privateKey)).toBe(-32101); // not the controller's key
    expect(await call('SessionKey', owner.address, controller.privateKey, 1n)).toBe(-32101); // not that session key
    expect(await call('SessionKey', owner.address, shortLived.privateKey, 2n)).toBe(-32102); // expired (DAA score)
    expect(await call('SessionKey', owner.address, revoked.privateKey, 3n)).toBe(-32102); // revoked
  });

  it('refuses every signer of a frozen account with -32103', async () => {
    const n = t.node.ledger.account(owner.address).nonce;
    await t.mine({ transactions: [encodeTransaction(signed(agentFreezeKind, { frozen: true }, owner, n))] });
    await t.mine();
    expect(await call('Owner', owner.address, owner.privateKey)).toBe(-32103);
    expect(await call('Controller', owner.address, controller.privateKey)).toBe(-32103);
    expect(await call('SessionKey', owner.address, session.privateKey, 1n)).toBe(-32103);
  });
});
