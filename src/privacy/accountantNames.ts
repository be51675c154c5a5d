/** The LSHRR accountants' names, apart from their code: the CLI's help lists them without loading it. */
export const ACCOUNTANT_NAMES = ['paper', 'exact', 'theorem', 'naive'] as const;
export type AccountantName = (typeof ACCOUNTANT_NAMES)[number];
export const DEFAULT_ACCOUNTANT: AccountantName = 'paper';
