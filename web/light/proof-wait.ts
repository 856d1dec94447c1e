/**
 * Proofs the tab checks against its light node's headers may name the node's newest block before the light node
 * has verified it (it is one `inv` behind at most), or a sibling of the tab's own tip that the tab's selected chain
 * does not run through until it sees the node's newest block ('proof-stale', src/light/freshness.ts): such a check
 * is retried for a few seconds, then reported — an old state replayed as current stays refused. Any other failure
 * is reported at once — callers show the error, never the node's figures as verified.
 */
import { LightProofError } from '../../src/light/errors.ts';

/** How long to wait for the light node to verify the header a fresh proof names. */
const proofHeaderWaitMs = 5_000;
const proofHeaderPollMs = 200;

export type ProofOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: { readonly reason: string; readonly message: string } };

/** Runs `check` (fetch and verify) until it passes, fails for another reason than an unknown header, or time is up. */
export async function checkWhenHeaderKnown<T>(check: () => Promise<T>): Promise<ProofOutcome<T>> {
  const deadline = Date.now() + proofHeaderWaitMs;
  for (;;) {
    try {
      return { ok: true, value: await check() };
    } catch (error) {
      const retryable = error instanceof LightProofError && (error.reason === 'header-unknown' || error.reason === 'proof-stale');
      if (retryable && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, proofHeaderPollMs));
        continue;
      }
      const reason = error instanceof LightProofError ? error.reason : 'request-failed';
      return { ok: false, error: { reason, message: (error as Error).message } };
    }
  }
}
