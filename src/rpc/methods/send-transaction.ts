import { z } from 'zod';
import { formatUnits, unitsToCoins } from '../../crypto/amount.ts';
import { toHash0x } from '../../util/bytes.ts';
import { InsufficientBalanceError, PrivacyError, SmartContractError } from '../errors.ts';
import { defineMethod, need } from '../method.ts';
import { addressResult, coinsResult, hashResult, transactionStatusResult, u64NumberResult } from '../result-schemas.ts';
import { addressSchema, amountSchema, parseAddress, parseCoins } from '../schemas.ts';
import { pendingBalanceUnits } from './get-balance.ts';

/** The seed's reference-client defaults: fee 0.01, privacy_level medium. */
export const sendTransactionDefaults = { fee: 0.01, privacyLevel: 'medium' } as const;

const sendTransactionResultSchema = z.object({
  hash: hashResult,
  status: transactionStatusResult,
  from: addressResult,
  to: addressResult,
  amount: coinsResult,
  fee: coinsResult,
  nonce: u64NumberResult,
  use_energy: z.boolean(),
  privacy_level: z.enum(['low', 'medium']),
});

/**
 * Builds a transfer from one of the node wallet's addresses, signs it with the sender's next nonce and hands it to
 * the mempool (Bitcoin Core's sendtoaddress role). The spendable figure is the balance after the sender's pending
 * transactions, so two quick sends cannot both spend the same coins.
 */
export const sendTransaction = defineMethod({
  name: 'send_transaction',
  summary: 'Sign a transfer with the node wallet and submit it to the mempool; returns its hash and status.',
  params: z.strictObject({
    from: addressSchema,
    to: addressSchema,
    amount: amountSchema,
    fee: amountSchema.default(sendTransactionDefaults.fee),
    privacy_level: z.enum(['low', 'medium', 'high']).default(sendTransactionDefaults.privacyLevel),
    use_energy: z.boolean().default(false),
    smart_contract: z.strictObject({ code: z.string(), parameters: z.array(z.unknown()) }).optional(),
  }),
  scope: 'send_transactions',
  result: sendTransactionResultSchema,
  async run(params, ctx) {
    const from = parseAddress(ctx, params.from);
    const to = parseAddress(ctx, params.to);
    const amount = parseCoins(params.amount);
    const fee = parseCoins(params.fee);
    if (params.smart_contract !== undefined) {
      // Decision (docs/api.md "send_transaction"): a transfer carries no gas limit or gas price, so contract work goes
      // through deploy_smart_contract and call_smart_contract, which take them.
      throw new SmartContractError('send_transaction moves coins only: deploy with deploy_smart_contract, call with call_smart_contract');
    }
    if (params.privacy_level === 'high') {
      // A transfer's amount and parties are public by construction; confidential payments are their own kinds.
      throw new PrivacyError('privacy_level high: a transfer is public; send a confidential transaction with create_confidential_transaction', 'use_create_confidential_transaction');
    }
    const ledger = need(ctx, 'ledger', 'send_transaction');
    const wallet = need(ctx, 'wallet', 'send_transaction');
    const mempool = need(ctx, 'mempool', 'send_transaction');
    const account = ledger.account(from);
    const spendable = pendingBalanceUnits(ctx, from, account.balance, 'send_transaction');
    const needed = amount + (params.use_energy ? 0n : fee);
    if (spendable < needed) throw new InsufficientBalanceError(formatUnits(spendable), formatUnits(needed));
    if (params.use_energy && account.energy < fee) {
      throw new InsufficientBalanceError(`${formatUnits(account.energy)} (energy)`, `${formatUnits(fee)} (energy for the fee)`);
    }
    const tx = await wallet.buildTransfer({ from, to, amount, fee, useEnergy: params.use_energy });
    const submitted = await mempool.submit(tx);
    return {
      hash: toHash0x(submitted.hash),
      status: submitted.status,
      from: params.from,
      to: params.to,
      amount: unitsToCoins(amount),
      fee: unitsToCoins(fee),
      nonce: Number(tx.nonce),
      use_energy: params.use_energy,
      privacy_level: params.privacy_level,
    };
  },
});
