import type { Command } from 'commander';
import type { Env } from '../server/env.ts';

// `kb load`: loads the help content (content/kb/{lang}/*.md) into the database now, without a
// restart (start-up does the same, ADR 0021). Only topics whose files changed are written.

export function registerKbCommand(program: Command, env: Env): void {
  const kb = program.command('kb').description('The help and knowledge base (content/kb)');
  kb.command('load')
    .description('Load content/kb into the database: changed topics are written, removed ones deleted')
    .action(async () => {
      const { openDatabase } = await import('../db/open-database.ts');
      const { loadReferenceData } = await import('../db/reference/load-reference-data.ts');
      const { loadKnowledgeBase } = await import('../core/kb/load-knowledge-base.ts');
      const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
      try {
        await loadReferenceData(db);
        const result = await loadKnowledgeBase(db);
        console.log(`Help content: ${result.topics} topics, ${result.written} written, ${result.removed} removed.`);
      } finally {
        await db.close();
      }
    });
}
