// The scenarios of the OpenID Connect flows (conformance/identity/), one type each, discriminated by `name`.
export interface IdentityScenario {
  family: "identity";
  name: "none yet";
}
