/**
 * What the three contract methods share (docs/api.md "Smart contracts", docs/contracts.md "RPC"): JSON parameters to
 * the VM's tagged encoding and back, the -40007 error with the VM's reason, and dry runs of a constructor or a
 * method against the virtual state (the same VM and gas as acceptance, nothing written: eth_call's role).
 */
import { z } from 'zod';
import { AddressType, decodeAddress, encodeAddress } from '../crypto/address.ts';
import { coinsToUnits } from '../crypto/amount.ts';
import { deployedCode } from '../kinds/contract-call.ts';
import type { RecordNamespace } from '../kinds/kind.ts';
import { contractTxGasLimitMax } from '../limits.ts';
import { fromHex, strip0x, toHex } from '../util/bytes.ts';
import type { AbiValue } from '../vm/abi.ts';
import { contractStorageId, decodeContractValue } from '../vm/contract-state.ts';
import { PrepareError } from '../vm/errors.ts';
import { execute, type CallResult } from '../vm/execute.ts';
import type { PreparedContract } from '../vm/prepare.ts';
import { prepare } from '../vm/prepare.ts';
import { InvalidParamsError, RpcError } from './errors.ts';
import type { RpcCallContext } from './method.ts';
import type { LedgerView } from './ports.ts';

/** -40007 with the VM's outcome: a refused module, a failed dry run, a missing contract, a gas limit over the budget. */
export class ContractError extends RpcError {
  constructor(reason: string, detail: string, data: Record<string, unknown> = {}) {
    super('smart_contract_error', `Smart contract error: ${detail}`, { reason, ...data });
  }
}

/** A PrepareError as -40007 with reason `module_rejected` and the rule it broke (`rule`: float, simd, memory, …). */
export function asContractError(error: unknown): unknown {
  if (!(error instanceof PrepareError)) return error;
  return new ContractError('module_rejected', error.message, { rule: error.reason });
}

export function checkGasLimit(gasLimit: number): bigint {
  if (gasLimit > contractTxGasLimitMax) throw new ContractError('gas_limit_too_high', `gas_limit ${gasLimit} is above the per-transaction budget ${contractTxGasLimitMax}`);
  return BigInt(gasLimit);
}

/**
 * The gas price params both contract methods take (docs/api.md "deploy_smart_contract"): `gas_price` in coins per gas,
 * a JSON number like `amount` and `fee` (the seed's form), or `gas_price_units`, integer base units per gas; at most
 * one of them. Neither: one base unit per gas.
 */
export const gasPriceParams = {
  gas_price: z.number().nonnegative().optional().describe('coins per gas, at most 8 decimals (0.00000001 = one base unit)'),
  gas_price_units: z.int().min(0).max(Number.MAX_SAFE_INTEGER).optional().describe('base units per gas (instead of gas_price)'),
};

export function gasPriceOf(params: { readonly gas_price?: number | undefined; readonly gas_price_units?: number | undefined }): bigint {
  if (params.gas_price !== undefined && params.gas_price_units !== undefined) {
    throw new InvalidParamsError('give gas_price (coins per gas) or gas_price_units (base units per gas), not both', [{ path: 'gas_price', message: 'not with gas_price_units' }]);
  }
  if (params.gas_price_units !== undefined) return BigInt(params.gas_price_units);
  if (params.gas_price === undefined) return 1n;
  try {
    return coinsToUnits(params.gas_price);
  } catch (error) {
    const detail = `gas_price: got ${params.gas_price} coins per gas, expected at most 8 decimals (0.00000001 is one base unit)`;
    throw new InvalidParamsError(detail, [{ path: 'gas_price', message: (error as Error).message }]);
  }
}

const decimal = /^(0|[1-9]\d{0,19})$/;

/**
 * One JSON parameter → one tagged value. Explicit `{type, value}` objects say what they are; shorthand: a boolean is
 * bool, a non-negative integer or a decimal string is u64, an address of this network is address, `0x…` hex is
 * bytes, any other string is string.
 */
export function parseAbiValue(ctx: RpcCallContext, value: unknown, at: number): AbiValue {
  const bad = (why: string): never => {
    throw new InvalidParamsError(`parameter ${at}: ${why}`, [{ path: `parameters.${at}`, message: why }]);
  };
  const hrp = ctx.services.chain.params.hrp;
  if (typeof value === 'boolean') return { type: 'bool', value };
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? { type: 'u64', value: BigInt(value) } : bad('numbers must be non-negative safe integers (send big ones as decimal strings)');
  if (typeof value === 'string') {
    if (decimal.test(value) && BigInt(value) < 1n << 64n) return { type: 'u64', value: BigInt(value) };
    if (/^0x([0-9a-fA-F]{2})*$/.test(value)) return { type: 'bytes', value: fromHex(strip0x(value)) };
    if (value.startsWith(`${hrp}1`)) {
      try {
        return { type: 'address', value: decodeAddress(value, hrp) };
      } catch {
        return bad('not a valid address of this network');
      }
    }
    return { type: 'string', value };
  }
  if (typeof value === 'object' && value !== null && 'type' in value && 'value' in value) {
    const { type, value: inner } = value as { type: unknown; value: unknown };
    if ((type === 'u64' || type === 'i64') && (typeof inner === 'string' || typeof inner === 'number') && /^-?\d+$/.test(String(inner))) {
      const n = BigInt(String(inner));
      const ok = type === 'u64' ? n >= 0n && n < 1n << 64n : n >= -(1n << 63n) && n < 1n << 63n;
      return ok ? { type, value: n } : bad(`${type} out of range`);
    }
    if (type === 'bool' && typeof inner === 'boolean') return { type, value: inner };
    if (type === 'string' && typeof inner === 'string') return { type, value: inner };
    if (type === 'bytes' && typeof inner === 'string' && /^(0x)?([0-9a-fA-F]{2})*$/.test(inner)) {
      return { type, value: fromHex(strip0x(inner)) };
    }
    if (type === 'address' && typeof inner === 'string') return parseAbiValue(ctx, inner.startsWith(`${hrp}1`) ? inner : '', at);
  }
  return bad('expected a boolean, a non-negative integer, a string, or {type, value} with type u64, i64, bool, string, bytes or address');
}

/** Tagged values as JSON: integers as decimal strings (u64 can pass 2^53), bytes as 0x-hex, addresses bech32m. */
export function abiValuesToJson(values: readonly AbiValue[], hrp: string): { type: AbiValue['type']; value: string | boolean }[] {
  return values.map((v) => {
    switch (v.type) {
      case 'u64':
      case 'i64':
        return { type: v.type, value: v.value.toString() };
      case 'bool':
      case 'string':
        return { type: v.type, value: v.value };
      case 'bytes':
        return { type: v.type, value: `0x${toHex(v.value)}` };
      case 'address':
        return { type: v.type, value: v.value[0] === AddressType.Standard || v.value[0] === AddressType.Multisig || v.value[0] === AddressType.Contract ? encodeAddress(hrp, v.value) : `0x${toHex(v.value)}` };
    }
  });
}

/** The ledger's contract records at the virtual state; -32603 when the node's ledger does not serve them. */
export function contractRecords(ledger: LedgerView): (namespace: RecordNamespace, id: Uint8Array) => Uint8Array | undefined {
  const read = ledger.contractRecord;
  if (read === undefined) throw new ContractError('contracts_unavailable', 'this node\'s ledger does not serve contract state');
  return (namespace, id) => read.call(ledger, namespace, id);
}

/** The prepared code of the contract at `address`, or ContractError('no_contract'). */
export function preparedContractAt(ledger: LedgerView, address: Uint8Array, hrp: string): PreparedContract {
  const found = deployedCode({ record: contractRecords(ledger) }, address);
  if (!found) throw new ContractError('no_contract', `no contract at ${encodeAddress(hrp, address)}`);
  return prepare(found.code, found.vmVersion);
}

export interface DryRun {
  readonly prepared: PreparedContract;
  readonly contract: Uint8Array;
  readonly entry: string;
  readonly deploy: boolean;
  readonly caller: Uint8Array;
  readonly value: bigint;
  readonly input: Uint8Array;
  readonly gasLimit: bigint;
}

/** Runs a constructor or method against the virtual state (a deploy's against empty storage); writes nothing. */
export function dryRun(ctx: RpcCallContext, ledger: LedgerView, run: DryRun): CallResult {
  const records = run.deploy ? () => undefined : contractRecords(ledger);
  const tip = ctx.services.chain.selectedTip().header;
  return execute({
    prepared: run.prepared,
    entry: run.entry,
    deploy: run.deploy,
    input: run.input,
    context: { caller: run.caller, self: run.contract, value: run.value, balance: run.deploy ? 0n : ledger.account(run.contract).balance, blockHeight: BigInt(tip.daaScore + 1), blockTimestamp: BigInt(Math.floor(tip.timestampMs / 1000)) },
    storage: {
      get(variable, key) {
        const value = records('contract_storage', contractStorageId(run.contract, variable, key));
        return value === undefined ? undefined : decodeContractValue(value);
      },
    },
    gasLimit: run.gasLimit,
  });
}

/** A dry run that did not succeed, as -40007 with its status, gas and (for a revert) message. */
export function failedRun(result: Exclude<CallResult, { status: 'ok' }>, gasUsed: bigint): ContractError {
  const message = result.status === 'revert' ? result.message : 'detail' in result ? result.detail : result.status;
  return new ContractError(result.status, `${result.status}: ${message}`, { status: result.status, gas_used: Number(gasUsed), ...(result.status === 'revert' ? { message: result.message } : {}) });
}
