// The order Vitest starts test files in (vitest.config.ts `sequence.sequencer`): Vitest's own
// (a group after another, failed and longer files first when it has timed them before, larger
// files first when it has not), except that the unit tier goes before the integration tiers
// instead of after them (Vitest orders tiers by name). Its files are short but one
// (tests/unit/ixbrl-sources.test.ts, a zip of 66,000 entries: about 20 s): started last, it
// ended the run on one worker while the other had nothing left; started first, it runs beside the
// integration files, and the run ends on their smallest files, which pack tightly (ADR 0039).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const FIRST = 'unit';

export default class UnitFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const order = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    const rank = (spec: TestSpecification) => (spec.project.name === FIRST ? 0 : 1);
    // Array.prototype.sort is stable: within a group and rank, Vitest's order stands.
    return sorted.sort((a, b) => order(a) - order(b) || rank(a) - rank(b));
  }
}
