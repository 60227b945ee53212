import { fileURLToPath } from 'node:url';

// The real registry files the importer tests read as they are (../shared/fixtures/README.md).
export const REGISTRY_FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));
