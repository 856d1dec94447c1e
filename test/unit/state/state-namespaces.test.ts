// State namespaces (src/state/namespaces.ts, docs/state.md "Namespaces"): key derivation per namespace (accounts
// exactly as before, namespaces never colliding), the record version byte, proofs of records of any namespace
// written into the (generic) trie and checked with verifyStateRecord, the ledger's proveRecord, get_proof's
// namespace param and the light client's verifyRecordProof.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blake3 } from '@noble/hashes/blake3.js';
import { createLedgerPort } from '../../../server/node/ledger-port.ts';
import { encodeAddress } from '../../../src/crypto/address.ts';
import { AssertionError, DecodeError } from '../../../src/errors.ts';
import { LightProofError } from '../../../src/light/errors.ts';
import { verifyAccountProof, verifyRecordProof } from '../../../src/light/verify-account.ts';
import { createDispatcher } from '../../../src/rpc/dispatcher.ts';
import { accountKey, accountRecordVersion, decodeAccount, encodeAccount, type StoredAccount } from '../../../src/state/account-codec.ts';
import {
  decodeStateRecord,
  isStateNamespaceName,
  stateKey,
  stateNamespace,
  stateNamespaceNames,
  stateNamespaces,
  stateRecordIdBytesMax,
  type StateNamespaceName,
} from '../../../src/state/namespaces.ts';
import { proofFromJson, proofToJson } from '../../../src/state/proof.ts';
import { verifyProof, verifyStateRecord } from '../../../src/state/proof-verify.ts';
import { StateError } from '../../../src/state/state-errors.ts';
import { splitRecordVersion, stateRecordKey, withRecordVersion } from '../../../src/state/state-record.ts';
import { createStateTrie } from '../../../src/state/trie.ts';
import { emptyStateRoot } from '../../../src/state/trie-hash.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { concatBytes, equalBytes, toHash0x, toHex } from '../../../src/util/bytes.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { ledgerChain, wallet } from '../../helpers/ledger-fixtures.ts';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
/** The account key as the ledger derived it before namespaces existed (account-codec.ts at that time). */
const oldAccountKey = (address: Uint8Array): Uint8Array => blake3(concatBytes(utf8('weft/state/account/v1'), address));

const idArb = (name: StateNamespaceName) => {
  const bytes = stateNamespaces[name].id.bytes;
  return fc.uint8Array({ minLength: bytes, maxLength: bytes });
};
const accountArb: fc.Arbitrary<StoredAccount> = fc.record({
  balance: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  nonce: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  energy: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  energyDaaScore: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
});

function coded(fn: () => unknown): { error: unknown; reason?: unknown } {
  try {
    fn();
  } catch (error) {
    const details = (error as { details?: { reason?: unknown } }).details;
    return { error, reason: error instanceof StateError || error instanceof LightProofError ? error.reason : details?.reason };
  }
  throw new Error('expected a throw');
}

function trieWith(rows: ReadonlyArray<readonly [Uint8Array, Uint8Array]>) {
  const trie = createStateTrie({ store: createMemoryStore(), prefix: Uint8Array.of(0x10), overlay: new Map() });
  const { root } = trie.applyUpdates(emptyStateRoot, new Map(rows.map(([key, value]) => [toHex(key), value])));
  return { trie, root };
}

describe('namespace declarations', () => {
  it('declares every namespace once, with prefix-free tags, accounts first; every namespace active', () => {
    expect(Object.fromEntries(stateNamespaceNames.map((n) => [n, [stateNamespaces[n].tag, stateNamespaces[n].id.bytes, stateNamespaces[n].status]]))).toEqual({
      account: ['weft/state/account/v1', 33, 'active'],
      agent: ['weft/state/agent/v1', 33, 'active'],
      escrow: ['weft/state/escrow/v1', 32, 'active'],
      contract_code: ['weft/state/contract-code/v1', 32, 'active'],
      contract_storage: ['weft/state/contract-storage/v1', 65, 'active'],
      key_image: ['weft/state/key-image/v1', 32, 'active'],
      confidential_output: ['weft/state/confidential-output/v1', 32, 'active'],
    });
    for (const a of stateNamespaceNames) {
      expect(stateNamespace(a).name).toBe(a);
      expect(isStateNamespaceName(a)).toBe(true);
      for (const b of stateNamespaceNames) if (a !== b) expect(stateNamespaces[b].tag.startsWith(stateNamespaces[a].tag)).toBe(false);
    }
    expect(isStateNamespaceName('accounts')).toBe(false);
    expect(isStateNamespaceName('toString')).toBe(false);
  });

  it('refuses an id of the wrong length with StateError bad-key', () => {
    for (const name of stateNamespaceNames) {
      const bytes = stateNamespaces[name].id.bytes;
      for (const length of [0, bytes - 1, bytes + 1]) expect(coded(() => stateKey(name, new Uint8Array(length))).reason).toBe('bad-key');
    }
  });
});

describe('key derivation', () => {
  it('keeps the account key exactly as before (so every existing state root is unchanged)', () => {
    fc.assert(
      fc.property(idArb('account'), (address) => {
        const old = oldAccountKey(address);
        expect(stateKey('account', address)).toEqual(old);
        expect(accountKey(address)).toEqual(old);
        expect(stateRecordKey('weft/state/account/v1', address)).toEqual(old);
      }),
    );
    // One pinned vector, independent of any code under test.
    const address = Uint8Array.from({ length: 33 }, (_, i) => i);
    expect(toHex(stateKey('account', address))).toBe(toHex(blake3(concatBytes(utf8('weft/state/account/v1'), address))));
  });

  it('derives every other namespace as BLAKE3(tag ‖ id)', () => {
    for (const name of stateNamespaceNames) {
      fc.assert(
        fc.property(idArb(name), (id) => {
          expect(stateKey(name, id)).toEqual(blake3(concatBytes(utf8(stateNamespaces[name].tag), id)));
        }),
        { numRuns: 30 },
      );
    }
  });

  it('never gives two namespaces the same key for the same id', () => {
    const names = fc.constantFrom(...stateNamespaceNames);
    fc.assert(
      fc.property(names, names, fc.uint8Array({ minLength: 65, maxLength: 65 }), (a, b, seed) => {
        fc.pre(a !== b);
        // The same id bytes, cut to each namespace's length (equal ids whenever the lengths agree).
        const keyA = stateKey(a, seed.slice(0, stateNamespaces[a].id.bytes));
        const keyB = stateKey(b, seed.slice(0, stateNamespaces[b].id.bytes));
        expect(equalBytes(keyA, keyB)).toBe(false);
      }),
      { numRuns: 500 },
    );
    // And over the raw rule: any two tags of the table, any id bytes at all.
    fc.assert(
      fc.property(names, names, fc.uint8Array({ maxLength: 80 }), (a, b, id) => {
        fc.pre(a !== b);
        expect(equalBytes(stateRecordKey(stateNamespaces[a].tag, id), stateRecordKey(stateNamespaces[b].tag, id))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('gives distinct keys to distinct (namespace, id) pairs', () => {
    const pairArb = fc.constantFrom(...stateNamespaceNames).chain((name) => idArb(name).map((id) => [name, id] as const));
    fc.assert(
      fc.property(fc.uniqueArray(pairArb, { minLength: 2, maxLength: 20, selector: ([n, id]) => `${n}:${toHex(id)}` }), (pairs) => {
        const keys = new Set(pairs.map(([n, id]) => toHex(stateKey(n, id))));
        expect(keys.size).toBe(pairs.length);
      }),
      { numRuns: 100 },
    );
  });
});

describe('record version byte', () => {
  it('round-trips any version byte and body', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 64 }), (version, body) => {
        const value = withRecordVersion(version, body);
        expect(value[0]).toBe(version);
        expect(splitRecordVersion(value, 'test')).toEqual({ version, body });
      }),
    );
    for (const bad of [-1, 256, 1.5]) expect(() => withRecordVersion(bad, new Uint8Array(0))).toThrow(DecodeError);
    expect(coded(() => splitRecordVersion(new Uint8Array(0), 'test')).reason).toBe('record-empty');
  });

  it('writes account v1 as version byte 0 and reads it back; every other version is a coded DecodeError', () => {
    expect(accountRecordVersion).toBe(0);
    fc.assert(
      fc.property(accountArb, (account) => {
        const value = encodeAccount(account);
        expect(value[0]).toBe(accountRecordVersion);
        expect(decodeAccount(value)).toEqual(account);
        expect(decodeStateRecord('account', value)).toEqual(account);
        expect(stateNamespaces.account.codec.encode(account)).toEqual(value);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 255 }), fc.uint8Array({ maxLength: 40 }), fc.boolean(), (version, rest, fullLength) => {
        const value = withRecordVersion(version, fullLength ? new Uint8Array(32).fill(7) : rest);
        const { error, reason } = coded(() => decodeAccount(value));
        expect(error).toBeInstanceOf(DecodeError);
        expect((error as DecodeError).code).toBe(-32602);
        expect(reason).toBe('record-version-unknown');
        expect((error as DecodeError).details).toMatchObject({ namespace: 'account', version, known: [0] });
      }),
    );
    expect(coded(() => decodeAccount(new Uint8Array(0))).reason).toBe('record-empty');
    // A known version with the wrong body length is still refused (not a version problem).
    expect(() => decodeAccount(new Uint8Array(32))).toThrow(DecodeError);
  });

  it('reserved namespaces refuse every value and store nothing', () => {
    for (const name of stateNamespaceNames.filter((n) => stateNamespaces[n].status === 'reserved')) {
      expect(stateNamespaces[name].codec.versions).toEqual([]);
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), (value) => {
          const { error, reason } = coded(() => decodeStateRecord(name, value));
          expect(error).toBeInstanceOf(DecodeError);
          expect(reason).toBe('namespace-reserved');
        }),
        { numRuns: 20 },
      );
      expect(() => (stateNamespaces[name].codec.encode as (r: unknown) => Uint8Array)({})).toThrow(AssertionError);
    }
  });
});

describe('proofs of namespaced records in one trie', () => {
  const alice = wallet(1).address;
  const account: StoredAccount = { balance: 5n, nonce: 1n, energy: 2n, energyDaaScore: 9 };
  const escrowId = new Uint8Array(32).fill(0xe5);
  // The trie is generic: a record of a namespace nothing writes yet, put in directly beside an account.
  const escrowValue = withRecordVersion(0, utf8('an escrow of some later layout'));
  const { trie, root } = trieWith([
    [stateKey('account', alice), encodeAccount(account)],
    [stateKey('escrow', escrowId), escrowValue],
    ...Array.from({ length: 20 }, (_, i) => [stateKey('account', wallet(10 + i).address), encodeAccount({ ...account, nonce: BigInt(i) })] as const),
  ]);

  it('proves and verifies a record of a non-account namespace by its id', () => {
    const proof = trie.prove(root, stateKey('escrow', escrowId));
    expect(proof.kind).toBe('inclusion');
    // The proof checks at the escrow namespace's key of that id, and claims about its value are checked too …
    expect(verifyProof(root, stateKey('escrow', escrowId), proof)).toEqual({ exists: true, value: escrowValue });
    expect(coded(() => verifyStateRecord({ stateRoot: root, namespace: 'escrow', id: escrowId, proof, value: new Uint8Array([0, 1]) })).reason).toBe('proof-invalid');
    expect(coded(() => verifyStateRecord({ stateRoot: root, namespace: 'escrow', id: escrowId, proof, value: null })).reason).toBe('proof-invalid');
    // … and the escrow codec (src/kinds/escrow/escrow-record.ts) refuses to read a value that is no escrow record.
    const refused = coded(() => verifyStateRecord({ stateRoot: root, namespace: 'escrow', id: escrowId, proof, value: escrowValue }));
    expect(refused.error).toBeInstanceOf(DecodeError);
    // Absence of another escrow, and of the same id in the other 32-byte namespaces.
    const other = new Uint8Array(32).fill(0x11);
    const absent = verifyStateRecord({ stateRoot: root, namespace: 'escrow', id: other, proof: trie.prove(root, stateKey('escrow', other)), value: null });
    expect(absent).toEqual({ exists: false, namespace: 'escrow', key: stateKey('escrow', other) });
    for (const name of ['contract_code', 'confidential_output', 'key_image'] as const) {
      expect(verifyStateRecord({ stateRoot: root, namespace: name, id: escrowId, proof: trie.prove(root, stateKey(name, escrowId)) }).exists).toBe(false);
    }
  });

  it('proves and decodes an account through the same function', () => {
    const proof = proofFromJson(proofToJson(trie.prove(root, stateKey('account', alice))));
    const verified = verifyStateRecord({ stateRoot: root, namespace: 'account', id: alice, proof });
    expect(verified).toMatchObject({ exists: true, namespace: 'account', record: account, value: encodeAccount(account) });
    expect(verifyStateRecord({ stateRoot: root, namespace: 'account', id: alice, proof, value: encodeAccount(account) }).exists).toBe(true);
  });

  it("does not verify one namespace's proof as another namespace's record of the same id", () => {
    const escrowProof = trie.prove(root, stateKey('escrow', escrowId));
    for (const name of ['contract_code', 'confidential_output'] as const) {
      expect(coded(() => verifyStateRecord({ stateRoot: root, namespace: name, id: escrowId, proof: escrowProof })).reason).toBe('proof-invalid');
    }
    const accountProof = trie.prove(root, stateKey('account', alice));
    for (const name of ['agent'] as const) {
      expect(coded(() => verifyStateRecord({ stateRoot: root, namespace: name, id: alice, proof: accountProof })).reason).toBe('proof-invalid');
    }
    // Nor as another id of the same namespace, nor under another root.
    expect(coded(() => verifyStateRecord({ stateRoot: root, namespace: 'account', id: wallet(2).address, proof: accountProof })).reason).toBe('proof-invalid');
    expect(coded(() => verifyStateRecord({ stateRoot: new Uint8Array(32).fill(1), namespace: 'account', id: alice, proof: accountProof })).reason).toBe('proof-invalid');
  });

  it('property: in a trie holding records of every namespace, each proof verifies for its own (namespace, id) only', () => {
    const entryArb = fc.constantFrom(...stateNamespaceNames).chain((name) => fc.tuple(fc.constant(name), idArb(name), fc.uint8Array({ minLength: 1, maxLength: 24 })));
    fc.assert(
      fc.property(fc.uniqueArray(entryArb, { minLength: 2, maxLength: 12, selector: ([n, id]) => `${n}:${toHex(id)}` }), (entries) => {
        const built = trieWith(entries.map(([n, id, body]) => [stateKey(n, id), withRecordVersion(0, body)] as const));
        for (const [name, id, body] of entries) {
          const proof = built.trie.prove(built.root, stateKey(name, id));
          expect(verifyProof(built.root, stateKey(name, id), proof)).toEqual({ exists: true, value: withRecordVersion(0, body) });
          for (const other of stateNamespaceNames) {
            if (other === name || stateNamespaces[other].id.bytes !== id.length) continue;
            expect(coded(() => verifyStateRecord({ stateRoot: built.root, namespace: other, id, proof })).reason).toBe('proof-invalid');
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('the ledger, get_proof and the light client', () => {
  it('proveRecord proves accounts as proveAccount does and any other namespace against the same header', async () => {
    const f = await ledgerChain();
    const miner = wallet(1).address;
    for (let i = 0; i < 3; i++) await f.mine({ miner });
    const tip = f.chain.selectedTip();
    const account = f.ledger.proveAccount(miner);
    const record = f.ledger.proveRecord('account', miner);
    expect(record).toMatchObject({ blockHash: account.blockHash, stateRoot: account.stateRoot, key: account.key, proof: account.proof, namespace: 'account' });
    expect(record.record).toEqual(account.account);
    expect(account.key).toEqual(oldAccountKey(miner));
    expect(verifyStateRecord({ stateRoot: tip.header.stateRoot, namespace: 'account', id: miner, proof: record.proof }).exists).toBe(true);

    const escrowId = new Uint8Array(32).fill(3);
    const escrow = f.ledger.proveRecord('escrow', escrowId);
    expect(escrow.record).toBeNull();
    expect(escrow.stateRoot).toEqual(tip.header.stateRoot);
    expect(verifyStateRecord({ stateRoot: tip.header.stateRoot, namespace: 'escrow', id: escrowId, proof: escrow.proof, value: null }).exists).toBe(false);
    expect(coded(() => f.ledger.proveRecord('escrow', miner)).reason).toBe('bad-key');

    // get_proof over the node's ledger port: the account answer as it always was, and the namespace param.
    const dispatcher = createDispatcher({
      services: { chain: f.chain, node: { version: 't', startedAtMs: 0, clock: systemClock, synced: () => true }, ledger: createLedgerPort(f.ledger, f.chain) },
      version: 't',
    });
    const ctx = { transport: 'http', id: 1 } as const;
    const address = encodeAddress(f.chain.params.hrp, miner);
    const plain = (await dispatcher.call('get_proof', { address }, ctx)) as Record<string, unknown>;
    expect(Object.keys(plain).sort()).toEqual(['account', 'address', 'block_hash', 'block_height', 'key', 'proof', 'state_root']);
    expect(await dispatcher.call('get_proof', { address, namespace: 'account' }, ctx)).toEqual(plain);
    expect(await dispatcher.call('get_proof', [address], ctx)).toEqual(plain);
    expect(plain['key']).toBe(toHash0x(oldAccountKey(miner)));
    const light = { get: (id: string) => f.chain.get(id), selectedTip: () => f.chain.selectedTip(), blockAtHeight: (h: number) => f.chain.blockAtHeight(h), params: f.chain.params };
    expect(verifyAccountProof(light, address, plain).balance).toBe(account.account!.balance);
    expect(verifyRecordProof(light, 'account', miner, plain).record).toEqual(account.account);

    const escrowAnswer = (await dispatcher.call('get_proof', { namespace: 'escrow', id: toHash0x(escrowId) }, ctx)) as Record<string, unknown>;
    expect(escrowAnswer).toMatchObject({
      namespace: 'escrow', id: toHash0x(escrowId), key: toHash0x(stateKey('escrow', escrowId)), state_root: toHash0x(tip.header.stateRoot),
      block_hash: toHash0x(tip.hash), block_height: tip.height, exists: false,
    });
    expect(verifyRecordProof(light, 'escrow', escrowId, escrowAnswer)).toMatchObject({ exists: false, record: null, blockHash: toHash0x(tip.hash) });
    // The escrow answer is no proof about an account or a contract's code of the same bytes.
    expect(coded(() => verifyRecordProof(light, 'contract_code', escrowId, { ...escrowAnswer, proof: plain['proof'] })).reason).toBe('proof-invalid');
    expect(coded(() => verifyRecordProof(light, 'agent', miner, plain)).reason).toBe('proof-invalid');

    const agent = (await dispatcher.call('get_proof', { namespace: 'agent', address }, ctx)) as Record<string, unknown>;
    expect(agent).toMatchObject({ namespace: 'agent', address, exists: false, key: toHash0x(stateKey('agent', miner)) });
    expect(verifyRecordProof(light, 'agent', miner, agent).exists).toBe(false);

    // Wrong or missing ids are -32602, never a proof about something else.
    const code = async (params: unknown) => {
      try {
        await dispatcher.call('get_proof', params, ctx);
      } catch (e) {
        return (e as { code: number }).code;
      }
      return 'answered';
    };
    expect(await code({ namespace: 'escrow', id: '0x1234' })).toBe(-32602);
    expect(await code({ namespace: 'contract_storage', id: `0x${'ab'.repeat(stateRecordIdBytesMax + 1)}` })).toBe(-32602);
    expect(await code({ namespace: 'contract_storage', id: `0x${'ab'.repeat(stateRecordIdBytesMax)}` })).toBe('answered');
    expect(await code({ namespace: 'escrow', address })).toBe(-32602);
    expect(await code({ namespace: 'agent', id: toHash0x(escrowId) })).toBe(-32602);
    expect(await code({ address, id: toHash0x(escrowId) })).toBe(-32602);
    expect(await code({})).toBe(-32602);
    expect(await code({ address, namespace: 'accounts' })).toBe(-32602);
  });

  it('the light client reports a proven record it cannot decode as record-unreadable, not as a balance', () => {
    const alice = wallet(1).address;
    const future = withRecordVersion(1, new Uint8Array(40)); // an account layout this client does not know
    const { trie, root } = trieWith([[stateKey('account', alice), future]]);
    const block = { id: toHex(new Uint8Array(32).fill(4)), hash: new Uint8Array(32).fill(4), height: 7, header: { stateRoot: root, timestampMs: 0 } };
    const light = {
      get: (id: string) => (id === block.id ? block : undefined), selectedTip: () => block, blockAtHeight: (h: number) => (h === 7 ? block : undefined), params: { hrp: 'rweft' },
    } as unknown as Parameters<typeof verifyAccountProof>[0];
    const answer = { state_root: toHash0x(root), block_hash: toHash0x(block.hash), proof: proofToJson(trie.prove(root, stateKey('account', alice))) };
    expect(coded(() => verifyAccountProof(light, encodeAddress('rweft', alice), answer)).reason).toBe('record-unreadable');
  });
});
