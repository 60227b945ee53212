export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  /** Too few credits for a paid action (docs/decisions/0019-billing.md). */
  | 'payment_required'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

/** The one error type of the product: a code (mapped to an HTTP status), a readable message, and details. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;
  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
}

export function httpStatus(code: ErrorCode): number {
  switch (code) {
    case 'bad_request':
      return 400;
    case 'unauthorized':
      return 401;
    case 'forbidden':
      return 403;
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'payment_required':
      return 402;
    case 'rate_limited':
      return 429;
    case 'unavailable':
      return 503;
    case 'internal':
      return 500;
  }
}
