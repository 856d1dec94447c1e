// Issue 34, clickjacking the widget (docs/widget.md "Clickjacking"): an approval counts only while the request is
// fully visible, after the delay measured from the last change of visibility, and after a pointer moved over the
// visible button. Time is passed in, so these are the gate's rules exactly.
import { describe, expect, it } from 'vitest';
import { ApproveGate } from '../../../../web/widget/approve-gate.ts';

const delay = 800;

function shownAndVisible(at: number): ApproveGate {
  const gate = new ApproveGate(delay);
  gate.start(at);
  gate.setVisible(true, at);
  return gate;
}

describe('the widget approve gate', () => {
  it('approves a visible request after the delay and a pointer over the button', () => {
    const gate = shownAndVisible(0);
    expect(gate.enabled(delay - 1)).toBe(false);
    expect(gate.approve(delay - 1)).toEqual({ ok: false, refusal: 'waiting' });
    gate.intent(900);
    expect(gate.enabled(delay)).toBe(true);
    expect(gate.approve(901)).toEqual({ ok: true });
  });

  it('never approves while the card is not fully visible (faded, covered, off screen), however long it waits', () => {
    const gate = new ApproveGate(delay);
    gate.start(0);
    gate.intent(50);
    expect(gate.enabled(60_000)).toBe(false);
    expect(gate.approve(60_000)).toEqual({ ok: false, refusal: 'hidden' });
    gate.setVisible(true, 1_000);
    gate.setVisible(false, 5_000);
    gate.intent(6_000);
    expect(gate.approve(60_000)).toEqual({ ok: false, refusal: 'hidden' });
  });

  it('starts the delay over when visibility changes: a frame shown under the pointer cannot take the next click', () => {
    const gate = shownAndVisible(0);
    gate.intent(100);
    expect(gate.approve(2_000)).toEqual({ ok: true });
    gate.setVisible(false, 2_000);
    gate.setVisible(true, 2_050);
    expect(gate.enabled(2_050 + delay - 1)).toBe(false);
    // Movement from before the change does not count either.
    expect(gate.approve(2_050 + delay)).toEqual({ ok: false, refusal: 'pointer' });
    gate.intent(2_900);
    expect(gate.approve(2_901)).toEqual({ ok: true });
  });

  it('takes no approval from a click without a pointer over the visible button', () => {
    const gate = shownAndVisible(0);
    expect(gate.approve(10_000)).toEqual({ ok: false, refusal: 'pointer' });
    const hiddenMove = new ApproveGate(delay);
    hiddenMove.start(0);
    hiddenMove.intent(10); // moved while the card was not visible: not counted
    hiddenMove.setVisible(true, 20);
    expect(hiddenMove.approve(5_000)).toEqual({ ok: false, refusal: 'pointer' });
  });

  it('restarts for each new request and forgets the last one’s pointer', () => {
    const gate = shownAndVisible(0);
    gate.intent(100);
    expect(gate.approve(1_000)).toEqual({ ok: true });
    gate.start(1_000);
    expect(gate.approve(1_000 + delay - 1)).toEqual({ ok: false, refusal: 'waiting' });
    expect(gate.approve(1_000 + delay)).toEqual({ ok: false, refusal: 'pointer' });
  });
});
