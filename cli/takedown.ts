import { userInfo } from 'node:os';
import type { Command } from 'commander';
import type { TakedownTarget } from '../core/takedowns/takedowns.ts';
import type { Env } from '../server/env.ts';

// `takedown company|person <ref> --reason …`: hides a company (id or profile URI) or a person
// (member id) from public pages, sitemaps and the public API; `takedown restore …` shows it again;
// `takedown log` lists the newest entries. Every change is logged with who ran it (ADR 0021).

export function registerTakedownCommand(program: Command, env: Env): void {
  const takedown = program
    .command('takedown')
    .description('Hide a company or person from public pages, sitemaps and the API (logged)');
  const run = async (
    action: 'hide' | 'restore',
    target: string,
    ref: string,
    options: { reason: string; requestedBy?: string },
  ) => {
    if (target !== 'company' && target !== 'person') {
      console.error(`Unknown kind ${target}: company or person.`);
      process.exitCode = 1;
      return;
    }
    const { openDatabase } = await import('../db/open-database.ts');
    const { applyTakedown } = await import('../core/takedowns/takedowns.ts');
    const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    try {
      const id = await applyTakedown(db, action, {
        target: target as TakedownTarget,
        ref,
        reason: options.reason,
        requestedBy: options.requestedBy,
        actor: process.env.REGISTRA_ACTOR || userInfo().username,
      });
      console.log(`${target} ${id}: ${action === 'hide' ? 'taken down' : 'restored'}.`);
    } catch (error) {
      console.error((error as Error).message);
      process.exitCode = 1;
    } finally {
      await db.close();
    }
  };
  for (const target of ['company', 'person']) {
    takedown
      .command(`${target} <ref>`)
      .description(
        target === 'company' ? 'Take down a company (its id or profile URI)' : 'Take down a person (member id)',
      )
      .requiredOption('--reason <text>', 'why (kept in the log)')
      .option('--requested-by <who>', 'who asked (kept in the log)')
      .action((ref: string, options: { reason: string; requestedBy?: string }) => run('hide', target, ref, options));
  }
  takedown
    .command('restore <kind> <ref>')
    .description('Show a company or person again')
    .requiredOption('--reason <text>', 'why (kept in the log)')
    .action((kind: string, ref: string, options: { reason: string }) => run('restore', kind, ref, options));
  takedown
    .command('log')
    .description('The newest takedowns and restores')
    .action(async () => {
      const { openDatabase } = await import('../db/open-database.ts');
      const { takedownLog } = await import('../core/takedowns/takedowns.ts');
      const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
      try {
        for (const row of await takedownLog(db)) {
          console.log(
            [
              row.created_at.toISOString(),
              row.action,
              row.object_type,
              row.object_id,
              row.actor,
              row.requested_by ?? '-',
              row.reason,
            ].join('\t'),
          );
        }
      } finally {
        await db.close();
      }
    });
}
