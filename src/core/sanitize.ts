/** SPEC section 5: text inputs are trimmed and stripped of < > " ' &. */
export function sanitizeText(value: string): string {
  return value.trim().replace(/[<>"'&]/g, '');
}

/** SPEC section 5: the auth email is only stripped of < and >. */
export function sanitizeAuthEmail(value: string): string {
  return value.trim().replace(/[<>]/g, '');
}
