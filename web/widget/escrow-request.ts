/**
 * Escrow requests in the widget (docs/widget.md "Escrow requests"): the embedding page asks the user to lock coins
 * for an agent account and a task. The widget checks the request's fields as the wallet page does
 * (escrow-check.ts) — a wrong one is answered `invalid_request` at once — and proves the agent account against its
 * own light node's headers: none there is answered `agent_unknown`, a frozen one `agent_frozen`, without asking the
 * user anything. Otherwise it shows the requesting origin (as the browser reports it), agent, amount, fee, task,
 * timeout, dispute window and arbiter; Approve arms under the same rules as payments (fully visible for the delay,
 * a pointer over the button: approve-gate.ts) and only while the verified balance covers amount + fee. Approving signs escrow_create in the frame (wallet-escrow.ts) and answers the page
 * with the escrow id and the transaction hash.
 */
import { decodeAddress } from '../../src/crypto/address.ts';
import { toHash0x } from '../../src/util/bytes.ts';
import type { LightNode } from '../light/light-node.ts';
import type { NodeClient } from '../lib/node-client.ts';
import { checkEscrowDraft, type EscrowDraft } from '../wallet/escrow-check.ts';
import { fetchVerifiedAgent, prepareEscrow, submitEscrow } from '../wallet/wallet-escrow.ts';
import type { UnlockedWallet } from '../wallet/wallet-keys.ts';
import { ApproveGate, approveRefusalMessages, startApproveGate, watchApproveCard } from './approve-gate.ts';
import { widgetProtocol, type EscrowRequestMessage, type PaymentErrorCode, type WidgetMessage } from './widget-protocol.ts';
import { byId } from '../lib/dom.ts';


export interface EscrowOffers {
  offer(request: EscrowRequestMessage, origin: string): void;
  /** Re-checks the shown request (the wallet opened, a new verified balance). */
  evaluate(): void;
  busy(): boolean;
}

function escrowDraftOf(request: EscrowRequestMessage, fee: string): EscrowDraft {
  return {
    agent: request.agentAccount, amount: request.amount, fee, task: request.taskId, timeoutBlocks: String(request.timeoutBlocks),
    disputeWindow: String(request.disputeWindow ?? 0), arbiter: request.arbiter ?? '',
  };
}

export function createEscrowOffers(options: {
  link: NodeClient;
  light: LightNode;
  hrp: string;
  fee: string;
  armDelayMs: number;
  wallet: { unlocked(): UnlockedWallet | undefined; balanceUnits(): bigint | undefined };
  /** Whether a payment request is on screen (one request at a time). */
  othersBusy: () => boolean;
  reply: (message: WidgetMessage, origin: string) => void;
  showError: (error: unknown) => void;
}): EscrowOffers {
  const { link, light, hrp, fee } = options;
  let current: { request: EscrowRequestMessage; origin: string; agentChecked: boolean } | undefined;
  const gate = new ApproveGate(options.armDelayMs);
  const fail = (request: EscrowRequestMessage, origin: string, code: PaymentErrorCode, message: string) =>
    options.reply({ weft: widgetProtocol, type: 'payment_error', id: request.id, code, message }, origin);
  const finish = () => {
    current = undefined;
    byId('w-escrow').hidden = true;
  };
  const client = () => {
    const unlocked = options.wallet.unlocked();
    return unlocked === undefined ? undefined : decodeAddress(unlocked.wallet.addresses()[0]!.text, hrp);
  };

  const evaluate = () => {
    if (!current) return;
    const balance = options.wallet.balanceUnits();
    const clientBytes = client();
    const { errors } = checkEscrowDraft(escrowDraftOf(current.request, fee), { hrp, ...(clientBytes ? { client: clientBytes } : {}), ...(balance !== undefined ? { balance } : {}) });
    const problem = Object.values(errors)[0];
    const message = !current.agentChecked ? 'Checking the agent account…'
      : clientBytes === undefined ? 'Unlock or create the wallet to pay.'
      : problem !== undefined ? problem
      : balance === undefined ? 'Checking your verified balance…'
      : gate.visible() ? '' : approveRefusalMessages.hidden;
    byId<HTMLButtonElement>('w-escrow-approve').disabled = !gate.enabled(performance.now()) || message !== '';
    byId('w-escrow-check').textContent = message;
    byId('w-escrow-check').className = problem !== undefined && current.agentChecked && clientBytes !== undefined ? 'error' : 'muted';
  };

  const show = (request: EscrowRequestMessage, origin: string, taskHash: Uint8Array, taskIsHash: boolean) => {
    byId('w-escrow-origin').textContent = origin;
    byId('w-escrow-amount').textContent = request.amount;
    byId('w-escrow-fee').textContent = fee;
    byId('w-escrow-agent').textContent = request.agentAccount;
    byId('w-escrow-task').textContent = taskIsHash ? toHash0x(taskHash) : `${request.taskId} (hash ${toHash0x(taskHash)})`;
    byId('w-escrow-timeout').textContent = `${request.timeoutBlocks} blocks from now`;
    byId('w-escrow-window').textContent = request.disputeWindow ? `${request.disputeWindow} blocks` : 'none (the agent needs your receipt)';
    byId('w-escrow-arbiter').textContent = request.arbiter ?? 'none';
    byId('w-escrow').hidden = false;
    byId('w-escrow').scrollIntoView({ block: 'start' });
  };

  const offer = (request: EscrowRequestMessage, origin: string) => {
    if (current || options.othersBusy()) return fail(request, origin, 'busy', 'another request is waiting for the user');
    // Field checks that need no wallet: a request that could never be paid is refused without asking the user.
    const { errors, escrow } = checkEscrowDraft(escrowDraftOf(request, fee), { hrp, fields: new Set(['agent', 'amount', 'fee', 'task', 'timeout', 'window', 'arbiter']) });
    if (escrow === undefined) return fail(request, origin, 'invalid_request', Object.values(errors)[0] ?? 'invalid escrow request');
    current = { request, origin, agentChecked: false };
    show(request, origin, escrow.taskHash, escrow.taskIsHash);
    startApproveGate(gate, evaluate);
    evaluate();
    void (async () => {
      await light.synced();
      const agent = await fetchVerifiedAgent(link, light.chain, request.agentAccount, escrow.agent);
      if (current?.request !== request) return;
      if (!agent.exists || agent.frozen) {
        finish();
        const code = agent.exists ? 'agent_frozen' : 'agent_unknown';
        return fail(request, origin, code, agent.exists ? `the agent account ${request.agentAccount} is frozen` : `no agent account at ${request.agentAccount}`);
      }
      current.agentChecked = true;
      evaluate();
    })().catch((error: unknown) => {
      if (current?.request !== request) return;
      options.showError(error);
      finish();
      fail(request, origin, 'failed', error instanceof Error ? error.message : String(error));
    });
  };

  watchApproveCard(byId('w-escrow'), byId<HTMLButtonElement>('w-escrow-approve'), gate, evaluate);
  byId('w-escrow-reject').onclick = () => {
    if (!current) return;
    const { request, origin } = current;
    finish();
    fail(request, origin, 'rejected', 'the user rejected the escrow');
  };
  byId('w-escrow-approve').onclick = async () => {
    const unlocked = options.wallet.unlocked();
    if (!current || !unlocked) return;
    const verdict = gate.approve(performance.now());
    if (!verdict.ok) {
      byId('w-escrow-check').textContent = approveRefusalMessages[verdict.refusal];
      return;
    }
    const { request, origin } = current;
    byId<HTMLButtonElement>('w-escrow-approve').disabled = true;
    try {
      const from = unlocked.wallet.addresses()[0]!.text;
      const prepared = await prepareEscrow(link, light.chain, unlocked.wallet, { ...escrowDraftOf(request, fee), from }, 0);
      const sent = await submitEscrow(link, unlocked.wallet, prepared);
      byId('error').textContent = '';
      finish();
      options.reply({ weft: widgetProtocol, type: 'escrow_result', id: request.id, escrowId: sent.escrowId, hash: sent.hash }, origin);
    } catch (error) {
      options.showError(error);
      finish();
      fail(request, origin, 'failed', error instanceof Error ? error.message : String(error));
    }
  };
  return { offer, evaluate, busy: () => current !== undefined };
}
