/**
 * The client judge: observed exchanges in, per-client findings out, each naming its x-client-rules
 * rule with the requests that show it. Clients are told apart by source address (the User-Agent
 * is a label). Times come from the observations only, so a recording is judged as it happened.
 */
import type { Spec } from "../../src/spec/spec.ts";
import { plural } from "../reporters/plural.ts";
import { ClientState } from "./client-state.ts";
import { JudgeContext, type KnownAccount } from "./context.ts";
import { readClientRules } from "./rules.ts";
import type { ClientObservation, ClientsReport } from "./types.ts";

/** Clients followed at once: a proxy facing the Internet sees many; past this they are counted, not judged. */
export const MAX_CLIENTS = 1000;

export interface ClientJudgeOptions {
  /** Accounts the observer knows (the mock's): a uid its key does not belong to is then named. */
  accounts?: KnownAccount[];
  maxClients?: number;
}

export class ClientJudge {
  private readonly ctx: JudgeContext;
  private readonly clients = new Map<string, ClientState>();
  private readonly untracked = new Set<string>();
  private untrackedCount = 0;
  private observed = 0;

  constructor(
    readonly spec: Spec,
    private readonly options: ClientJudgeOptions = {},
  ) {
    this.ctx = new JudgeContext(spec, readClientRules(spec), options.accounts);
  }

  get rules() {
    return this.ctx.rules;
  }

  observe(o: ClientObservation): void {
    this.observed++;
    let state = this.clients.get(o.client);
    if (!state) {
      if (this.clients.size >= (this.options.maxClients ?? MAX_CLIENTS)) {
        if (this.untracked.size < MAX_CLIENTS) this.untracked.add(o.client);
        else this.untrackedCount++;
        return;
      }
      state = new ClientState(o.client);
      this.clients.set(o.client, state);
    }
    state.observe(o, this.ctx);
  }

  report(): ClientsReport {
    const clients = [...this.clients.values()].map((c) => c.report(this.ctx));
    const failed = clients.filter((c) => c.verdict === "failed").length;
    const verdict = clients.length === 0 ? "incomplete" : failed > 0 ? "failed" : "passed";
    const headline =
      verdict === "incomplete"
        ? "incomplete: no client was observed"
        : verdict === "failed"
          ? `failed: ${plural(failed, "client")} of ${clients.length} with findings`
          : `passed: ${plural(clients.length, "client")}, no finding`;
    return {
      kind: "dealkit-clients",
      verdict,
      headline,
      observed: this.observed,
      clients,
      rules: this.ctx.rules.rules,
      untracked: this.untracked.size + this.untrackedCount,
    };
  }
}
