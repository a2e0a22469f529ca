import test from 'ava';
import { pageDoc, WebPageSchema } from '../mocks/kit/web/corpus.js';
import { extractAcross, extractStructured } from '../mocks/kit/web/extract.js';

// Structured extraction without a model (mocks/kit/web/extract.ts): fields come only from what a
// page states, typed by the schema; a field the page never states is null.

const EPOCH = Date.parse('2025-03-01T00:00:00Z');
const fleet = pageDoc(WebPageSchema.parse({
  url: 'https://ferries.example/fleet', title: 'Fleet', markdown: 'Our ships.\n\n- **Operator:** Harrow Ferries\n- Founded: 1987\n- Night sailings: yes\n\n| Vessel | Built | Passengers |\n|---|---|---|\n| MV Alder | 2009 | 420 |\n| MV Tern | 2014 | 1,350 |',
  published: '2025-02-01', author: 'Fleet office',
}), EPOCH);
const other = pageDoc(WebPageSchema.parse({ url: 'https://ferries.example/about', title: 'About', markdown: 'Routes: Tern Island, Gull Point; Whinny Holm.\n\nHeadquarters: Port Alder.' }), EPOCH);

test('a schema is filled from labelled lines and tables, typed; what the page lacks is null', (t) => {
  const got = extractStructured(fleet, {
    type: 'object',
    properties: {
      operator: { type: 'string' },
      foundedYear: { type: 'integer', description: 'founded' },
      nightSailings: { type: 'boolean' },
      vessels: { type: 'array', items: { type: 'object', properties: { vessel: { type: 'string' }, built: { type: 'integer' }, passengers: { type: 'number' } } } },
      ceo: { type: 'string' },
      author: { type: 'string' },
    },
  });
  t.deepEqual(got, {
    operator: 'Harrow Ferries', foundedYear: 1987, nightSailings: true,
    vessels: [{ vessel: 'MV Alder', built: 2009, passengers: 420 }, { vessel: 'MV Tern', built: 2014, passengers: 1350 }],
    ceo: null, author: 'Fleet office',
  });
});

test('without a schema, the statements the prompt names; across pages, the first page that states a field wins and arrays join', (t) => {
  t.deepEqual(extractStructured(fleet, undefined, 'when was it founded'), { founded: '1987' });
  const { data, sources } = extractAcross([fleet, other], { type: 'object', properties: { routes: { type: 'array', items: { type: 'string' } }, headquarters: { type: 'string' }, operator: { type: 'string' } } });
  t.deepEqual(data, { routes: ['Tern Island', 'Gull Point', 'Whinny Holm'], headquarters: 'Port Alder', operator: 'Harrow Ferries' });
  t.deepEqual(sources, { routes: ['https://ferries.example/about'], headquarters: ['https://ferries.example/about'], operator: ['https://ferries.example/fleet'] });
});
