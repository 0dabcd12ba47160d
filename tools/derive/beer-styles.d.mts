// Types of the parts of beer-styles.mjs that tests import.
export function parseCsv(text: string): Record<string, string>[];
export function slug(s: string): string;
