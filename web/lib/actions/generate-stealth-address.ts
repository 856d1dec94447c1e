/** `generate_stealth_address` (docs/api.md): A one-time output key paying a public spend/view key pair, derived as Monero derives output 0. */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { generateStealthAddress as method } from '../../../src/rpc/methods/generate-stealth-address.ts';
import type { RpcClient } from '../node-client.ts';

export type GenerateStealthAddressParameters = RpcMethodParams<typeof method>;
export type GenerateStealthAddressReturnType = RpcMethodResult<typeof method>;

export async function generateStealthAddress(client: RpcClient, params: GenerateStealthAddressParameters): Promise<GenerateStealthAddressReturnType> {
  return (await client.request('generate_stealth_address', params)) as GenerateStealthAddressReturnType;
}
