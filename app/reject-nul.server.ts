import { data, type MiddlewareFunction } from 'react-router';

/**
 * A page form's field holding a NUL character is a 400 naming the field: PostgreSQL stores no NUL
 * in text (the path, query and JSON bodies are checked in server/plugins/errors.ts, before React
 * Router; a form's body is read here, where the form is parsed anyway).
 */
export const rejectNulInForm: MiddlewareFunction<Response> = async ({ request }, next) => {
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('form-urlencoded') || type.includes('multipart/form-data')) {
    const form = await request
      .clone()
      .formData()
      .catch(() => {
        throw data({ message: 'the form cannot be read' }, { status: 400 });
      });
    for (const [name, value] of form) {
      if (name.includes('\0') || (typeof value === 'string' && value.includes('\0'))) {
        const field = name.replaceAll('\0', '\\0');
        throw data({ message: `${field} has a NUL character` }, { status: 400 });
      }
    }
  }
  return next();
};
