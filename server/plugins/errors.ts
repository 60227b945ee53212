import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { AppError, httpStatus } from '../../core/errors/app-error.ts';

export type ErrorBody = { error: { code: string; message: string; details?: unknown } };

/** One error handler: every failure becomes `{ error: { code, message, details } }`; no stack traces leak. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError | Error, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(httpStatus(error.code)).send(body(error.code, error.message, error.details));
    }
    if (error instanceof ZodError) {
      const issue = error.issues[0];
      const parameter = issue?.path.join('.') ?? '';
      return reply.status(400).send(
        body('bad_request', `${parameter ? `${parameter}: ` : ''}${issue?.message ?? 'invalid request'}`, {
          issues: error.issues.map((i) => ({ parameter: i.path.join('.'), message: i.message })),
        }),
      );
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      return reply.status(400).send(body('bad_request', fastifyError.message, { validation: fastifyError.validation }));
    }
    if (fastifyError.statusCode && fastifyError.statusCode < 500) {
      return reply.status(fastifyError.statusCode).send(body('bad_request', fastifyError.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(body('internal', 'Something went wrong on our side. Please try again.'));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(body('not_found', `No route ${request.method} ${request.url.split('?')[0]}`));
  });
}

function body(code: string, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}
