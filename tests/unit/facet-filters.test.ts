import { describe, expect, it } from 'vitest';
import { type FilterTree, parseFilterTree, urlFilters } from '../../core/search/filter-tree.ts';
import { sectionById } from '../../core/sections/sections.ts';

// How facets read nested filters (ADR 0033): the leaves a tree ANDs at its top are filters as the
// GET's (a facet leaves its own out); what else the tree says holds for every facet.

const vessels = sectionById('vessels')!;
const tree = (json: unknown): FilterTree => {
  const parsed = parseFilterTree(vessels, json);
  if (!parsed.ok) throw new Error(parsed.errors[0].message);
  return parsed.tree;
};
const names = (state: ReturnType<typeof urlFilters>) => state.filters.map((f) => `${f.field}:${f.op}`);

describe('urlFilters', () => {
  it('takes a lone leaf and the leaves of nested alls as URL filters, leaving no tree', () => {
    expect(urlFilters({ filters: [], tree: tree({ company_status: '1' }) })).toEqual({
      filters: [{ field: 'company_status', keys: [], op: 'eq', values: ['1'] }],
    });
    const flat = urlFilters({
      filters: [],
      tree: tree({
        all: [{ company_status: '1' }, { all: [{ 'gross_tonnage:from': '5' }, { vessel_type: 'tanker' }] }],
      }),
    });
    expect(names(flat)).toEqual(['company_status:eq', 'gross_tonnage:from', 'vessel_type:eq']);
    expect(flat.tree).toBeUndefined();
  });

  it('keeps any, not and a second leaf of the same parameter in the tree', () => {
    const split = urlFilters({
      filters: [],
      tree: tree({
        all: [
          { company_status: '1' },
          { company_status: '2' },
          { any: [{ vessel_type: 'tanker' }, { vessel_type: 'tug' }] },
          { not: { company_size: 'small' } },
          { 'gross_tonnage:from': '5' },
        ],
      }),
    });
    expect(names(split)).toEqual(['company_status:eq', 'gross_tonnage:from']);
    expect(split.filters[0].values).toEqual(['1']);
    expect(split.tree).toEqual({
      all: [
        { leaf: { field: 'company_status', keys: [], op: 'eq', values: ['2'] } },
        tree({ any: [{ vessel_type: 'tanker' }, { vessel_type: 'tug' }] }),
        tree({ not: { company_size: 'small' } }),
      ],
    });
    const either = tree({ any: [{ company_status: '1' }, { vessel_type: 'tanker' }] });
    expect(urlFilters({ filters: [], tree: either })).toEqual({ filters: [], tree: either });
  });

  it('leaves a state without a tree as it is', () => {
    const filters = [{ field: 'vessel_type', keys: [], op: 'eq' as const, values: ['tanker'] }];
    expect(urlFilters({ filters })).toEqual({ filters });
  });
});
