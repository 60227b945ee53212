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
import { type ApiRoutes, intField } from './route.ts';
import { listQuery, RECORD_ROUTE_ERRORS, USER_ROUTE_ERRORS, userRecordRoutes } from './user-data-route.ts';

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
    failure_reason: z
      .string()
      .nullable()
      .describe(
        'A failed order: the payment provider’s reason code (declined, insufficient_funds, expired_card, …), or amount_mismatch, currency_mismatch, price_mismatch or transaction_mismatch when a payment did not match the order (it is held for review, nothing was added).',
      ),
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

  const contacts = userRecordRoutes(api, routes, { path: 'contacts', tags: TAGS });
  contacts.list(
    {
      operationId: 'listUserContacts',
      summary: 'A user’s own contact details',
      description:
        'Newest first, 50 a page; `q` looks in the contact, `type` keeps one type, `from`/`to` at the day it was added.',
      query: listQuery.extend({ type: z.enum(USER_CONTACT_TYPES).optional().describe('Keep one type.') }),
      item: UserContactSchema,
    },
    (userId, query) => listUserContacts(db, userId, query),
  );
  contacts.create(
    {
      operationId: 'addUserContact',
      summary: 'Add a contact detail',
      description: `Checked for its type and kept in one spelling: an email address (lower-case), a phone or fax number (6 to 15 digits; + or 00 for an international one), a website (http or https; https:// is added when no scheme is given). The same contact twice is a 409; at most ${MAX_CONTACTS_PER_USER} contacts.`,
      body: z.strictObject({
        type: z.enum(USER_CONTACT_TYPES),
        contact: z.string().max(1000).describe(`At most ${CONTACT_MAX_LENGTH} characters.`),
      }),
      response: UserContactSchema,
      status: 201,
      errors: [...USER_ROUTE_ERRORS, 409],
    },
    (userId, body) => addUserContact(db, userId, body),
  );
  contacts.removeMany(
    {
      operationId: 'deleteUserContacts',
      summary: 'Delete contact details',
      ids: 'contact_ids',
      what: 'your contacts to delete',
    },
    (userId, ids) => deleteUserContacts(db, userId, ids),
  );

  const orders = userRecordRoutes(api, routes, { path: 'orders', tags: TAGS });
  orders.list(
    {
      operationId: 'listOrders',
      summary: 'A user’s orders',
      description:
        'Newest first, 50 a page; `q` is an order number (#12 or 12) or text in the order’s data, `status` keeps one status, `from`/`to` at the day.',
      query: listQuery.extend({ status: z.enum(ORDER_STATUSES).optional().describe('Keep one status.') }),
      item: OrderSchema,
    },
    (userId, query) => listOrders(db, userId, query),
  );
  orders.create(
    {
      operationId: 'createOrder',
      summary: 'Place an order',
      description:
        'Creates a pending order, numbered per user from 1. Paid, failed and refunded are set by the payment provider, never by this call.',
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
    },
    (userId, body) => createOrder(db, userId, body),
  );
  orders.update(
    {
      operationId: 'updateOrder',
      summary: 'Cancel a pending order',
      description:
        'The one change a user makes to an order: a pending order becomes cancelled; any other status is a 409.',
      body: z.strictObject({ status: z.enum(['cancelled']).describe('The new status: only cancelled.') }),
      response: OrderSchema,
      errors: [...RECORD_ROUTE_ERRORS, 409],
    },
    (userId, id) => cancelOrder(db, userId, id),
  );
  orders.removeMany(
    {
      operationId: 'deleteOrders',
      summary: 'Delete orders no money moved for',
      description:
        'Pending, failed and cancelled orders can be deleted; a paid or refunded order is kept (409, nothing deleted).',
      ids: 'order_ids',
      what: 'your orders to delete',
      errors: [...RECORD_ROUTE_ERRORS, 409],
    },
    (userId, ids) => deleteOrders(db, userId, ids),
  );

  const purchases = userRecordRoutes(api, routes, { path: 'purchases', tags: TAGS });
  purchases.list(
    {
      operationId: 'listPurchases',
      summary: 'Company profiles a user bought',
      description:
        'Newest first, 50 a page; `q` looks in company names, `from`/`to` at the day; purchases removed from the history only with `hidden=true`.',
      query: listQuery.extend({
        hidden: z.enum(['true', 'false']).optional().describe('true: include purchases removed from the history.'),
      }),
      item: PurchaseSchema,
    },
    (userId, query) => listPurchases(db, userId, { ...query, hidden: query.hidden === 'true' }),
  );
  purchases.create(
    {
      operationId: 'purchaseProfile',
      summary: 'Buy a company’s full profile',
      description: `Once per user and company: ${PROFILE_CREDITS} credit, ${ADVANCED_PROFILE_CREDITS} for an advanced profile (a related list of 10 or more items), spent from the balance in the same transaction; too few credits is a 402 that records nothing. Buying it again spends nothing and answers the first purchase with created false (shown again in the history if it was removed). The purchase unlocks the company’s emails, phone and fax numbers (its contacts and Contacts records) and its officers’ contacts (members’ contacts, Connections records’ emails and phones), wherever they are read: pages, this API, exports, enrichment downloads, the change feed and webhooks (websites are never gated). A company with none of these has nothing to sell: a 409 (details.reason nothing_to_unlock), nothing charged.`,
      body: z.strictObject({ object_id: intField('object_id').describe('The company’s id.') }),
      response: z.object({
        purchase: PurchaseSchema,
        created: z.boolean().describe('false: the profile was already bought (nothing spent).'),
        balance: z.number().int().describe('The balance in credits after the purchase.'),
      }),
      errors: [...USER_ROUTE_ERRORS, 402, 404, 409],
    },
    (userId, body) => purchaseProfile(db, userId, body.object_id),
  );
  purchases.update(
    {
      operationId: 'updatePurchase',
      summary: 'Remove a purchase from the history or show it again',
      description: 'A purchase is a record of credits spent: only whether the history shows it changes.',
      body: z.strictObject({ hidden: z.boolean().describe('true: removed from the purchase history.') }),
      response: PurchaseSchema,
    },
    (userId, id, body) => setPurchaseHidden(db, userId, id, body.hidden),
  );
  purchases.removeMany(
    {
      operationId: 'deletePurchases',
      summary: 'Remove purchases from the purchase history',
      description:
        'The purchases are hidden, not erased: the companies stay bought and are never charged again. `deleted` counts them.',
      ids: 'purchase_ids',
      what: 'your purchases to remove',
    },
    (userId, ids) => hidePurchases(db, userId, ids),
  );

  const tableViews = userRecordRoutes(api, routes, { path: 'table_view_settings', tags: TAGS });
  tableViews.list(
    {
      operationId: 'listTableViewSettings',
      summary: 'A user’s saved table views',
      description:
        'At most one per search section, by section; `section` keeps one. A section without one shows style-2 and its default columns.',
      query: z.strictObject({ section: section.optional() }),
      item: TableViewSettingSchema,
    },
    async (userId, query) => ({ data: await listTableViewSettings(db, userId, query), next: null }),
  );
  tableViews.create(
    {
      operationId: 'saveTableViewSetting',
      summary: 'Save a section’s table view',
      description:
        'Creates the section’s setting or changes the saved one (one per section): a field left out keeps its saved value (style-2 and the default columns for a new one).',
      body: z.strictObject({ section, style: styleField.optional(), columns: columnsField.optional() }),
      response: TableViewSettingSchema,
    },
    (userId, body) => saveTableViewSetting(db, userId, body.section, body),
  );
  tableViews.update(
    {
      operationId: 'updateTableViewSetting',
      summary: 'Change a saved table view',
      description: 'A field left out keeps its value.',
      body: z.strictObject({ style: styleField.optional(), columns: columnsField.optional() }),
      response: TableViewSettingSchema,
    },
    (userId, id, body) => updateTableViewSetting(db, userId, id, body),
  );
  tableViews.removeMany(
    {
      operationId: 'deleteTableViewSettings',
      summary: 'Delete saved table views',
      description: 'Those sections go back to the cookie’s view or the default.',
      ids: 'table_view_setting_ids',
      what: 'your table view settings to delete',
    },
    (userId, ids) => deleteTableViewSettings(db, userId, ids),
  );
}
