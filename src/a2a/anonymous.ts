/**
 * Anonymous callers each get their own tasks (docs/a2a.md "Visibility"): a caller without credentials is not one
 * shared principal but the holder of an *anonymous key*, a secret of at least 128 bits. Its principal is
 * `anonymous:<BLAKE3 of the key, hex>`, so the key itself is never an owner id, a log line or an index key.
 *
 * - A caller may bring its own key (header `A2A-Anonymous-Key` on HTTP, the WebSocket upgrade and gRPC metadata):
 *   every task it creates with that key is its own, and it lists, reads, cancels and continues them by sending it.
 * - A caller with no key at all (what an A2A SDK sends by default) that creates a task gets a fresh key minted for
 *   that task, returned in the task's `metadata.anonymousKey`; later calls about the task present it.
 * - The bare `anonymous` principal (no key) owns nothing: it can create tasks, but it sees no task and lists none.
 *
 * A2A 1.0 leaves principals to the agent (it only asks that another caller's task be not found, revealing nothing);
 * the key is an optional credential like an API key, so the card's security requirements do not change.
 */
import { blake3 } from '../crypto/blake3.ts';
import { toHex } from '../util/bytes.ts';
import type { Principal } from './principal.ts';

/** The request header (lower case, as bindings look headers up) carrying an anonymous key. */
export const anonymousKeyHeader = 'a2a-anonymous-key';
/** The task metadata field a minted key is returned in (only the agent writes it). */
export const anonymousKeyMetadata = 'anonymousKey';

/** base64url or hex text of at least 128 bits (22 base64url characters, 32 hex digits), at most 128 characters. */
const keyText = /^[A-Za-z0-9_-]{22,128}$/;

export function isAnonymousKey(text: string): boolean {
  return keyText.test(text);
}

/** The principal of an anonymous key's holder. */
export function anonymousPrincipal(key: string): Principal {
  return { id: `anonymous:${toHex(blake3(new TextEncoder().encode(key)))}`, scheme: 'anonymous', scopes: [] };
}

/** A fresh key from the handler's id source (two UUID v4s: 244 random bits), as 64 hex digits. */
export function mintAnonymousKey(newId: () => string): string {
  return `${newId()}${newId()}`.replaceAll('-', '');
}
