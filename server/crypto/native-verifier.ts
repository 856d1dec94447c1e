/**
 * The native BIP340 verifier (server/crypto/native/secp256k1-verify.c on the system's libsecp256k1), when
 * `npm run build` could compile it (bin/build-native.mjs): ~6× the Wasm libsecp256k1 the node falls back to
 * (docs/transactions.md "Signature backends"). Both are libsecp256k1, so they answer alike;
 * test/integration/server/crypto/crypto-fast-verifier.test.ts holds each to the BIP340 vectors and the reference.
 *
 * Loaded once per thread (each verify worker loads its own copy); `undefined` when the addon is not built or does not
 * load (another libsecp256k1 ABI, a missing library): the caller uses Wasm then.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export interface NativeSchnorr {
  /** One signature over a 32-byte message; false for malformed input. */
  verify(signature: Uint8Array, message: Uint8Array, xOnlyKey: Uint8Array): boolean;
  /** `results.length` signatures packed 64, 32 and 32 bytes each; results[i] = 1 valid, 0 not. */
  verifyBatch(signatures: Uint8Array, messages: Uint8Array, keys: Uint8Array, results: Uint8Array): void;
}

/** Where the addon is, from this file's place in the sources (server/crypto/) or in the bundle (build/node/). */
const candidates = ['../../build/native/secp256k1-verify.node', '../native/secp256k1-verify.node'].map((path) => fileURLToPath(new URL(path, import.meta.url)));

function loadNativeSchnorr(): { readonly addon: NativeSchnorr | undefined; readonly why: string } {
  if (process.env.WEFT_NATIVE_SECP256K1 === '0') return { addon: undefined, why: 'turned off (WEFT_NATIVE_SECP256K1=0)' };
  const path = candidates.find((candidate) => existsSync(candidate));
  if (path === undefined) return { addon: undefined, why: 'not built (bin/build-native.mjs needs libsecp256k1-dev)' };
  try {
    return { addon: createRequire(import.meta.url)(path) as NativeSchnorr, why: `loaded from ${path}` };
  } catch (error) {
    return { addon: undefined, why: `${path} did not load: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const loaded = loadNativeSchnorr();

/** The addon, or undefined (Wasm is used then). */
export const nativeSchnorr: NativeSchnorr | undefined = loaded.addon;
/** Why the addon is or is not in use: for the node's start-up log. */
export const nativeSchnorrStatus: string = loaded.why;
