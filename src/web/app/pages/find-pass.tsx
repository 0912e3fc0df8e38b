/** `/find-pass`: a buyer asks for their passes by email. Linked from the landing and the confirmation email; loaded on demand. */
export { FindPassPage as default } from '../../features/find-pass/find-pass-page.tsx';
