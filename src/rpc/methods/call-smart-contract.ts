import { z } from 'zod';
import { AddressType, InvalidAddressError } from '../../crypto/address.ts';
import { TxKind } from '../../codec/transaction-kinds.ts';
import { callIntrinsic } from '../../kinds/contract-call.ts';
import { contractMethodBytesMax } from '../../limits.ts';
import { toHash0x, toHex } from '../../util/bytes.ts';
import { decodeAbiValues, encodeAbiValues } from '../../vm/abi.ts';
import { abiValuesToJson, checkGasLimit, gasPriceOf, gasPriceParams, ContractError, dryRun, failedRun, parseAbiValue, preparedContractAt } from '../contract-support.ts';
import { ServiceUnavailableError } from '../errors.ts';
import { defineMethod, need } from '../method.ts';
import { addressResult, hashResult, transactionStatusResult } from '../result-schemas.ts';
import { addressSchema, parseAddress } from '../schemas.ts';

const abiValueResult = z.object({ type: z.enum(['u64', 'i64', 'bool', 'string', 'bytes', 'address']), value: z.union([z.string(), z.boolean()]) });

/**
 * Calls a contract method (docs/api.md "call_smart_contract"). It always runs first as a dry run against the virtual
 * state (eth_call's role). Then, the choice between a read and a transaction is made by what the call does: a call
 * that writes nothing, emits nothing and moves no value is answered as a view (`mode: "view"`, no transaction, no
 * fee); one that changes state is signed by the node wallet's key for `caller_address` with its next nonce and
 * submitted (`mode: "transaction"`), unless `dry_run: true` asks for the dry run only. A dry run that fails (revert,
 * trap, out of gas, missing method) is -40007 and nothing is sent.
 */
export const callSmartContract = defineMethod({
  name: 'call_smart_contract',
  summary: 'Run a contract method: answered as a view when it changes nothing, else signed by the node wallet and submitted.',
  params: z.strictObject({
    contract_address: addressSchema,
    method: z.string().regex(/^[A-Za-z0-9_]+$/).max(contractMethodBytesMax),
    parameters: z.array(z.unknown()).max(64).default([]),
    caller_address: addressSchema,
    gas_limit: z.int().min(1).max(Number.MAX_SAFE_INTEGER).default(1_000_000),
    ...gasPriceParams,
    value: z.int().min(0).max(Number.MAX_SAFE_INTEGER).default(0).describe('base units sent to the contract'),
    use_energy: z.boolean().default(false),
    dry_run: z.boolean().default(false).describe('only run against the virtual state; never send a transaction'),
  }),
  scope: 'send_transactions',
  scopeOf: (params) => (params.dry_run ? 'public' : 'send_transactions'),
  result: z.object({
    mode: z.enum(['view', 'transaction']),
    contract_address: addressResult,
    method: z.string(),
    return_value: z.array(abiValueResult),
    return_data: z.string().describe('0x-hex return bytes'),
    gas_used: z.int().describe('intrinsic + VM gas of the dry run; a transaction pays gas used × gas_price once accepted'),
    events: z.array(z.object({ topic: z.string(), data: z.string() })),
    transaction_hash: hashResult.optional(),
    status: transactionStatusResult.optional(),
  }),
  async run(params, ctx) {
    const ledger = need(ctx, 'ledger', 'call_smart_contract');
    const hrp = ctx.services.chain.params.hrp;
    const contract = parseAddress(ctx, params.contract_address);
    if (contract[0] !== AddressType.Contract) throw new InvalidAddressError('contract_address: not a contract address', 'unknown_type');
    const caller = parseAddress(ctx, params.caller_address);
    const gasLimit = checkGasLimit(params.gas_limit);
    const input = encodeAbiValues(params.parameters.map((p, i) => parseAbiValue(ctx, p, i)));
    const request = {
      kind: TxKind.ContractCall,
      from: caller,
      contract,
      method: params.method,
      params: input,
      gasLimit,
      gasPrice: gasPriceOf(params),
      value: BigInt(params.value),
      useEnergy: params.use_energy,
    } as const;
    const intrinsic = callIntrinsic({ ...request, chainId: 0, nonce: 0n });
    if (gasLimit < intrinsic) throw new ContractError('gas_limit_too_low', `gas_limit ${gasLimit} is below the call's intrinsic gas ${intrinsic}`);
    const prepared = preparedContractAt(ledger, contract, hrp);
    const result = dryRun(ctx, ledger, { prepared, contract, entry: params.method, deploy: false, caller, value: request.value, input, gasLimit: gasLimit - intrinsic });
    const gasUsed = intrinsic + result.gasUsed;
    if (result.status !== 'ok') throw failedRun(result, gasUsed);
    const answer = {
      contract_address: params.contract_address,
      method: params.method,
      return_value: abiValuesToJson(decodeAbiValues(result.returnData), hrp),
      return_data: `0x${toHex(result.returnData)}`,
      gas_used: Number(gasUsed),
      events: result.events.map((e) => ({ topic: `0x${toHex(e.topic)}`, data: `0x${toHex(e.data)}` })),
    };
    const changesState = result.writes.length > 0 || result.events.length > 0 || result.transfers.length > 0 || request.value > 0n;
    if (params.dry_run || !changesState) return { mode: 'view' as const, ...answer };

    const wallet = need(ctx, 'wallet', 'call_smart_contract');
    if (wallet.signContractTransaction === undefined) throw new ServiceUnavailableError('wallet (contract signing)', 'call_smart_contract');
    const tx = await wallet.signContractTransaction(request);
    const submitted = await need(ctx, 'mempool', 'call_smart_contract').submit(tx);
    return { mode: 'transaction' as const, ...answer, transaction_hash: toHash0x(submitted.hash), status: submitted.status };
  },
});
