import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv.js';

describe('CSV for the data export (OWASP CSV injection)', () => {
  it.each([
    ['=1+2', `"'=1+2"`],
    ['+SUM(A1)', `"'+SUM(A1)"`],
    ['-2+3', `"'-2+3"`],
    ['@cmd', `"'@cmd"`],
    ['\tTAB', `"'\tTAB"`],
    ['\rCR', `"'\rCR"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
  ])('escapes a cell starting with a formula character: %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('quotes every cell, doubles quotes, keeps commas and line breaks inside, and leaves safe text alone', () => {
    expect(csvCell('Hello, "world"\nbye')).toBe('"Hello, ""world""\nbye"');
    expect(csvCell('$5.00')).toBe('"$5.00"');
    expect(csvCell('a=b')).toBe('"a=b"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(['a', 'b'])).toBe('"a, b"');
    expect(csvCell(false)).toBe('"false"');
  });

  it('writes a header and rows with CRLF line ends and a BOM', () => {
    const csv = toCsv<{ q: string; n: number }>([['question', (r) => r.q], ['n', (r) => r.n]], [{ q: '-1', n: 2 }]);
    expect(csv).toBe('\uFEFF"question","n"\r\n"\'-1","2"\r\n');
  });
});
