/** What the audit tests read of audit.json. */
export interface AuditFile {
  results: {
    mechanism: string;
    base: string;
    tests: string[];
    accountant: string | null;
    kappa: number;
    xi: number;
    d: number;
    delta: number | null;
    verdict: string;
    tail: number | null;
    tail_ci: [number, number] | null;
    epsilon_lb: number | null;
    confidence: number | null;
    epsilon_ceiling: number | null;
    detectable_inflation: number | null;
    detectable_by: string | null;
    law_direction: string | null;
    samples_needed: number | string | null;
    samples_needed_extrapolated: boolean | null;
    realized: number | string | null;
    realized_lb: number | null;
    allowed: number | string | null;
    reason: string;
    /** LSHRR: "Infinity" (a string in JSON) when unbounded */
    epsilon_bit: number | string | null;
    exact_tail: number | null;
    realized_tail: number | null;
    samples: number;
  }[];
}
