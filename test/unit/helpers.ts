// An IO over buffers (house style: tests flip the terminal flags).
import { PassThrough, Writable } from 'node:stream';
import type { IO } from '../../src/io/streams.js';

export class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

export function bufferIO(overrides: Partial<IO> = {}): IO & { out: Sink; err: Sink } {
  return {
    out: new Sink(),
    err: new Sink(),
    in: new PassThrough(),
    outIsTTY: false,
    errIsTTY: false,
    inIsTTY: false,
    color: false,
    errColor: false,
    canPrompt: false,
    ci: false,
    env: {},
    ...overrides,
  } as IO & { out: Sink; err: Sink };
}
