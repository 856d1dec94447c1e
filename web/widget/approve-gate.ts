/**
 * When the widget's Approve button may pay (docs/widget.md "Clickjacking"). A hostile embedder can make the widget
 * transparent (opacity 0.01 over its own "Claim prize" button), cover the amount and payee with its own text, or
 * move the frame under the pointer just before a click. So an approval counts only when:
 *
 * - the request card is fully visible: on screen whole, not covered, not faded, not transformed — what Chromium's
 *   IntersectionObserver v2 (`trackVisibility`, `entry.isVisible`) reports for the card, taking the embedding page's
 *   styles into account;
 * - it has stayed so for `delayMs`: the delay starts when the request is shown and starts over on every change of
 *   visibility, so a frame that appears under a pointer cannot take the click it was not shown for;
 * - the pointer moved over the button while the card was visible (or the button was focused from the keyboard
 *   then): a click alone, without a pointer that crossed the visible button, is not an approval.
 *
 * Where IntersectionObserver v2 is missing (browsers other than Chromium's), the widget says plainly that it cannot
 * tell whether it is covered or faded, and keeps the on-screen, delay and pointer rules (`trackedVisibility` false).
 *
 * `ApproveGate` holds the rules with time passed in (tested in test/unit/web/widget/widget-approve-gate.test.ts);
 * `watchApproveCard` wires them to the DOM.
 */

export type ApproveRefusal = 'hidden' | 'waiting' | 'pointer';

export const approveRefusalMessages: Readonly<Record<ApproveRefusal, string>> = {
  hidden: 'Approve works only while this whole request is visible: the page may be covering or fading this wallet.',
  waiting: 'Read the request: Approve is enabled in a moment.',
  pointer: 'Move the pointer onto Approve, then click it.',
};

export class ApproveGate {
  #visible = false;
  /** When the current stretch of visibility (or the current request, if later) began. */
  #since = 0;
  #intentAt: number | undefined;

  constructor(readonly delayMs: number) {}

  /** A new request is shown: the delay starts over and earlier pointer movement is forgotten. */
  start(nowMs: number): void {
    this.#since = nowMs;
    this.#intentAt = undefined;
  }

  /** The card's visibility as last observed; a change restarts the delay and forgets the pointer. */
  setVisible(visible: boolean, nowMs: number): void {
    if (visible === this.#visible) return;
    this.#visible = visible;
    this.#since = nowMs;
    this.#intentAt = undefined;
  }

  visible(): boolean {
    return this.#visible;
  }

  /** The pointer moved over the button (or it took keyboard focus); counts only while the card is visible. */
  intent(nowMs: number): void {
    if (this.#visible) this.#intentAt = nowMs;
  }

  /** When the button may be enabled, or undefined while the card is not visible. */
  armedAt(): number | undefined {
    return this.#visible ? this.#since + this.delayMs : undefined;
  }

  /** Whether the button may be enabled now (visible for the whole delay). */
  enabled(nowMs: number): boolean {
    const at = this.armedAt();
    return at !== undefined && nowMs >= at;
  }

  /** Whether a click now is an approval, and if not, why. */
  approve(nowMs: number): { ok: true } | { ok: false; refusal: ApproveRefusal } {
    if (!this.#visible) return { ok: false, refusal: 'hidden' };
    if (!this.enabled(nowMs)) return { ok: false, refusal: 'waiting' };
    if (this.#intentAt === undefined || this.#intentAt < this.#since) return { ok: false, refusal: 'pointer' };
    return { ok: true };
  }
}

/** Whether this browser reports occlusion and opacity (IntersectionObserver v2). */
export function tracksVisibility(): boolean {
  return typeof IntersectionObserverEntry !== 'undefined' && 'isVisible' in IntersectionObserverEntry.prototype;
}

/** The share of the card that must be on screen: all of it (a hair less, for sub-pixel layout). */
const wholeRatio = 0.99;

/**
 * Watches `card` (the request's section, holding what is approved and the button) and `button`; calls `onChange`
 * whenever what the gate says may have changed (visibility, the delay running out, pointer movement).
 */
export function watchApproveCard(card: HTMLElement, button: HTMLButtonElement, gate: ApproveGate, onChange: () => void): void {
  const tracked = tracksVisibility();
  const observer = new IntersectionObserver(
    (entries) => {
      const entry = entries[entries.length - 1]!;
      const onScreen = entry.isIntersecting && entry.intersectionRatio >= wholeRatio;
      const unobscured = tracked ? (entry as IntersectionObserverEntry & { isVisible: boolean }).isVisible : true;
      gate.setVisible(onScreen && unobscured, performance.now());
      scheduleCheck(gate, onChange);
      onChange();
    },
    // trackVisibility needs a delay of at least 100 ms between notifications (the spec's floor).
    { threshold: [0, wholeRatio, 1], ...(tracked ? { trackVisibility: true, delay: 100 } : {}) } as IntersectionObserverInit,
  );
  observer.observe(card);
  const intent = () => {
    gate.intent(performance.now());
    onChange();
  };
  button.addEventListener('pointermove', intent);
  button.addEventListener('pointerenter', intent);
  // A keyboard user tabs to the button: focus that follows a key press counts like a pointer over it.
  button.addEventListener('focus', () => button.matches(':focus-visible') && intent());
}

/** Calls `onChange` once the gate's delay runs out (a stale call finds the gate not yet enabled and does nothing). */
function scheduleCheck(gate: ApproveGate, onChange: () => void): void {
  const at = gate.armedAt();
  if (at !== undefined) setTimeout(onChange, Math.max(0, at - performance.now()) + 1);
}

/** Starts the gate for a newly shown request and schedules the re-check when its delay runs out. */
export function startApproveGate(gate: ApproveGate, onChange: () => void): void {
  gate.start(performance.now());
  scheduleCheck(gate, onChange);
}
