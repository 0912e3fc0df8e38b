import { describe, expect, it } from 'vitest';
import { DEFAULT_PRODUCT_NAME } from '../core/constants.ts';
import { PUBLIC_ROUTES } from '../core/routes.ts';
import { renderPage } from './render-page.tsx';

const SHOP = { productName: 'Club Pass', feedbackUrl: 'https://example.com/feedback' };
/** The text a reader of the HTML gets, without tags and React's text separators. */
const textOf = (html: string) => html.replace(/<[^>]*>/g, '');

describe('renderPage (the server render of the public pages)', () => {
  it('renders the landing whole: the product name, the hero, the Any Event Pass card and Get in Touch', async () => {
    const { html, modules } = await renderPage('/', SHOP);
    const text = textOf(html);
    expect(text).toContain('Club Pass');
    expect(text).toContain('Skip the line at every game');
    expect(text).toContain('Any Event Pass');
    expect(text).toContain('Get Pass - $3');
    expect(text).toContain('Get in Touch');
    expect(modules).toEqual([]);
  });

  it('waits for a page loaded on demand and names its module, for the server to preload', async () => {
    const findPass = await renderPage('/find-pass', SHOP);
    expect(textOf(findPass.html)).toContain('Find my pass');
    expect(findPass.modules).toEqual(['src/web/app/pages/find-pass.tsx']);
    // A buyer's browser holds no staff session: the sign-in form shows at once.
    const auth = await renderPage('/auth', SHOP);
    expect(textOf(auth.html)).toContain('Sign In or Create Account');
    expect(auth.html).toMatch(/<input[^>]*type="email"/);
    expect(auth.modules).toEqual(['src/web/app/pages/auth.tsx']);
  });

  it('renders the same page whatever the event or the unknown path (the server renders each once)', async () => {
    const [one, other] = await Promise.all([renderPage('/events/1', SHOP), renderPage('/events/abc', SHOP)]);
    expect(one.html).toBe(other.html);
    expect(textOf(one.html)).toContain('Loading event...');
    // A pass's page too: its HTML is the same for every code, and never holds one.
    const code = (id: string) => `${id}.${'A'.repeat(86)}`;
    const [pass, otherPass] = await Promise.all([renderPage(`/pass/${code('0123456789')}`, SHOP), renderPage(`/pass/${code('ABCDEF0123')}`, SHOP)]);
    expect(pass.html).toBe(otherPass.html);
    expect(textOf(pass.html)).toContain('Loading pass...');
    expect(pass.html).not.toContain('0123456789');
    expect(pass.modules).toEqual(['src/web/app/pages/pass.tsx']);
    const [missing, another] = await Promise.all([renderPage('/no-such-page', SHOP), renderPage('/a/b/c', SHOP)]);
    expect(missing.html).toBe(another.html);
    expect(textOf(missing.html)).toContain('Oops! Page not found');
  });

  it('escapes a hostile product name and falls back on the default as the browser does', async () => {
    const hostile = await renderPage('/', { ...SHOP, productName: '<img src=x onerror=alert(1)>' });
    expect(hostile.html).not.toContain('<img src=x');
    expect(hostile.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    const blank = await renderPage('/', { ...SHOP, productName: '   ' });
    expect(textOf(blank.html)).toContain(DEFAULT_PRODUCT_NAME);
  });

  it.each(PUBLIC_ROUTES.map((route) => route.replace(':id', '7')))('renders %s with the page frame', async (path) => {
    const { html } = await renderPage(path, SHOP);
    expect(html).toContain('<header');
    expect(html).toContain('<main id="main"');
  });
});
