import type { ChildProcess } from 'node:child_process';

export const STUCK_AFTER_MS: number;
export function progressOf(child: ChildProcess, outputLength: () => number): () => number;
