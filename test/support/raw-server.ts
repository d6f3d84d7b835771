// A raw HTTP/1.1 server on node:net for tests that need answers no
// well-behaved server library writes: bytes as given, a close right after
// the answer without `Connection: close`, thousands of headers, control
// characters, a status of 000. It reads each request whole (its head and a
// content-length body), hands it to `answer`, writes what that returns, and
// then either ends the connection (`closeAfter`) or waits for the next
// request on it.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** The connection's number (1 for the first accepted), and the request's on it. */
  connection: number;
  onConnection: number;
}

export interface RawServer {
  url: string;
  requests: RawRequest[];
  connections: number;
  close(): Promise<void>;
}

export async function rawServer(answer: (request: RawRequest) => string | Buffer, options: { closeAfter?: boolean } = {}): Promise<RawServer> {
  const sockets = new Set<Socket>();
  const state: RawServer = { url: '', requests: [], connections: 0, close: async () => {} };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket)).on('error', () => {});
    const connection = ++state.connections;
    let onConnection = 0;
    let pending = Buffer.alloc(0);
    socket.on('data', (data: Buffer) => {
      pending = Buffer.concat([pending, data]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const lines = pending.subarray(0, end).toString('latin1').split('\r\n');
        const [method = '', path = ''] = lines[0]!.split(' ');
        const headers: Record<string, string> = {};
        for (const line of lines.slice(1)) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
        const length = Number(headers['content-length'] ?? 0);
        if (pending.length < end + 4 + length) return;
        const request: RawRequest = { method, path, headers, body: pending.subarray(end + 4, end + 4 + length), connection, onConnection: ++onConnection };
        pending = pending.subarray(end + 4 + length);
        state.requests.push(request);
        const bytes = answer(request);
        if (options.closeAfter) {
          socket.end(bytes);
          return;
        }
        socket.write(bytes);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return state;
}

/** An answer's bytes: a status line, headers as given (repeats kept), and a body framed by content-length. */
export function answerBytes(status: string, headers: Array<[string, string]>, body: string | Buffer = ''): Buffer {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const head = `HTTP/1.1 ${status}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}content-length: ${bytes.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), bytes]);
}
