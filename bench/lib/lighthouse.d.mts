// Types of lighthouse.mjs for the TypeScript that imports it (e2e/pass-page.spec.ts).
export const PASS_PAGE_SKIPPED_AUDITS: string[];
