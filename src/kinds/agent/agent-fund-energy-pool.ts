/**
 * Kind 0x25, agent fund energy pool: the payer moves `amount` coins from its balance into an agent account's energy
 * pool (docs/settlement.md "Fees and the energy pool"), from which that account's transactions pay their fees with
 * `use_energy` — so an agent acts through session keys that hold no coins. Anyone may fund any agent account; pooled
 * coins leave the pool only as fees.
 *
 *   payload = agent [33] | amount u64
 */
import { TxKind } from '../../codec/transaction-kinds.ts';
import { addressBytes, encodeAddress } from '../../crypto/address.ts';
import { formatUnits } from '../../crypto/amount.ts';
import { mustReadAgent, readAgent, writeAgent } from './agent-state.ts';
import { defineAgentKind, readAddress } from './envelope.ts';

export interface AgentFundEnergyPoolPayload {
  readonly agent: Uint8Array;
  readonly amount: bigint;
}

export const agentFundEnergyPoolKind = defineAgentKind<typeof TxKind.AgentFundEnergyPool, AgentFundEnergyPoolPayload>({
  tag: TxKind.AgentFundEnergyPool,
  name: 'agent_fund_energy_pool',
  controllerMay: true,
  payload: {
    bytes: () => addressBytes + 8,
    write(w, p) {
      w.bytes(p.agent, addressBytes, 'agent');
      w.u64(p.amount, 'amount');
    },
    read: (r) => ({ agent: readAddress(r, 'agent'), amount: r.u64('transaction amount') }),
  },
  amount: (p) => p.amount,
  check(state, tx) {
    if (tx.payload.amount === 0n) return 'amount_zero';
    return readAgent(state, tx.payload.agent) === undefined ? 'agent_unknown' : undefined;
  },
  apply(state, tx) {
    const agent = mustReadAgent(state, tx.payload.agent);
    writeAgent(state, tx.payload.agent, { ...agent, energyPool: agent.energyPool + tx.payload.amount });
  },
  counterparty: (tx) => tx.payload.agent,
  view: (p, hrp) => ({ agent: encodeAddress(hrp, p.agent), pooled_exact: formatUnits(p.amount) }),
});
