// readOnAfterPeerClosed (src/http/transport.ts) patches Node's private
// net.Socket._writeGeneric so that an answer a server sent before it closed
// (or reset) the connection, its upload's body unread, is read rather than
// dropped at the first write that fails. These tests fail the day a Node
// version changes that method.
import { describe, expect, it } from 'vitest';
import { Socket, connect, createServer, type AddressInfo } from 'node:net';
import { readOnAfterPeerClosed } from '../../src/http/transport.js';

describe('readOnAfterPeerClosed', () => {
  it('finds net.Socket._writeGeneric, the one path of write() and writev(), and installs itself', () => {
    const proto = Socket.prototype as unknown as Record<string, unknown>;
    expect(typeof proto._writeGeneric).toBe('function');
    expect(String(proto._write)).toContain('_writeGeneric');
    expect(String(proto._writev)).toContain('_writeGeneric');
    const socket = new Socket();
    expect(readOnAfterPeerClosed(socket)).toBe(true);
    socket.destroy();
  });

  it('a write that the peer\'s reset fails (EPIPE) leaves the socket open two more turns of the event loop, so the answer already received is read, then destroys it with that error', async () => {
    const server = createServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    try {
      await new Promise((resolve) => socket.once('connect', resolve));
      // What the kernel says to a write after the peer's reset: the socket's own write path (the method patched) fails.
      const own = socket as unknown as { _writeGeneric: (writev: boolean, data: unknown, encoding: string, cb: (error?: Error | null) => void) => void };
      own._writeGeneric = (_writev, _data, _encoding, cb) => cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      expect(readOnAfterPeerClosed(socket)).toBe(true);
      const closed = new Promise<Error | undefined>((resolve) => socket.once('error', resolve).once('close', () => resolve(undefined)));
      socket.write('the body');
      await new Promise((resolve) => setImmediate(resolve));
      // Node alone destroys it at once, what it had not read dropped.
      expect(socket.destroyed).toBe(false);
      expect(((await closed) as NodeJS.ErrnoException | undefined)?.code).toBe('EPIPE');
      expect(socket.destroyed).toBe(true);
    } finally {
      socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
