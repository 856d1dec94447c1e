/**
 * The built-in Weft agent: an AgentExecutor whose skills do real chain work (weft-skills.ts). It reads a data part
 * `{"skill": ..., ...args}` or text, through a small intent grammar (parseRequest; no model) that takes the exact
 * commands and plain requests alike:
 *
 *   balance <address> · what is the balance of <address>        → task COMPLETED with a data artifact
 *   block [<hash> | <height> | tip] · block height · latest block → idem
 *   tx <hash> · status of transaction <hash>                     → idem
 *   status of task <id> · task <id>                              → the state of one of the caller's own tasks
 *   pay <amount> from <address> to <address> [fee <coins>] · send 5 to <address> [from <address>]
 *                                              → an unsigned transfer to sign; missing parts → INPUT_REQUIRED,
 *                                                and the follow-up message supplies them
 *   mine <pre_pow_hash> <target> [max_hashes]  → hashes with the node's PoW backend; progress as appended artifact
 *                                                chunks, the result as the last chunk; CancelTask stops it
 *   help · what can you do                     → a Message reply (no task)
 *
 * Anything else gets INPUT_REQUIRED with a message listing what the agent can do (reply on the same task); a skill's
 * InvalidParams becomes FAILED with its reason. Answers carry a data part (the answer of record) and a text part
 * beside it for chat clients. docs/a2a.md "The built-in Weft agent".
 */
import type { AgentSkill } from './card.ts';
import type { AgentExecutor, ExecutionEvents, RequestContext } from './executor.ts';
import { invalidParams } from './errors.ts';
import type { JsonObject, Part } from './types.ts';
import { balanceOf, blockView, parseMineJob, preparePayment, runMineJob, transactionView, type WeftChainPorts } from './weft-skills.ts';

export const weftAgentSkills: readonly AgentSkill[] = [
  {
    id: 'chain-query',
    name: 'Chain query',
    description: 'Answers balance, block and transaction queries from the node’s verified chain state.',
    tags: ['blockchain', 'query', 'balance', 'block', 'transaction'],
    examples: ['balance dweft1q…', 'what is the balance of dweft1q…?', 'block height', 'block 42', 'tx 0x3f…', '{"skill":"balance","address":"dweft1q…"}'],
    inputModes: ['text/plain', 'application/json'],
    outputModes: ['application/json', 'text/plain'],
  },
  {
    id: 'prepare-payment',
    name: 'Prepare payment',
    description: 'Builds an unsigned transfer (next nonce, fee) and the hash the sender signs; never holds keys.',
    tags: ['blockchain', 'payment', 'wallet'],
    examples: ['pay 1.5 from dweft1q… to dweft1q…', 'send 5 to dweft1q…', '{"skill":"pay","amount":1.5,"from":"dweft1q…","to":"dweft1q…"}'],
    inputModes: ['text/plain', 'application/json'],
    outputModes: ['application/json', 'text/plain'],
  },
  {
    id: 'mine',
    name: 'Mine a PoW job',
    description: 'Hashes a job (pre-PoW hash, target) with the node’s PoW backend until a nonce meets the target.',
    tags: ['blockchain', 'mining', 'proof-of-work'],
    examples: ['mine 0x9a… 0x00ffff… 1000000', '{"skill":"mine","prePowHash":"0x9a…","target":"0x00ffff…"}'],
    inputModes: ['text/plain', 'application/json'],
    outputModes: ['application/json', 'text/plain'],
  },
  {
    id: 'task-status',
    name: 'Task status',
    description: 'Reports the state of one of your own A2A tasks on this agent.',
    tags: ['a2a', 'task', 'status'],
    examples: ['status of task 6f1c…', '{"skill":"task","id":"6f1c…"}'],
    inputModes: ['text/plain', 'application/json'],
    outputModes: ['application/json', 'text/plain'],
  },
];

/**
 * What each skill costs a client who settles on chain (the card's `chainBaseCost`, base units; 1 coin = 10^8):
 * reads and status are cheap, a payment plan a little more, a PoW job — real hashing — the most. Offered only by a
 * node that runs an agent account (server/a2a/node-a2a.ts); docs/a2a.md "On-chain settlement".
 */
export const weftAgentSkillCosts: ReadonlyMap<string, bigint> = new Map([
  ['chain-query', 10_000n],
  ['prepare-payment', 50_000n],
  ['mine', 1_000_000n],
  ['task-status', 10_000n],
]);

const helpText = [
  'I can:',
  '  - tell a balance: "what is the balance of <address>" (or "balance <address>")',
  '  - show a block: "block height", "block 42", "block <hash>"',
  '  - look up a transaction: "tx <hash>" (or "status of transaction <hash>")',
  '  - prepare a payment for you to sign: "send 5 to <address> from <address>" (or "pay <amount> from <a> to <b> [fee <coins>]")',
  '  - mine a PoW job: "mine <pre_pow_hash> <target> [max_hashes]"',
  '  - report one of your tasks: "status of task <id>"',
].join('\n');

/** Progress chunks are sent every this many backend batches. */
const mineProgressBatches = 16;

const textOf = (parts: readonly Part[]): string => parts.map((p) => p.text ?? '').join(' ').trim();
const dataOf = (parts: readonly Part[]): JsonObject | undefined =>
  parts.find((p) => p.data !== undefined && typeof p.data === 'object' && p.data !== null && !Array.isArray(p.data))?.data as JsonObject | undefined;

function request(context: RequestContext): JsonObject {
  const parts = context.message.parts;
  const data = dataOf(parts);
  if (data) return data;
  const text = textOf(parts);
  const parsed = parseRequest(text);
  // A follow-up to an INPUT_REQUIRED payment supplies the missing words ("from <address>", "1.5 to <address>"):
  // they complete the request the task started with, unless the follow-up is a whole request of its own.
  if (context.task?.status.state === 'TASK_STATE_INPUT_REQUIRED' && (parsed.skill === 'unknown' || parsed.skill === 'pay')) {
    const first = context.task.history?.find((m) => m.role === 'ROLE_USER' && m.messageId !== context.message.messageId);
    const prior = first ? (dataOf(first.parts) ?? parseRequest(textOf(first.parts))) : undefined;
    if (prior?.skill === 'pay') {
      const more = parseRequest(`pay ${text}`);
      return { ...prior, ...Object.fromEntries(Object.entries(more).filter(([, v]) => v !== undefined)) };
    }
  }
  return parsed;
}

/** Words that carry no argument: skipped when looking for a task id. */
const fillers = new Set(['status', 'state', 'of', 'is', 'the', 'a', 'my', 'id', 'what', "what's", 'whats', 'show', 'me', 'for', 'task', 'please']);
const isAddressWord = (w: string) => /^[a-z]{1,16}1[02-9ac-hj-np-z]{8,}$/.test(w);
const isHashWord = (w: string) => /^(0x)?[0-9a-fA-F]{64}$/.test(w);
const isNumberWord = (w: string) => /^\d+(\.\d+)?$/.test(w);
/** A word that may be an id rather than English: it has a digit or a dash (task ids are UUIDs). */
const isIdWord = (w: string) => /[\d-]/.test(w);

/**
 * The agent's intent grammar (docs/a2a.md "The built-in Weft agent"): keywords decide the skill, typed words
 * (address, 64-hex hash, number) fill its arguments. First match wins: help → mine → task → pay/send/transfer →
 * balance → tx/transaction → block/height/tip → a lone address (its balance) → unknown.
 */
export function parseRequest(text: string): JsonObject {
  // Trailing sentence punctuation is not part of an argument ("…of dweft1q…?").
  const tokens = text.split(/\s+/).map((w) => w.replace(/[?!.,;:]+$/, '')).filter((w) => w !== '');
  const words = tokens.map((w) => w.toLowerCase());
  const has = (...keys: string[]) => keys.some((k) => words.includes(k));
  const after = (word: string): string | undefined => {
    const i = words.indexOf(word);
    return i === -1 ? undefined : tokens[i + 1];
  };
  const [verb = ''] = words;
  if (words.length === 0 || verb === 'help' || verb === '?' || /\bwhat can you do\b|\bcommands\b/.test(words.join(' '))) return { skill: 'help' };
  if (verb === 'mine') {
    const rest = tokens.slice(1);
    return { skill: 'mine', prePowHash: rest[0], target: rest[1], ...(rest[2] ? { maxHashes: Number(rest[2]) } : {}) };
  }
  // A task lookup is asked for as one ("task <id>", "status of task <id>"): "task" alone in a sentence is not one —
  // "TCK prerequisite task creation" was read as a lookup of the task "creation" and FAILED (issue 32).
  if (has('task') && (verb === 'task' || has('status', 'state'))) {
    const i = words.indexOf('task');
    const id = tokens.slice(i + 1).find((w) => !fillers.has(w.toLowerCase())) ?? tokens.slice(0, i).reverse().find((w) => !fillers.has(w.toLowerCase()) && isIdWord(w));
    return { skill: 'task', id };
  }
  if (has('pay', 'send', 'transfer')) {
    const start = words.findIndex((w) => w === 'pay' || w === 'send' || w === 'transfer');
    const fee = after('fee');
    const amountWord = tokens.slice(start + 1).find((w, i, rest) => isNumberWord(w) && rest[i - 1]?.toLowerCase() !== 'fee');
    return { skill: 'pay', amount: amountWord === undefined ? undefined : Number(amountWord), from: after('from'), to: after('to'), ...(fee ? { fee: Number(fee) } : {}) };
  }
  if (has('balance')) return { skill: 'balance', address: tokens.find(isAddressWord) ?? after('of') ?? after('balance') };
  if (has('tx', 'transaction')) return { skill: 'tx', hash: tokens.find(isHashWord) ?? after('tx') ?? after('transaction') };
  if (has('block', 'height', 'tip', 'latest')) {
    const ref = tokens.find(isHashWord) ?? tokens.find((w) => /^\d+$/.test(w)) ?? (after('block') && !['height', 'tip', 'latest'].includes(after('block')!.toLowerCase()) ? after('block') : undefined);
    return { skill: 'block', block: ref ?? 'tip' };
  }
  if (tokens.length === 1 && isAddressWord(tokens[0]!)) return { skill: 'balance', address: tokens[0] };
  return { skill: 'unknown', text };
}

/** The caller's own task, or FAILED-worthy InvalidParams (another principal's task is "not found": reveal nothing). */
function taskStatus(context: RequestContext, id: unknown): JsonObject {
  if (typeof id !== 'string' || id === '') throw invalidParams('id: which task? say "status of task <id>"', 'id');
  const task = context.lookupTask?.(id);
  if (!task) throw invalidParams(`task ${id}: not found`, 'id');
  const said = task.status.message?.parts.map((p) => p.text ?? '').join(' ').trim();
  return { id: task.id, contextId: task.contextId, state: task.status.state, ...(task.status.timestamp ? { timestamp: task.status.timestamp } : {}), ...(said ? { message: said } : {}) };
}

const dataPart = (data: JsonObject): Part => ({ data, mediaType: 'application/json' });

const summaryLinesMax = 16;

/**
 * The answer as text, for chat clients that show only text parts: one "field: value" line per top-level field that
 * is a plain value (nested objects and lists stay in the data part, which is the answer of record).
 */
function summaryText(name: string, data: JsonObject): string {
  const lines = Object.entries(data)
    .filter(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v))
    .slice(0, summaryLinesMax)
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${v === null ? '–' : String(v)}`);
  return [`${name}:`, ...lines].join('\n');
}

/** An answer artifact: the data part (the answer of record) and a text part beside it. */
const answerParts = (name: string, data: JsonObject): Part[] => [dataPart(data), { text: summaryText(name, data), mediaType: 'text/plain' }];

async function answer(events: ExecutionEvents, name: string, compute: () => JsonObject): Promise<void> {
  await events.status('TASK_STATE_WORKING');
  await events.artifact({ artifactId: name, name, parts: answerParts(name, compute()) }, { lastChunk: true });
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
  await events.artifact({ artifactId: 'mine', name: 'mine', parts: answerParts('mine', result) }, { append: chunks > 0, lastChunk: true });
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
          case 'task':
          case 'task-status':
            return await answer(events, 'task', () => taskStatus(context, args.id ?? args.taskId));
          default: {
            const said = typeof args.text === 'string' && args.text !== '' ? `I did not understand "${args.text.slice(0, 200)}".\n` : '';
            return await events.status('TASK_STATE_INPUT_REQUIRED', `${said}${helpText}\nReply on this task with one of these.`);
          }
        }
      } catch (error) {
        if (context.signal.aborted) return;
        await events.status('TASK_STATE_FAILED', error instanceof Error ? error.message : 'failed');
      }
    },
  };
}
