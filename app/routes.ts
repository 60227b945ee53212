import { index, type RouteConfig, route } from '@react-router/dev/routes';

// Every page exists in English (no prefix) and under /de and /fr: one optional :lang segment.
export default [
  route(':lang?', 'routes/locale.tsx', [
    index('routes/home.tsx'),
    // Every search section (companies and the 21 related-record sections) from one route module:
    // /{section}/search/… with the section read from the path (an unknown one is a 404). Five
    // routes, not five per section: React Router ranks every route on every request.
    route(':section/search', 'routes/search.tsx', { id: 'section-search' }),
    route(':section/search/advanced', 'routes/advanced-search.tsx'),
    route(':section/search/f/*', 'routes/search.tsx', { id: 'section-search-filtered' }),
    // Every value of one long list of a search's filter panel (ADR 0043).
    route(':section/search/choices/:field', 'routes/search-choices.tsx'),
    // Export: every section's search as a file, from /{section}/export/ with the search's query.
    route(':section/export', 'routes/export.tsx', { id: 'section-export' }),
    route(':section/export/f/*', 'routes/export.tsx', { id: 'section-export-filtered' }),
    route('companies/details/:uri', 'routes/companies/details.tsx'),
    // A company's History tab: the changes imports recorded (ADR 0014), filterable by field, paged.
    route('companies/details/:uri/history', 'routes/companies/history.tsx'),
    // A company's changes between two days, field by field (docs/decisions/0028-company-as-of.md).
    route('companies/details/:uri/compare', 'routes/companies/compare.tsx'),
    route('companies/directories/jurisdictions', 'routes/companies/jurisdictions.tsx'),
    route('companies/directories/industries', 'routes/companies/industries.tsx', { id: 'industries' }),
    route('companies/directories/industries/f/:industry', 'routes/companies/industries.tsx', { id: 'industry' }),
    // Company comparison: the page and its PDF export.
    // The user's table view and export settings for companies (spec §2 "Company pages").
    route('companies/settings', 'routes/companies/settings.tsx'),
    route('companies/comparison', 'routes/comparison/page.tsx'),
    route('companies/comparison/pdf', 'routes/comparison/pdf.ts'),
    // Enrichment (ADR 0020): upload a file of companies, run, review, download it matched and completed.
    route('companies/enrichment', 'routes/enrichment/enrichments.tsx'),
    route('companies/enrichment/:id', 'routes/enrichment/enrichment.tsx'),
    route('companies/enrichment/:id/download', 'routes/enrichment/download.ts'),
    route('companies/enrichment/:id/review', 'routes/enrichment/review.ts'),
    // What a signed-in user keeps: company lists, histories, saved searches.
    route('companies/lists', 'routes/lists/lists.tsx'),
    route('companies/lists/add', 'routes/lists/add.tsx'),
    route('companies/lists/:number', 'routes/lists/list.tsx'),
    route('companies/history/browsing', 'routes/history/browsing.tsx', { id: 'browsing-history' }),
    route('dashboard/history/views/companies', 'routes/history/browsing.tsx', { id: 'dashboard-views-history' }),
    route('companies/history/search', 'routes/history/searches.tsx', { id: 'search-history' }),
    route('dashboard/history/search/companies', 'routes/history/searches.tsx', { id: 'dashboard-search-history' }),
    route('dashboard/history/purchases/profiles/companies', 'routes/history/purchases.tsx'),
    route('dashboard/saved-searches', 'routes/saved-searches.tsx'),
    // Monitoring: tracked companies, tracked searches for new companies, their reports.
    route('companies/monitoring/updates', 'routes/monitoring/updates.tsx'),
    route('companies/monitoring/updates/reports', 'routes/monitoring/update-reports.tsx'),
    route('companies/monitoring/updates/sections', 'routes/monitoring/sections.tsx'),
    route('companies/monitoring/new', 'routes/monitoring/new.tsx'),
    route('companies/monitoring/new/reports', 'routes/monitoring/new-reports.tsx'),
    route('companies/monitoring/new/add', 'routes/monitoring/new-add.tsx'),
    route('companies/monitoring/track', 'routes/monitoring/track.tsx'),
    // The dashboard, notifications and settings.
    route('dashboard', 'routes/dashboard/overview.tsx'),
    // The balance as the header words it, for the live-balance island (ADR 0030).
    route('dashboard/balance', 'routes/dashboard/balance.ts'),
    route('dashboard/notifications', 'routes/dashboard/notifications.tsx'),
    // Exports run as jobs (ADR 0031): the user's exports of 7 days, and one export's progress and file.
    route('dashboard/exports', 'routes/dashboard/exports.tsx'),
    route('dashboard/exports/:id', 'routes/dashboard/export-job.tsx'),
    // Opening a notification: marked read, then on to the page it announces.
    route('dashboard/notifications/:id', 'routes/dashboard/notification.ts'),
    route('dashboard/settings/profile', 'routes/settings/profile.tsx'),
    route('dashboard/settings/security', 'routes/settings/security.tsx'),
    route('dashboard/settings/interface', 'routes/settings/interface.tsx'),
    route('dashboard/settings/notifications', 'routes/settings/notifications.tsx'),
    route('dashboard/settings/contacts', 'routes/settings/contacts.tsx'),
    route('dashboard/settings/table-views', 'routes/settings/table-views.tsx'),
    // API keys, limits and usage (ADR 0020).
    route('dashboard/settings/api', 'routes/settings/api.tsx'),
    route('account/email/confirm/:code', 'routes/account/email-confirm.tsx'),
    route('account/sign-up', 'routes/account/sign-up.tsx'),
    route('account/activation/:code', 'routes/account/activation.tsx'),
    route('account/login', 'routes/account/login.tsx'),
    route('account/sign-out', 'routes/account/sign-out.tsx'),
    route('account/password/recovery', 'routes/account/password-recovery.tsx'),
    route('account/password/recovery/:code', 'routes/account/password-reset.tsx'),
    // Help, info pages and support (ADR 0021).
    route('info', 'routes/info/help.tsx'),
    route('info/sections/:ref', 'routes/info/topic.tsx', { id: 'kb-section' }),
    route('info/topics/:ref', 'routes/info/topic.tsx', { id: 'kb-topic' }),
    route('info/pages/:ref', 'routes/info/topic.tsx', { id: 'kb-page' }),
    route('info/contact-us', 'routes/info/contact-us.tsx'),
    route('info/cookie-settings', 'routes/info/cookie-settings.tsx'),
    route('info/legal-notice', 'routes/info/legal-notice.tsx'),
    // Bulk data: daily snapshots and change files (ADR 0036).
    route('info/bulk-data', 'routes/info/bulk-data.tsx'),
    route('dashboard/support', 'routes/support/tickets.tsx'),
    route('dashboard/support/topics/:number', 'routes/support/ticket.tsx'),
    route('support-desk', 'routes/support/desk.tsx'),
    route('support-desk/topics/:id', 'routes/support/desk-ticket.tsx'),
    // ---- people (ADR 0022): a person's page (spec §2) and the people search ----
    route('members/details/:name/:id', 'routes/members/details.tsx'),
    route('members/search', 'routes/members/search.tsx'),
    // Billing (docs/decisions/0019-billing.md): prices, orders and their checkout, subscriptions.
    route('info/pricing', 'routes/info/pricing.tsx'),
    route('dashboard/orders', 'routes/billing/orders.tsx'),
    route('dashboard/orders/:number/checkout', 'routes/billing/checkout.tsx'),
    route('dashboard/subscriptions', 'routes/billing/subscriptions.tsx'),
    route('*', 'routes/not-found.tsx'),
  ]),
] satisfies RouteConfig;
