import { describe, expect, it } from 'vitest';
import { stateText } from './pass-state.tsx';

const at = (event: string, time: string) => ({ event, at: time });

describe('stateText (what the pass page says of a pass state)', () => {
  it('a valid pass never admitted reads Valid alone', () => {
    expect(stateText({ status: 'valid', admissions: [] })).toEqual({ status: 'Valid', admissions: [] });
  });

  it('the home pass stays valid after an event, and lists where it was used', () => {
    expect(stateText({ status: 'valid', admissions: [at('City Derby', 'Dec 12, 2026, 7:31 PM'), at('Harbour Cup', 'Dec 19, 2026, 2:02 PM')] })).toEqual({
      status: 'Valid',
      admissions: ['Used at City Derby on Dec 12, 2026, 7:31 PM', 'Used at Harbour Cup on Dec 19, 2026, 2:02 PM'],
    });
  });

  it("an event's pass admitted at its event reads Used at the event on the time", () => {
    expect(stateText({ status: 'used', admissions: [at('North Gate Final', 'Dec 12, 2026, 7:31 PM')] })).toEqual({
      status: 'Used at North Gate Final on Dec 12, 2026, 7:31 PM',
      admissions: [],
    });
  });

  it('a voided pass says it no longer admits, whatever it was used for before', () => {
    expect(stateText({ status: 'voided', admissions: [at('City Derby', 'Dec 12, 2026, 7:31 PM')] })).toEqual({
      status: 'Voided: it no longer admits',
      admissions: [],
    });
  });
});
