// The refresh and access tokens an identity run obtained, kept so that the run can revoke them at its end (cleanup.ts),
// also after Ctrl-C. The values stay in memory: they are secrets (the run registers each one as it arrives) and no
// report shows them; what the report shows of them is their kind, how many, and what became of them.

/** The token_type_hint values of RFC 7009 §2.1, the kinds of token a run revokes. */
export type TokenKind = "refresh_token" | "access_token";

export interface IssuedToken {
  kind: TokenKind;
  value: string;
  /** The request that obtained it (its label in the run), for the report. */
  obtainedBy: string;
  /** The client_id of the client it was issued to, when not the run's client (the second client's, revoked as it). */
  clientId?: string;
}

export class IssuedTokens {
  private readonly tokens: IssuedToken[] = [];

  /** Notes the refresh and access token of a token response, once each; `clientId` the client that asked for it. */
  noteResponse(response: Record<string, unknown> | undefined, obtainedBy: string, clientId?: string): void {
    for (const kind of ["refresh_token", "access_token"] as const) {
      const value = response?.[kind];
      if (typeof value === "string" && value && !this.tokens.some((t) => t.value === value))
        this.tokens.push({ kind, value, obtainedBy, ...(clientId ? { clientId } : {}) });
    }
  }

  /** Refresh tokens first: revoking one may revoke the access tokens of its grant too (RFC 7009 §2.1). */
  get all(): IssuedToken[] {
    return [...this.tokens].sort((a, b) => Number(b.kind === "refresh_token") - Number(a.kind === "refresh_token"));
  }
}
