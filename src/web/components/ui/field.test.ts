import { describe, expect, it } from 'vitest';
import { VALIDATION } from '../../../core/messages.ts';
import { purchaseInputSchema } from '../../../core/purchase.ts';
import { check } from '../../../core/validation.ts';
import { afterEdit, fieldState, formError, formProblem, messageOf } from './field.tsx';

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

describe('afterEdit: a field re-checked as it is typed into', () => {
  const rules = (typed: typeof values) => messageOf(check(purchaseInputSchema, typed));

  it('keeps the mark while the rules still name the field, and drops it, then the message, as they stop', () => {
    const blank = { name: '', email: 'ada@example.com', eventName: '' };
    const problem = formProblem(VALIDATION.fillAllFields, blank);
    expect(problem.fields).toEqual(['name', 'eventName']);

    const nameTyped = { ...blank, name: 'Ada' };
    const afterName = afterEdit(problem, 'name', nameTyped, rules);
    expect(afterName).toEqual({ message: VALIDATION.fillAllFields, fields: ['eventName'] });

    const stillBlank = afterEdit(afterName, 'eventName', { ...nameTyped, eventName: '   ' }, rules);
    expect(stillBlank).toBe(afterName);
    expect(afterEdit(afterName, 'eventName', { ...nameTyped, eventName: 'City Derby' }, rules)).toBeNull();
  });

  it('a one-field rule: still wrong while the address is not whole', () => {
    const problem = formProblem(VALIDATION.invalidEmail, { ...values, email: 'ada@example' });
    expect(afterEdit(problem, 'email', { ...values, email: 'ada@example.' }, rules)).toBe(problem);
    expect(afterEdit(problem, 'email', values, rules)).toBeNull();
  });

  it('editing a field that is not marked, or a message about the whole form, changes nothing', () => {
    const problem = formProblem(VALIDATION.nameAndEventMin, { ...values, name: 'A' });
    expect(afterEdit(problem, 'email', { ...values, name: 'A', email: 'x' }, rules)).toBe(problem);
    const declined = { message: 'Payment failed. Please try again', fields: [] };
    expect(afterEdit(declined, 'name', values, rules)).toBe(declined);
    expect(afterEdit(null, 'name', values, rules)).toBeNull();
  });
});
