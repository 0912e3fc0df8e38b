import { useMutation } from '@tanstack/react-query';
import { findPass } from '../../../core/api/find-pass.ts';
import type { FindPassInput } from '../../../core/find-pass.ts';
import { call } from '../../lib/api-client.ts';

/** Asks the shop to email the passes bought with an address (POST /api/find-pass). */
export function useFindPass() {
  return useMutation({ mutationFn: (input: FindPassInput) => call(findPass, { body: input }) });
}
