// The desired-state file read as written (issue 47): which plain scalars are
// refused (where YAML, 1.2 or 1.1, would make them other than the text
// written), which are kept, and the quoted form each error names.
import { describe, expect, it } from 'vitest';
import { parseDesiredFile } from '../../src/desired/file.js';

const read = (text: string) => {
  try {
    parseDesiredFile(text, 'ahs.yaml');
    return 'ok';
  } catch (error) {
    return (error as Error).message;
  }
};
const withKey = (key: string) => `apiVersion: ahs/v1\nassets:\n  app:\n    name: App\n    type: "1001"\n    versions:\n      ios:\n        ${key}: app.zip\n`;
const withName = (value: string) => `apiVersion: ahs/v1\nassets:\n  app:\n    name: ${value}\n    type: "1001"\n`;

describe('a version key', () => {
  it.each([
    ['1.10', 'is read by YAML as the number 1.1, not the text 1.10'],
    ['2', 'is read by YAML as the number 2;'],
    ['0755', 'is read by YAML as the number 755, not the text 0755'],
    ['0o17', 'is read by YAML as the number 15, not the text 0o17'],
    ['1e3', 'is read by YAML as the number 1000, not the text 1e3'],
    ['.inf', 'is read by YAML as the number Infinity, not the text .inf'],
    ['true', 'is read by YAML as the boolean true'],
    ['null', 'is read by YAML as null'],
    ['~', 'is read by YAML as null'],
    ['on', 'is read by YAML 1.1 as a boolean'],
    ['No', 'is read by YAML 1.1 as a boolean'],
    ['y', 'is read by YAML 1.1 as a boolean'],
    ['0x1F', 'is read by YAML as the number 31, not the text 0x1F'],
    ['1_000', 'is read by YAML 1.1 as a number'],
    ['1:30', 'is read by YAML 1.1 as a number'],
    ['0b101', 'is read by YAML 1.1 as a number'],
    ['08', 'is read by YAML as the number 8, not the text 08'],
    // Text to YAML 1.2, numbers to YAML 1.1.
    ['0_17', 'is read by YAML 1.1 as a number'],
    ['-0b11', 'is read by YAML 1.1 as a number'],
    ['0xF_F', 'is read by YAML 1.1 as a number'],
    ['+1_000', 'is read by YAML 1.1 as a number'],
    ['1_000.5', 'is read by YAML 1.1 as a number'],
    ['190:20:30', 'is read by YAML 1.1 as a number'],
    ['OFF', 'is read by YAML 1.1 as a boolean'],
  ])('%s is refused at its line and column, naming the quoted form', (key, reading) => {
    expect(read(withKey(key))).toBe(`ahs.yaml:8:9: assets.app.versions.ios: the key ${key} ${reading.replace(/;$/, '')}; quote it to keep it as written: ${JSON.stringify(key)}:`);
  });

  it.each(['1.4.2', '1.10.0', 'v1.10', '2024-01-01', 'onward', 'yes-please', '1.10-beta', '1_a', '0b2', '0x', '1:60', '_1', 'yes!', 'NO_'])('%s is text as written: kept', (key) => {
    expect(read(withKey(key))).toBe('ok');
  });

  it.each(['"1.10"', "'1.10'", '"on"', '"0755"'])('%s, quoted, is the text', (key) => {
    expect(read(withKey(key))).toBe('ok');
  });
});

describe('a value where text is expected', () => {
  it.each([
    ['2024', 'assets.app.name: 2024 is read by YAML as the number 2024, where text is expected; quote it: "2024"'],
    ['false', 'assets.app.name: false is read by YAML as the boolean false, where text is expected; quote it: "false"'],
    ['yes', 'assets.app.name: yes is read by YAML 1.1 as a boolean (and by the tools that follow it); quote it to mean the text: "yes"'],
    ['Off', 'assets.app.name: Off is read by YAML 1.1 as a boolean (and by the tools that follow it); quote it to mean the text: "Off"'],
  ])('%s is refused', (value, message) => {
    expect(read(withName(value))).toBe(`ahs.yaml:4:11: ${message}`);
  });

  it.each(['My app', 'yesterday', '"yes"', '1.0 beta', 'On time'])('%s is kept', (value) => {
    expect(read(withName(value))).toBe('ok');
  });

  it('a value of another kind where text is expected, or a number where a boolean is: the schema says so, no quoting advice', () => {
    expect(read(withName('[App]'))).toBe('ahs.yaml:4:11: assets.app.name: must be a string');
    expect(read(withName('!!int "5"'))).toBe('ahs.yaml:4:17: assets.app.name: must be a string');
    expect(read('apiVersion: ahs/v1\ncollections:\n  pack:\n    name: Pack\n    allowedTypes: ["9999"]\n    editable: 1\n')).toMatch(/^ahs\.yaml:6:15: collections\.pack\.editable: (?!.*quote)/);
  });

  it('numbers and booleans where the file takes them stay so', () => {
    expect(read('apiVersion: ahs/v1\ncollections:\n  pack:\n    name: Pack\n    allowedTypes: ["9999"]\n    maxAssets: 200\n    editable: true\n')).toBe('ok');
  });
});

describe('a key given twice', () => {
  it('in JSON as in YAML, naming why', () => {
    expect(read('{"apiVersion": "ahs/v1", "assets": {}, "assets": {}}')).toBe('ahs.yaml:1:40: Map keys must be unique: a key given twice is refused (in JSON as in YAML), where a JSON parser would keep the last; keep one');
    expect(read('apiVersion: ahs/v1\napiVersion: ahs/v1\n')).toMatch(/^ahs\.yaml:2:1: Map keys must be unique: a key given twice is refused/);
  });
});
