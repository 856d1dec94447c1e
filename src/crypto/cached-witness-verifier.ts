/**
 * A witness verifier in front of the salted signature cache (sig-cache.ts): a check seen valid before (in the pool,
 * in an earlier block) is not verified again. Apart from witness-check.ts so that the cache, which keys witness
 * checks, and the verifiers, which the cache fronts, do not import each other.
 */
import type { SigCache } from './sig-cache.ts';
import type { AsyncWitnessVerifier, WitnessCheck, WitnessVerifier } from './witness-check.ts';

/**
 * `inner` behind a verification cache (src/crypto/sig-cache.ts): checks the cache holds are answered valid at once,
 * the rest go to `inner` in one batch, and those it finds valid are remembered. Answers equal `inner`'s.
 */
export function cachedWitnessVerifier(inner: WitnessVerifier, cache: SigCache): WitnessVerifier {
  return {
    name: `${inner.name} + sigcache`,
    verifyWitnesses(checks) {
      const { results, missAt, keys } = lookUp(checks, cache);
      if (missAt.length === 0) return results;
      const verdicts = inner.verifyWitnesses(missAt.map((at) => checks[at]!));
      return settle(results, missAt, keys, verdicts, cache);
    },
  };
}

/** The asynchronous form of cachedWitnessVerifier (the worker pool). */
export function cachedAsyncWitnessVerifier(inner: WitnessVerifier | AsyncWitnessVerifier, cache: SigCache): AsyncWitnessVerifier {
  return {
    name: `${inner.name} + sigcache`,
    async verifyWitnesses(checks) {
      const { results, missAt, keys } = lookUp(checks, cache);
      if (missAt.length === 0) return results;
      const verdicts = await inner.verifyWitnesses(missAt.map((at) => checks[at]!));
      return settle(results, missAt, keys, verdicts, cache);
    },
  };
}

function lookUp(checks: readonly WitnessCheck[], cache: SigCache): { results: boolean[]; missAt: number[]; keys: (string | undefined)[] } {
  const results = new Array<boolean>(checks.length);
  const missAt: number[] = [];
  const keys = checks.map((check) => cache.keyOf(check));
  keys.forEach((key, at) => {
    if (key !== undefined && cache.has(key)) results[at] = true;
    else missAt.push(at);
  });
  return { results, missAt, keys };
}

function settle(results: boolean[], missAt: readonly number[], keys: readonly (string | undefined)[], verdicts: readonly boolean[], cache: SigCache): boolean[] {
  missAt.forEach((at, k) => {
    const ok = verdicts[k] === true;
    results[at] = ok;
    const key = keys[at];
    if (ok && key !== undefined) cache.add(key);
  });
  return results;
}
