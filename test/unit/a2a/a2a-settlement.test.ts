// On-chain settlement at the A2A endpoint (docs/a2a.md "On-chain settlement"): SendMessage naming an escrow in
// metadata.chainSettlement is served only when the escrow can pay — locked, for this agent, holding the task's cost,
// with time left to claim — and the task then carries its anchor; each other case is -32104 with its reason and no
// task. The escrow reader is the port the node implements with the ledger; here it hands out records directly.
import { beforeEach, describe, expect, it } from 'vitest';
import { anonymousPrincipal } from '../../../src/a2a/anonymous.ts';
import { anonymous } from '../../../src/a2a/auth.ts';
import { buildAgentCard, chainExtensionUri } from '../../../src/a2a/card.ts';
import { createNodeA2aService } from '../../../server/a2a/node-a2a.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import { A2aError } from '../../../src/a2a/errors.ts';
import { createA2aHandler, uuidFromBytes } from '../../../src/a2a/handler.ts';
import type { CallContext } from '../../../src/a2a/handler/state.ts';
import { checkChainSettlement, parseChainSettlement, type SettlementPolicy } from '../../../src/a2a/settlement.ts';
import { createKvTaskStore } from '../../../src/a2a/task-store.ts';
import type { Task } from '../../../src/a2a/types.ts';
import { weftAgentSkillCosts, weftAgentSkills } from '../../../src/a2a/weft-agent.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { encodeAddress } from '../../../src/crypto/address.ts';
import { EscrowStatus, type EscrowRecord } from '../../../src/kinds/escrow/escrow-record.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { createScriptedExecutor } from '../../helpers/a2a-fixtures.ts';
import { wallet } from '../../helpers/ledger-fixtures.ts';

const hrp = regtestParams.hrp;
const agent = wallet(11).address;
const other = wallet(12).address;
const client = wallet(13).address;
const escrowId = new Uint8Array(32).fill(7);
const now = 1_000;

const locked = (overrides: Partial<EscrowRecord> = {}): EscrowRecord => ({
  client,
  agent,
  taskHash: new Uint8Array(32).fill(1),
  amount: 2_000_000n,
  createdDaaScore: 900n,
  timeoutDaaScore: 5_000n,
  disputeWindow: 100n,
  arbiter: undefined,
  status: EscrowStatus.EscrowLocked,
  disputedDaaScore: 0n,
  settledDaaScore: 0n,
  agentShare: 0n,
  ...overrides,
});

let escrows: Map<string, EscrowRecord>;
const policy = (): SettlementPolicy => ({
  agentAccount: agent,
  hrp,
  costs: weftAgentSkillCosts,
  claimMarginDaa: 60,
  readEscrow: (id) => ({ record: escrows.get(toHex(id)) ?? null, daaScore: now }),
});
const request = (overrides: Record<string, unknown> = {}) => ({
  chainSettlement: { maxCost: 5_000_000, currency: 'WEFT', escrowHash: `0x${toHex(escrowId)}`, agentAccount: encodeAddress(hrp, agent), ...overrides },
});

const reasonOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(A2aError);
    expect((error as A2aError).kind).toBe('chain_escrow_failed');
    return ((error as A2aError).details as { reason?: string }).reason;
  }
  return undefined;
};
const check = (metadata: object, p: SettlementPolicy | undefined = policy()) => checkChainSettlement(parseChainSettlement(metadata, hrp)!, p);

beforeEach(() => {
  escrows = new Map([[toHex(escrowId), locked()]]);
});

describe('the settlement check', () => {
  it('passes an escrow that can pay, and anchors the task to it', () => {
    expect(check(request())).toEqual({ escrow_id: `0x${toHex(escrowId)}`, agent_account: encodeAddress(hrp, agent), settlement_status: 'EscrowLocked' });
  });

  it('refuses each escrow that cannot pay, with its reason', () => {
    expect(reasonOf(() => checkChainSettlement(parseChainSettlement(request(), hrp)!, undefined))).toBe('settlement_not_offered');
    expect(reasonOf(() => check(request({ currency: 'BTC' })))).toBe('currency_unsupported');
    expect(reasonOf(() => check(request({ agentAccount: encodeAddress(hrp, other) })))).toBe('escrow_wrong_agent');
    expect(reasonOf(() => check(request({ maxCost: 10 })))).toBe('cost_exceeds_max_cost');
    expect(reasonOf(() => check(request({ escrowHash: `0x${'ab'.repeat(32)}` })))).toBe('escrow_not_found');
    for (const status of [EscrowStatus.Claimed, EscrowStatus.Refunded, EscrowStatus.Disputed] as const) {
      escrows.set(toHex(escrowId), locked({ status, ...(status === EscrowStatus.Disputed ? {} : { settledDaaScore: 950n }) }));
      expect(reasonOf(() => check(request())), `status ${status}`).toBe('escrow_not_locked');
    }
    escrows.set(toHex(escrowId), locked({ agent: other }));
    expect(reasonOf(() => check(request()))).toBe('escrow_wrong_agent');
    escrows.set(toHex(escrowId), locked({ amount: 999_999n }));
    expect(reasonOf(() => check(request()))).toBe('escrow_too_small'); // the dearest skill (mine) costs 1,000,000
    expect(check(request({ skillId: 'chain-query' })).settlement_status).toBe('EscrowLocked'); // 10,000 is enough
    escrows.set(toHex(escrowId), locked({ timeoutDaaScore: BigInt(now + 60) }));
    expect(reasonOf(() => check(request()))).toBe('escrow_timed_out');
    escrows.set(toHex(escrowId), locked({ timeoutDaaScore: BigInt(now + 61) }));
    expect(check(request()).settlement_status).toBe('EscrowLocked');
    // The node claims after the dispute window: none means a receipt it may never get; one ending late leaves no time.
    escrows.set(toHex(escrowId), locked({ disputeWindow: 0n }));
    expect(reasonOf(() => check(request()))).toBe('escrow_needs_receipt');
    escrows.set(toHex(escrowId), locked({ disputeWindow: 500n, timeoutDaaScore: 1_460n }));
    expect(reasonOf(() => check(request()))).toBe('escrow_timed_out');
    escrows.set(toHex(escrowId), locked({ disputeWindow: 500n, timeoutDaaScore: 1_461n }));
    expect(check(request()).settlement_status).toBe('EscrowLocked');
  });

  it('refuses malformed settlement metadata as InvalidParams, and ignores metadata without it', () => {
    expect(parseChainSettlement({ other: 1 }, hrp)).toBeUndefined();
    for (const bad of [{ maxCost: -1 }, { maxCost: 1.5 }, { currency: '' }, { escrowHash: '0x12' }, { agentAccount: 'weft1nope' }, { skillId: 3 }]) {
      let error: unknown;
      try {
        parseChainSettlement(request(bad), hrp);
      } catch (e) {
        error = e;
      }
      expect((error as A2aError).kind, JSON.stringify(bad)).toBe('invalid_params');
    }
    let unknownSkill: unknown;
    try {
      check(request({ skillId: 'teleport' }));
    } catch (e) {
      unknownSkill = e;
    }
    expect((unknownSkill as A2aError).kind).toBe('invalid_params');
  });
});

describe('SendMessage with chainSettlement', () => {
  // An anonymous caller with its own key (docs/a2a.md "Visibility"): its follow-up calls see its tasks.
  const ctx: CallContext = { principal: anonymousPrincipal('settlement-test-anonymous-key'), extensions: [] };
  const handlerWith = (settlement: SettlementPolicy | undefined) => {
    const card = buildAgentCard({
      name: 'Settling agent',
      description: 'x',
      version: '1',
      streaming: false,
      pushNotifications: false,
      extendedAgentCard: false,
      auth: { required: false },
      skills: weftAgentSkills,
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
    });
    const executor = createScriptedExecutor();
    const store = createKvTaskStore(createMemoryStore());
    const handler = createA2aHandler({ store, executor, clock: createManualClock(0), newId: () => uuidFromBytes(crypto.getRandomValues(new Uint8Array(16))), card, ...(settlement ? { settlement } : {}) });
    return { handler, store };
  };
  const send = (handler: ReturnType<typeof createA2aHandler>, metadata: object) =>
    handler.sendMessage({ message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text: 'done' }] }, configuration: { returnImmediately: true }, metadata }, ctx);

  it('keeps the task anchor in the task metadata that GetTask shows', async () => {
    const { handler } = handlerWith(policy());
    const sent = (await send(handler, request())) as { task: Task };
    const fetched = await handler.getTask({ id: sent.task.id }, ctx);
    expect(fetched.metadata?.taskAnchor).toEqual({ escrow_id: `0x${toHex(escrowId)}`, agent_account: encodeAddress(hrp, agent), settlement_status: 'EscrowLocked' });
    // One escrow pays for one task.
    await expect(send(handler, request())).rejects.toMatchObject({ kind: 'chain_escrow_failed', details: { reason: 'escrow_in_use' } });
  });

  it('keeps the escrow in use from the task store once the task is stored, and drops a task anchor the client wrote', async () => {
    const { handler, store } = handlerWith(policy());
    const sent = (await send(handler, request())) as { task: Task };
    expect(store.taskOfEscrow(escrowId)).toBe(sent.task.id);
    // A handler over the same store (a restarted node) still refuses the escrow.
    const again = createA2aHandler({ store, executor: createScriptedExecutor(), clock: createManualClock(0), newId: () => 'x', card: handler.card, settlement: policy() });
    await expect(send(again, request())).rejects.toMatchObject({ kind: 'chain_escrow_failed', details: { reason: 'escrow_in_use' } });
    // Only the agent writes taskAnchor: a client's would make the node follow and hold an escrow nobody checked.
    const other = new Uint8Array(32).fill(0x77);
    const forged = (await send(handler, { note: 'n', taskAnchor: { escrow_id: `0x${toHex(other)}`, agent_account: encodeAddress(hrp, agent), settlement_status: 'EscrowLocked' } })) as { task: Task };
    expect(forged.task.metadata).toEqual({ note: 'n' });
    expect(store.taskOfEscrow(other)).toBeUndefined();
  });

  it('refuses an escrow that cannot pay with -32104 and creates no task', async () => {
    const { handler, store } = handlerWith(policy());
    escrows.set(toHex(escrowId), locked({ amount: 1n }));
    await expect(send(handler, request())).rejects.toMatchObject({ kind: 'chain_escrow_failed', details: { reason: 'escrow_too_small' } });
    expect(store.list({ owner: ctx.principal.id }, 10, '').tasks).toEqual([]);
    const { handler: plain } = handlerWith(undefined);
    await expect(send(plain, request())).rejects.toMatchObject({ kind: 'chain_escrow_failed', details: { reason: 'settlement_not_offered' } });
  });
});

describe('a node with an agent account', () => {
  it('offers settlement on its card with each skill’s chainBaseCost, and checks escrows against its own state', async () => {
    const { chain, ledger } = await openLedgerChain({ params: regtestParams, store: createMemoryStore(), clock: createManualClock(regtestParams.genesis.timestampMs + 3_600_000) });
    const service = await createNodeA2aService({ chain, ledger, kv: createMemoryStore(), baseUrl: 'http://127.0.0.1:1', network: 'regtest', version: 't', agentAccount: agent, pushAllowHosts: [] });
    const params = service.card.capabilities.extensions!.find((e) => e.uri === chainExtensionUri)!.params as Record<string, any>;
    expect(params.chainOnChainSettlement).toBe(true);
    expect(params.skills).toEqual(weftAgentSkills.map((s) => ({ id: s.id, chainBaseCost: Number(weftAgentSkillCosts.get(s.id)) })));
    expect(params.chainIdentity).toBeUndefined(); // no agent record on chain yet
    // No escrow exists in the node's state: the check reads the ledger and says so.
    await expect(
      service.handler.sendMessage({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'block height' }] }, metadata: request() }, { principal: anonymous, extensions: [] }),
    ).rejects.toMatchObject({ kind: 'chain_escrow_failed', details: { reason: 'escrow_not_found' } });
    service.close();
    const plain = await createNodeA2aService({ chain, ledger, kv: createMemoryStore(), baseUrl: 'http://127.0.0.1:1', network: 'regtest', version: 't', pushAllowHosts: [] });
    expect((plain.card.capabilities.extensions!.find((e) => e.uri === chainExtensionUri)!.params as Record<string, any>).chainOnChainSettlement).toBe(false);
    plain.close();
  });
});
