import type { Command } from 'commander';
import type { Env } from '../server/env.ts';

// `users grant-role <email> <role>` and `users revoke-role <email> <role>`: the support desk's
// staff (ADR 0021). Exit 1 with one line when the account or the role does not exist.

export function registerUsersCommand(program: Command, env: Env): void {
  const users = program.command('users').description('Accounts: roles');
  const roleCommand = (name: string, description: string, change: 'grantRole' | 'revokeRole') =>
    users
      .command(`${name} <email> <role>`)
      .description(description)
      .action(async (email: string, role: string) => {
        const { openDatabase } = await import('../db/open-database.ts');
        const { isRole, [change]: run } = await import('../core/accounts/user-roles.ts');
        if (!isRole(role)) {
          console.error(`Unknown role ${role}: the roles are support.`);
          process.exitCode = 1;
          return;
        }
        const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
        try {
          const changed = await run(db, email, role);
          console.log(
            changed
              ? `${email}: ${name === 'grant-role' ? 'granted' : 'revoked'} ${role}.`
              : `${email}: nothing to change.`,
          );
        } catch (error) {
          console.error((error as Error).message);
          process.exitCode = 1;
        } finally {
          await db.close();
        }
      });
  roleCommand('grant-role', 'Give an account a role (support: answers tickets at /support-desk/)', 'grantRole');
  roleCommand('revoke-role', 'Take a role away from an account', 'revokeRole');
}
