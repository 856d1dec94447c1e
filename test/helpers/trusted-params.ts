// The network and clock of the trusted-data tests, and a JSON form of trusted data for a child process; no vitest
// here, so test/helpers/trusted-join-child.ts can load it outside the runner.
import type { TrustedData } from '../../src/chain/trusted-data.ts';
import { regtestParams, type NetworkParams } from '../../src/consensus/params.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import { createManualClock, type Clock } from '../../src/util/clock.ts';

/** Small windows so a few hundred blocks span several pruning windows and the trusted set starts above genesis. */
export const joinParams: NetworkParams = Object.freeze({ ...regtestParams, finalityDepth: 12, mergeDepth: 6, pruningDepth: 24, daaWindowBlocks: 30 });

export const joinClock = (): Clock => createManualClock(joinParams.genesis.timestampMs + 1_000_000_000);

/** JSON for a child process (the wire codec is the p2p layer's): bigints, bytes and maps tagged. */
export function trustedToJson(data: TrustedData): string {
  return JSON.stringify(data, (_key, value: unknown) => {
    if (typeof value === 'bigint') return { $big: value.toString() };
    if (value instanceof Uint8Array) return { $bytes: toHex(value) };
    if (value instanceof Map) return { $map: [...value] };
    return value;
  });
}

export function trustedFromJson(text: string): TrustedData {
  return JSON.parse(text, (_key, value: unknown) => {
    if (value && typeof value === 'object') {
      const tagged = value as { $big?: string; $bytes?: string; $map?: [unknown, unknown][] };
      if (tagged.$big !== undefined) return BigInt(tagged.$big);
      if (tagged.$bytes !== undefined) return fromHex(tagged.$bytes);
      if (tagged.$map !== undefined) return new Map(tagged.$map);
    }
    return value;
  }) as TrustedData;
}
