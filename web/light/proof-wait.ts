/**
 * Proofs the tab checks against its light node's headers may name the node's newest block before the light node
 * has verified it (it is one `inv` behind at most), or a sibling of the tab's own tip that the tab's selected chain
 * does not run through until it sees the node's newest block ('proof-stale', src/light/freshness.ts). Such a check
 * is retried for a few seconds, then reported — an old state replayed as current stays refused. Any other failure
 * is reported at once — callers show the error, never the node's figures as verified.
 *
 * An unknown header is waited for with the answer in hand: the same proof is checked again once the light node has
 * had time to verify its block. Fetching a new proof instead would name the node's newer tip each time, which a
 * light node lagging by one block on a busy machine never catches while blocks keep coming. Only a stale proof is
 * fetched again.
 */
import { LightProofError } from '../../src/light/errors.ts';

/** How long to wait for the light node to verify the header a fresh proof names. */
const proofHeaderWaitMs = 5_000;
const proofHeaderPollMs = 200;

export type ProofOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: { readonly reason: string; readonly message: string } };

const reasonOf = (error: unknown): string => (error instanceof LightProofError ? error.reason : 'request-failed');
const pause = () => new Promise((resolve) => setTimeout(resolve, proofHeaderPollMs));

/**
 * Fetches an answer and verifies it until it passes, fails for another reason than an unknown header or a stale
 * proof, or time is up; an unknown header re-verifies the same answer, a stale proof fetches a new one.
 */
export async function checkWhenHeaderKnown<A, T>(fetch: () => Promise<A>, verify: (answer: A) => T): Promise<ProofOutcome<T>> {
  const deadline = Date.now() + proofHeaderWaitMs;
  let answer: { readonly value: A } | undefined;
  for (;;) {
    try {
      answer ??= { value: await fetch() };
      return { ok: true, value: verify(answer.value) };
    } catch (error) {
      const reason = reasonOf(error);
      if ((reason === 'header-unknown' || reason === 'proof-stale') && Date.now() < deadline) {
        if (reason === 'proof-stale') answer = undefined;
        await pause();
        continue;
      }
      return { ok: false, error: { reason, message: (error as Error).message } };
    }
  }
}
