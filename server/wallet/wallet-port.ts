/**
 * The RPC's WalletPort (src/rpc/ports.ts) over the node's wallets (server/wallet/wallet-service.ts): create_address,
 * sign_message, verify_message and the signed transfer of send_transaction, whose nonce is the sender's next one
 * past its pending run in the mempool, and the signed contract deploys and calls of deploy_smart_contract and
 * call_smart_contract and the agent and escrow transactions of the settlement methods (same nonce rule). Stealth
 * addresses and ring signatures belong to privacy-port.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Transaction } from '../../src/kinds/transaction-codec.ts';
import { TxKind } from '../../src/codec/transaction-kinds.ts';
import { AddressType } from '../../src/crypto/address.ts';
import type { AgentTransaction } from '../../src/kinds/agent/envelope.ts';
import { signAgentTransaction } from '../../src/kinds/agent/sign-agent-transaction.ts';
import type { TxKindModule } from '../../src/kinds/kind.ts';
import { txKindModule } from '../../src/kinds/registry.ts';
import { signContractCall } from '../../src/kinds/contract-call.ts';
import { signContractDeploy } from '../../src/kinds/contract-deploy.ts';
import type { Mempool } from '../../src/mempool/mempool.ts';
import { PrivacyError, TransactionRejectedError } from '../../src/rpc/errors.ts';
import type { WalletPort } from '../../src/rpc/ports.ts';
import { verifyMessage } from '../../src/wallet/message.ts';
import type { MultisigOptions } from '../../src/wallet/wallet.ts';
import type { WalletService } from './wallet-service.ts';

/** `create_address` with address_type multisig and no script options: 2-of-3 over fresh wallet keys. */
const defaultMultisigOptions: MultisigOptions = Object.freeze({ m: 2, walletKeys: 3 });

export function createWalletPort(wallets: WalletService, mempool: Pick<Mempool, 'nextNonce'>, chainId: number): WalletPort {
  return {
    async createAddress(request) {
      // create_address routes stealth to the privacy port (privacy-port.ts): a stealth address is no 33-byte address.
      if (request.addressType === 'stealth') throw new PrivacyError('stealth addresses are key pairs: create them through the privacy port', 'stealth_is_a_key_pair');
      const extra = request as { multisig?: MultisigOptions };
      const options = request.addressType === 'multisig' ? (extra.multisig ?? defaultMultisigOptions) : undefined;
      const entry = wallets.createAddress(request.walletName, request.addressType, options);
      return {
        address: entry.address,
        ...(entry.type === 'standard' ? { publicKey: entry.address.subarray(1) } : {}),
        walletName: request.walletName,
        addressType: entry.type,
        privacyLevel: request.privacyLevel,
      };
    },
    async signMessage(request) {
      if (request.signatureType === 'ring') throw new PrivacyError('ring signatures are made by stealth accounts (privacy port), not standard addresses', 'ring_needs_stealth');
      const signature = wallets.signMessage(request.address, request.message, request.signatureType);
      return { signature, publicKey: request.address.subarray(1) };
    },
    verifyMessage(request) {
      if (request.signatureType === 'ring') return false;
      return verifyMessage(request.address, request.message, request.signature, request.signatureType);
    },
    async buildTransfer(request): Promise<Transaction> {
      const nonce = mempool.nextNonce(request.from);
      return wallets.buildTransfer({ ...request, nonce }).transaction;
    },
    async signContractTransaction(request) {
      const key = request.from[0] === AddressType.Standard ? wallets.findAddress(request.from)?.wallet.privateKeyOf(request.from.subarray(1)) : undefined;
      if (key === undefined) throw new TransactionRejectedError('the node wallet holds no key for this standard address', { rule: 'unknown_key' });
      const nonce = mempool.nextNonce(request.from);
      const aux = new Uint8Array(randomBytes(32));
      return request.kind === TxKind.ContractDeploy
        ? signContractDeploy({ ...request, chainId, nonce }, key, aux)
        : signContractCall({ ...request, chainId, nonce }, key, aux);
    },
    async signAgentTransaction(request) {
      const key = wallets.findAddress(Uint8Array.of(AddressType.Standard, ...request.signer))?.wallet.privateKeyOf(request.signer);
      if (key === undefined) throw new TransactionRejectedError('the node wallet holds no key for this signer', { rule: 'unknown_key' });
      const nonce = mempool.nextNonce(request.payer);
      return signAgentTransaction(txKindModule(request.kind) as TxKindModule<AgentTransaction>, { ...request, chainId, nonce }, key, new Uint8Array(randomBytes(32)));
    },
  };
}
