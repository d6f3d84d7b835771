// A multipart upload of one small file held in memory (a journal entry, a
// change-control record): the same form fields every upload of the spec takes.

/** A multipart body of one small in-memory file. */
export function memoryMultipart(fields: Record<string, string>, fileName: string, content: string) {
  const boundary = `----ahsmemory${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="assetFile"; filename="${fileName}"\r\nContent-Type: application/json\r\n\r\n`;
  const whole = Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from(content, 'utf8'), Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')]);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: whole.length,
    async *open() {
      yield whole;
    },
    whole: () => whole,
  };
}
