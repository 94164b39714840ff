/** Minimal types for the parts of autocannon 8 that bench/api-scale.ts uses (no @types package needed). */
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      overallRate?: number;
      requests?: Array<{ method?: string; path?: string; setupRequest?: (req: Record<string, unknown>) => Record<string, unknown> }>;
    }
    interface Histogram {
      average: number;
      max: number;
      total: number;
      p50: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      non2xx: number;
      errors: number;
      timeouts: number;
    }
  }
  function autocannon(opts: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
