import { describe, expect, it } from 'vitest';
import { isNumeric } from './numeric.ts';

describe('isNumeric', () => {
  it('accepts finite numbers, including zero, negatives and fractions (spec §5 "Other rules": a number is numeric)', () => {
    expect(isNumeric(0)).toBe(true);
    expect(isNumeric(42)).toBe(true);
    expect(isNumeric(-7)).toBe(true);
    expect(isNumeric(1.5)).toBe(true);
  });

  it('rejects NaN, which is typed as a number but holds no value (spec §5 "Other rules")', () => {
    expect(isNumeric(Number.NaN)).toBe(false);
  });

  it('rejects Infinity and -Infinity (spec §5 "Other rules")', () => {
    expect(isNumeric(Number.POSITIVE_INFINITY)).toBe(false);
    expect(isNumeric(Number.NEGATIVE_INFINITY)).toBe(false);
  });

  it('accepts the numeric string \'42\' (spec §5 "Other rules": a numeric string is numeric)', () => {
    expect(isNumeric('42')).toBe(true);
  });

  it('accepts a numeric string with surrounding whitespace, \' 7 \' (spec §5 "Other rules")', () => {
    expect(isNumeric(' 7 ')).toBe(true);
  });

  it('accepts decimal and signed numeric strings (spec §5 "Other rules")', () => {
    expect(isNumeric('3.14')).toBe(true);
    expect(isNumeric('-12')).toBe(true);
  });

  it('rejects the empty string and whitespace-only strings, which Number() would read as 0 (spec §5 "Other rules")', () => {
    expect(isNumeric('')).toBe(false);
    expect(isNumeric('   ')).toBe(false);
  });

  it("rejects a non-numeric string 'abc' and a partly numeric one '12px' (spec §5 \"Other rules\")", () => {
    expect(isNumeric('abc')).toBe(false);
    expect(isNumeric('12px')).toBe(false);
  });

  it('accepts exponent notation \'1e3\', a string holding the finite number 1000 (spec §5 "Other rules")', () => {
    expect(isNumeric('1e3')).toBe(true);
  });

  it("rejects the strings 'Infinity' and 'NaN' (spec §5 \"Other rules\")", () => {
    expect(isNumeric('Infinity')).toBe(false);
    expect(isNumeric('NaN')).toBe(false);
  });

  it('rejects null and undefined (spec §5 "Other rules": only numbers and numeric strings)', () => {
    expect(isNumeric(null)).toBe(false);
    expect(isNumeric(undefined)).toBe(false);
  });

  it('rejects objects, arrays and booleans even when they coerce to a number (spec §5 "Other rules")', () => {
    expect(isNumeric({})).toBe(false);
    expect(isNumeric({ valueOf: () => 5 })).toBe(false);
    expect(isNumeric([])).toBe(false);
    expect(isNumeric([5])).toBe(false);
    expect(isNumeric(true)).toBe(false);
    expect(isNumeric(new Date(0))).toBe(false);
  });
});
