import { z } from 'zod';
import { encodeAddress } from '../../crypto/address.ts';
import { TxKind } from '../../codec/transaction-kinds.ts';
import { deployedAddress, deployIntrinsic } from '../../kinds/contract-deploy.ts';
import { vmModuleBytesMax } from '../../limits.ts';
import { fromHex, strip0x, toHash0x } from '../../util/bytes.ts';
import { encodeAbiValues } from '../../vm/abi.ts';
import { constructorEntry } from '../../vm/execute.ts';
import { prepare, vmVersionLatest } from '../../vm/prepare.ts';
import { asContractError, checkGasLimit, ContractError, dryRun, failedRun, gasPriceOf, gasPriceParams, parseAbiValue } from '../contract-support.ts';
import { InvalidParamsError, ServiceUnavailableError } from '../errors.ts';
import { defineMethod, need } from '../method.ts';
import { addressResult, hashResult, transactionStatusResult } from '../result-schemas.ts';
import { addressSchema, parseAddress } from '../schemas.ts';

/** The module from `bytecode`: 0x-hex (or bare hex), else base64. */
function parseBytecode(text: string): Uint8Array {
  const hex = strip0x(text);
  if (/^([0-9a-fA-F]{2})+$/.test(hex)) return fromHex(hex);
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  throw new InvalidParamsError('bytecode: expected 0x-hex or base64 Wasm', [{ path: 'bytecode', message: 'not hex or base64' }]);
}

/**
 * Deploys a Wasm contract from one of the node wallet's addresses (docs/api.md "deploy_smart_contract"): the module
 * is prepared (a refused one is -40007 naming the rule), the constructor `init` is dry-run with
 * `constructor_params` against empty storage (a failing one is -40007 and nothing is sent), then the deploy is signed
 * with the deployer's next nonce and submitted. The contract's address follows from deployer and nonce.
 */
export const deploySmartContract = defineMethod({
  name: 'deploy_smart_contract',
  summary: 'Prepare a Wasm contract, dry-run its constructor, sign the deploy with the node wallet and submit it.',
  params: z.strictObject({
    bytecode: z.string().min(1).max(2 + 2 * vmModuleBytesMax).describe('the Wasm module, 0x-hex or base64'),
    constructor_params: z.array(z.unknown()).max(64).default([]),
    gas_limit: z.int().min(1).max(Number.MAX_SAFE_INTEGER),
    ...gasPriceParams,
    deployer_address: addressSchema,
    value: z.int().min(0).max(Number.MAX_SAFE_INTEGER).default(0).describe('base units endowed to the contract'),
    use_energy: z.boolean().default(false),
  }),
  scope: 'send_transactions',
  result: z.object({
    transaction_hash: hashResult,
    contract_address: addressResult,
    gas_used: z.int().describe('intrinsic + constructor gas of the dry run; paid × gas_price once accepted'),
    status: transactionStatusResult,
    code_hash: hashResult,
  }),
  async run(params, ctx) {
    const ledger = need(ctx, 'ledger', 'deploy_smart_contract');
    const wallet = need(ctx, 'wallet', 'deploy_smart_contract');
    if (wallet.signContractTransaction === undefined) throw new ServiceUnavailableError('wallet (contract signing)', 'deploy_smart_contract');
    const deployer = parseAddress(ctx, params.deployer_address);
    const code = parseBytecode(params.bytecode);
    const gasLimit = checkGasLimit(params.gas_limit);
    let prepared;
    try {
      prepared = prepare(code, vmVersionLatest);
    } catch (error) {
      throw asContractError(error);
    }
    const input = encodeAbiValues(params.constructor_params.map((p, i) => parseAbiValue(ctx, p, i)));
    const request = {
      kind: TxKind.ContractDeploy,
      from: deployer,
      vmVersion: vmVersionLatest,
      code,
      params: input,
      gasLimit,
      gasPrice: gasPriceOf(params),
      value: BigInt(params.value),
      useEnergy: params.use_energy,
    } as const;
    const intrinsic = deployIntrinsic({ ...request, chainId: 0, nonce: 0n });
    if (gasLimit < intrinsic) throw new ContractError('gas_limit_too_low', `gas_limit ${gasLimit} is below the deploy's intrinsic gas ${intrinsic}`);
    const tx = await wallet.signContractTransaction(request);
    const contract = deployedAddress(tx);
    let gasUsed = intrinsic;
    if (prepared.entryPoints.includes(constructorEntry)) {
      const result = dryRun(ctx, ledger, { prepared, contract, entry: constructorEntry, deploy: true, caller: deployer, value: request.value, input, gasLimit: gasLimit - intrinsic });
      gasUsed += result.gasUsed;
      if (result.status !== 'ok') throw failedRun(result, gasUsed);
    }
    const submitted = await need(ctx, 'mempool', 'deploy_smart_contract').submit(tx);
    return {
      transaction_hash: toHash0x(submitted.hash),
      contract_address: encodeAddress(ctx.services.chain.params.hrp, contract),
      gas_used: Number(gasUsed),
      status: submitted.status,
      code_hash: toHash0x(prepared.codeHash),
    };
  },
});
