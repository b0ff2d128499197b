// Where the identity sandbox serves each endpoint: read from the identity bundle by operationId, so no endpoint
// path is written outside specs/ (oidc-provider's `routes` setting, the sandbox's own dispatch and the tests).
import { loadContract, type OperationId } from "../../lib/contract/index.js";

/** oidc-provider's route names and the identity operations that are their endpoints. */
const ROUTE_OPERATIONS = {
  authorization: "authorize",
  token: "exchangeToken",
  userinfo: "getUserInfo",
  jwks: "getJwks",
  end_session: "logout",
} as const satisfies Record<string, OperationId<"identity">>;

export type IdentityRoutes = { [route in keyof typeof ROUTE_OPERATIONS]: string } & {
  /** Discovery; oidc-provider always serves it at this path, the contract documents it there. */
  discovery: string;
};

/** The endpoint paths of specs/identity.yaml, by oidc-provider route name. */
export function identityRoutes(): IdentityRoutes {
  const identity = loadContract("identity");
  const path = (operationId: OperationId<"identity">) => identity.operation(operationId).path;
  return {
    authorization: path(ROUTE_OPERATIONS.authorization),
    token: path(ROUTE_OPERATIONS.token),
    userinfo: path(ROUTE_OPERATIONS.userinfo),
    jwks: path(ROUTE_OPERATIONS.jwks),
    end_session: path(ROUTE_OPERATIONS.end_session),
    discovery: path("getOpenIdConfiguration"),
  };
}
