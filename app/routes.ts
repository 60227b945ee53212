import { index, type RouteConfig, route } from '@react-router/dev/routes';

// Every page exists in English (no prefix) and under /de and /fr: one optional :lang segment.
export default [
  route(':lang?', 'routes/locale.tsx', [
    index('routes/home.tsx'),
    route('companies/search', 'routes/companies/search.tsx', { id: 'companies-search' }),
    route('companies/search/f/*', 'routes/companies/search.tsx', { id: 'companies-search-filtered' }),
    route('companies/details/:uri', 'routes/companies/details.tsx'),
    route('companies/directories/jurisdictions', 'routes/companies/jurisdictions.tsx'),
    route('companies/directories/industries', 'routes/companies/industries.tsx', { id: 'industries' }),
    route('companies/directories/industries/f/:industry', 'routes/companies/industries.tsx', { id: 'industry' }),
    route('*', 'routes/not-found.tsx'),
  ]),
] satisfies RouteConfig;
