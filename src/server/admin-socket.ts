import { chmod, mkdir, rm } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { StaffRole } from '../core/staff-roles.ts';
import { changeStaffRole } from './staff/staff.ts';
import type { Db } from './db/database.ts';
import { ADMIN_CLI_ACTOR } from './audit/audit-log.ts';

/** `npm run admin -- <command> <email>`: the role each command gives (ADR 0028). */
export const ROLE_COMMANDS = { grant: 'admin', 'grant-door': 'door', revoke: 'user' } as const satisfies Record<string, StaffRole>;
export type RoleCommand = keyof typeof ROLE_COMMANDS;

export const isRoleCommand = (command: unknown): command is RoleCommand => typeof command === 'string' && Object.hasOwn(ROLE_COMMANDS, command);

export interface AdminCommand {
  command: RoleCommand;
  email: string;
}

/** npm run backup while the shop runs: the shop's process, which has the embedded database open, writes the file. */
export interface BackupCommand {
  command: 'backup';
  outDir: string;
}

export type AdminReply = { ok: true; message: string } | { ok: false; message: string };

export const adminSocketPath = (dataDir: string) => join(dataDir, 'admin.sock');

const DONE: Record<RoleCommand, (email: string) => string> = {
  grant: (email) => `${email} is now an admin.`,
  'grant-door': (email) => `${email} is now door staff: they can use the check-in screen and nothing else.`,
  revoke: (email) => `${email} no longer has staff rights.`,
};

/**
 * Runs one role command against the database; the CLI and the socket share it, and the admin
 * panel's Staff tab makes the same change (staff.ts changeStaffRole: verified accounts only,
 * sessions ended on a revocation, audited).
 */
export async function runAdminCommand(db: Db, { command, email }: AdminCommand): Promise<AdminReply> {
  const outcome = await changeStaffRole(db, { account: { email }, role: ROLE_COMMANDS[command], actor: ADMIN_CLI_ACTOR });
  switch (outcome.kind) {
    case 'not_found':
      return { ok: false, message: `No account has the email ${email}. Create it at /auth first.` };
    case 'not_verified':
      return {
        ok: false,
        message: `${email} has not verified its email address yet: ask them to follow the link in the verification email, then grant again.`,
      };
    case 'own_admin_role':
    case 'last_admin':
      // Only the panel is refused these (the operator at the machine may demote anyone).
      return { ok: false, message: `${email} keeps the admin role.` };
    case 'changed':
      return { ok: true, message: DONE[command](email) };
  }
}

/**
 * The embedded database allows one process, so while the shop runs, `npm run admin` reaches it
 * through a Unix socket in DATA_DIR (mode 600: only this machine's owner of DATA_DIR may use it).
 * Taking the socket also proves no other server uses this DATA_DIR.
 */
export async function listenForAdminCommands(dataDir: string, db: () => Db, backup?: (outDir: string) => Promise<AdminReply>): Promise<Server> {
  const path = adminSocketPath(dataDir);
  await mkdir(dataDir, { recursive: true });
  if (await sendAdminCommand(dataDir, null).then(() => true, () => false)) {
    throw new Error(`another SkipPass server is already using ${dataDir}`);
  }
  await rm(path, { force: true });
  const server = createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', async (chunk: string) => {
      buffer += chunk;
      if (!buffer.includes('\n')) return;
      let reply: AdminReply;
      try {
        const request = JSON.parse(buffer.slice(0, buffer.indexOf('\n'))) as Partial<AdminCommand> | Partial<BackupCommand> | { command: 'ping' };
        if (request.command === 'ping') reply = { ok: true, message: 'pong' };
        else if (request.command === 'backup' && 'outDir' in request && typeof request.outDir === 'string' && backup) reply = await backup(request.outDir);
        else if (isRoleCommand(request.command) && 'email' in request && typeof request.email === 'string') {
          reply = await runAdminCommand(db(), { command: request.command, email: request.email });
        } else reply = { ok: false, message: 'bad command' };
      } catch (error) {
        reply = { ok: false, message: error instanceof Error ? error.message : 'bad command' };
      }
      socket.end(`${JSON.stringify(reply)}\n`);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path, resolve));
  await chmod(path, 0o600);
  return server;
}

/** Sends a command to a running server; rejects when none listens. A null command only pings. */
export function sendAdminCommand(dataDir: string, command: AdminCommand | BackupCommand | null): Promise<AdminReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(adminSocketPath(dataDir));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(command ?? { command: 'ping' })}\n`));
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => {
      try {
        resolve(JSON.parse(answer) as AdminReply);
      } catch {
        reject(new Error('no answer from the running server'));
      }
    });
    socket.on('error', reject);
  });
}
