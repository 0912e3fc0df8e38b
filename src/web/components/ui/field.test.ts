import { describe, expect, it } from 'vitest';
import { VALIDATION } from '../../../core/messages.ts';
import { fieldState, formError, formProblem } from './field.tsx';

const values = { name: 'A', email: 'ada@example.com', eventName: 'City Derby' };

describe('fieldState and formError', () => {
  it('mark only the field the message is about, described by the message', () => {
    const problem = formProblem(VALIDATION.nameAndEventMin, values);
    expect(fieldState(problem, 'name', 'err', false)).toEqual({
      required: true,
      readOnly: false,
      'aria-invalid': true,
      'aria-describedby': 'err',
    });
    expect(fieldState(problem, 'email', 'err', false)).toEqual({
      required: true,
      readOnly: false,
      'aria-invalid': undefined,
      'aria-describedby': undefined,
    });
    expect(formError(problem, 'err')).toBeUndefined();
  });

  it('a message about no field marks none and describes the form', () => {
    const problem = formProblem('Something went wrong. Please try again.', values);
    expect(fieldState(problem, 'name', 'err', true)['aria-invalid']).toBeUndefined();
    expect(formError(problem, 'err')).toBe('err');
  });

  it('no problem: nothing marked, fields read-only while busy', () => {
    expect(fieldState(null, 'name', 'err', true)).toEqual({ required: true, readOnly: true, 'aria-invalid': undefined, 'aria-describedby': undefined });
    expect(formError(null, 'err')).toBeUndefined();
  });
});
