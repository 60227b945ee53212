import { z } from 'zod';
const Q = z.strictObject({
  count: z.coerce.number().int().min(1).max(100).default(20).describe('page size'),
  sections: z.string().transform((s) => s.split('|')).optional(),
  lang: z.enum(['en', 'de', 'fr']).default('en'),
  pid: z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().max(5)).optional(),
});
console.log(JSON.stringify(z.toJSONSchema(Q, { io: 'input', target: 'draft-2020-12' }), null, 1));
const Ref = z.object({ id: z.number().int(), uri: z.string(), name: z.string() }).meta({ id: 'RefLink', description: 'a link' });
const Item = z.object({ kind: Ref.nullable(), jur: Ref, x: z.string().nullable() });
const reg = z.registry();
console.log(JSON.stringify(z.toJSONSchema(z.object({ data: z.array(Item) }), { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` }), null, 1));
const r = Q.safeParse({ count: '0', bogus: '1', sections: ['a', 'b'] });
console.log(JSON.stringify(r.error?.issues));
console.log(JSON.stringify(Q.safeParse({ count: 'abc' }).error?.issues));
console.log(JSON.stringify(Q.safeParse({ count: '' }).error?.issues));
