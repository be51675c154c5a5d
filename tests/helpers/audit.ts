/** What the audit tests read of audit.json. */
export interface AuditFile {
  results: {
    mechanism: string;
    accountant: string | null;
    kappa: number;
    xi: number;
    d: number;
    delta: number | null;
    verdict: string;
    tail: number | null;
    tail_ci: [number, number] | null;
    epsilon_lb: number;
    samples: number;
  }[];
}
