import { describe, expect, it } from 'vitest';
import { csvField } from '../../src/util/csv.js';

describe('csvField', () => {
  it('quotes only what must be quoted', () => {
    expect(csvField('u1')).toBe('u1');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
  });
});
