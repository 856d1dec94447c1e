// Regtest's adjustable consensus (src/consensus/regtest-overrides.ts): the node takes it from flags, the tab from its
// node's get_info — and only on regtest; every rule between the depths holds whichever way they arrive.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.ts';
import { rulesV2Active } from '../../../src/consensus/activation.ts';
import { devnetParams, mainnetParams, regtestParams, testnetParams } from '../../../src/consensus/params.ts';
import { RegtestOverrideError, regtestParamsWith } from '../../../src/consensus/regtest-overrides.ts';
import { networkParamsOf } from '../../../web/light/node-params.ts';

describe('regtestParamsWith', () => {
  it('returns regtest itself without overrides, a frozen copy with them', () => {
    expect(regtestParamsWith({})).toBe(regtestParams);
    const v2 = regtestParamsWith({ headerVersion: 2, finalityDepth: 6, mergeDepth: 3, pruningDepth: 12 });
    expect(v2).toMatchObject({ name: 'regtest', headerVersion: 2, finalityDepth: 6, mergeDepth: 3, pruningDepth: 12, genesis: regtestParams.genesis });
    expect(Object.isFrozen(v2)).toBe(true);
  });

  it('lifts the pruning depth to twice a finality depth given alone', () => {
    expect(regtestParamsWith({ finalityDepth: 10_000, mergeDepth: 5 }).pruningDepth).toBe(Math.max(regtestParams.pruningDepth, 20_000));
  });

  it('refuses depths that break the rules between them, or out of bounds, with invalid_params', () => {
    const refused = (o: Parameters<typeof regtestParamsWith>[0], message: RegExp) => {
      const error = (() => { try { regtestParamsWith(o); } catch (e) { return e; } return undefined; })();
      expect(error).toBeInstanceOf(RegtestOverrideError);
      expect((error as RegtestOverrideError).kind).toBe('invalid_params');
      expect((error as Error).message).toMatch(message);
    };
    refused({ finalityDepth: 6, mergeDepth: 6 }, /merge depth \(6\) must be below finality depth \(6\)/);
    refused({ finalityDepth: 6, mergeDepth: 3, pruningDepth: 6 }, /pruning depth \(6\) must be above finality depth \(6\)/);
    refused({ finalityDepth: 1 }, /finalityDepth must be an integer within 2\.\./);
    refused({ pruningDepth: 2.5 }, /pruningDepth must be an integer/);
    refused({ headerVersion: 3 as 2 }, /header version must be 1 or 2/);
    refused({ rulesV2At: -1 }, /rules v2 activation must be a DAA score/);
  });

  it('keeps rules v2 off on regtest unless a DAA score is given; the test networks start at 0', () => {
    expect(rulesV2Active(regtestParams, 10 ** 12)).toBe(false);
    const at = regtestParamsWith({ rulesV2At: 40 });
    expect([rulesV2Active(at, 39), rulesV2Active(at, 40)]).toEqual([false, true]);
    expect(loadConfig(['--network', 'regtest', '--regtest-rules-v2-at=40']).params).toEqual(at);
    expect(() => loadConfig(['--network', 'devnet', '--regtest-rules-v2-at=0'])).toThrow(/apply to --network regtest only/);
    expect(rulesV2Active(devnetParams, 0) && rulesV2Active(testnetParams, 0)).toBe(true);
    expect(rulesV2Active(mainnetParams, 31_535_999)).toBe(false);
  });

  it('any accepted set keeps merge < finality < pruning (property)', () => {
    const depth = fc.option(fc.integer({ min: 1, max: 5_000 }), { nil: undefined });
    fc.assert(fc.property(depth, depth, depth, (finalityDepth, mergeDepth, pruningDepth) => {
      let p;
      try {
        p = regtestParamsWith({ finalityDepth, mergeDepth, pruningDepth });
      } catch (error) {
        expect(error).toBeInstanceOf(RegtestOverrideError);
        return;
      }
      expect(p.mergeDepth).toBeLessThan(p.finalityDepth);
      expect(p.finalityDepth).toBeLessThan(p.pruningDepth);
    }));
  });
});

describe('the node and the tab read the same overrides', () => {
  const flags = ['--regtest-header-version=2', '--regtest-finality-depth=30', '--regtest-merge-depth=15', '--regtest-pruning-depth=60'];

  it('from flags, with each refusal a config error naming regtest', () => {
    expect(loadConfig(['--network', 'regtest', ...flags]).params).toEqual(regtestParamsWith({ headerVersion: 2, finalityDepth: 30, mergeDepth: 15, pruningDepth: 60 }));
    expect(() => loadConfig(['--network', 'devnet', '--regtest-pruning-depth=60'])).toThrow(/regtest-pruning-depth apply to --network regtest only/);
    expect(() => loadConfig(['--network', 'regtest', '--regtest-merge-depth=40', '--regtest-finality-depth=30'])).toThrow(ConfigError);
    expect(() => loadConfig(['--network', 'regtest', '--regtest-header-version=3'])).toThrow(/regtest-header-version must be within 1\.\.2/);
  });

  it("from get_info's consensus on regtest only: another network's node cannot change what the tab checks", () => {
    const consensus = { header_version: 2, finality_depth: 30, merge_depth: 15, pruning_depth: 60 };
    expect(networkParamsOf({ network_id: 'regtest', consensus })).toEqual(loadConfig(['--network', 'regtest', ...flags]).params);
    expect(networkParamsOf({ network_id: 'regtest' })).toBe(regtestParams);
    expect(networkParamsOf({ network_id: 'mainnet', consensus: { header_version: 1, finality_depth: 3, merge_depth: 1, pruning_depth: 4 } })).toBe(mainnetParams);
    expect(() => networkParamsOf({ network_id: 'regtest', consensus: { ...consensus, merge_depth: 30 } })).toThrow(RegtestOverrideError);
  });
});
