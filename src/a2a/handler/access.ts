/** Checks every operation shares: whose task it is, what the card offers, which media types it accepts. */
import { anonymous } from '../auth.ts';
import { A2aError, taskNotFound, unsupportedOperation } from '../errors.ts';
import type { StoredTask } from '../task-store.ts';
import type { Part } from '../types.ts';
import type { CallContext, HandlerState } from './state.ts';

/** A task the caller may see; anyone else's task is reported as not found (spec §7.4: reveal nothing). */
export function ownedTask(state: HandlerState, id: string, ctx: CallContext): StoredTask {
  const stored = state.store.get(id);
  // The bare anonymous principal owns nothing (anonymous.ts): tasks stored under it by an older node stay hidden.
  if (!stored || stored.owner !== ctx.principal.id || ctx.principal.id === anonymous.id) throw taskNotFound(id);
  return stored;
}

/** Refuses parts whose media type the card's defaultInputModes do not accept. */
export function checkParts(state: HandlerState, parts: readonly Part[]): void {
  const inputModes = state.card.defaultInputModes;
  if (inputModes.includes('*/*')) return;
  for (const part of parts) {
    if (part.mediaType !== undefined && part.mediaType !== '' && !inputModes.includes(part.mediaType)) {
      throw new A2aError('content_type_not_supported', `media type ${part.mediaType}: not accepted (accepted: ${inputModes.join(', ')})`, { mediaType: part.mediaType });
    }
  }
}

export function requirePush(state: HandlerState): void {
  if (!state.card.capabilities.pushNotifications) throw new A2aError('push_notification_not_supported', 'push notifications are not supported by this agent');
}

export function requireStreaming(state: HandlerState): void {
  if (!state.card.capabilities.streaming) throw unsupportedOperation('streaming is not supported by this agent');
}
