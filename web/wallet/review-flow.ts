/**
 * One review → sign → history flow for the wallet's forms that spend (Send and Escrow): fields checked as typed,
 * each message beside its field; "Available" from the verified balance; the review of exactly what will be signed
 * (the form hides, the review's heading takes focus); Back or Escape returns to the form with what was typed; the
 * sign button signs in the tab, submits, records the transaction as a pending history row of this tab's own (its
 * nonce and what it spends count from then on) and returns to the form (MetaMask's and Rabby's confirm screen).
 *
 * State and operations: a form describes itself once (`ReviewFlowSpec`: its element ids and its own check,
 * prepare, review and submit steps); `ReviewFlowState` is what changes; the functions below are the operations.
 */
import { formatUnits } from '../../src/crypto/amount.ts';
import { byId } from '../lib/dom.ts';
import { clearErrors, setFieldError, showError } from './form-errors.ts';
import type { HistoryRow, WalletDb } from './wallet-db.ts';

/** Address fields are checked as typed once this long (a Weft address has 64+ characters), else when left. */
const addressCheckCharsMin = 60;

/** What one submitted transaction leaves: the history row to record and the line to show under the form. */
export interface Submitted {
  readonly row: Omit<HistoryRow, 'wallet'>;
  readonly result: string;
}

export interface ReviewFlowSpec<F extends string, P> {
  readonly db: WalletDb;
  readonly walletName: string;
  /** Element ids: the form and its submit ("Review …") button, the From select, "Available", the review region,
   * its heading, Back and sign buttons, and the result line. */
  readonly ids: {
    readonly form: string; readonly reviewButton: string; readonly from: string; readonly available: string;
    readonly review: string; readonly reviewTitle: string; readonly back: string; readonly sign: string; readonly result: string;
  };
  /** The control of each field (its error shows beside it). */
  readonly controls: Readonly<Record<F, string>>;
  /** Fields checked on each keystroke, and address fields checked once long enough or when left. */
  readonly typedFields: readonly F[];
  readonly addressFields: readonly F[];
  /** Back and Escape focus this field; a send clears `clearAfterSend` and focuses `focusAfterSend`. */
  readonly focusOnBack: F;
  readonly clearAfterSend: readonly F[];
  readonly focusAfterSend: F;
  /** The available balance of an address in units, undefined while none was proven. */
  readonly balanceOf: (address: string) => bigint | undefined;
  /** Checks `fields` of what is typed now; the errors by field. */
  check(fields: ReadonlySet<F>): Partial<Record<F, string>>;
  /** Parses the form, proves the balance and what else the review shows; throws FieldErrors about one field. */
  prepare(): Promise<P>;
  fillReview(prepared: P): void;
  /** Signs and submits; what to record and to show. */
  submit(prepared: P): Promise<Submitted>;
  /** Called after a transaction the node admitted was recorded. */
  onSent(): Promise<void>;
}

export interface ReviewFlowState<F extends string, P> {
  readonly spec: ReviewFlowSpec<F, P>;
  /** Fields the user has typed in (or submitted): only their checks are shown. */
  readonly touched: Set<F>;
  /** What the open review will sign; undefined while the form shows. */
  prepared: P | undefined;
}

export const weftText = (units: bigint): string => `${formatUnits(units)} WEFT`;
const fieldsOf = <F extends string>(spec: ReviewFlowSpec<F, unknown>): F[] => Object.keys(spec.controls) as F[];
export const fromAddress = (spec: ReviewFlowSpec<string, unknown>): string => byId<HTMLSelectElement>(spec.ids.from).value;

/** Shows the checks of the touched fields; returns whether every checked field is right. */
function checkTouched<F extends string, P>(state: ReviewFlowState<F, P>, fields: ReadonlySet<F> = state.touched): boolean {
  const errors = state.spec.check(fields);
  for (const field of fieldsOf(state.spec)) setFieldError(byId(state.spec.controls[field]), fields.has(field) ? errors[field] : undefined);
  return Object.keys(errors).length === 0;
}

export function touch<F extends string, P>(state: ReviewFlowState<F, P>, field: F): void {
  state.touched.add(field);
  checkTouched(state);
}

function showAvailable<F extends string, P>(state: ReviewFlowState<F, P>): void {
  const balance = state.spec.balanceOf(fromAddress(state.spec));
  byId(state.spec.ids.available).textContent = balance === undefined ? 'Available: checking the verified balance…' : `Available: ${weftText(balance)} (verified)`;
}

function showForm<F extends string, P>(state: ReviewFlowState<F, P>, focus: F): void {
  byId(state.spec.ids.review).hidden = true;
  byId(state.spec.ids.form).hidden = false;
  state.prepared = undefined;
  byId(state.spec.controls[focus]).focus();
}

/** The form's submit: every field checked, then the review of what will be signed (nothing is signed yet). */
async function openReview<F extends string, P>(state: ReviewFlowState<F, P>): Promise<void> {
  const { spec } = state;
  const form = byId<HTMLFormElement>(spec.ids.form);
  for (const field of fieldsOf(spec)) state.touched.add(field);
  byId(spec.ids.result).textContent = '';
  if (!checkTouched(state)) return void form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  const button = byId<HTMLButtonElement>(spec.ids.reviewButton);
  button.disabled = true;
  clearErrors(form);
  try {
    state.prepared = await spec.prepare();
    spec.fillReview(state.prepared);
    form.hidden = true;
    byId(spec.ids.review).hidden = false;
    byId(spec.ids.reviewTitle).focus();
  } catch (error) {
    showError(form, error, { fields: { ...spec.controls, from: spec.ids.from }, action: button });
  } finally {
    button.disabled = false;
  }
}

/** The review's sign button: signs and submits what was reviewed, records it as pending, back to the form. */
async function signAndSend<F extends string, P>(state: ReviewFlowState<F, P>): Promise<void> {
  const { spec } = state;
  if (state.prepared === undefined) return;
  const prepared = state.prepared;
  const review = byId(spec.ids.review);
  const button = byId<HTMLButtonElement>(spec.ids.sign);
  button.disabled = true;
  clearErrors(review);
  try {
    const { row, result } = await spec.submit(prepared);
    await spec.db.putHistory({ ...row, wallet: spec.walletName });
    for (const field of spec.clearAfterSend) byId<HTMLInputElement>(spec.controls[field]).value = '';
    state.touched.clear();
    showForm(state, spec.focusAfterSend);
    byId(spec.ids.result).textContent = result;
    await spec.onSent();
  } catch (error) {
    showError(review, error, { action: button.closest<HTMLElement>('.row')! });
  } finally {
    button.disabled = false;
  }
}

/** Wires the form's fields, its submit, Back, Escape and the sign button; returns the flow's state. */
export function wireReviewFlow<F extends string, P>(spec: ReviewFlowSpec<F, P>): ReviewFlowState<F, P> {
  const state: ReviewFlowState<F, P> = { spec, touched: new Set(), prepared: undefined };
  for (const field of spec.typedFields) byId(spec.controls[field]).addEventListener('input', () => touch(state, field));
  for (const field of spec.addressFields) {
    const control = byId<HTMLInputElement>(spec.controls[field]);
    control.addEventListener('change', () => touch(state, field));
    control.addEventListener('input', () => {
      if (state.touched.has(field) || control.value.trim().length >= addressCheckCharsMin) touch(state, field);
    });
  }
  byId(spec.ids.from).addEventListener('change', () => {
    showAvailable(state);
    checkTouched(state);
  });
  byId<HTMLFormElement>(spec.ids.form).onsubmit = (event) => {
    event.preventDefault();
    void openReview(state);
  };
  byId(spec.ids.back).onclick = () => showForm(state, spec.focusOnBack);
  byId(spec.ids.review).addEventListener('keydown', (event) => {
    if (event.key === 'Escape') showForm(state, spec.focusOnBack);
  });
  byId(spec.ids.sign).onclick = () => void signAndSend(state);
  showAvailable(state);
  return state;
}

/** After a verified balance refresh: "Available" again, and the touched fields re-checked against it. */
export function balancesChanged<F extends string, P>(state: ReviewFlowState<F, P>): void {
  showAvailable(state);
  if (state.touched.size > 0) checkTouched(state);
}
