import fc from 'fast-check';
import { budgetScenario, checkBudgetAcrossResumes } from '../../../support/budgetAcrossResumes';

describe('property: the request limit holds across the run and every resume, and the journal tells what the model saw', () => {
  it('random agent plans, a retrying client (replies, transient and final failures, slow calls), limits, kills, stops, full disks and resumes', async function () {
    this.timeout(60_000);
    await fc.assert(fc.asyncProperty(budgetScenario, checkBudgetAcrossResumes), { numRuns: Number(process.env.PROPERTY_RUNS ?? 100) });
  });
});
