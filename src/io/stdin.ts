// Reads one line from a stream (the API key from --api-key-stdin), without
// waiting for the end of input when a newline arrives first.
import type { Readable } from 'node:stream';

export function readLine(stream: Readable, limit = 64 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const finish = (value: string) => {
      cleanup();
      stream.pause();
      resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      buffer += chunk.toString();
      const newline = buffer.search(/\r?\n/);
      if (newline >= 0) finish(buffer.slice(0, newline));
      else if (buffer.length > limit) finish(buffer.slice(0, limit));
    };
    const onEnd = () => finish(buffer);
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.resume();
  });
}
