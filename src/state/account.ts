/**
 * The account view every layer above state shares (docs/design.md "State, accounts and energy"): the mempool checks admission against it, the
 * RPC answers balances from it, wallets build transactions from it. The ledger (state at the virtual) implements
 * `AccountReader`; tests may implement it with a Map.
 */
export interface Account {
  /** Spendable base units (1 coin = 10^8 units). */
  readonly balance: bigint;
  /** The nonce the next transaction from this account must carry. */
  readonly nonce: bigint;
  /** Energy available now (accrued up to the virtual state), in base units of fee it can pay. */
  readonly energy: bigint;
}

export const emptyAccount: Account = Object.freeze({ balance: 0n, nonce: 0n, energy: 0n });

export interface AccountReader {
  /** The account at the current virtual state; `emptyAccount` when it never received anything. */
  account(address: Uint8Array): Account;
}
