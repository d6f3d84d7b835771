// Keeps secrets out of every line the CLI writes: traces, errors, messages.
export class Redactor {
  private secrets = new Set<string>();
  add(secret: string | undefined): void {
    if (secret && secret.length >= 4) this.secrets.add(secret);
  }
  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join('***');
    return out;
  }
}
