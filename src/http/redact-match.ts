// Finds the encoded forms of secrets in a text for Redactor.redact(), by
// backtracking over a small description of each form (redact.ts builds it)
// instead of compiling them into one RegExp: that regex was ~10 KB for a
// 32-character key, and V8 spent 7 to 40 ms compiling it on the first line
// ahs printed. This one is built and run on a line in 1 to 2 ms.
//
// The matches are the regex's, exactly: the forms are tried in the order its
// alternation tried them (longest pattern source first), each form's
// characters with their alternatives in the same order, and every repetition
// greedily, then backing off one at a time, as the regex engine backtracks.
// The first form that matches at a position wins, the scan goes on after it.

/** A run of text matched `min` to `max` times in a row, greedily: exactly, or with its letters in either case. */
export interface Atom {
  readonly text: string;
  /** Letters match in either case (hex digits, the `x` of `&#x`): the regex's `[aA]`. */
  readonly anyCase: boolean;
  readonly min: number;
  readonly max: number;
  /** The length of the atom in the regex source: the forms are ordered by it. */
  readonly sourceLength: number;
}

/** One way to write a character: its atoms in sequence. */
export type Alternative = readonly Atom[];

/** A character of a form (or the base64 padding): its alternatives, tried in order, `min` to `max` times greedily. */
export interface Unit {
  readonly alternatives: readonly Alternative[];
  readonly min: number;
  readonly max: number;
  /** The length of the unit in the regex source: the forms are ordered by it. */
  readonly sourceLength: number;
  /** Per alternative, the code units it can begin with (undefined: it can match nothing), to skip it at once. */
  readonly firstCodes: readonly (readonly number[] | undefined)[];
  /**
   * Per code unit, the one alternative that can begin with it, or SEVERAL;
   * undefined for a unit matched other than once or with an alternative that
   * can match nothing.
   */
  readonly alternativeFor: ReadonlyMap<number, number> | undefined;
  /** The code units that, found where the unit begins, are all it can take there (a letter as itself, `+` for a space). */
  readonly takesJust: readonly number[];
}

/** One encoded form of a secret: its characters in sequence. */
export type Form = readonly Unit[];

const NO_MATCH = -1;
/**
 * The steps a text may cost the matcher: STEPS_PER_UNIT per code unit, and
 * STEPS_BASE. An ordinary line costs a few per unit; a text built to make the
 * search back off over and over (a run of thousands of backslashes before
 * the key's first letter, a key of backslashes escaped again) cost time
 * that grew as its square or faster: 20,000 backslashes took 7 s, 30
 * escaped backslashes did not end. Past the budget the whole text is
 * withheld (WITHHELD): a text that could not be checked is not printed.
 */
const STEPS_PER_UNIT = 64;
const STEPS_BASE = 1_000_000;
let stepsLeft = 0;
const BUDGET_SPENT = Symbol('the redactor\'s budget is spent');

/** What is printed in place of a text the matcher could not check within its budget. */
export const WITHHELD = '[withheld by ahs: this text could not be checked for the API key]';

function step(): void {
  if (--stepsLeft < 0) throw BUDGET_SPENT;
}
const CHOICE = -2;
const SEVERAL = -1;
const REGEXP_METACHARACTERS = '.*+?^${}()|[]\\/-';

/** Text matched once, exactly. */
export function exactly(text: string): Atom {
  return { text, anyCase: false, min: 1, max: 1, sourceLength: escapedLength(text) };
}

/** Hex digits (or the `x` of `&#x`), each letter in either case. */
export function anyCase(text: string): Atom {
  const lower = text.toLowerCase();
  // `[aA]` in the regex source, a digit as itself.
  let sourceLength = 0;
  for (let i = 0; i < lower.length; i++) sourceLength += isLowerLetter(lower.charCodeAt(i)) ? 4 : 1;
  return { text: lower, anyCase: true, min: 1, max: 1, sourceLength };
}

/** Text repeated any number of times, from `min` (0 or 1) on: `\\*`, `\\+`, `0*`, `(?:25)*`. */
export function repeated(text: string, min: 0 | 1): Atom {
  const base = text.length > 1 ? text.length + '(?:)'.length : escapedLength(text);
  return { text, anyCase: false, min, max: Infinity, sourceLength: base + 1 };
}

/** A character's alternatives: `(?:a|b|c)` in the regex source, `(?:(?:a|b|c)){0,2}` repeated. */
export function unit(alternatives: readonly Alternative[], min = 1, max = 1): Unit {
  let sourceLength = '(?:)'.length + alternatives.length - 1;
  for (const atoms of alternatives) for (const atom of atoms) sourceLength += atom.sourceLength;
  if (min !== 1 || max !== 1) sourceLength += `(?:){${min},${max}}`.length;
  const firstCodes = alternatives.map(firstCodesOf);
  const alternativeFor = min === 1 && max === 1 ? alternativesByFirstCode(firstCodes) : undefined;
  const takesJust = [...(alternativeFor?.keys() ?? [])].filter((code) => takesJustIt(alternatives, alternativeFor!, code));
  return { alternatives, min, max, sourceLength, firstCodes, alternativeFor, takesJust };
}

/**
 * Replaces every match of the forms in a text by a mask, leftmost first, as
 * `text.replace(/form1|form2|.../g, mask)` did with the forms sorted by the
 * length of their regex source, longest first.
 */
export class FormMatcher {
  /** Per code unit a match can begin with, the forms (in order) whose match can. */
  private readonly formsStartingWith = new Map<number, Form[]>();
  /**
   * What every match begins with: one code unit, or two when the first is a
   * character of the form as itself (`d` of `demo-key` must be followed by
   * `e`, `%`, `\\` or `&`). The scan jumps from one to the next with indexOf
   * (native, where a loop over each character is not yet compiled on the
   * first, often the longest, line) and tries the forms only there.
   */
  private readonly needles: string[];

  constructor(forms: readonly Form[]) {
    // Array sort is stable: forms of equal length keep their order (secret by secret), as in the alternation.
    const ordered = forms
      .map((form) => ({ form, length: formSourceLength(form) }))
      .sort((a, b) => b.length - a.length)
      .map(({ form }) => form);
    const needles = new Set<string>();
    for (const form of ordered) {
      for (const code of startsFrom(form, 0)!) {
        const starting = this.formsStartingWith.get(code);
        if (starting) starting.push(form);
        else this.formsStartingWith.set(code, [form]);
        for (const needle of needlesOf(form, code)) needles.add(needle);
      }
    }
    this.needles = [...needles];
  }

  /** `text` with every match replaced by `mask`; WITHHELD (a line break kept at its end) when it could not be checked. */
  replace(text: string, mask: string): string {
    stepsLeft = STEPS_PER_UNIT * text.length + STEPS_BASE;
    try {
      return this.replaceAll(text, mask);
    } catch (error) {
      // A search that backs off too deep to end, or too deep for the stack: nothing of the text is shown.
      if (error === BUDGET_SPENT || error instanceof RangeError) return text.endsWith('\n') ? `${WITHHELD}\n` : WITHHELD;
      throw error;
    }
  }

  private replaceAll(text: string, mask: string): string {
    let out = '';
    let copied = 0;
    // Where each needle occurs next, once looked up at or after `pos` (-1: to look up).
    const next = this.needles.map(() => -1);
    for (let pos = 0; ; ) {
      let at = text.length;
      for (let i = 0; i < next.length; i++) {
        if (next[i]! < pos) {
          const found = text.indexOf(this.needles[i]!, pos);
          next[i] = found < 0 ? text.length : found;
        }
        at = Math.min(at, next[i]!);
      }
      if (at === text.length) break;
      // Every form that can begin there, in order: another needle may have found the same place.
      const end = firstMatch(text, this.formsStartingWith.get(text.charCodeAt(at))!, at);
      if (end === NO_MATCH) {
        pos = at + 1;
        continue;
      }
      out += text.slice(copied, at) + mask;
      copied = pos = end;
    }
    return copied === 0 ? text : out + text.slice(copied);
  }
}

/**
 * What a match of the form beginning with `code` begins with: `code` and
 * each code unit the second unit can begin with, when the first unit takes
 * just that code unit, else `code` alone.
 */
function needlesOf(form: Form, code: number): string[] {
  const first = String.fromCharCode(code);
  const second = form[0]!.takesJust.includes(code) ? startsFrom(form, 1) : undefined;
  return second ? [...second].map((next) => first + String.fromCharCode(next)) : [first];
}

/**
 * Whether a unit beginning with `code` can only take that one code unit: a
 * single alternative begins with it (the literal one, or `+` for a space),
 * and it is that code unit after optional repetitions that match nothing
 * there (no backslash before a letter).
 */
function takesJustIt(alternatives: readonly Alternative[], alternativeFor: ReadonlyMap<number, number>, code: number): boolean {
  const only = alternativeFor.get(code);
  if (only === undefined || only === SEVERAL) return false;
  const atoms = alternatives[only]!;
  const last = atoms[atoms.length - 1]!;
  const before = atoms.slice(0, -1);
  return last.max === 1 && last.text.length === 1 && codeMatches(last, 0, code) && before.every((atom) => atom.min === 0 && !codeMatches(atom, 0, code));
}

/** The end of the first of the forms that matches at `pos`, or NO_MATCH. */
function firstMatch(text: string, forms: readonly Form[], pos: number): number {
  for (let i = 0; i < forms.length; i++) {
    const end = matchUnits(text, forms[i]!, 0, 0, pos);
    if (end !== NO_MATCH) return end;
  }
  return NO_MATCH;
}

/**
 * Matches units `index` on of a form at `pos`, `done` repetitions of unit
 * `index` already matched: another repetition first (each alternative in
 * turn, with the rest of the form after it), then the next unit.
 */
function matchUnits(text: string, form: Form, index: number, done: number, pos: number): number {
  if (done === 0) {
    // Most characters of a text leave a unit no choice (a letter: only the literal alternative can begin
    // with it, without backslashes): with nothing to back off to, a loop goes through them, no recursion.
    for (; index < form.length; index++) {
      const current = form[index]!;
      if (current.takesJust.includes(text.charCodeAt(pos))) {
        pos++;
        continue;
      }
      const end = matchWithoutChoice(text, current, pos);
      if (end === CHOICE) break;
      if (end === NO_MATCH) return NO_MATCH;
      pos = end;
    }
  }
  if (index === form.length) return pos;
  const current = form[index]!;
  if (done < current.max) {
    const code = text.charCodeAt(pos); // NaN at the end: only an alternative that can match nothing is tried
    let rest: ((next: number) => number) | undefined;
    for (let i = 0; i < current.alternatives.length; i++) {
      const firstCodes = current.firstCodes[i];
      if (firstCodes && !firstCodes.includes(code)) continue;
      rest ??= (next: number) => matchUnits(text, form, index, done + 1, next);
      const end = matchAtoms(text, current.alternatives[i]!, 0, pos, rest);
      if (end !== NO_MATCH) return end;
    }
  }
  return done >= current.min ? matchUnits(text, form, index + 1, 0, pos) : NO_MATCH;
}

/**
 * The end of a unit matched once at `pos` when that leaves no choice: of the
 * alternatives that can begin there, one matches and leaves no choice, the
 * others cannot match at all (`\u0061`: the `\x` and the literal ones
 * stop at the `u`). NO_MATCH when none can match; CHOICE when the search must
 * try more than one way. A long secret, escaped character by character, is
 * matched in a loop, not by recursion that could run out of stack.
 */
function matchWithoutChoice(text: string, current: Unit, pos: number): number {
  if (!current.alternativeFor) return CHOICE;
  const code = text.charCodeAt(pos);
  const only = current.alternativeFor.get(code);
  if (only === undefined) return NO_MATCH;
  if (only !== SEVERAL) return matchStraight(text, current.alternatives[only]!, pos);
  let end = NO_MATCH;
  for (let i = 0; i < current.alternatives.length; i++) {
    if (!current.firstCodes[i]!.includes(code)) continue;
    const found = matchStraight(text, current.alternatives[i]!, pos);
    if (found === CHOICE || (found !== NO_MATCH && end !== NO_MATCH)) return CHOICE;
    if (found !== NO_MATCH) end = found;
  }
  return end;
}

/** The end of an alternative matched at `pos` when it leaves no choice; NO_MATCH, or CHOICE when a repetition could back off. */
function matchStraight(text: string, atoms: Alternative, pos: number): number {
  for (let index = 0; index < atoms.length; index++) {
    const { count, end } = repeatAt(text, atoms[index]!, pos);
    const fewest = fewestRepetitions(atoms, index, count);
    if (count < fewest) return NO_MATCH;
    if (count > fewest) return CHOICE;
    pos = end;
  }
  return pos;
}

/**
 * Matches atoms `index` on of an alternative at `pos`, then `rest`: each atom
 * as many times as it can, then fewer. Only an atom that leaves a choice
 * recurses.
 */
function matchAtoms(text: string, alternative: Alternative, index: number, pos: number, rest: (pos: number) => number): number {
  step();
  for (; index < alternative.length; index++) {
    const atom = alternative[index]!;
    let { count, end } = repeatAt(text, atom, pos);
    const fewest = fewestRepetitions(alternative, index, count);
    if (count < fewest) return NO_MATCH;
    if (count > fewest) {
      for (; count >= fewest; count--, end -= atom.text.length) {
        const found = matchAtoms(text, alternative, index + 1, end, rest);
        if (found !== NO_MATCH) return found;
      }
      return NO_MATCH;
    }
    pos = end;
  }
  return rest(pos);
}

/** The atom matched as many times as it can at `pos`, and where that ends. */
function repeatAt(text: string, atom: Atom, pos: number): { count: number; end: number } {
  let count = 0;
  let end = pos;
  while (count < atom.max && startsWith(text, end, atom)) {
    step();
    count++;
    end += atom.text.length;
  }
  return { count, end };
}

/**
 * The fewest repetitions of atom `index` worth trying after `count`: backing
 * off one leaves the repeated text's first character where the next atom
 * begins, so when that atom cannot begin with it (the `u` after `\\+`), fewer
 * cannot match either.
 */
function fewestRepetitions(atoms: Alternative, index: number, count: number): number {
  const atom = atoms[index]!;
  const next = atoms[index + 1];
  return next && next.min > 0 && !codeMatches(next, 0, atom.text.charCodeAt(0)) ? Math.max(count, atom.min) : atom.min;
}

function startsWith(text: string, pos: number, atom: Atom): boolean {
  const wanted = atom.text;
  if (pos + wanted.length > text.length) return false;
  for (let i = 0; i < wanted.length; i++) if (!codeMatches(atom, i, text.charCodeAt(pos + i))) return false;
  return true;
}

/** Whether a code unit matches the atom's character at `i`. */
function codeMatches(atom: Atom, i: number, code: number): boolean {
  const want = atom.text.charCodeAt(i);
  return code === want || (atom.anyCase && isLowerLetter(want) && code === want - 32);
}

/** Every code unit a match of the form's units `from` on can begin with; undefined if they can match nothing. */
function startsFrom(form: Form, from: number): Set<number> | undefined {
  const codes = new Set<number>();
  for (const { firstCodes, min } of form.slice(from)) {
    let canBeEmpty = min === 0;
    for (const first of firstCodes) {
      if (first) first.forEach((code) => codes.add(code));
      else canBeEmpty = true;
    }
    if (!canBeEmpty) return codes;
  }
  return undefined;
}

function alternativesByFirstCode(firstCodes: readonly (readonly number[] | undefined)[]): Map<number, number> | undefined {
  const byCode = new Map<number, number>();
  for (let i = 0; i < firstCodes.length; i++) {
    const codes = firstCodes[i];
    if (!codes) return undefined;
    for (const code of codes) byCode.set(code, byCode.has(code) && byCode.get(code) !== i ? SEVERAL : i);
  }
  return byCode;
}

/** The code units an alternative can begin with; undefined if it can match nothing at all. */
function firstCodesOf(alternative: Alternative): number[] | undefined {
  const codes: number[] = [];
  for (const atom of alternative) {
    const first = atom.text.charCodeAt(0);
    codes.push(first);
    if (atom.anyCase && isLowerLetter(first)) codes.push(first - 32);
    if (atom.min > 0) return codes;
  }
  return undefined;
}

function formSourceLength(form: Form): number {
  let length = 0;
  for (const { sourceLength } of form) length += sourceLength;
  return length;
}

/** The length of text in the regex source: its metacharacters were escaped. */
function escapedLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) if (REGEXP_METACHARACTERS.includes(text[i]!)) length++;
  return length;
}

function isLowerLetter(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}
