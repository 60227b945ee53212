import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MAX_NEW_COMPANY_TRACKINGS, MAX_TRACKED_COMPANIES, TRACKING_NAME_MAX } from '../../core/limits.ts';
import {
  deleteExistingTracking,
  type ExistingTracking,
  listExistingTrackings,
  requireExistingTracking,
  setExistingTrackingStatus,
  TRACKED_SECTIONS,
  trackCompany,
  updateExistingTracking,
} from '../../core/monitoring/existing-trackings.ts';
import {
  createNewTracking,
  deleteNewTracking,
  listNewTrackings,
  requireNewTracking,
  setNewTrackingStatus,
  updateNewTracking,
} from '../../core/monitoring/new-trackings.ts';
import { listNewCompaniesReports, listUpdateReports } from '../../core/monitoring/reports.ts';
import { TRACKING_STATUSES } from '../../core/monitoring/tracking-status.ts';
import type { AppServices } from '../../core/services.ts';
import { requireUser } from './auth.ts';
import { type ApiRoutes, getRoute, intField, intParam } from './route.ts';
import { idParams, listQuery, RECORD_ROUTE_ERRORS, userRecordRoutes } from './user-data-route.ts';

// Monitoring (spec §7 "Tracking"): existing_objects_tracking and new_objects_tracking — GET and
// POST on a user, GET one, PATCH, DELETE and a status PATCH — and the reports built for them.
// The guards of every user record: a guest 401, another user's {user_id} 403, another user's
// tracking 404 (docs/decisions/0015-monitoring.md).

const TAGS = ['Monitoring'];

const status = z.enum(TRACKING_STATUSES).describe('active: reported on; paused: kept, not reported on.');

const sections = z
  .array(z.enum(TRACKED_SECTIONS))
  .min(1)
  .max(TRACKED_SECTIONS.length)
  .nullable()
  .describe(
    'What the tracking reports: `company` (the company’s own fields) and record sections by table (`trademarks`, `violations`, …); null: everything.',
  );

const companyRef = z
  .object({ id: z.number().int(), uri: z.string(), name: z.string(), jurisdiction_id: z.number().int() })
  .nullable()
  .describe('The company as it is now; null when it no longer exists.');

const ExistingTrackingSchema = z
  .object({
    id: z.number().int(),
    object_id: z.number().int().nullable().describe('The tracked company’s id.'),
    name: z.string().describe('The company’s legal name as it is now.'),
    status,
    created_on: z.string(),
    updated_at: z.string(),
    reports: z.number().int().describe('Update reports made for it.'),
    sections,
    company: companyRef,
  })
  .meta({ id: 'ExistingObjectsTracking' });

const NewTrackingSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    query: z.string().describe('The companies search whose new companies are reported.'),
    status,
    created_on: z.string(),
    updated_at: z.string(),
    reports: z.number().int().describe('New-companies reports made for it.'),
  })
  .meta({ id: 'NewObjectsTracking' });

const FieldChangeSchema = z.object({
  change_id: z.number().int().describe('The change’s id in the change history.'),
  field: z.string().describe('The field that changed (core/imports/fields.ts); `records.<table>`: one of its records.'),
  old: z.unknown().describe('The value before; null when it was added.'),
  new: z.unknown().describe('The value after; null when it was removed.'),
  source: z.string().describe('Where the change came from (an import source).'),
  source_date: z.string().nullable().describe('The source’s own date for it.'),
});

const UpdateReportSchema = z
  .object({
    id: z.number().int(),
    tracking_id: z.number().int(),
    created_on: z.string(),
    company: companyRef,
    updates: z.number().int().describe('Changed fields.'),
    changes: z.array(FieldChangeSchema).describe('Oldest first.'),
  })
  .meta({ id: 'UpdateReport' });

const NewCompaniesReportSchema = z
  .object({
    id: z.number().int(),
    tracking_id: z.number().int(),
    tracking: z.string().describe('The tracking’s name.'),
    created_on: z.string(),
    companies: z.number().int().describe('New companies.'),
    company_ids: z.array(z.number().int()),
  })
  .meta({ id: 'NewCompaniesReport' });

const trackingQuery = listQuery.extend({ status: status.optional().describe('Only trackings of this status.') });
const reportQuery = listQuery.extend({
  tracking_id: intParam('tracking_id').optional().describe('Only the reports of this tracking.'),
});

function existingOut(t: ExistingTracking) {
  return { ...t, object_id: t.company?.id ?? null };
}

const name = z.string().max(1000).describe(`1 to ${TRACKING_NAME_MAX} characters.`);
const query = z
  .string()
  .max(2000)
  .describe('A companies search path, e.g. /companies/search/?jurisdiction=276&q=bank (what its filters select).');

export function registerMonitoringRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const { db } = services;

  // ---- existing_objects_tracking ----
  const existing = userRecordRoutes(api, routes, { path: 'existing_objects_tracking', tags: TAGS });
  existing.list(
    {
      operationId: 'listExistingObjectsTracking',
      summary: 'The companies a user tracks for updates',
      description: 'Newest first, 50 a page; `q` looks in the legal names, `status` keeps one status.',
      query: trackingQuery,
      item: ExistingTrackingSchema,
    },
    async (userId, q) => {
      const page = await listExistingTrackings(db, userId, q);
      return { data: page.data.map(existingOut), next: page.next };
    },
  );
  existing.create(
    {
      operationId: 'createExistingObjectsTracking',
      summary: 'Track a company for updates',
      description: `Tracking a company that is tracked already answers 200 with that tracking; at most ${MAX_TRACKED_COMPANIES.toLocaleString('en')} companies.`,
      body: z.strictObject({
        object_id: intField('object_id').describe('The company’s id.'),
        status: status.optional(),
        sections: sections.optional(),
      }),
      response: z.object({ tracking: ExistingTrackingSchema, created: z.boolean() }),
      status: 201,
    },
    async (userId, body) => {
      const result = await trackCompany(db, userId, body.object_id, body.status, body.sections ?? null);
      return { tracking: existingOut(result.tracking), created: result.created };
    },
  );
  getRoute(
    api,
    routes,
    {
      url: '/existing_objects_tracking/:id',
      operationId: 'getExistingObjectsTracking',
      summary: 'One company tracking',
      tags: TAGS,
      auth: true,
      params: idParams,
      query: z.strictObject({}),
      response: z.object({ tracking: ExistingTrackingSchema }),
      errors: RECORD_ROUTE_ERRORS,
    },
    async (_q, { request, path }) => {
      const auth = await requireUser(request);
      return { tracking: existingOut(await requireExistingTracking(db, auth.user.id, path.id)) };
    },
  );
  existing.update(
    {
      operationId: 'updateExistingObjectsTracking',
      summary: 'Change a company tracking: its status, the sections it reports',
      body: z.strictObject({ status: status.optional(), sections: sections.optional() }),
      response: z.object({ tracking: ExistingTrackingSchema }),
    },
    async (userId, id, body) => ({
      tracking: existingOut(await updateExistingTracking(db, userId, id, body)),
    }),
  );
  existing.update(
    {
      operationId: 'updateExistingObjectsTrackingStatus',
      summary: 'Pause or resume a company tracking',
      path: 'status',
      body: z.strictObject({ status }),
      response: z.object({ tracking: ExistingTrackingSchema }),
    },
    async (userId, id, body) => ({
      tracking: existingOut(await setExistingTrackingStatus(db, userId, id, body.status)),
    }),
  );
  existing.remove(
    { operationId: 'deleteExistingObjectsTracking', summary: 'Stop tracking a company (its reports go too)' },
    (userId, id) => deleteExistingTracking(db, userId, id),
  );

  // ---- new_objects_tracking ----
  const fresh = userRecordRoutes(api, routes, { path: 'new_objects_tracking', tags: TAGS });
  fresh.list(
    {
      operationId: 'listNewObjectsTracking',
      summary: 'The searches a user tracks for new companies',
      description: 'Newest first, 50 a page; `q` looks in the names, `status` keeps one status.',
      query: trackingQuery,
      item: NewTrackingSchema,
    },
    (userId, q) => listNewTrackings(db, userId, q),
  );
  fresh.create(
    {
      operationId: 'createNewObjectsTracking',
      summary: 'Track a search for new companies',
      description: `Reports list the companies that appear and match the search. At most ${MAX_NEW_COMPANY_TRACKINGS} trackings.`,
      body: z.strictObject({ name, query, status: status.optional() }),
      response: z.object({ tracking: NewTrackingSchema }),
      status: 201,
    },
    async (userId, body) => ({ tracking: await createNewTracking(db, userId, body) }),
  );
  getRoute(
    api,
    routes,
    {
      url: '/new_objects_tracking/:id',
      operationId: 'getNewObjectsTracking',
      summary: 'One new-company tracking',
      tags: TAGS,
      auth: true,
      params: idParams,
      query: z.strictObject({}),
      response: z.object({ tracking: NewTrackingSchema }),
      errors: RECORD_ROUTE_ERRORS,
    },
    async (_q, { request, path }) => {
      const auth = await requireUser(request);
      return { tracking: await requireNewTracking(db, auth.user.id, path.id) };
    },
  );
  fresh.update(
    {
      operationId: 'updateNewObjectsTracking',
      summary: 'Rename a new-company tracking, change its search or status',
      body: z.strictObject({ name: name.optional(), query: query.optional(), status: status.optional() }),
      response: z.object({ tracking: NewTrackingSchema }),
    },
    async (userId, id, body) => ({ tracking: await updateNewTracking(db, userId, id, body) }),
  );
  fresh.update(
    {
      operationId: 'updateNewObjectsTrackingStatus',
      summary: 'Pause or resume a new-company tracking',
      path: 'status',
      body: z.strictObject({ status }),
      response: z.object({ tracking: NewTrackingSchema }),
    },
    async (userId, id, body) => ({ tracking: await setNewTrackingStatus(db, userId, id, body.status) }),
  );
  fresh.remove(
    { operationId: 'deleteNewObjectsTracking', summary: 'Delete a new-company tracking (its reports go too)' },
    (userId, id) => deleteNewTracking(db, userId, id),
  );

  // ---- reports ----
  userRecordRoutes(api, routes, { path: 'existing_objects_reports', tags: TAGS }).list(
    {
      operationId: 'listUpdateReports',
      summary: 'Update reports of a user’s company trackings',
      description: 'Newest first, 50 a page: each tracked company’s changed fields, old → new.',
      query: reportQuery,
      item: UpdateReportSchema,
    },
    (userId, q) => listUpdateReports(db, userId, q),
  );
  userRecordRoutes(api, routes, { path: 'new_objects_reports', tags: TAGS }).list(
    {
      operationId: 'listNewCompaniesReports',
      summary: 'New-companies reports of a user’s trackings',
      description: 'Newest first, 50 a page: the companies that appeared matching each tracking’s search.',
      query: reportQuery,
      item: NewCompaniesReportSchema,
    },
    (userId, q) => listNewCompaniesReports(db, userId, q),
  );
}
