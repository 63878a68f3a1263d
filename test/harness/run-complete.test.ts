/** A suite is complete only when every test of its file ran. */
import { describe, expect, it } from 'vitest';
import { everyTestRan } from '../helpers/run-complete.js';

const test = (mode: string, state = 'pass') => ({ type: 'test', mode, result: { state } });
const suite = (...tasks: object[]) => ({ type: 'suite', mode: 'run', tasks }) as Parameters<typeof everyTestRan>[0];

describe('everyTestRan', () => {
  it('is true when every test, nested suites included, ran (passed or failed)', () => {
    expect(everyTestRan(suite(test('run'), suite(test('run', 'fail'))))).toBe(true);
  });
  it('is false when a name filter or .skip left a test out', () => {
    expect(everyTestRan(suite(test('run'), suite(test('skip'))))).toBe(false);
    expect(everyTestRan(suite(test('run', 'skip')))).toBe(false);
  });
  it('is false for a file without tests', () => {
    expect(everyTestRan(suite())).toBe(false);
  });
});
