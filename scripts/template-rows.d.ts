/** See template-rows.js: a node type's dialog template with its `<!-- include: <row> -->` lines filled in. */
export function expandTemplate(template: string, type: string): string;
