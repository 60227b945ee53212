import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { bodsStatements } from '../../core/ownership/bods.ts';
import type { AppServices } from '../../core/services.ts';
import { type ApiRoutes, getRoute, intParam } from './route.ts';

// A company's ownership as Beneficial Ownership Data Standard 0.4 statements (ADR 0038):
// GET /site/data/v1/legal_entities/{id}/ownership answers the JSON array of statements the standard
// defines (entity, person and relationship statements), public like the GLEIF data it comes from.

const StatementSchema = z
  .looseObject({
    statementId: z.string().describe('64 hex characters, stable for the same statement on the same day.'),
    statementDate: z.string(),
    publicationDetails: z.looseObject({ publicationDate: z.string(), bodsVersion: z.string() }),
    source: z.looseObject({ type: z.array(z.string()), description: z.string() }).optional(),
    declarationSubject: z.string().describe('The record id of the company asked about: `registra-company-{id}`.'),
    recordId: z.string(),
    recordType: z.enum(['entity', 'person', 'relationship']),
    recordStatus: z.enum(['new', 'updated', 'closed']),
    recordDetails: z.record(z.string(), z.unknown()).describe('As BODS 0.4 defines it for the record type.'),
  })
  .meta({ id: 'BodsStatement' });

export function registerOwnershipRoutes(api: FastifyInstance, routes: ApiRoutes, services: AppServices): void {
  const { db } = services;
  getRoute(
    api,
    routes,
    {
      url: '/site/data/v1/legal_entities/:id/ownership',
      operationId: 'getLegalEntityOwnership',
      summary: 'A company’s ownership as BODS 0.4 statements',
      description:
        'Its direct parent and the chain up (GLEIF Level 2, persons with significant control holding a majority), ' +
        'the ultimate parent GLEIF states, its beneficial owners (UK PSC register) with their natures of control and ' +
        'share bands, and GLEIF reporting exceptions (an unspecified interested party with its reason), as a JSON ' +
        'array of Beneficial Ownership Data Standard 0.4 statements. A link two sources state is one relationship ' +
        'statement naming both sources.',
      tags: ['Data'],
      params: z.strictObject({ id: intParam('id') }),
      query: z.strictObject({}),
      response: z.array(StatementSchema),
      errors: [404],
    },
    async (_query, { path }) => bodsStatements(db, path.id),
  );
}
