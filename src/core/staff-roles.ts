/**
 * Who a staff account is (ADR 0028), said once: the role in `profiles.role`. Every account starts
 * with no staff rights; door staff may use the door and nothing else; an admin may do everything,
 * the door included.
 */
export const STAFF_ROLES = ['user', 'door', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** The role of an account with no profile row, or whose role could not be read (SPEC section 4: no rights). */
export const NO_STAFF_ROLE: StaffRole = 'user';

/** A stored value as a role: anything this build does not know grants nothing. */
export function asStaffRole(value: string | null | undefined): StaffRole {
  return STAFF_ROLES.find((role) => role === value) ?? NO_STAFF_ROLE;
}

/** Whether the role may use the door: choose an event, download its pack, admit, upload scans. */
export const mayUseDoor = (role: StaffRole): boolean => role === 'door' || role === 'admin';

/** Whether the role may use the admin panel and every admin endpoint. */
export const isAdminRole = (role: StaffRole): boolean => role === 'admin';

/** How the Staff tab and the audit log name each role. */
export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  user: 'No staff rights',
  door: 'Door staff',
  admin: 'Admin',
};
