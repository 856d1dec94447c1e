/**
 * The built-in Weft agent: an AgentExecutor whose skills do real chain work (weft-skills.ts). It reads a data part
 * `{"skill": ..., ...args}` or a text command:
 *
 *   balance <address>                          → task COMPLETED with a data artifact
 *   block [<hash> | <height> | tip]             → idem
 *   tx <hash>                                  → idem
 *   pay <amount> from <address> to <address> [fee <coins>]
 *                                              → an unsigned transfer to sign; missing parts → INPUT_REQUIRED,
 *                                                and the follow-up message supplies them
 *   mine <pre_pow_hash> <target> [max_hashes]  → hashes with the node's PoW backend; progress as appended artifact
 *                                                chunks, the result as the last chunk; CancelTask stops it
 *   help                                       → a Message reply (no task)
 *
 * Anything else is REJECTED with the help text; a skill's InvalidParams becomes FAILED with its reason.
 */
import type { AgentSkill } from './card.ts';
import type { AgentExecutor, ExecutionEvents, RequestContext } from './executor.ts';
import type { JsonObject, Part } from './types.ts';
import { balanceOf, blockView, parseMineJob, preparePayment, runMineJob, transactionView, type WeftChainPorts } from './weft-skills.ts';

export const weftAgentSkills: readonly AgentSkill[] = [
  {
    id: 'chain-query',
    name: 'Chain query',
    description: 'Answers balance, block and transaction queries from the node’s verified chain state.',
    tags: ['blockchain', 'query', 'balance', 'block', 'transaction'],
    examples: ['balance dweft1q…', 'block tip', 'block 42', 'tx 0x3f…', '{"skill":"balance","address":"dweft1q…"}'],
    inputModes: ['text/plain', 'application/json'],
    outputModes: ['application/json'],
  },
  {
    id: 'prepare-payment',
    name: 'Prepare payment',
    description: 'Builds an unsigned transfer (next nonce, fee) and the hash the sender signs; never holds keys.',
    tags: ['blockchain', 'payment', 'wallet'],
    examples: ['pay 1.5 from dweft1q… to dweft1q…', '{"skill":"pay","amount":1.5,"from":"dweft1q…","to":"dweft1q…"}'],
    inputModes: ['text/plain', 'application/json'],
    outputModes: ['application/json'],
  },
  {
    id: 'mine',
    name: 'Mine a PoW job',
    description: 'Hashes a job (pre-PoW hash, target) with the node’s PoW backend until a nonce meets the target.',
    tags: ['blockchain', 'mining', 'proof-of-work'],
    examples: ['mine 0x9a… 0x00ffff… 1000000', '{"skill":"mine","prePowHash":"0x9a…","target":"0x00ffff…"}'],
    inputModes: ['text/plain', 'application/json'],
    outputModes: ['application/json'],
  },
];

const helpText = [
  'Weft agent commands:',
  '  balance <address> | block [<hash>|<height>|tip] | tx <hash>',
  '  pay <amount> from <address> to <address> [fee <coins>]',
  '  mine <pre_pow_hash> <target> [max_hashes]',
].join('\n');

/** Progress chunks are sent every this many backend batches. */
const mineProgressBatches = 16;

function request(context: RequestContext): JsonObject {
  const parts = context.message.parts;
  const data = parts.find((p) => p.data !== undefined && typeof p.data === 'object' && p.data !== null)?.data as JsonObject | undefined;
  if (data) return data;
  const text = parts.map((p) => p.text ?? '').join(' ').trim();
  // A follow-up to an INPUT_REQUIRED payment supplies the missing words.
  const prior = context.task?.status.state === 'TASK_STATE_INPUT_REQUIRED' ? 'pay ' : '';
  return parseText(prior + text);
}

function parseText(text: string): JsonObject {
  const words = text.split(/\s+/).filter((w) => w !== '');
  const [verb = '', ...rest] = words;
  switch (verb.toLowerCase()) {
    case 'balance':
      return { skill: 'balance', address: rest[0] };
    case 'block':
      return { skill: 'block', block: rest[0] };
    case 'tx':
    case 'transaction':
      return { skill: 'tx', hash: rest[0] };
    case 'mine':
      return { skill: 'mine', prePowHash: rest[0], target: rest[1], ...(rest[2] ? { maxHashes: Number(rest[2]) } : {}) };
    case 'pay': {
      const after = (word: string) => {
        const i = rest.indexOf(word);
        return i === -1 ? undefined : rest[i + 1];
      };
      const amount = rest[0] !== undefined && rest[0] !== 'from' ? Number(rest[0]) : undefined;
      return { skill: 'pay', amount, from: after('from'), to: after('to'), ...(after('fee') ? { fee: Number(after('fee')) } : {}) };
    }
    case 'help':
      return { skill: 'help' };
    default:
      return { skill: 'unknown', text };
  }
}

const dataPart = (data: JsonObject): Part => ({ data, mediaType: 'application/json' });

async function answer(events: ExecutionEvents, name: string, compute: () => JsonObject): Promise<void> {
  await events.status('TASK_STATE_WORKING');
  await events.artifact({ artifactId: name, name, parts: [dataPart(compute())] }, { lastChunk: true });
  await events.status('TASK_STATE_COMPLETED');
}

async function mine(ports: WeftChainPorts, args: JsonObject, context: RequestContext, events: ExecutionEvents): Promise<void> {
  const job = parseMineJob(args);
  await events.status('TASK_STATE_WORKING', `mining with ${ports.pow.name}`);
  let batches = 0;
  let chunks = 0;
  const result = await runMineJob(ports.pow, job, context.signal, async (hashes) => {
    if (++batches % mineProgressBatches !== 0) return;
    await events.artifact({ artifactId: 'mine', name: 'mine', parts: [dataPart({ progress: true, hashes })] }, { append: chunks++ > 0 });
  });
  if (context.signal.aborted) return;
  await events.artifact({ artifactId: 'mine', name: 'mine', parts: [dataPart(result)] }, { append: chunks > 0, lastChunk: true });
  await events.status(result.found ? 'TASK_STATE_COMPLETED' : 'TASK_STATE_FAILED', result.found ? undefined : 'no nonce met the target within max_hashes');
}

export function createWeftAgentExecutor(ports: WeftChainPorts): AgentExecutor {
  return {
    async execute(context, events) {
      const args = request(context);
      try {
        switch (args.skill) {
          case 'help':
            return await events.reply([{ text: helpText }]);
          case 'balance':
            return await answer(events, 'balance', () => balanceOf(ports, args.address));
          case 'block':
            return await answer(events, 'block', () => blockView(ports, args.block ?? args.hash ?? args.height));
          case 'tx':
            return await answer(events, 'transaction', () => transactionView(ports, args.hash));
          case 'pay':
            if (args.amount === undefined || Number.isNaN(args.amount) || !args.from || !args.to) {
              return await events.status('TASK_STATE_INPUT_REQUIRED', 'reply with: <amount> from <address> to <address> [fee <coins>]');
            }
            return await answer(events, 'payment', () => preparePayment(ports, args));
          case 'mine':
            return await mine(ports, args, context, events);
          default:
            return await events.status('TASK_STATE_REJECTED', `unknown request.\n${helpText}`);
        }
      } catch (error) {
        if (context.signal.aborted) return;
        await events.status('TASK_STATE_FAILED', error instanceof Error ? error.message : 'failed');
      }
    },
  };
}
