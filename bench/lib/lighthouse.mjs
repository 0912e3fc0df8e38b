// What Lighthouse leaves out when it scores a pass's page: bench/web.mjs and e2e/pass-page.spec.ts
// both measure that page, and skip the same audits for the same reason.

/**
 * A pass's link is a bearer link: its page says noindex on purpose (ADR 0023), so `is-crawlable`,
 * the one audit it must fail, is left out of its SEO score.
 */
export const PASS_PAGE_SKIPPED_AUDITS = ['is-crawlable'];
