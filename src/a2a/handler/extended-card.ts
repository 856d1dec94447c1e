/** GetExtendedAgentCard (A2A 1.0 §3.1): the card with the skills only authenticated callers see. */
import type { AgentCard } from '../card.ts';
import { A2aError, unauthenticated, unsupportedOperation } from '../errors.ts';
import type { CallContext, HandlerState } from './state.ts';

export async function getExtendedAgentCard(state: HandlerState, _params: unknown, ctx: CallContext): Promise<AgentCard> {
  if (!state.card.capabilities.extendedAgentCard) throw unsupportedOperation('this agent has no extended card');
  if (ctx.principal.scheme === 'anonymous') throw unauthenticated('the extended agent card requires authentication');
  if (!state.extendedCard) throw new A2aError('extended_agent_card_not_configured', 'the extended agent card is not configured');
  return state.extendedCard;
}
