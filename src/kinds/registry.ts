/**
 * The transaction-kind registry: tag → module. Decoding a transaction is looking up its first byte here; a tag no
 * module claims (unassigned, or reserved in src/codec/transaction-kinds.ts for a later kind) is refused with
 * UnknownTxKindError. The built-in kinds are one pure table below; a new kind adds its module there, and nothing
 * else in the node changes.
 */
import { assert } from '../errors.ts';
import { agentAddSessionKeyKind } from './agent/agent-add-session-key.ts';
import { agentCreateKind } from './agent/agent-create.ts';
import { agentFreezeKind } from './agent/agent-freeze.ts';
import { agentFundEnergyPoolKind } from './agent/agent-fund-energy-pool.ts';
import { agentRevokeSessionKeyKind } from './agent/agent-revoke-session-key.ts';
import { agentSetControllerKind } from './agent/agent-set-controller.ts';
import { UnknownTxKindError } from './errors.ts';
import { escrowClaimKind } from './escrow/escrow-claim.ts';
import { escrowCreateKind } from './escrow/escrow-create.ts';
import { escrowDisputeKind } from './escrow/escrow-dispute.ts';
import { escrowReclaimKind } from './escrow/escrow-reclaim.ts';
import { escrowResolveKind } from './escrow/escrow-resolve.ts';
import type { AnyTransaction, TxKindModule } from './kind.ts';
import { confidentialTransferKind } from './confidential/confidential-transfer.ts';
import { shieldKind } from './confidential/shield.ts';
import { unshieldKind } from './confidential/unshield.ts';
import { contractCallKind } from './contract-call.ts';
import { contractDeployKind } from './contract-deploy.ts';
import { multisigTransferKind } from './multisig-transfer.ts';
import { transferKind } from './transfer.ts';

/**
 * The built-in kinds, a pure table: value transfers, agent accounts and escrow settlement (docs/settlement.md),
 * confidential transfers (docs/privacy.md), smart contracts (docs/contracts.md). Every node of a network knows the
 * same kinds (it is consensus); importing this module registers nothing anywhere else.
 */
const builtInKinds: readonly TxKindModule[] = [
  transferKind, multisigTransferKind,
  agentCreateKind, agentSetControllerKind, agentAddSessionKeyKind, agentRevokeSessionKeyKind, agentFreezeKind,
  agentFundEnergyPoolKind,
  escrowCreateKind, escrowClaimKind, escrowReclaimKind, escrowDisputeKind, escrowResolveKind,
  confidentialTransferKind, shieldKind, unshieldKind,
  contractDeployKind, contractCallKind,
] as unknown as readonly TxKindModule[];

const modules = new Map<number, TxKindModule>(builtInKinds.map((module) => [module.tag, module]));

/**
 * Adds a kind beside the built-in ones: the extension point a new kind's tests use (docs/transactions.md). The
 * returned function removes it again, so a throw-away kind never outlives its test.
 */
export function registerTxKind<T extends AnyTransaction>(module: TxKindModule<T>): () => void {
  assert(Number.isInteger(module.tag) && module.tag >= 0 && module.tag <= 0xff, `kind tag ${module.tag} is not a byte`);
  assert(!modules.has(module.tag), `kind tag ${module.tag} is already registered (${modules.get(module.tag)?.name})`);
  modules.set(module.tag, module as unknown as TxKindModule);
  return () => {
    if (modules.get(module.tag) === (module as unknown)) modules.delete(module.tag);
  };
}

function implementedList(): string {
  const names = [...modules.values()].sort((a, b) => a.tag - b.tag).map((m) => `${m.tag} (${m.name})`);
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** The module of `tag`, or UnknownTxKindError (a DecodeError, -32602) naming the tags this version implements. */
export function txKindModule(tag: number): TxKindModule {
  const module = modules.get(tag);
  if (module === undefined) throw new UnknownTxKindError(tag, implementedList());
  return module;
}

/** The module of a transaction's kind. */
export function kindOf(tx: AnyTransaction): TxKindModule {
  return txKindModule(tx.kind);
}
