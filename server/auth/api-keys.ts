/**
 * API keys (docs/auth.md "API keys"): `weft_ak_<id>_<secret>`. The store keeps the id, label, scopes, whether the
 * key must sign its requests, and the SHA-256 of the whole key — never the key. Lookup is by id; the hash is then
 * compared in constant time, so a wrong key costs the same whichever byte is wrong. A key that verified is remembered
 * with its record's stored bytes: for `apiKeyRecheckMs` after a check the next request with it costs a map lookup,
 * then one store read and a byte compare re-check it. A revocation through this store takes effect on the next
 * request; one by the CLI in another process (which changes the stored bytes) within `apiKeyRecheckMs`.
 */
import type { KvStore } from '../../src/storage/kv.ts';
import type { Clock } from '../../src/util/clock.ts';
import { apiKeyLabelCharsMax, apiKeyRecheckMs, apiKeysMax } from '../../src/auth/auth-limits.ts';
import type { Scope } from '../../src/auth/scopes.ts';
import { WeftError } from '../../src/errors.ts';
import { jsonTable } from './json-table.ts';
import { constantTimeEqual, newId, newSecret, sha256Hex } from './secrets.ts';

const apiKeyPrefix = 'weft_ak_';
const keyPattern = /^weft_ak_([0-9a-f]{16})_[A-Za-z0-9_-]{43}$/;

export interface ApiKeyInfo {
  readonly id: string;
  readonly label: string;
  readonly scopes: readonly Scope[];
  /** The node's own key (api.cookie): every scope, and may approve OAuth consent. */
  readonly admin: boolean;
  /** Requests without a valid X-Signature are refused. */
  readonly requireSignature: boolean;
  readonly createdAtMs: number;
  readonly revokedAtMs: number | null;
}

interface ApiKeyRecord extends ApiKeyInfo {
  readonly hash: string;
}

interface CreateApiKeyOptions {
  readonly label: string;
  readonly scopes: readonly Scope[];
  readonly admin?: boolean;
  readonly requireSignature?: boolean;
}

export interface ApiKeyStore {
  /** The key text is returned once; only its hash is kept. */
  create(options: CreateApiKeyOptions): Promise<{ key: string; info: ApiKeyInfo }>;
  list(): ApiKeyInfo[];
  get(id: string): ApiKeyInfo | undefined;
  /** False when no such key; revoking twice is harmless. */
  revoke(id: string): Promise<boolean>;
  /** The live key this text is, or undefined (unknown, malformed, revoked). */
  verify(key: string): ApiKeyInfo | undefined;
}

export class ApiKeyError extends WeftError {
  constructor(message: string) {
    super('config', message);
  }
}

const strip = ({ hash: _hash, ...info }: ApiKeyRecord): ApiKeyInfo => info;

/** Verified keys remembered (one entry per distinct key text that verified; a wrong key is never remembered). */
const apiKeyCacheMax = 1_024;
const decoder = new TextDecoder();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function createApiKeyStore(kv: KvStore, clock: Clock): ApiKeyStore {
  const table = jsonTable<ApiKeyRecord>(kv, 'k');
  const verified = new Map<string, { readonly bytes: Uint8Array; readonly info: ApiKeyInfo; checkedAtMs: number }>();
  return {
    async create(options) {
      if (options.label.length > apiKeyLabelCharsMax) throw new ApiKeyError(`a label has at most ${apiKeyLabelCharsMax} characters, got ${options.label.length}`);
      if (table.count() >= apiKeysMax) throw new ApiKeyError(`the node holds at most ${apiKeysMax} API keys; revoke some first`);
      const id = newId();
      const key = `${apiKeyPrefix}${id}_${newSecret('')}`;
      const record: ApiKeyRecord = {
        id,
        label: options.label,
        scopes: [...options.scopes],
        admin: options.admin ?? false,
        requireSignature: options.requireSignature ?? false,
        createdAtMs: clock.nowMs(),
        revokedAtMs: null,
        hash: sha256Hex(key),
      };
      await table.put(id, record);
      return { key, info: strip(record) };
    },
    list: () => [...table.all()].map(([, r]) => strip(r)).sort((a, b) => a.createdAtMs - b.createdAtMs || a.id.localeCompare(b.id)),
    get(id) {
      const record = table.get(id);
      return record === undefined ? undefined : strip(record);
    },
    async revoke(id) {
      const record = table.get(id);
      if (record === undefined) return false;
      if (record.revokedAtMs === null) await table.put(id, { ...record, revokedAtMs: clock.nowMs() });
      for (const [key, hit] of verified) if (hit.info.id === id) verified.delete(key);
      return true;
    },
    verify(key) {
      const now = clock.nowMs();
      const hit = verified.get(key);
      if (hit !== undefined && now - hit.checkedAtMs < apiKeyRecheckMs && now >= hit.checkedAtMs) return hit.info;
      const match = keyPattern.exec(key);
      if (match === null) return undefined;
      const id = match[1]!;
      // Verified keys are remembered with the record bytes they were checked against: while the stored record is
      // byte for byte the same (not revoked or changed, by this process or the CLI), the key needs no hash again.
      const bytes = table.getBytes(id);
      if (bytes === undefined) {
        verified.delete(key);
        return undefined;
      }
      if (hit !== undefined && sameBytes(hit.bytes, bytes)) {
        hit.checkedAtMs = now;
        return hit.info;
      }
      verified.delete(key);
      const record = JSON.parse(decoder.decode(bytes)) as ApiKeyRecord;
      if (!constantTimeEqual(record.hash, sha256Hex(key)) || record.revokedAtMs !== null) return undefined;
      const info = strip(record);
      if (verified.size >= apiKeyCacheMax) verified.delete(verified.keys().next().value as string);
      verified.set(key, { bytes, info, checkedAtMs: now });
      return info;
    },
  };
}
