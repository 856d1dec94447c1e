/** The node agent's card options: its endpoints on the node's ports, the Weft skills, and the chain extension. */
import type { CardOptions, ChainIdentity } from '../../../src/a2a/card.ts';
import { weftAgentSkillCosts, weftAgentSkills } from '../../../src/a2a/weft-agent.ts';

export interface NodeCardInput {
  readonly network: string;
  readonly version: string;
  /** e.g. http://127.0.0.1:8080 — the card's JSON-RPC and HTTP+JSON URLs are built on it. */
  readonly baseUrl: string;
  readonly grpcTarget?: string;
  readonly grpcMutualTls?: boolean;
  readonly chainId: number;
  /** The node settles tasks on chain: each skill lists its base cost. */
  readonly settles: boolean;
  /** The agent account's identity on chain (absent without a ledger, an agent account, or its record). */
  readonly identity: ChainIdentity | undefined;
}

export function nodeCardOptions(input: NodeCardInput): Omit<CardOptions, 'auth'> {
  return {
    name: 'Weft node agent',
    description: `Chain queries, payment preparation and PoW jobs on Weft ${input.network}`,
    version: input.version,
    jsonRpcUrl: `${input.baseUrl}/a2a`,
    restUrl: input.baseUrl,
    ...(input.grpcTarget ? { grpcUrl: input.grpcTarget, grpcMutualTls: input.grpcMutualTls ?? true } : {}),
    documentationUrl: `${input.baseUrl}/docs/a2a`,
    streaming: true,
    pushNotifications: true,
    extendedAgentCard: false,
    skills: input.settles ? weftAgentSkills.map((skill) => ({ ...skill, chainBaseCost: Number(weftAgentSkillCosts.get(skill.id) ?? 0n) })) : weftAgentSkills,
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['application/json', 'text/plain'],
    chain: { chainId: input.chainId, network: input.network, onChainSettlement: input.settles, ...(input.identity === undefined ? {} : { identity: input.identity }) },
  };
}
