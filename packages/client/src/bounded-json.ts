/**
 * Answers are read with a bound: the node never queues more than wsSendBufferBytesMax for one socket, so an honest
 * answer fits; a longer one is a node (or a man in the middle) trying to make the client parse and hold without
 * bound, and is refused unparsed.
 */
import { wsSendBufferBytesMax } from '../../../src/limits.ts';
import { refusedAnswer } from './errors.ts';

/** The longest answer (one WebSocket message, one HTTP body) the client reads, in characters of its text. */
export const rpcAnswerCharsMax = wsSendBufferBytesMax;

/** An HTTP answer's JSON, read up to rpcAnswerCharsMax characters; a longer body is cancelled and refused. */
export async function readBoundedJson(response: Response, method: string): Promise<unknown> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  const tooLong = () => refusedAnswer(method, `answer: over the limit of ${rpcAnswerCharsMax} characters`);
  if (declared > rpcAnswerCharsMax) {
    await response.body?.cancel();
    throw tooLong();
  }
  if (response.body === null) return JSON.parse(await response.text());
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (text.length > rpcAnswerCharsMax) {
      await reader.cancel();
      throw tooLong();
    }
  }
  text += decoder.decode();
  try {
    return JSON.parse(text);
  } catch {
    throw refusedAnswer(method, `answer: not JSON (HTTP ${response.status})`);
  }
}
