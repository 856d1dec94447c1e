/**
 * The transaction kind tag: the first byte of every transaction (docs/design.md "State, accounts and energy"). Consensus grows new kinds over time,
 * so the tag space is laid out by family now and every future kind listed there has its number reserved. A decoder that
 * meets a reserved-but-unimplemented or unknown tag refuses the transaction (DecodeError): unknown kinds are
 * invalid, never ignored.
 *
 * Families: 0x00–0x0f value transfers, 0x10–0x1f contracts, 0x20–0x2f agent accounts, 0x30–0x3f escrows.
 */
export const TxKind = {
  Transfer: 0x00,
  MultisigTransfer: 0x01,
  /** Stealth outputs, ring inputs, hidden amounts (Monero-style; see notes/privacy-crypto.md). */
  ConfidentialTransfer: 0x02,
  /** Transparent coins into stealth outputs with public amounts (src/kinds/confidential/shield.ts). */
  Shield: 0x03,
  /** Ring inputs out to a transparent address with a public amount (src/kinds/confidential/unshield.ts). */
  Unshield: 0x04,

  ContractDeploy: 0x10,
  ContractCall: 0x11,

  AgentCreate: 0x20,
  AgentSetController: 0x21,
  AgentAddSessionKey: 0x22,
  AgentRevokeSessionKey: 0x23,
  AgentFreeze: 0x24,
  AgentFundEnergyPool: 0x25,

  EscrowCreate: 0x30,
  EscrowClaim: 0x31,
  EscrowReclaim: 0x32,
  EscrowDispute: 0x33,
  EscrowResolve: 0x34,
} as const;
export type TxKind = (typeof TxKind)[keyof typeof TxKind];

/** Kinds this version's codec encodes and decodes. The rest are reserved: decoding them is a DecodeError. */
export const implementedTxKinds: ReadonlySet<number> = new Set<number>([
  TxKind.Transfer,
  TxKind.MultisigTransfer,
  TxKind.AgentCreate,
  TxKind.AgentSetController,
  TxKind.AgentAddSessionKey,
  TxKind.AgentRevokeSessionKey,
  TxKind.AgentFreeze,
  TxKind.AgentFundEnergyPool,
  TxKind.EscrowCreate,
  TxKind.EscrowClaim,
  TxKind.EscrowReclaim,
  TxKind.EscrowDispute,
  TxKind.EscrowResolve,
  TxKind.ConfidentialTransfer,
  TxKind.Shield,
  TxKind.Unshield,
  TxKind.ContractDeploy,
  TxKind.ContractCall,
]);

const namesByTag = new Map<number, string>(
  Object.entries(TxKind).map(([name, tag]) => [tag, name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()]),
);

/** snake_case name of a kind tag ('transfer', 'multisig_transfer', 'escrow_claim', …), or undefined if unassigned. */
export function txKindName(tag: number): string | undefined {
  return namesByTag.get(tag);
}

export function isKnownTxKind(tag: number): tag is TxKind {
  return namesByTag.has(tag);
}
