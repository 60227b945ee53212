import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../../core/services.ts';
import { registerBillingRoutes } from './billing.ts';
import { registerBulkRoutes } from './bulk.ts';
import { CHANGES_WEBHOOK, registerChangeRoutes } from './changes.ts';
import { registerDocs } from './docs.ts';
import { registerExportRoutes } from './export.ts';
import { registerExportJobRoutes } from './export-jobs.ts';
import { registerHealthRoutes } from './health.ts';
import { registerKbRoutes } from './kb.ts';
import { registerLegalEntityRoutes } from './legal-entities.ts';
import { registerMatchRoutes } from './match.ts';
import { registerMonitoringRoutes } from './monitoring.ts';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi.ts';
import { registerOwnershipRoutes } from './ownership.ts';
import { registerPartnerStatsRoutes } from './partner-stats.ts';
import { registerReconcileRoutes } from './reconcile.ts';
import { registerRecordRoutes } from './records.ts';
import { registerReferenceRoutes } from './reference.ts';
import { type ApiRoutes, getRoute } from './route.ts';
import { registerSuggestRoutes } from './suggest.ts';
import { registerSupportRoutes } from './support.ts';
import { registerUserAccountDataRoutes } from './user-account-data.ts';
import { registerUserHistoryRoutes } from './user-history.ts';
import { registerUserRoutes } from './users.ts';
import { registerWatchlistRoutes } from './watchlists.ts';

export const API_TAGS = [
  {
    name: 'Data',
    description: 'Companies (legal entities) and their related records: search, lookup by id, filters and statistics.',
  },
  { name: 'Reference data', description: 'Locations, industries and the other lists that company data refers to.' },
  {
    name: 'Users',
    description:
      'Sign-up, sign-in (the `token` cookie), the signed-in user and password recovery. A guest calling a signed-in route gets 401; another user’s id gets 403.',
  },
  {
    name: 'Watchlists',
    description:
      'Company lists of the signed-in user, their companies and tags. A guest gets 401; another user’s {user_id} 403, another user’s list 404.',
  },
  {
    name: 'Monitoring',
    description:
      'Companies tracked for updates and searches tracked for new companies, and their reports. A guest gets 401; another user’s {user_id} 403, another user’s tracking 404.',
  },
  {
    name: 'Changes and webhooks',
    description:
      'Every change imports made to companies, from any cursor, and webhooks that push the changes of the companies a user tracks. A guest gets 401; another user’s {user_id} 403, another user’s webhook or delivery 404.',
  },
  {
    name: 'History and saved searches',
    description:
      'Company profiles opened, searches made and searches saved by the signed-in user. A guest gets 401; another user’s {user_id} 403, another user’s record 404.',
  },
  {
    name: 'Export',
    description:
      'Downloads of search results in csv, xlsx, json or xml (signed-in users: a guest gets 401), and the export view settings each user keeps per section.',
  },
  {
    name: 'Account data',
    description:
      'Contact details, orders, profile purchases and table view settings of the signed-in user. A guest gets 401; another user’s {user_id} 403, another user’s record 404.',
  },
  {
    name: 'Payments',
    description:
      'Credits and what they buy, orders paid through the payment provider (Paddle, or the sandbox without keys), the credits ledger, subscriptions and invoices. A guest gets 401; another user’s {user_id} 403, another user’s record 404.',
  },
  {
    name: 'Bulk data',
    description:
      'Daily snapshots of the public data (companies and every record section, JSON Lines and CSV, gzipped) and change files since the snapshot before: anyone may list them, an API key of a paid plan downloads them.',
  },
  {
    name: 'Partner stats',
    description: 'Visitor records: who came, from which partner and campaign (UTM). No sign-in needed.',
  },
  {
    name: 'Reconciliation',
    description:
      'The W3C Reconciliation Service API 0.2 (OpenRefine and other tools): manifest, queries, suggest, preview and data extension, over the matching engine.',
  },
  {
    name: 'Help and support',
    description:
      'The knowledge base (no sign-in needed) and support tickets. A ticket is its requester’s: another user’s is not found (404).',
  },
  { name: 'Meta', description: 'Health and this document.' },
];

/** Registers every JSON route under /api, the OpenAPI document at /api/openapi.json and the docs at /api/docs. */
export async function registerApi(api: FastifyInstance, services: AppServices): Promise<void> {
  const routes: ApiRoutes = [];

  registerHealthRoutes(api, routes, services);
  registerLegalEntityRoutes(api, routes, services);
  registerOwnershipRoutes(api, routes, services);
  registerRecordRoutes(api, routes, services);
  registerReferenceRoutes(api, routes, services);
  registerUserRoutes(api, routes, services);
  registerWatchlistRoutes(api, routes, services);
  registerMonitoringRoutes(api, routes, services);
  registerChangeRoutes(api, routes, services);
  registerUserHistoryRoutes(api, routes, services);
  registerUserAccountDataRoutes(api, routes, services);
  registerPartnerStatsRoutes(api, routes, services);
  registerExportRoutes(api, routes, services);
  registerExportJobRoutes(api, routes, services);
  registerBulkRoutes(api, routes, services);
  registerBillingRoutes(api, routes, services);
  registerMatchRoutes(api, routes, services);
  registerReconcileRoutes(api, routes, services);
  registerKbRoutes(api, routes, services);
  registerSupportRoutes(api, routes, services);
  registerSuggestRoutes(api, routes, services);

  let document: OpenApiDocument | undefined;
  getRoute(
    api,
    routes,
    {
      url: '/openapi.json',
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI 3.1 document',
      tags: ['Meta'],
      query: z.strictObject({}),
      response: z.object({ openapi: z.string() }).loose(),
    },
    async () => {
      document ??= buildOpenApiDocument(routes, API_TAGS, [CHANGES_WEBHOOK]);
      return document;
    },
  );
  registerDocs(api);
}
