// An answer's body as every transport hands it over (transport.ts): piece by
// piece, each piece given synchronously to the one consumer, in place. The
// lean download transport (lean.ts) reads each connection into one reused
// buffer, so a piece is only valid during the call: a consumer writes it
// (writeSync) and hashes it there, and copies it only to keep it (an error
// answer's text). node:http's and undici's bodies (streams) are adapted to
// the same shape, so downloads and JSON reads have one way to read a body.
import type { Readable } from 'node:stream';

export interface AnswerBody {
  /**
   * Hands each piece of the body to `onPiece` as it arrives. The piece is
   * valid only during the call: its bytes may be overwritten by the next
   * read. Resolves at the body's end; rejects when the body breaks off,
   * stalls past the timeout or is destroyed, and with what `onPiece` threw
   * (the body is destroyed then). Called at most once.
   */
  consume(onPiece: (piece: Buffer) => void): Promise<void>;
  /** The whole body as UTF-8 (an error answer's; a test's). */
  text(): Promise<string>;
  /** Drops the body, read or not (its connection is closed); a consume() under way rejects. */
  destroy(error?: Error): void;
}

/** A body's text: each piece copied, since its buffer may be reused by the next read. */
export async function collectText(body: AnswerBody): Promise<string> {
  const pieces: Buffer[] = [];
  await body.consume((piece) => pieces.push(Buffer.from(piece)));
  return Buffer.concat(pieces).toString('utf8');
}

/** A body delivered by a stream (node:http, undici, a test's PassThrough), as an AnswerBody. */
export function streamBody(stream: Readable): AnswerBody {
  const body: AnswerBody = {
    text: () => collectText(body),
    consume(onPiece) {
      return new Promise<void>((resolve, reject) => {
        const settle = (error?: unknown) => {
          stream.off('data', onData).off('end', onEnd).off('error', settle).off('close', onClose);
          if (error === undefined) resolve();
          else {
            stream.on('error', () => {}).destroy();
            reject(error);
          }
        };
        const onData = (chunk: Buffer) => {
          try {
            onPiece(chunk);
          } catch (error) {
            settle(error);
          }
        };
        const onEnd = () => settle();
        // Destroyed without an error (and so without 'end'): the body is not whole.
        const onClose = () => settle(prematureClose());
        if (stream.destroyed) return settle(stream.errored ?? prematureClose());
        stream.on('data', onData).once('end', onEnd).once('error', settle).once('close', onClose);
      });
    },
    destroy(error) {
      // undici's body emits RequestAbortedError when destroyed unread: without a listener it would crash the process.
      stream.on('error', () => {}).destroy(error);
    },
  };
  return body;
}

/** A body, whichever kind a caller holds. */
export function asAnswerBody(body: AnswerBody | Readable): AnswerBody {
  return 'consume' in body ? body : streamBody(body);
}

export function prematureClose(): Error {
  return Object.assign(new Error('the body ended before it was complete'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}
