// What a passive run judges with: the API's contract facts, the selected checks, --strict, the secrets, and the
// credentials a recorded request may carry. Nothing is sent, so nothing of an active run's sending (a seed, a budget,
// writes, a timeout, an abort signal) is here; the report states a recorded run (passive/judge.ts).
import { loadContract } from "../../lib/contract/index.js";
import { type ApiProfile, PROFILES } from "../apis.js";
import type { DeclaredRateLimit, JudgeContext } from "../context.js";
import { operationOf } from "../contract/lookup.js";
import type { OperationModel } from "../model/cases.js";
import { operationModel } from "../plan/cases.js";
import type { Secrets } from "../report/secrets.js";

export class RecordedContext implements JudgeContext {
  readonly profile: ApiProfile;
  readonly declaredRateLimit: DeclaredRateLimit | undefined;
  private readonly models = new Map<string, OperationModel>();

  constructor(
    readonly options: JudgeContext["options"],
    readonly secrets: Secrets,
  ) {
    this.profile = PROFILES[options.api];
    this.declaredRateLimit = loadContract(options.api).document.info["x-rate-limit"] as DeclaredRateLimit | undefined;
  }

  model(operationId: string): OperationModel {
    let model = this.models.get(operationId);
    if (!model) {
      model = operationModel(operationOf(this.options.api, operationId));
      this.models.set(operationId, model);
    }
    return model;
  }
}
