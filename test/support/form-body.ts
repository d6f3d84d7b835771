// A FormData as the bytes of its multipart/form-data body (RFC 7578), for
// the harness's seeding through undici's request, which takes no FormData:
// fetch() encoded it through web streams at about twice the CPU of a
// request (issue 46: 300 version uploads, 0.96-1.23 s by fetch() against
// 0.48-0.63 s, the emulator's side included). Names and file names are the
// tests' own (no quotes or line breaks to escape).
import { randomBytes } from 'node:crypto';

export async function formBody(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const boundary = `ahs-test-${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of form) {
    const disposition = typeof value === 'string'
      ? `form-data; name="${name}"`
      : `form-data; name="${name}"; filename="${value.name}"\r\nContent-Type: ${value.type || 'application/octet-stream'}`;
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    parts.push(typeof value === 'string' ? Buffer.from(value) : Buffer.from(await value.arrayBuffer()), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
