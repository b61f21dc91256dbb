// Rewrites the zod-free route tables of packages/protocol (*-routes.generated.ts) from the call
// declarations; run after adding a call or changing its method, path or auth.
import { readFileSync, writeFileSync } from 'node:fs';
import { ROUTE_TABLES, renderRouteTable } from '../apps/server/src/http/call-route-tables.ts';

for (const table of ROUTE_TABLES) {
  const path = new URL(`../${table.file}`, import.meta.url);
  const before = readFileSync(path, 'utf8');
  const after = renderRouteTable(table);
  writeFileSync(path, after);
  console.log(before === after ? `${table.file} was up to date` : `${table.file} regenerated`);
}
