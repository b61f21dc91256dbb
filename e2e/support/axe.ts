import axe from 'axe-core';
import type { Page } from 'playwright-core';

export interface Finding {
  id: string;
  impact: string | null | undefined;
  nodes: string[];
}

/** axe-core's violations of impact moderate or worse on the page as it is now. */
export async function axeFindings(page: Page): Promise<Finding[]> {
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
    }));
  });
  return violations.filter((violation) => violation.impact !== 'minor');
}
