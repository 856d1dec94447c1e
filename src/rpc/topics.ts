/**
 * Subscription topics: the seed's six (node-client-protocol.md "Events") and `network_stats`, the explorer's
 * statistics object pushed on each new selected tip (the seed's "refreshed with each new block"); and `contract_events`,
 * one notification per event an accepted contract transaction emitted (params.address: only that contract's).
 */
export const subscriptionTopics = [
  'new_blocks',
  'block_confirmations',
  'pending_transactions',
  'confirmed_transactions',
  'address_transactions',
  'mining_events',
  'network_stats',
  'contract_events',
] as const;
export type SubscriptionTopic = (typeof subscriptionTopics)[number];
