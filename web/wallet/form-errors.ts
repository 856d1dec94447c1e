/**
 * Errors shown where they happened (issue 21): next to the field that was wrong, else right under the action that
 * failed — never in one box at the foot of the page, which on a phone is screens away from the form. A field error
 * marks its control `aria-invalid` and describes it (`aria-describedby`), so a screen reader reads it with the field.
 */

import { WeftError, type ErrorKind } from '../../src/errors.ts';

/** An error about one input: `field` is the logical name the form maps to its control (e.g. `amount`). */
export class FieldError extends WeftError {
  readonly field: string;
  constructor(field: string, message: string, kind: ErrorKind = 'invalid_params') {
    super(kind, message);
    this.field = field;
  }
}

/**
 * Parses a form's fields one by one, collecting each field's error instead of stopping at the first: `attempt(field,
 * parse)` returns the parsed value, or undefined after recording the message under `field` (only fields in `shown`
 * are recorded: the ones the user has touched).
 */
export function fieldErrors<F extends string>(shown: ReadonlySet<F>): {
  readonly errors: Partial<Record<F, string>>;
  attempt<T>(field: F, parse: () => T): T | undefined;
} {
  const errors: Partial<Record<F, string>> = {};
  const attempt = <T>(field: F, parse: () => T): T | undefined => {
    try {
      return parse();
    } catch (error) {
      if (shown.has(field)) errors[field] = (error as Error).message;
      return undefined;
    }
  };
  return { errors, attempt };
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Removes every error this module put in `scope` and the marks on its controls. */
export function clearErrors(scope: HTMLElement): void {
  for (const box of scope.querySelectorAll('.inline-error')) box.remove();
  for (const control of scope.querySelectorAll('[aria-invalid="true"]')) {
    control.removeAttribute('aria-invalid');
    control.removeAttribute('aria-describedby');
  }
}

/**
 * Shows `error` in `scope` (a form or card): beside the control `fields[error.field]` names when it is a FieldError
 * for a field of this scope, else after `action` (the button that failed; the scope's last child without one).
 * Scrolls it into view if the layout put it off screen. Returns the element shown.
 */
export function showError(scope: HTMLElement, error: unknown, options: { fields?: Readonly<Record<string, string>>; action?: HTMLElement } = {}): HTMLElement {
  clearErrors(scope);
  const box = document.createElement('p');
  box.className = 'error inline-error';
  box.setAttribute('role', 'alert');
  box.textContent = messageOf(error);
  const controlId = error instanceof FieldError ? options.fields?.[error.field] : undefined;
  const control = controlId ? scope.querySelector<HTMLElement>(`#${controlId}`) : null;
  if (control) {
    markField(control, box);
  } else if (options.action) {
    options.action.after(box);
  } else {
    scope.append(box);
  }
  box.scrollIntoView({ block: 'nearest' });
  return box;
}

/** The element a field's error goes after: its `.field` group (a label with a button beside it), else its label. */
const fieldBox = (control: HTMLElement): Element => control.closest('.field') ?? control.closest('label') ?? control;

function markField(control: HTMLElement, box: HTMLElement): void {
  box.id = `${control.id}-error`;
  fieldBox(control).after(box);
  control.setAttribute('aria-invalid', 'true');
  control.setAttribute('aria-describedby', box.id);
}

/**
 * Sets or clears (`message` undefined) the error of one control, leaving the others' alone: for checks run as the
 * user types, where several fields can be wrong at once. An unchanged message is left in place, so a screen reader
 * does not re-announce it on every keystroke.
 */
export function setFieldError(control: HTMLElement, message: string | undefined): void {
  const existing = document.getElementById(`${control.id}-error`);
  if (message === undefined) {
    existing?.remove();
    control.removeAttribute('aria-invalid');
    control.removeAttribute('aria-describedby');
    return;
  }
  if (existing?.textContent === message) return;
  existing?.remove();
  const box = document.createElement('p');
  box.className = 'error inline-error';
  box.setAttribute('role', 'alert');
  box.textContent = message;
  markField(control, box);
  // On a phone the field being typed in may sit at the screen's foot: bring its message into view with it.
  box.scrollIntoView({ block: 'nearest' });
}

/**
 * Runs a form's action with `button` disabled; an error is shown in the form, beside the field it names (`fields`
 * maps a FieldError's field to a control id) or under the button. Resolves undefined after an error.
 */
export async function runForm<T>(form: HTMLElement, button: HTMLButtonElement, work: () => Promise<T>, fields: Readonly<Record<string, string>> = {}): Promise<T | undefined> {
  button.disabled = true;
  clearErrors(form);
  try {
    return await work();
  } catch (error) {
    showError(form, error, { fields, action: button });
    return undefined;
  } finally {
    button.disabled = false;
  }
}
