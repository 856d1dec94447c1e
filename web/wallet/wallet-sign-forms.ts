/**
 * The More view's message forms: sign a message with one of the wallet's keys (Schnorr or ECDSA, in the tab), and
 * verify a signed message against an address.
 */
import { decodeAddress } from '../../src/crypto/address.ts';
import { fromHex, strip0x, toHex } from '../../src/util/bytes.ts';
import { verifyMessage, type MessageSignatureType } from '../../src/wallet/message.ts';
import { byId } from '../lib/dom.ts';
import { clearErrors, FieldError, showError } from './form-errors.ts';
import { browserRandomBytes, type UnlockedWallet } from './wallet-keys.ts';

/** Runs a form's work; its error is shown in the form, beside the field it names (form-errors.ts). */
export function guardForm(scope: HTMLElement, work: () => Promise<void>, options: { fields?: Record<string, string>; action?: HTMLElement } = {}) {
  return async (event?: Event): Promise<void> => {
    event?.preventDefault();
    clearErrors(scope);
    try {
      await work();
    } catch (error) {
      showError(scope, error, options);
    }
  };
}

export function wireSignForms({ wallet }: UnlockedWallet): void {
  byId('sign-form').onsubmit = guardForm(byId('sign-form'), async () => {
    const address = decodeAddress(byId<HTMLSelectElement>('sign-address').value, wallet.network.hrp);
    const type = byId<HTMLSelectElement>('sign-type').value as MessageSignatureType;
    const signature = wallet.signMessage(address, byId<HTMLTextAreaElement>('sign-message').value, type, browserRandomBytes(32));
    byId('sign-result').textContent = `0x${toHex(signature)}`;
  });
  byId('verify-form').onsubmit = guardForm(byId('verify-form'), async () => {
    let address;
    try {
      address = decodeAddress(byId<HTMLInputElement>('verify-address').value.trim(), wallet.network.hrp);
    } catch (error) {
      throw new FieldError('address', `address: not a ${wallet.network.hrp} address (${(error as Error).message})`, 'invalid_address');
    }
    const sigText = strip0x(byId<HTMLInputElement>('verify-signature').value.trim());
    const signature = /^([0-9a-f]{2})+$/i.test(sigText) ? fromHex(sigText.toLowerCase()) : new Uint8Array(0);
    const valid = verifyMessage(address, byId<HTMLTextAreaElement>('verify-message').value, signature, byId<HTMLSelectElement>('verify-type').value as MessageSignatureType);
    byId('verify-result').textContent = valid ? 'valid signature' : 'invalid signature';
  }, { fields: { address: 'verify-address' } });
}
