import { z } from 'zod';
import { AddressType } from '../../crypto/address.ts';
import { contractMethodBytesMax, vmStorageKeyBytesMax } from '../../limits.ts';
import { proofToJson } from '../../state/proof.ts';
import { fromHex, strip0x, toHash0x, toHex } from '../../util/bytes.ts';
import { contractHeaderId, contractStorageId, decodeContractHeader, decodeContractValue } from '../../vm/contract-state.ts';
import { InvalidAddressError } from '../../crypto/address.ts';
import { ContractError, contractRecords } from '../contract-support.ts';
import { InvalidParamsError, ServiceUnavailableError } from '../errors.ts';
import { defineMethod, need } from '../method.ts';
import { addressResult, hashResult } from '../result-schemas.ts';
import { addressSchema, parseAddress } from '../schemas.ts';
import { stateProofJsonResult } from './get-proof.ts';

/**
 * The key of a storage lookup from the seed's `key` string: `0x…` hex is raw bytes, an address of this network its
 * 33 bytes (the token keys balances by holder), anything else its UTF-8 bytes; "" is the empty key of a scalar.
 */
function parseKey(hrp: string, key: string, decode: (text: string) => Uint8Array): Uint8Array {
  if (/^0x([0-9a-fA-F]{2})*$/.test(key)) return fromHex(strip0x(key));
  if (key.startsWith(`${hrp}1`)) return decode(key);
  return new TextEncoder().encode(key);
}

/**
 * One stored value of a contract by (variable_name, key) at the virtual state, as hex (contracts ship no type
 * metadata in this version), with `proof: true` a state proof of that slot against the selected tip's header — a
 * light client checks it with verifyStateRecord('contract_storage', contract ‖ slot) like a balance.
 */
export const getContractState = defineMethod({
  name: 'get_contract_state',
  summary: "One stored value of a contract by variable name and key (hex), optionally with a state proof against a header.",
  params: z.strictObject({
    contract_address: addressSchema,
    variable_name: z.string().regex(/^[A-Za-z0-9_]+$/).max(contractMethodBytesMax).describe('the storage variable, [A-Za-z0-9_]{1,64}'),
    key: z.string().max(2 + 2 * vmStorageKeyBytesMax).default('').describe('0x-hex bytes, an address, or text; "" for a scalar'),
    proof: z.boolean().default(false).describe('add a state proof of the slot against the selected tip header'),
  }),
  scope: 'public',
  result: z.object({
    contract_address: addressResult,
    variable_name: z.string(),
    key: z.string().describe('0x-hex bytes of the key'),
    exists: z.boolean(),
    value: z.string().nullable().describe('0x-hex stored bytes, null when absent'),
    code_hash: hashResult,
    proof: z
      .object({ key: hashResult, state_root: hashResult, block_hash: hashResult, block_height: z.int().nullable(), exists: z.boolean(), proof: stateProofJsonResult })
      .optional(),
  }),
  run(params, ctx) {
    const ledger = need(ctx, 'ledger', 'get_contract_state');
    const hrp = ctx.services.chain.params.hrp;
    const contract = parseAddress(ctx, params.contract_address);
    if (contract[0] !== AddressType.Contract) throw new InvalidAddressError('contract_address: not a contract address', 'unknown_type');
    const key = parseKey(hrp, params.key, (text) => parseAddress(ctx, text));
    if (key.length > vmStorageKeyBytesMax) throw new InvalidParamsError(`key of ${key.length} bytes, at most ${vmStorageKeyBytesMax}`);
    const records = contractRecords(ledger);
    const header = records('contract_storage', contractHeaderId(contract));
    if (header === undefined) throw new ContractError('no_contract', `no contract at ${params.contract_address}`);
    const id = contractStorageId(contract, params.variable_name, key);
    const stored = records('contract_storage', id);
    let proof;
    if (params.proof) {
      if (ledger.proveRecord === undefined) throw new ServiceUnavailableError('ledger (record proofs)', 'get_contract_state');
      const p = ledger.proveRecord('contract_storage', id);
      proof = {
        key: toHash0x(p.key),
        state_root: toHash0x(p.stateRoot),
        block_hash: toHash0x(p.blockHash),
        block_height: ctx.services.chain.get(toHex(p.blockHash))?.height ?? null,
        exists: p.exists,
        proof: proofToJson(p.proof),
      };
    }
    return {
      contract_address: params.contract_address,
      variable_name: params.variable_name,
      key: `0x${toHex(key)}`,
      exists: stored !== undefined,
      value: stored === undefined ? null : `0x${toHex(decodeContractValue(stored))}`,
      code_hash: toHash0x(decodeContractHeader(header).codeHash),
      ...(proof ? { proof } : {}),
    };
  },
});
