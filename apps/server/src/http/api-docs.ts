import {
  accountCalls,
  adminCalls,
  analyticsCalls,
  CallCatalogue,
  type CallDefinition,
  type CallName,
  catalogueCalls,
  checkoutCalls,
  clipCalls,
  contentCalls,
  controlRoomCalls,
  flashDealCalls,
  flashDealStudioCalls,
  interactionCalls,
  liveCalls,
  mailCalls,
  moderationCalls,
  operatorCalls,
  orderCalls,
  premiereCalls,
  ReadCatalogue,
  restreamCalls,
  searchCalls,
  settingsCalls,
  showCalls,
  staffCalls,
  studioClipCalls,
  trackingCalls,
} from '@vitrine/protocol';
import { z } from 'zod';

/**
 * docs/api.md's call reference, rendered from the call catalogue and the read catalogue. The
 * part between the markers is generated (`npm run docs:api`); the prose around it is written by
 * hand. api-docs.test.ts fails when the file is not what the catalogues render.
 */
export const GENERATED_START =
  '<!-- generated from packages/protocol by `npm run docs:api`: do not edit by hand -->';
export const GENERATED_END = '<!-- end of generated part -->';

/** The reference's sections: one per area file of the call declarations, each in its file's order. */
export const CALL_GROUPS: readonly { title: string; names: readonly string[] }[] = [
  { title: 'Accounts', names: Object.keys(accountCalls) },
  { title: 'Live interaction', names: Object.keys(interactionCalls) },
  { title: 'Stores', names: Object.keys(contentCalls) },
  { title: 'Cart, checkout, orders and payment', names: Object.keys(checkoutCalls) },
  { title: 'Flash deals', names: Object.keys(flashDealCalls) },
  { title: 'Search across shows', names: Object.keys(searchCalls) },
  { title: 'Clips of shows', names: Object.keys(clipCalls) },
  { title: 'Tracking', names: Object.keys(trackingCalls) },
  { title: 'Admin key: stores, campaigns, shows and cues under chosen ids', names: Object.keys(adminCalls) },
  { title: 'Studio: sign-in, staff and audit log', names: Object.keys(staffCalls) },
  { title: 'Studio: store settings', names: Object.keys(settingsCalls) },
  { title: 'Studio: catalogue', names: Object.keys(catalogueCalls) },
  { title: 'Studio: shows', names: Object.keys(showCalls) },
  { title: 'Studio: live streams', names: Object.keys(liveCalls) },
  { title: 'Studio: premieres', names: Object.keys(premiereCalls) },
  { title: 'Studio: clips', names: Object.keys(studioClipCalls) },
  { title: 'Studio: restreaming', names: Object.keys(restreamCalls) },
  { title: 'Studio: chat moderation', names: Object.keys(moderationCalls) },
  { title: 'Studio: control room', names: Object.keys(controlRoomCalls) },
  { title: 'Studio: flash deals', names: Object.keys(flashDealStudioCalls) },
  { title: 'Studio: orders', names: Object.keys(orderCalls) },
  { title: 'Studio: mail delivery', names: Object.keys(mailCalls) },
  { title: 'Studio: analytics', names: Object.keys(analyticsCalls) },
  { title: 'First run and getting back in', names: Object.keys(operatorCalls) },
];

const AUTH_TEXT = {
  anonymous: 'anyone',
  'optional-viewer': 'anyone; a bearer id token, if sent, names the caller',
  viewer: 'bearer id token',
  admin: 'admin key',
} as const;

/** Replaces the generated part of `document` (docs/api.md) with what the catalogues render now. */
export function withGeneratedReference(document: string): string {
  const start = document.indexOf(GENERATED_START);
  const end = document.indexOf(GENERATED_END);
  if (start < 0 || end < start) throw new Error('docs/api.md lacks the markers of its generated part');
  return `${document.slice(0, start)}${renderReference()}${document.slice(end)}`;
}

/** The generated part: every call by group, then the named reads; markers included but the end one. */
export function renderReference(): string {
  const lines = [GENERATED_START, ''];
  for (const group of CALL_GROUPS) {
    lines.push(`### ${group.title}`, '');
    for (const name of group.names) lines.push(...renderCall(name as CallName), '');
  }
  lines.push(
    '### Named reads (`POST /reads/{name}`, or `GET /reads/{name}?params={JSON}` with an ETag; anyone)',
    '',
  );
  lines.push('| Read | Params | Answer |', '|---|---|---|');
  for (const [name, read] of Object.entries(ReadCatalogue)) {
    lines.push(`| \`${name}\` | \`${shape(read.params, 'input')}\` | \`${shape(read.result, 'output')}\` |`);
  }
  lines.push('');
  return lines.join('\n');
}

function renderCall(name: CallName): string[] {
  const call: CallDefinition = CallCatalogue[name];
  const auth =
    typeof call.auth === 'object'
      ? `store staff, ${call.auth.staff} or above (bearer id token), or the admin key`
      : AUTH_TEXT[call.auth];
  const lines = [
    `#### \`${name}\`: \`${call.method} ${call.path}\``,
    '',
    call.summary,
    '',
    `- Auth: ${auth}`,
  ];
  if (call.query) lines.push(`- Query: \`${shape(call.query, 'input')}\``);
  if (call.request) {
    const raw = call.rawBody
      ? ' (raw bytes, verified before parsing)'
      : call.bodyOptional
        ? ' (may be left out)'
        : '';
    lines.push(`- Body${raw}: \`${shape(call.request, 'input')}\``);
  }
  if (call.binaryBody)
    lines.push(
      `- Body: a file (${call.binaryBody.mediaTypes.join(', ')}), at most ${call.binaryBody.maxBytes} bytes, its type as content-type${call.binaryBody.streamed ? ' (streamed to disk as it arrives)' : ''}`,
    );
  const status = call.status ?? 200;
  lines.push(`- Answer ${status}: ${call.response ? `\`${shape(call.response, 'output')}\`` : 'no body'}`);
  return lines;
}

/** A JSON Schema node as zod writes it (`true`/`false` stand for any and no value). */
type JsonSchema = z.core.JSONSchema._JSONSchema;

/** A schema as a short TypeScript-like type: nested objects past two levels are `{…}`. */
function shape(schema: z.ZodType, io: 'input' | 'output'): string {
  return render(z.toJSONSchema(schema, { io, unrepresentable: 'any' }), 0);
}

const MAX_DEPTH = 2;
const MAX_ENUM_VALUES = 6;

function render(schema: JsonSchema, depth: number): string {
  if (typeof schema === 'boolean') return schema ? 'unknown' : 'never';
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map((option) => render(option, depth)).join(' | ');
  if (schema.allOf) return schema.allOf.map((part) => render(part, depth)).join(' & ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) {
    const values = schema.enum.slice(0, MAX_ENUM_VALUES).map((value) => JSON.stringify(value));
    return schema.enum.length > MAX_ENUM_VALUES ? `${values.join(' | ')} | …` : values.join(' | ');
  }
  if (Array.isArray(schema.type))
    return schema.type.map((type) => render({ ...schema, type }, depth)).join(' | ');
  switch (schema.type) {
    case 'array': {
      const item = schema.items && !Array.isArray(schema.items) ? render(schema.items, depth) : 'unknown';
      return item.includes(' ') && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
    }
    case 'object':
      return renderObject(schema, depth);
    case 'integer':
    case 'number':
    case 'string':
    case 'boolean':
    case 'null':
      return schema.type;
    default:
      return 'unknown';
  }
}

function renderObject(schema: z.core.JSONSchema.JSONSchema, depth: number): string {
  const properties = Object.entries(schema.properties ?? {});
  const rest = schema.additionalProperties;
  if (properties.length === 0 && typeof rest === 'object') return `{ [key]: ${render(rest, depth + 1)} }`;
  if (properties.length === 0) return '{}';
  if (depth >= MAX_DEPTH) return '{…}';
  const required = new Set(schema.required ?? []);
  const fields = properties.map(
    ([key, value]) => `${key}${required.has(key) ? '' : '?'}: ${render(value, depth + 1)}`,
  );
  return `{ ${fields.join(', ')} }`;
}
