// Attack class: value created or destroyed out of nothing (issue 30, "a conservation property"). A real ledger chain
// (GHOSTDAG, mergeset acceptance, state roots, reorganisations: src/state/ledger.ts over a memory store) takes random
// sequences of every value-moving kind — transfers (balance- and energy-paid), a 2-of-3 multisig transfer, agent
// account creation and energy-pool funding, escrow create/claim/dispute/resolve/reclaim, contract deploy and calls
// carrying value, shield and unshield — signed by random actors, many of them refused at acceptance (no funds, a
// stale nonce, an escrow in the wrong state, an immature output), mined in blocks that merge every tip, and
// reorganised by side chains that overtake the selected chain without merging it. After every block, at the virtual
// state: Σ balances + Σ agent energy pools + Σ escrowed amounts + Σ unspent shielded outputs = emitted − burnt, the
// figures the ledger reports (get_supply's). The test names every account and record a kind can put coins in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Block } from '../../../src/codec/block.ts';
import { assembleMultisigTransfer, encodeTransaction, signMultisigShare, signTransfer, txHash } from '../../../src/kinds/transaction-codec.ts';
import { TxKind } from '../../../src/codec/transaction-kinds.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { canonicalMultisigKeys, contractAddress, multisigAddress } from '../../../src/crypto/address.ts';
import { publicKeyFromPrivate } from '../../../src/crypto/keys.ts';
import { agentCreateKind } from '../../../src/kinds/agent/agent-create.ts';
import { agentFundEnergyPoolKind } from '../../../src/kinds/agent/agent-fund-energy-pool.ts';
import { decodeAgentRecord } from '../../../src/kinds/agent/agent-record.ts';
import type { AnyTransaction } from '../../../src/kinds/kind.ts';
import { signContractCall } from '../../../src/kinds/contract-call.ts';
import { signContractDeploy } from '../../../src/kinds/contract-deploy.ts';
import { signCompletionReceipt } from '../../../src/kinds/escrow/completion-receipt.ts';
import { escrowClaimKind } from '../../../src/kinds/escrow/escrow-claim.ts';
import { escrowCreateKind } from '../../../src/kinds/escrow/escrow-create.ts';
import { escrowDisputeKind } from '../../../src/kinds/escrow/escrow-dispute.ts';
import { decodeEscrowRecord, escrowedAmount, escrowIdOf } from '../../../src/kinds/escrow/escrow-record.ts';
import { escrowReclaimKind } from '../../../src/kinds/escrow/escrow-reclaim.ts';
import { escrowResolveKind } from '../../../src/kinds/escrow/escrow-resolve.ts';
import { bigIntToBytesBE, toHex } from '../../../src/util/bytes.ts';
import { encodeAbiValues } from '../../../src/vm/abi.ts';
import { buildRingSpend, buildShield, scanOutput, type OwnedOutput } from '../../../src/wallet/confidential.ts';
import { actor, chainId, signed, type Actor } from '../../helpers/agent-fixtures.ts';
import { makeBlock } from '../../helpers/chain-fixtures.ts';
import { seededRandom, stealthWallet } from '../../helpers/confidential-fixtures.ts';
import { ledgerChain, type LedgerFixture } from '../../helpers/ledger-fixtures.ts';
import { contractBytes } from '../../helpers/vm-contracts.ts';

const actors: Actor[] = [actor(11), actor(12), actor(13), actor(14)];
const aux = new Uint8Array(32);
const sk = (d: number) => bigIntToBytesBE(BigInt(d), 32);
const multisigKeys = canonicalMultisigKeys(2, [21, 22, 23].map((d) => publicKeyFromPrivate(sk(d))));
const multisigScript = { m: 2, publicKeys: multisigKeys };
const multisig = multisigAddress(2, multisigKeys);
const bob = stealthWallet(31);
const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;

const amount = fc.bigInt({ min: 0n, max: 3_000_000n });
const op = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('transfer' as const), from: fc.nat(), to: fc.nat(), amount, energy: fc.boolean() }) },
  fc.record({ op: fc.constant('fund_multisig' as const), from: fc.nat(), amount }),
  fc.record({ op: fc.constant('multisig' as const), to: fc.nat(), amount }),
  fc.record({ op: fc.constant('agent' as const), who: fc.nat() }),
  fc.record({ op: fc.constant('fund_pool' as const), by: fc.nat(), agent: fc.nat(), amount }),
  fc.record({ op: fc.constant('escrow' as const), client: fc.nat(), agent: fc.nat(), arbiter: fc.nat(), amount, timeout: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ op: fc.constant('escrow_step' as const), escrow: fc.nat(), step: fc.constantFrom('claim', 'dispute', 'resolve', 'reclaim'), share: amount }),
  fc.record({ op: fc.constant('deploy' as const), from: fc.nat(), value: amount }),
  fc.record({ op: fc.constant('call' as const), from: fc.nat(), contract: fc.nat(), value: amount }),
  fc.record({ op: fc.constant('shield' as const), from: fc.nat(), amount: fc.bigInt({ min: 20_000n, max: 3_000_000n }) }),
  fc.record({ op: fc.constant('unshield' as const), output: fc.nat(), to: fc.nat() }),
  { weight: 3, arbitrary: fc.record({ op: fc.constant('mine' as const), miner: fc.nat() }) },
  fc.record({ op: fc.constant('reorg' as const), back: fc.integer({ min: 1, max: 3 }), miner: fc.nat() }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

interface Escrow {
  readonly id: Uint8Array;
  readonly client: Actor;
  readonly agent: Actor;
  readonly arbiter: Actor;
}

/** One run: a fresh chain, its actors' pending transactions, and every place coins may sit. */
class Run {
  readonly pending: Uint8Array[] = [];
  readonly nonces = new Map<string, bigint>();
  readonly escrows: Escrow[] = [];
  readonly contracts: Uint8Array[] = [];
  readonly outputs: Array<OwnedOutput & { keyImage?: Uint8Array }> = [];
  readonly attempted = new Map<string, number>();
  readonly accepted = new Map<string, number>();
  private readonly sent: Array<{ kind: string; hash: Uint8Array }> = [];
  private readonly agents = new Set<string>();

  constructor(readonly f: LedgerFixture) {}

  get ledger() {
    return this.f.ledger;
  }

  /** The payer's next nonce: its account's at the virtual state plus what is pending for it. */
  nonce(address: Uint8Array): bigint {
    const key = toHex(address);
    const next = this.nonces.get(key) ?? this.ledger.getAccount(address).nonce;
    this.nonces.set(key, next + 1n);
    return next;
  }

  add(kind: string, tx: AnyTransaction): void {
    const bytes = encodeTransaction(tx);
    this.pending.push(bytes);
    this.sent.push({ kind, hash: txHash(tx) });
    this.attempted.set(kind, (this.attempted.get(kind) ?? 0) + 1);
  }

  async addBlock(block: Block): Promise<void> {
    const result = await this.f.chain.addBlock(block);
    expect(result.status).toBe('accepted');
  }

  async mine(minerIndex: number, parents?: string[], timestampMs?: number): Promise<string> {
    const block = makeBlock(this.f.chain, { transactions: this.pending.splice(0), miner: pick(actors, minerIndex).address, ...(parents ? { parents } : {}), ...(timestampMs ? { timestampMs } : {}) });
    await this.addBlock(block);
    this.nonces.clear();
    return toHex(blockHash(block.header));
  }

  /** A side chain from `back` blocks below the selected tip, one longer than what it overtakes, merging nothing else. */
  async reorg(back: number, minerIndex: number): Promise<void> {
    const chain = this.f.chain;
    let fork = chain.selectedTip();
    for (let i = 0; i < back && fork.id !== chain.genesis.id; i++) fork = chain.get(chain.engine.get(fork.id)!.selectedParent!)!;
    const overtaken = chain.selectedTip().header.blueScore - fork.header.blueScore;
    let parent = fork.id;
    // An odd timestamp keeps each side block distinct from any block already on the chain.
    for (let i = 0; i <= overtaken + 1; i++) parent = await this.mine(minerIndex + i, [parent], chain.get(parent)!.header.timestampMs + 1_001 + i);
  }

  noteAgent(address: Uint8Array): void {
    this.agents.add(toHex(address));
  }

  /** Everything the coins can be in, at the virtual state; against emitted − burnt. */
  audit(): { held: bigint; supply: bigint } {
    const ledger = this.ledger;
    const accounts = new Map<string, Uint8Array>();
    for (const a of [...actors.map((x) => x.address), multisig, ...this.contracts]) accounts.set(toHex(a), a);
    let held = 0n;
    for (const address of accounts.values()) held += ledger.getAccount(address).balance;
    for (const hex of this.agents) {
      const value = ledger.getRecord('agent', accounts.get(hex) ?? Uint8Array.from(Buffer.from(hex, 'hex')));
      if (value !== undefined) held += decodeAgentRecord(value).energyPool;
    }
    for (const id of new Map(this.escrows.map((e) => [toHex(e.id), e.id])).values()) {
      const value = ledger.getRecord('escrow', id);
      if (value !== undefined) held += escrowedAmount(decodeEscrowRecord(value));
    }
    for (const o of this.outputs) {
      const stored = ledger.getRecord('confidential_output', o.oneTimeKey) !== undefined;
      const spent = o.keyImage !== undefined && ledger.getRecord('key_image', o.keyImage) !== undefined;
      if (stored && !spent) held += o.amount;
    }
    const supply = ledger.supply();
    return { held, supply: supply.circulatingUnits - supply.burntUnits };
  }

  countAccepted(): void {
    for (const { kind, hash } of this.sent) if (this.ledger.getTransaction(hash)?.accepted === true) this.accepted.set(kind, (this.accepted.get(kind) ?? 0) + 1);
  }
}

function apply(run: Run, o: Op): void {
  const fee = 2_000n;
  switch (o.op) {
    case 'transfer': {
      const from = pick(actors, o.from);
      // Energy accrues slowly on a young chain: an energy-paid fee is small so that some are paid.
      return run.add(o.energy ? 'transfer (energy)' : 'transfer', signTransfer({ kind: TxKind.Transfer, chainId, from: from.address, to: pick(actors, o.to).address, amount: o.amount, fee: o.energy ? 1n : fee, nonce: run.nonce(from.address), useEnergy: o.energy, memo: new Uint8Array() }, from.privateKey, aux));
    }
    case 'fund_multisig': {
      const from = pick(actors, o.from);
      return run.add('transfer', signTransfer({ kind: TxKind.Transfer, chainId, from: from.address, to: multisig, amount: o.amount, fee, nonce: run.nonce(from.address), useEnergy: false, memo: new Uint8Array() }, from.privateKey, aux));
    }
    case 'multisig': {
      const unsigned = { kind: TxKind.MultisigTransfer, chainId, from: multisig, to: pick(actors, o.to).address, amount: o.amount, fee, nonce: run.nonce(multisig), useEnergy: false, memo: new Uint8Array() } as const;
      return run.add('multisig', assembleMultisigTransfer(unsigned, multisigScript, [21, 23].map((d) => signMultisigShare(unsigned, multisigScript, sk(d), aux))));
    }
    case 'agent': {
      const owner = pick(actors, o.who);
      run.noteAgent(owner.address);
      return run.add('agent_create', signed(agentCreateKind, { controller: pick(actors, o.who + 1).publicKey, identityProofHash: undefined }, owner, run.nonce(owner.address), { fee }));
    }
    case 'fund_pool': {
      const by = pick(actors, o.by);
      run.noteAgent(pick(actors, o.agent).address);
      return run.add('agent_fund_energy_pool', signed(agentFundEnergyPoolKind, { agent: pick(actors, o.agent).address, amount: o.amount }, by, run.nonce(by.address), { fee }));
    }
    case 'escrow': {
      const client = pick(actors, o.client);
      const nonce = run.nonce(client.address);
      // The agent is one of the two agent accounts the run opens with (an escrow for a plain account is refused).
      const escrow: Escrow = { id: escrowIdOf(client.address, nonce), client, agent: pick(actors.slice(0, 2), o.agent), arbiter: pick(actors, o.arbiter) };
      run.escrows.push(escrow);
      const daa = BigInt(run.ledger.virtual().daaScore);
      return run.add('escrow_create', signed(escrowCreateKind, { agent: escrow.agent.address, taskHash: new Uint8Array(32).fill(run.escrows.length), amount: o.amount, timeoutDaaScore: daa + BigInt(o.timeout), disputeWindow: o.timeout > 6 ? 3n : 0n, arbiter: escrow.arbiter.address }, client, nonce, { fee }));
    }
    case 'escrow_step': {
      if (run.escrows.length === 0) return;
      const e = pick(run.escrows, o.escrow);
      if (o.step === 'claim') {
        const receipt = { clientKey: e.client.publicKey, signature: signCompletionReceipt(chainId, e.id, e.client.privateKey, aux) };
        return run.add('escrow_claim', signed(escrowClaimKind, { escrowId: e.id, receipt }, e.agent, run.nonce(e.agent.address), { fee }));
      }
      if (o.step === 'dispute') return run.add('escrow_dispute', signed(escrowDisputeKind, { escrowId: e.id }, e.client, run.nonce(e.client.address), { fee }));
      if (o.step === 'resolve') return run.add('escrow_resolve', signed(escrowResolveKind, { escrowId: e.id, agentShare: o.share }, e.arbiter, run.nonce(e.arbiter.address), { fee }));
      return run.add('escrow_reclaim', signed(escrowReclaimKind, { escrowId: e.id }, e.client, run.nonce(e.client.address), { fee }));
    }
    case 'deploy': {
      const from = pick(actors, o.from);
      const nonce = run.nonce(from.address);
      run.contracts.push(contractAddress(from.address, nonce));
      return run.add('contract_deploy', signContractDeploy({ kind: TxKind.ContractDeploy, chainId, from: from.address, nonce, gasLimit: 2_000_000n, gasPrice: 1n, value: o.value, useEnergy: false, vmVersion: 1, code: contractBytes('counter'), params: encodeAbiValues([]) }, from.privateKey, aux));
    }
    case 'call': {
      if (run.contracts.length === 0) return;
      const from = pick(actors, o.from);
      return run.add('contract_call', signContractCall({ kind: TxKind.ContractCall, chainId, from: from.address, nonce: run.nonce(from.address), gasLimit: 1_000_000n, gasPrice: 1n, value: o.value, useEnergy: false, contract: pick(run.contracts, o.contract), method: 'increment', params: encodeAbiValues([]) }, from.privateKey, aux));
    }
    case 'shield': {
      const from = pick(actors, o.from);
      const tx = buildShield({ chainId, privateKey: from.privateKey, fee, nonce: run.nonce(from.address), outputs: [{ to: bob.recipient, amount: o.amount }], random: seededRandom(run.outputs.length + 1) });
      tx.outputs.forEach((out, i) => run.outputs.push(scanOutput(bob.keys, tx.txPublicKey, i, { ...out, publicAmount: out.amount })!));
      return run.add('shield', tx);
    }
    case 'unshield': {
      const spendable = run.outputs.filter((x) => x.amount > fee);
      if (spendable.length === 0) return;
      const owned = pick(spendable, o.output);
      const tx = buildRingSpend({ chainId, fee, inputs: [{ owned, decoys: [] }], outputs: [], unshield: { to: pick(actors, o.to).address, amount: owned.amount - fee }, random: seededRandom(1_000 + run.outputs.length) });
      owned.keyImage = tx.inputs[0]!.keyImage;
      return run.add('unshield', tx);
    }
    case 'mine':
    case 'reorg':
      return;
  }
}

describe('conservation: every coin is somewhere, after every block, across reorganisations', () => {
  it('Σ balances + agent pools + escrowed + unspent shielded outputs = emitted − burnt, for random sequences of every kind', async () => {
    const attempted = new Map<string, number>();
    const accepted = new Map<string, number>();
    let reorgs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 20, maxLength: 40 }), async (ops) => {
        const run = new Run(await ledgerChain());
        // Coins to spend: a few blocks mined to the actors first; two agent accounts and a funded multisig.
        for (let i = 0; i < 4; i++) await run.mine(i);
        apply(run, { op: 'agent', who: 0 });
        apply(run, { op: 'agent', who: 1 });
        apply(run, { op: 'fund_multisig', from: 2, amount: 5_000_000n });
        await run.mine(0);
        await run.mine(1);
        // One escrow disputed and resolved, one left to time out and reclaimed: the lifecycles random order seldom hits.
        apply(run, { op: 'escrow', client: 2, agent: 0, arbiter: 3, amount: 100_000n, timeout: 40 });
        apply(run, { op: 'escrow', client: 3, agent: 1, arbiter: 2, amount: 70_000n, timeout: 4 });
        await run.mine(2);
        await run.mine(3);
        apply(run, { op: 'escrow_step', escrow: 0, step: 'dispute', share: 0n });
        await run.mine(0);
        await run.mine(1);
        apply(run, { op: 'escrow_step', escrow: 0, step: 'resolve', share: 30_000n });
        apply(run, { op: 'escrow_step', escrow: 1, step: 'reclaim', share: 0n });
        await run.mine(2);
        await run.mine(3);
        expect(run.audit().held).toBe(run.audit().supply);
        for (const o of ops) {
          if (o.op === 'mine') await run.mine(o.miner);
          else if (o.op === 'reorg') {
            const before = run.f.chain.selectedTip().id;
            await run.reorg(o.back, o.miner);
            if (run.f.chain.selectedTip().id !== before) reorgs++;
          } else {
            apply(run, o);
            continue;
          }
          const { held, supply } = run.audit();
          expect(held, `after ${o.op}`).toBe(supply);
        }
        await run.mine(0);
        await run.mine(1);
        const { held, supply } = run.audit();
        expect(held).toBe(supply);
        run.countAccepted();
        for (const [k, n] of run.attempted) attempted.set(k, (attempted.get(k) ?? 0) + n);
        for (const [k, n] of run.accepted) accepted.set(k, (accepted.get(k) ?? 0) + n);
      }),
      { numRuns: 5, seed: 30 },
    );
    // The fixed seed's sequences reach every kind, and get most of them accepted (a property over refusals alone
    // would prove little); the tally is printed for the record.
    console.log('attempted', Object.fromEntries(attempted), 'accepted', Object.fromEntries(accepted), 'reorgs', reorgs);
    expect(reorgs).toBeGreaterThan(0);
    for (const kind of ['transfer', 'multisig', 'agent_create', 'agent_fund_energy_pool', 'escrow_create', 'escrow_claim', 'escrow_dispute', 'escrow_resolve', 'escrow_reclaim', 'contract_deploy', 'contract_call', 'shield', 'unshield']) {
      expect(accepted.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
    // Energy accrues at balance / 10^9 a DAA step: on a chain this young no account has enough to pay even 1 unit,
    // so energy-paid transfers are only refused here (their acceptance is covered in test/ledger-energy*.test.ts).
    expect(attempted.get('transfer (energy)') ?? 0).toBeGreaterThan(0);
  }, 300_000);
});
