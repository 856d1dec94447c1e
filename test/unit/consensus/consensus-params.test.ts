import { describe, expect, it } from 'vitest';
import { emptyMerkleRoot } from '../../../src/codec/merkle.ts';
import { decodeHeader, encodeHeader } from '../../../src/codec/header.ts';
import { addressHrp } from '../../../src/crypto/address.ts';
import {
  devnetParams,
  regtestParams,
  genesisHash,
  getNetworkParams,
  mainnetParams,
  networkNames,
  testnetParams,
  UnknownNetworkError,
} from '../../../src/consensus/params.ts';
import { blockHash, compactToTarget, difficultyFromTarget, hashMeetsTarget, workFromTarget } from '../../../src/consensus/pow.ts';
import { headerParentsMax } from '../../../src/limits.ts';
import { toHex } from '../../../src/util/bytes.ts';

const all = [mainnetParams, testnetParams, devnetParams, regtestParams];

describe('network params', () => {
  it('chain ids and address prefixes are those of docs/design.md "Networks and units"', () => {
    expect(all.map((p) => [p.name, p.chainId, p.hrp])).toEqual([
      ['mainnet', 1, 'weft'],
      ['testnet', 2, 'tweft'],
      ['devnet', 1337, 'dweft'],
      ['regtest', 1338, 'rweft'],
    ]);
    for (const p of all) expect(p.hrp).toBe(addressHrp[p.name]);
  });

  it('GHOSTDAG figures are Kaspa 1-BPS values and ports are docs/design.md "Node APIs and access"', () => {
    for (const p of all) {
      expect(p.ghostdagK).toBe(18);
      expect(p.maxParents).toBe(headerParentsMax);
      expect(p.mergesetSizeLimit).toBe(180);
      expect(p.targetBlockTimeMs).toBe(1000);
      expect(p.ports).toEqual({ rpc: 8080, ws: 8081, grpc: 8082, p2p: 2080, https: 8443 });
      expect(p.pastMedianTimeWindow % 2).toBe(1);
      expect(p.daaWindowBlocks).toBeGreaterThan(p.pastMedianTimeWindow);
    }
  });

  it('getNetworkParams finds each network by name and refuses others', () => {
    for (const name of networkNames) expect(getNetworkParams(name).name).toBe(name);
    expect(() => getNetworkParams('simnet')).toThrow(UnknownNetworkError);
    expect(() => getNetworkParams('simnet')).toThrow(/unknown network "simnet", expected one of mainnet, testnet, devnet, regtest/);
  });
});

describe('genesis blocks', () => {
  it.each(all)('$name genesis encodes, decodes and meets its own target', (p) => {
    const g = p.genesis;
    const bytes = encodeHeader(g);
    expect(decodeHeader(bytes)).toEqual({ ...g, parents: [] });
    const target = compactToTarget(g.bits);
    expect(target).toBeLessThanOrEqual(p.maxTarget);
    expect(hashMeetsTarget(blockHash(g), target)).toBe(true);
  });

  it.each(all)('$name genesis is the empty block at score 0', (p) => {
    const g = p.genesis;
    expect(g.parents).toEqual([]);
    expect(g.txRoot).toEqual(emptyMerkleRoot);
    expect(g.stateRoot).toEqual(new Uint8Array(32));
    expect(g.miner).toEqual(new Uint8Array(33));
    expect([g.daaScore, g.blueScore, g.blueWork, g.gpuMining]).toEqual([0, 0, 0n, false]);
  });

  it('each network has its own genesis hash; genesisHash is blockHash of the genesis', () => {
    const hashes = all.map((p) => toHex(genesisHash(p)));
    expect(new Set(hashes).size).toBe(4);
    for (const p of all) {
      expect(genesisHash(p)).toEqual(blockHash(p.genesis));
      const copy = genesisHash(p);
      copy.fill(0xff); // callers get copies: the cache cannot be corrupted
      expect(genesisHash(p)).toEqual(blockHash(p.genesis));
    }
  });

  it('devnet starts at about one second of one JS thread (~0.14 M hashes/s); mainnet and testnet start harder', () => {
    const expectedHashes = (bits: number): number => Number(workFromTarget(compactToTarget(bits)));
    const devnet = expectedHashes(devnetParams.genesis.bits);
    expect(devnet / 140_000).toBeGreaterThan(0.5);
    expect(devnet / 140_000).toBeLessThan(2);
    expect(expectedHashes(testnetParams.genesis.bits)).toBeGreaterThan(devnet);
    expect(expectedHashes(mainnetParams.genesis.bits)).toBeGreaterThan(expectedHashes(testnetParams.genesis.bits));
    expect(difficultyFromTarget(compactToTarget(devnetParams.genesis.bits), devnetParams.maxTarget)).toBe(65535);
  });

  it('params cannot be changed at run time', () => {
    expect(Object.isFrozen(mainnetParams)).toBe(true);
    expect(Object.isFrozen(mainnetParams.genesis)).toBe(true);
    expect(Object.isFrozen(mainnetParams.ports)).toBe(true);
  });
});
