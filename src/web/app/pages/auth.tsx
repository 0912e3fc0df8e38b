/** `/auth`: staff sign in or create an account. Loaded on demand: a buyer never downloads it. */
export { AuthPage as default } from '../../features/auth/auth-page.tsx';
