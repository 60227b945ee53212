import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  addUserContact,
  CONTACT_MAX_LENGTH,
  deleteUserContacts,
  listUserContacts,
  MAX_CONTACTS_PER_USER,
  USER_CONTACT_TYPES,
} from '../../core/contacts/user-contacts.ts';
import {
  cancelOrder,
  createOrder,
  deleteOrders,
  listOrders,
  ORDER_DATA_MAX_CHARS,
  ORDER_STATUSES,
} from '../../core/orders/orders.ts';
import {
  ADVANCED_PROFILE_CREDITS,
  hidePurchases,
  listPurchases,
  PROFILE_CREDITS,
  purchaseProfile,
  setPurchaseHidden,
} from '../../core/purchases/purchases.ts';
import { SECTIONS } from '../../core/sections/sections.ts';
import type { AppServices } from '../../core/services.ts';
import {
  deleteTableViewSettings,
  listTableViewSettings,
  saveTableViewSetting,
  TABLE_STYLES,
  updateTableViewSetting,
} from '../../core/table-views/table-view-settings.ts';
import { MAX_PAGE_SIZE } from '../../core/user-data/list-query.ts';
import { requireUser } from './auth.ts';
import { type ApiRoutes, getRoute, intParam, mutationRoute } from './route.ts';
import {
  DeletedSchema,
  idParams,
  listQuery,
  pageOut,
  pageSchema,
  RECORD_ROUTE_ERRORS,
  requireOwnUser,
  USER_ROUTE_ERRORS,
  userIdParams,
} from './user-data-route.ts';

// The rest of a user's data in the users API (spec §7 "Users"): contacts (POST and GET
// /contacts/users/{user_id}, DELETE /contacts), orders, purchases and table_view_settings (GET and
// POST on /{resource}/users/{user_id}, PATCH /{resource}/{id}, DELETE /{resource} with ids).
// Same guards as the histories: a guest gets 401, another user's {user_id} 403, another user's
// record 404 (a DELETE with any id that is not the caller's deletes nothing and is a 404).

const TAGS = ['Account data'];

const companyRef = z
  .object({ id: z.number().int(), uri: z.string(), name: z.string(), jurisdiction_id: z.number().int() })
  .nullable()
  .describe('The company as it is now; null when it no longer exists.');

const UserContactSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(USER_CONTACT_TYPES),
    contact: z.string().describe('As shown: the address, the number with its spacing, the URL.'),
    created_at: z.string(),
  })
  .meta({ id: 'UserContact' });

const OrderSchema = z
  .object({
    id: z.number().int(),
    number: z.number().int().describe('Per user, from 1 (the # column of /dashboard/orders/).'),
    created_at: z.string(),
    updated_at: z.string(),
    amount: z.string().describe('Exact decimal text with the currency’s minor unit of decimals, e.g. "12.50".'),
    currency: z.string().describe('ISO 4217 code.'),
    status: z.enum(ORDER_STATUSES),
    order_data: z.record(z.string(), z.unknown()).describe('What was ordered, as given when the order was made.'),
  })
  .meta({ id: 'Order' });

const PurchaseSchema = z
  .object({
    id: z.number().int(),
    object_id: z.number().int().describe('The company’s id.'),
    credits: z.number().int().describe('Credits the profile cost.'),
    created_at: z.string().describe('When it was bought (ISO 8601).'),
    hidden: z.boolean().describe('Removed from the purchase history by the user (the company stays bought).'),
    company: companyRef,
  })
  .meta({ id: 'Purchase' });

const SECTION_IDS = SECTIONS.map((s) => s.id) as [string, ...string[]];
const section = z.enum(SECTION_IDS).describe('The search section.');

const TableViewSettingSchema = z
  .object({
    id: z.number().int(),
    section: z.string(),
    style: z.enum(TABLE_STYLES),
    columns: z
      .array(z.string())
      .nullable()
      .describe('Visible columns in order (keys of the section’s columns); null: the section’s default columns.'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'TableViewSetting' });

/** A list of record ids in a DELETE body, named after the resource (`contact_ids`, …). */
const idList = (name: string, what: string) =>
  z
    .array(intParam(name))
    .min(1, { error: `${name}: give at least one id` })
    .max(MAX_PAGE_SIZE, { error: `${name}: at most ${MAX_PAGE_SIZE} ids at once` })
    .describe(`The ids of ${what}: all of them must be yours, or nothing is deleted (404).`);

const styleField = z.enum(TABLE_STYLES).describe('The table style (default style-2).');
const columnsField = z
  .array(z.string().max(100))
  .max(200)
  .nullable()
  .describe(
    'Visible columns in order, keys of the section’s declared columns (each once, at least one). null or every column in order: the default.',
  );

export function registerUserAccountDataRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const { db } = services;

  // ---- contacts ----

  getRoute(
    api,
    routes,
    {
      url: '/contacts/users/:user_id',
      operationId: 'listUserContacts',
      summary: 'A user’s own contact details',
      description:
        'Newest first, 50 a page; `q` looks in the contact, `type` keeps one type, `from`/`to` at the day it was added.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      query: listQuery.extend({ type: z.enum(USER_CONTACT_TYPES).optional().describe('Keep one type.') }),
      response: pageSchema(UserContactSchema),
      errors: USER_ROUTE_ERRORS,
    },
    async (query, { request, path }) => {
      const auth = await requireOwnUser(request, path.user_id);
      return pageOut(await listUserContacts(db, auth.user.id, query));
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/contacts/users/:user_id',
      operationId: 'addUserContact',
      summary: 'Add a contact detail',
      description: `Checked for its type and kept in one spelling: an email address (lower-case), a phone or fax number (6 to 15 digits; + or 00 for an international one), a website (http or https; https:// is added when no scheme is given). The same contact twice is a 409; at most ${MAX_CONTACTS_PER_USER} contacts.`,
      tags: TAGS,
      auth: true,
      params: userIdParams,
      body: z.strictObject({
        type: z.enum(USER_CONTACT_TYPES),
        contact: z.string().max(1000).describe(`At most ${CONTACT_MAX_LENGTH} characters.`),
      }),
      response: UserContactSchema,
      status: 201,
      errors: [...USER_ROUTE_ERRORS, 409],
    },
    async ({ params, body }, { request }) => {
      const auth = await requireOwnUser(request, params.user_id);
      return addUserContact(db, auth.user.id, body);
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'delete',
      url: '/contacts',
      operationId: 'deleteUserContacts',
      summary: 'Delete contact details',
      tags: TAGS,
      auth: true,
      body: z.strictObject({ contact_ids: idList('contact_ids', 'your contacts to delete') }),
      response: DeletedSchema,
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ body }, { request }) => {
      const auth = await requireUser(request);
      return { deleted: await deleteUserContacts(db, auth.user.id, body.contact_ids) };
    },
  );

  // ---- orders ----

  getRoute(
    api,
    routes,
    {
      url: '/orders/users/:user_id',
      operationId: 'listOrders',
      summary: 'A user’s orders',
      description:
        'Newest first, 50 a page; `q` is an order number (#12 or 12) or text in the order’s data, `status` keeps one status, `from`/`to` at the day.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      query: listQuery.extend({ status: z.enum(ORDER_STATUSES).optional().describe('Keep one status.') }),
      response: pageSchema(OrderSchema),
      errors: USER_ROUTE_ERRORS,
    },
    async (query, { request, path }) => {
      const auth = await requireOwnUser(request, path.user_id);
      return pageOut(await listOrders(db, auth.user.id, query));
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/orders/users/:user_id',
      operationId: 'createOrder',
      summary: 'Place an order',
      description:
        'Creates a pending order, numbered per user from 1. Paid, failed and refunded are set by the payment provider, never by this call.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      body: z.strictObject({
        amount: z
          .string()
          .max(40)
          .describe('Decimal text, more than 0, with at most the currency’s minor unit of decimals: "12.50".'),
        currency: z.string().max(10).describe('ISO 4217 code, e.g. EUR.'),
        order_data: z
          .record(z.string(), z.unknown())
          .optional()
          .describe(
            `What is ordered (product, credits, plan …), a JSON object of at most ${ORDER_DATA_MAX_CHARS} characters.`,
          ),
      }),
      response: OrderSchema,
      status: 201,
      errors: USER_ROUTE_ERRORS,
    },
    async ({ params, body }, { request }) => {
      const auth = await requireOwnUser(request, params.user_id);
      return createOrder(db, auth.user.id, body);
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'patch',
      url: '/orders/:id',
      operationId: 'updateOrder',
      summary: 'Cancel a pending order',
      description:
        'The one change a user makes to an order: a pending order becomes cancelled; any other status is a 409.',
      tags: TAGS,
      auth: true,
      params: idParams,
      body: z.strictObject({ status: z.enum(['cancelled']).describe('The new status: only cancelled.') }),
      response: OrderSchema,
      errors: [...RECORD_ROUTE_ERRORS, 409],
    },
    async ({ params }, { request }) => {
      const auth = await requireUser(request);
      return cancelOrder(db, auth.user.id, params.id);
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'delete',
      url: '/orders',
      operationId: 'deleteOrders',
      summary: 'Delete orders no money moved for',
      description:
        'Pending, failed and cancelled orders can be deleted; a paid or refunded order is kept (409, nothing deleted).',
      tags: TAGS,
      auth: true,
      body: z.strictObject({ order_ids: idList('order_ids', 'your orders to delete') }),
      response: DeletedSchema,
      errors: [...RECORD_ROUTE_ERRORS, 409],
    },
    async ({ body }, { request }) => {
      const auth = await requireUser(request);
      return { deleted: await deleteOrders(db, auth.user.id, body.order_ids) };
    },
  );

  // ---- purchases ----

  getRoute(
    api,
    routes,
    {
      url: '/purchases/users/:user_id',
      operationId: 'listPurchases',
      summary: 'Company profiles a user bought',
      description:
        'Newest first, 50 a page; `q` looks in company names, `from`/`to` at the day; purchases removed from the history only with `hidden=true`.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      query: listQuery.extend({
        hidden: z.enum(['true', 'false']).optional().describe('true: include purchases removed from the history.'),
      }),
      response: pageSchema(PurchaseSchema),
      errors: USER_ROUTE_ERRORS,
    },
    async (query, { request, path }) => {
      const auth = await requireOwnUser(request, path.user_id);
      return pageOut(await listPurchases(db, auth.user.id, { ...query, hidden: query.hidden === 'true' }));
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/purchases/users/:user_id',
      operationId: 'purchaseProfile',
      summary: 'Buy a company’s full profile',
      description: `Once per user and company: ${PROFILE_CREDITS} credit, ${ADVANCED_PROFILE_CREDITS} for an advanced profile (a related list of 10 or more items). Buying it again records nothing new and answers the first purchase with created false (shown again in the history if it was removed).`,
      tags: TAGS,
      auth: true,
      params: userIdParams,
      body: z.strictObject({ object_id: intParam('object_id').describe('The company’s id.') }),
      response: z.object({
        purchase: PurchaseSchema,
        created: z.boolean().describe('false: the profile was already bought.'),
      }),
      errors: [...USER_ROUTE_ERRORS, 404],
    },
    async ({ params, body }, { request }) => {
      const auth = await requireOwnUser(request, params.user_id);
      return purchaseProfile(db, auth.user.id, body.object_id);
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'patch',
      url: '/purchases/:id',
      operationId: 'updatePurchase',
      summary: 'Remove a purchase from the history or show it again',
      description: 'A purchase is a record of credits spent: only whether the history shows it changes.',
      tags: TAGS,
      auth: true,
      params: idParams,
      body: z.strictObject({ hidden: z.boolean().describe('true: removed from the purchase history.') }),
      response: PurchaseSchema,
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ params, body }, { request }) => {
      const auth = await requireUser(request);
      return setPurchaseHidden(db, auth.user.id, params.id, body.hidden);
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'delete',
      url: '/purchases',
      operationId: 'deletePurchases',
      summary: 'Remove purchases from the purchase history',
      description:
        'The purchases are hidden, not erased: the companies stay bought and are never charged again. `deleted` counts them.',
      tags: TAGS,
      auth: true,
      body: z.strictObject({ purchase_ids: idList('purchase_ids', 'your purchases to remove') }),
      response: DeletedSchema,
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ body }, { request }) => {
      const auth = await requireUser(request);
      return { deleted: await hidePurchases(db, auth.user.id, body.purchase_ids) };
    },
  );

  // ---- table_view_settings ----

  getRoute(
    api,
    routes,
    {
      url: '/table_view_settings/users/:user_id',
      operationId: 'listTableViewSettings',
      summary: 'A user’s saved table views',
      description:
        'At most one per search section, by section; `section` keeps one. A section without one shows style-2 and its default columns.',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      query: z.strictObject({ section: section.optional() }),
      response: pageSchema(TableViewSettingSchema),
      errors: USER_ROUTE_ERRORS,
    },
    async (query, { request, path }) => {
      const auth = await requireOwnUser(request, path.user_id);
      const data = await listTableViewSettings(db, auth.user.id, query);
      return { count: data.length, next: null, data };
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'post',
      url: '/table_view_settings/users/:user_id',
      operationId: 'saveTableViewSetting',
      summary: 'Save a section’s table view',
      description:
        'Creates the section’s setting or changes the saved one (one per section): a field left out keeps its saved value (style-2 and the default columns for a new one).',
      tags: TAGS,
      auth: true,
      params: userIdParams,
      body: z.strictObject({ section, style: styleField.optional(), columns: columnsField.optional() }),
      response: TableViewSettingSchema,
      errors: USER_ROUTE_ERRORS,
    },
    async ({ params, body }, { request }) => {
      const auth = await requireOwnUser(request, params.user_id);
      return saveTableViewSetting(db, auth.user.id, body.section, body);
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'patch',
      url: '/table_view_settings/:id',
      operationId: 'updateTableViewSetting',
      summary: 'Change a saved table view',
      description: 'A field left out keeps its value.',
      tags: TAGS,
      auth: true,
      params: idParams,
      body: z.strictObject({ style: styleField.optional(), columns: columnsField.optional() }),
      response: TableViewSettingSchema,
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ params, body }, { request }) => {
      const auth = await requireUser(request);
      return updateTableViewSetting(db, auth.user.id, params.id, body);
    },
  );

  mutationRoute(
    api,
    routes,
    {
      method: 'delete',
      url: '/table_view_settings',
      operationId: 'deleteTableViewSettings',
      summary: 'Delete saved table views',
      description: 'Those sections go back to the cookie’s view or the default.',
      tags: TAGS,
      auth: true,
      body: z.strictObject({
        table_view_setting_ids: idList('table_view_setting_ids', 'your table view settings to delete'),
      }),
      response: DeletedSchema,
      errors: RECORD_ROUTE_ERRORS,
    },
    async ({ body }, { request }) => {
      const auth = await requireUser(request);
      return { deleted: await deleteTableViewSettings(db, auth.user.id, body.table_view_setting_ids) };
    },
  );
}
