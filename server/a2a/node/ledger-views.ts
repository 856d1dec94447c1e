/**
 * What the node's A2A endpoint reads from the ledger: transactions for the Weft agent's lookups, escrows for the
 * settlement policy, and the agent account's record for the card's chain identity. Each reads the committed state.
 */
import type { ChainIdentity } from '../../../src/a2a/card.ts';
import type { SettlementPolicy } from '../../../src/a2a/settlement.ts';
import { weftAgentSkillCosts } from '../../../src/a2a/weft-agent.ts';
import type { FoundTransaction } from '../../../src/a2a/weft-skills.ts';
import type { Chain } from '../../../src/chain/chain.ts';
import { encodeAddress } from '../../../src/crypto/address.ts';
import { reputationScoreBps } from '../../../src/kinds/agent/agent-record.ts';
import type { Ledger } from '../../../src/state/ledger.ts';
import { toHex } from '../../../src/util/bytes.ts';

/** A transaction by hash with the block that holds it and the blue score of the block that accepted it. */
export function ledgerTransactionFinder(chain: Chain, ledger: Ledger): (hash: Uint8Array) => FoundTransaction | undefined {
  return (hash) => {
    const record = ledger.getTransaction(hash);
    const block = record && chain.get(record.block);
    const accepting = record?.acceptingBlock ?? block;
    return record && block && accepting ? { tx: record.tx, blockHash: block.hash, height: block.height, acceptingBlueScore: accepting.header.blueScore } : undefined;
  };
}

/** Settlement for `agentAccount`: escrows it is paid by, read from the committed state with the virtual DAA score. */
export function ledgerSettlementPolicy(ledger: Ledger, agentAccount: Uint8Array, hrp: string, claimMarginDaa: number): SettlementPolicy {
  return {
    agentAccount,
    hrp,
    costs: weftAgentSkillCosts,
    claimMarginDaa,
    readEscrow: (id) => ({ record: ledger.proveRecord('escrow', id).record, daaScore: ledger.virtual().daaScore }),
  };
}

/** The card's chain identity, read from the agent account's record in the committed state (absent until created). */
export function chainIdentityOf(ledger: Ledger, agentAccount: Uint8Array, hrp: string): ChainIdentity | undefined {
  const record = ledger.proveRecord('agent', agentAccount).record;
  if (record === null) return undefined;
  const reputation = reputationScoreBps(record);
  return {
    agentAccount: encodeAddress(hrp, agentAccount),
    controller: `0x${toHex(record.controller)}`,
    ...(reputation === undefined ? {} : { reputationScoreBps: reputation }),
  };
}
